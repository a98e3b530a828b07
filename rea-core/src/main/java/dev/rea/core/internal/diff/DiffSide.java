package dev.rea.core.internal.diff;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.Totals;
import dev.rea.core.evidence.TypeRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One side of a comparison (CONTRACT section 11): what a file or a model set declares, with the
 * per-run and per-path fields (observed_at, identity, paths, evidence ids, authentication) kept
 * apart so that they are shown but never compared.
 *
 * @param path the file's or set's path (shown, never compared)
 * @param evidenceId its Evidence's id (shown, never compared)
 * @param format {@code gguf}, {@code safetensors} or, for a set, its kind
 * @param headerSha256 the header digest (shown, never compared: layout-only changes alter it)
 * @param sha256 the full digest, or null when not hashed (shown, never compared)
 * @param facts the format facts by field, in CONTRACT order; values are JSON-ready (String,
 *     Long, Integer or null)
 * @param metadata metadata rows
 * @param tensors tensor rows
 * @param members per tensor row, its member's index in a set, or null for a single file
 * @param types type rows
 * @param totals totals
 */
public record DiffSide(
    String path,
    @Nullable String evidenceId,
    String format,
    @Nullable String headerSha256,
    @Nullable String sha256,
    Map<String, @Nullable Object> facts,
    List<MetadataRow> metadata,
    List<TensorRow> tensors,
    List<@Nullable Integer> members,
    List<TypeRow> types,
    Totals totals) {
  public DiffSide {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(format, "format");
    facts = new LinkedHashMap<>(facts);
    metadata = List.copyOf(metadata);
    tensors = List.copyOf(tensors);
    members = new ArrayList<>(members);
    types = List.copyOf(types);
    Objects.requireNonNull(totals, "totals");
    if (members.size() != tensors.size()) {
      throw new IllegalArgumentException("one member entry per tensor row");
    }
  }

  /** @return the side of one file's record */
  public static DiffSide of(EvidenceRecord r) {
    List<@Nullable Integer> members = new ArrayList<>(r.tensors().size());
    for (int i = 0; i < r.tensors().size(); i++) {
      members.add(null);
    }
    return new DiffSide(
        r.artifact().path(),
        r.evidenceId(),
        r.artifact().format(),
        r.artifact().headerSha256(),
        r.artifact().sha256(),
        facts(r.formatFacts()),
        r.metadata(),
        r.tensors(),
        members,
        r.types(),
        r.totals());
  }

  /** The format facts of CONTRACT section 3 by field, with their JSON values. */
  static Map<String, @Nullable Object> facts(FormatFacts facts) {
    Map<String, @Nullable Object> out = new LinkedHashMap<>();
    if (facts instanceof FormatFacts.Gguf g) {
      out.put("version", g.version());
      out.put("byte_order", g.byteOrder());
      out.put("alignment", g.alignment());
      out.put("alignment_source", g.alignmentSource());
      out.put(
          "tensor_data_offset",
          g.tensorDataOffset() == null ? null : Long.toUnsignedString(g.tensorDataOffset()));
    } else if (facts instanceof FormatFacts.Safetensors s) {
      out.put("json_length", Long.toUnsignedString(s.jsonLength()));
      out.put("data_offset", Long.toUnsignedString(s.dataOffset()));
    }
    return out;
  }
}
