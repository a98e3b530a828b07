/**
 * Text helpers the public API shares: strict UTF-8 validation ({@link dev.rea.core.text.Utf8}).
 */
@NullMarked
package dev.rea.core.text;

import org.jspecify.annotations.NullMarked;
