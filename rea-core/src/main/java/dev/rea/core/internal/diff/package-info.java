/**
 * {@code rea diff}: the differences between two Evidence records or sets (CONTRACT section 11).
 */
@NullMarked
package dev.rea.core.internal.diff;

import org.jspecify.annotations.NullMarked;
