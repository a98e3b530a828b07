package dev.rea.core.internal.evidence;

import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.Warning;
import java.util.List;
import java.util.Objects;

/**
 * The parts of an Evidence record that a header's declarations make, as {@link RecordAssembler}
 * built them: the rows, the notes and the format facts (CONTRACT section 3).
 *
 * @param headerLength bytes of the header these parts cover: the whole header, or for a header
 *     read in part the offset just after its last completed declaration
 * @param facts the format facts
 * @param metadata metadata rows in the record's order
 * @param tensors tensor rows in the record's order
 * @param limitations what could not be established
 * @param warnings noteworthy facts
 */
public record AssembledHeader(
    long headerLength,
    FormatFacts facts,
    List<MetadataRow> metadata,
    List<TensorRow> tensors,
    List<Limitation> limitations,
    List<Warning> warnings) {
  public AssembledHeader {
    Objects.requireNonNull(facts, "facts");
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(tensors, "tensors");
    Objects.requireNonNull(limitations, "limitations");
    Objects.requireNonNull(warnings, "warnings");
  }
}
