package dev.rea.core.evidence;

import java.math.BigInteger;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Derived totals for one type label (CONTRACT section 3, {@code types}).
 *
 * @param type the type label, as in {@link TensorRow#type()}
 * @param typeId the numeric ggml type ID for GGUF (unsigned 32-bit); null for safetensors
 * @param tensorCount how many tensors carry this label
 * @param parameterCount the sum of their parameter counts, in elements
 * @param byteLength the sum of their byte lengths, or null when any of them is unknown
 */
public record TypeRow(
    String type,
    @Nullable Long typeId,
    int tensorCount,
    BigInteger parameterCount,
    @Nullable BigInteger byteLength) {
  public TypeRow {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(parameterCount, "parameterCount");
  }
}
