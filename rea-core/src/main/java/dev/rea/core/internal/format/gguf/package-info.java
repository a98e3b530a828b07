/**
 * GGUF header reader ({@link dev.rea.core.internal.format.gguf.GgufReader}) and REA's ggml tensor type
 * table ({@link dev.rea.core.internal.format.gguf.GgmlTypes}). Rules: specification "Facts and selected
 * queries" and CONTRACT section 8 "GGUF"; upstream differences in {@code
 * shared/notes/gguf-readers.md}.
 */
@NullMarked
package dev.rea.core.internal.format.gguf;

import org.jspecify.annotations.NullMarked;
