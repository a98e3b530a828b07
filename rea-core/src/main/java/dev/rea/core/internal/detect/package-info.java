/**
 * Content detection: which format a file is, from its first bytes, never from its name.
 */
@NullMarked
package dev.rea.core.internal.detect;

import org.jspecify.annotations.NullMarked;
