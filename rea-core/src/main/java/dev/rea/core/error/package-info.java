/**
 * The typed failure {@link dev.rea.core.error.ReaException} and its codes, categories and
 * constraints (CONTRACT section 6).
 */
@NullMarked
package dev.rea.core.error;

import org.jspecify.annotations.NullMarked;
