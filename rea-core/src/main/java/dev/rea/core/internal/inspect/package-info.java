/**
 * One inspection from open to Evidence ({@link
 * dev.rea.core.internal.inspect.ModelInspector}): guarded open, identity checks, reading and
 * hashing.
 */
@NullMarked
package dev.rea.core.internal.inspect;

import org.jspecify.annotations.NullMarked;
