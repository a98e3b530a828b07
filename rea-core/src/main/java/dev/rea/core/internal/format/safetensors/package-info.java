/**
 * safetensors header reader: the 8-byte length and the JSON header, parsed strictly (CONTRACT
 * section 8 "safetensors").
 */
@NullMarked
package dev.rea.core.internal.format.safetensors;

import org.jspecify.annotations.NullMarked;
