package dev.rea.core.internal.diff;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.ModelSetRecord;
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
 *     Long, Integer, Boolean or null)
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

  /**
   * The side of a model set (CONTRACT sections 9 and 11): its tensors are every member's rows in
   * member order, each with its member's index; its metadata is the first member's (a GGUF split
   * set keeps the model's metadata there); its facts are the set's kind and member count, each
   * member of a safetensors index's own {@code metadata} as {@code index.<key>} (its value's text,
   * a boolean, or null: {@code index.total_size} is what the index declares of the whole
   * checkpoint), and the first member's facts that do not depend on where data sits ({@link
   * #layoutFreeFacts}); types and totals are the set's.
   *
   * @param set the set record
   * @param members its members' records, in member order
   * @return the side
   * @throws IllegalArgumentException when {@code members} are not as many as the set lists, or
   *     there are none
   */
  public static DiffSide ofSet(ModelSetRecord set, List<EvidenceRecord> members) {
    if (members.isEmpty() || members.size() != set.members().size()) {
      throw new IllegalArgumentException(
          "the set lists " + set.members().size() + " members, " + members.size() + " given");
    }
    List<TensorRow> tensors = new ArrayList<>();
    List<@Nullable Integer> owners = new ArrayList<>();
    for (int i = 0; i < members.size(); i++) {
      for (TensorRow t : members.get(i).tensors()) {
        tensors.add(t);
        owners.add(i);
      }
    }
    EvidenceRecord first = members.get(0);
    return new DiffSide(
        set.set().path(),
        set.evidenceId(),
        first.artifact().format(),
        null,
        null,
        setFacts(set.set().kind(), members.size(), set.set().index(), first.formatFacts()),
        first.metadata(),
        tensors,
        owners,
        set.types(),
        set.totals());
  }

  /**
   * One file's record as a set of one ({@code single_file}, CONTRACT section 9), for comparing a
   * file with a set: the file's tensors are member 0's and its facts those of {@link #ofSet}.
   *
   * @param r the file's record
   * @return the side
   */
  public static DiffSide asSetOfOne(EvidenceRecord r) {
    List<@Nullable Integer> owners = new ArrayList<>(r.tensors().size());
    for (int i = 0; i < r.tensors().size(); i++) {
      owners.add(0);
    }
    return new DiffSide(
        r.artifact().path(),
        r.evidenceId(),
        r.artifact().format(),
        r.artifact().headerSha256(),
        r.artifact().sha256(),
        setFacts("single_file", 1, null, r.formatFacts()),
        r.metadata(),
        r.tensors(),
        owners,
        r.types(),
        r.totals());
  }

  private static Map<String, @Nullable Object> setFacts(
      String kind, int members, ModelSetRecord.@Nullable IndexInfo index, FormatFacts first) {
    Map<String, @Nullable Object> out = new LinkedHashMap<>();
    out.put("set_kind", kind);
    out.put("members", members);
    if (index != null) {
      for (ModelSetRecord.IndexEntry e : index.metadata()) {
        out.put(
            "index." + e.key(),
            e.isBoolean() ? Boolean.valueOf(Boolean.parseBoolean(e.value())) : e.value());
      }
    }
    out.putAll(layoutFreeFacts(first));
    return out;
  }

  /**
   * The facts that stay when the same tensors are laid out in other files: a GGUF file's version,
   * byte order and alignment; the offsets where data starts are per file, and where each tensor
   * sits shows in its own {@code offset}, {@code file_offset} and {@code member}.
   */
  static Map<String, @Nullable Object> layoutFreeFacts(FormatFacts facts) {
    Map<String, @Nullable Object> out = facts(facts);
    out.remove("tensor_data_offset");
    out.remove("json_length");
    out.remove("data_offset");
    return out;
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
