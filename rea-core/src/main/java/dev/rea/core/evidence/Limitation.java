package dev.rea.core.evidence;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Something REA could not establish (CONTRACT section 3, {@code limitations}).
 *
 * @param code stable machine code, e.g. {@code ambiguous_type_id}
 * @param message human explanation
 * @param tensorIndices affected tensor rows, or null
 * @param typeId affected numeric type ID (GGUF: unsigned 32-bit), or null
 * @param candidates candidate names or layouts, or null
 */
public record Limitation(
    String code,
    String message,
    @Nullable List<Integer> tensorIndices,
    @Nullable Long typeId,
    @Nullable List<String> candidates) {
  public Limitation {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
    tensorIndices = tensorIndices == null ? null : List.copyOf(tensorIndices);
    candidates = candidates == null ? null : List.copyOf(candidates);
  }
}
