/**
 * Bounded, hashing reads of untrusted headers ({@link dev.rea.core.internal.io.HeaderInput}),
 * file access and snapshots, atomic writes, and the retained-size budget.
 */
@NullMarked
package dev.rea.core.internal.io;

import org.jspecify.annotations.NullMarked;
