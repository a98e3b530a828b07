package dev.rea.core.evidence;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One tensor declaration (CONTRACT section 3). All {@code long} values here are unsigned 64-bit
 * quantities (compare with {@link Long#compareUnsigned}, print with {@link
 * Long#toUnsignedString(long)}).
 *
 * @param index position in the record's {@code tensors} collection (GGUF directory order,
 *     safetensors name order)
 * @param name the tensor name as declared
 * @param type the type label: a ggml type name, {@code AMBIGUOUS_<id>} or {@code UNKNOWN_<id>}
 *     for GGUF; the dtype as declared for safetensors
 * @param typeId the numeric ggml type ID for GGUF (an unsigned 32-bit value, kept even when
 *     unknown); null for safetensors
 * @param shape dimensions, unsigned; GGUF fastest-first as stored, safetensors in JSON order
 * @param parameterCount product of the dimensions (1 for a scalar), unsigned, in elements
 * @param offset data offset relative to the start of the data section, in bytes
 * @param fileOffset absolute offset in the file, in bytes; null only in a record whose header
 *     was not completed ({@code coverage.header: "partial"}), where the data section's start is
 *     not known
 * @param byteLength derived (GGUF) or declared (safetensors) storage length in bytes; null when
 *     the layout is unknown
 * @param storageValidation whether type and shape were checked against the storage
 */
public record TensorRow(
    int index,
    String name,
    String type,
    @Nullable Long typeId,
    List<Long> shape,
    long parameterCount,
    long offset,
    @Nullable Long fileOffset,
    @Nullable Long byteLength,
    StorageValidation storageValidation) {
  public TensorRow {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    shape = List.copyOf(shape);
    Objects.requireNonNull(storageValidation, "storageValidation");
  }
}
