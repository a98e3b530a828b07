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
 * @param candidatesFittingRanges for a layout limitation ({@code q8_1_layout_ambiguous}, {@code
 *     k_quant_layout_ambiguous}, {@code ambiguous_type_id}) of a complete header: the names of
 *     the candidate layouts under which the listed tensors' declared ranges neither overlap a
 *     later tensor nor run past the end of the file (CONTRACT section 12; names in {@code
 *     docs/gguf.md}); a fact about the declarations, not a choice of layout. Null otherwise
 */
public record Limitation(
    String code,
    String message,
    @Nullable List<Integer> tensorIndices,
    @Nullable Long typeId,
    @Nullable List<String> candidates,
    @Nullable List<String> candidatesFittingRanges) {
  public Limitation {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
    tensorIndices = tensorIndices == null ? null : List.copyOf(tensorIndices);
    candidates = candidates == null ? null : List.copyOf(candidates);
    candidatesFittingRanges =
        candidatesFittingRanges == null ? null : List.copyOf(candidatesFittingRanges);
  }

  /** A limitation without {@code candidates_fitting_ranges}. */
  public Limitation(
      String code,
      String message,
      @Nullable List<Integer> tensorIndices,
      @Nullable Long typeId,
      @Nullable List<String> candidates) {
    this(code, message, tensorIndices, typeId, candidates, null);
  }
}
