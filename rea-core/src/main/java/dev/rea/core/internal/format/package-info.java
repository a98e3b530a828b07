/**
 * What the format readers share: the reader interface, the parsed header and the read
 * context.
 */
@NullMarked
package dev.rea.core.internal.format;

import org.jspecify.annotations.NullMarked;
