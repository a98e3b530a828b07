package dev.rea.core.internal.format;

import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.detect.DetectedFormat;
import dev.rea.core.internal.evidence.AssembledHeader;
import java.util.List;
import java.util.Objects;

/**
 * A validated header: everything a format reader established, before identity and digests are
 * added. Produced only after the whole header validated, so nothing unvalidated is ever exposed.
 *
 * @param format the detected format
 * @param headerLength header bytes (GGUF: to the end of the tensor directory; safetensors: 8 + N)
 * @param facts per-format facts
 * @param metadata metadata rows in their collection order
 * @param tensors tensor rows in their collection order
 * @param limitations what could not be established
 * @param warnings noteworthy facts
 */
public record ParsedHeader(
    DetectedFormat format,
    long headerLength,
    FormatFacts facts,
    List<MetadataRow> metadata,
    List<TensorRow> tensors,
    List<Limitation> limitations,
    List<Warning> warnings) {
  public ParsedHeader {
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(facts, "facts");
    metadata = List.copyOf(metadata);
    tensors = List.copyOf(tensors);
    limitations = List.copyOf(limitations);
    warnings = List.copyOf(warnings);
  }

  /** @return the header of {@code format} whose record parts the assembler built */
  public static ParsedHeader of(DetectedFormat format, AssembledHeader parts) {
    return new ParsedHeader(
        format,
        parts.headerLength(),
        parts.facts(),
        parts.metadata(),
        parts.tensors(),
        parts.limitations(),
        parts.warnings());
  }
}
