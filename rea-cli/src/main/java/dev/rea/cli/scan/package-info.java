/**
 * {@code rea scan}: walks a tree, groups model files into units (single files and sets),
 * inspects them and writes one JSON line per unit, resumable (CONTRACT section 10).
 */
@NullMarked
package dev.rea.cli.scan;

import org.jspecify.annotations.NullMarked;
