/**
 * Model files that the caller opens itself: {@link dev.rea.core.source.SeekableSource} and its
 * {@link dev.rea.core.source.SourceIdentity}, inspected with {@code dev.rea.core.Rea#inspect}.
 */
@NullMarked
package dev.rea.core.source;

import org.jspecify.annotations.NullMarked;
