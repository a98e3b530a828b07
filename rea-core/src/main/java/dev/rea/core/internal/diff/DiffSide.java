package dev.rea.core.internal.diff;

import dev.rea.core.evidence.Coverage;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * @param metadata metadata rows; a set side's are every member's, in member order
 * @param metadataMembers per metadata row, its member's index in a set (rows compare by member
 *     and key), or null for a single file (rows compare by key)
 * @param tensors tensor rows
 * @param members per tensor row, its member's index in a set, or null for a single file
 * @param types type rows
 * @param totals totals
 * @param headerComplete whether the record holds its whole header ({@code coverage.header}
 *     complete; for a set, its status complete and its coverage, every member's): a partial record's
 *     declarations past where its read stopped are unknown, so it is never the same as another
 * @param observedAt the record's (or set record's) {@code observed_at} (shown, never compared:
 *     it tells saved Evidence from a fresh reading)
 * @param assumeLayout the record's {@code request.assume_layout}, or null (shown, never compared:
 *     a reading choice, not a declaration; the byte lengths, storage checks, type names and
 *     totals that rest on it differ when the two sides were read under different ones)
 */
public record DiffSide(
    String path,
    @Nullable String evidenceId,
    String format,
    @Nullable String headerSha256,
    @Nullable String sha256,
    Map<String, @Nullable Object> facts,
    List<MetadataRow> metadata,
    List<@Nullable Integer> metadataMembers,
    List<TensorRow> tensors,
    List<@Nullable Integer> members,
    List<TypeRow> types,
    Totals totals,
    boolean headerComplete,
    String observedAt,
    @Nullable String assumeLayout) {
  public DiffSide {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(observedAt, "observedAt");
    facts = new LinkedHashMap<>(facts);
    metadata = List.copyOf(metadata);
    metadataMembers = new ArrayList<>(metadataMembers);
    tensors = List.copyOf(tensors);
    members = new ArrayList<>(members);
    types = List.copyOf(types);
    Objects.requireNonNull(totals, "totals");
    if (members.size() != tensors.size()) {
      throw new IllegalArgumentException("one member entry per tensor row");
    }
    if (metadataMembers.size() != metadata.size()) {
      throw new IllegalArgumentException("one member entry per metadata row");
    }
  }

  /** A fact field of a member after the first: {@code member[k].field}. */
  private static final Pattern MEMBER_FACT = Pattern.compile("member\\[([0-9]+)\\]\\.(.+)");

  /**
   * Whether this side has fact {@code field}. A set side lists {@code member[k].f} only where
   * member k's {@code f} differs from its first member's; where it is not listed and the side has
   * a member k, member k's fact is the first member's, so the side has it.
   *
   * @param field a fact field, as {@link #facts} names them or {@code member[k].f}
   * @return whether the side declares it
   */
  public boolean hasFact(String field) {
    if (facts.containsKey(field)) {
      return true;
    }
    Matcher m = MEMBER_FACT.matcher(field);
    return m.matches() && hasMember(m.group(1)) && facts.containsKey(m.group(2));
  }

  /**
   * The value of fact {@code field}, as {@link #hasFact} finds it.
   *
   * @param field a fact field the side has
   * @return its JSON-ready value (null is a value: a fact not established)
   */
  public @Nullable Object fact(String field) {
    if (facts.containsKey(field)) {
      return facts.get(field);
    }
    Matcher m = MEMBER_FACT.matcher(field);
    return m.matches() && hasMember(m.group(1)) ? facts.get(m.group(2)) : null;
  }

  private boolean hasMember(String index) {
    Object count = facts.get("members");
    // A digit string of up to 9 digits fits an int; a longer one names no member of any set.
    return count instanceof Integer n && index.length() < 10 && Integer.parseInt(index) < n;
  }

  /** @return the side of one file's record */
  public static DiffSide of(EvidenceRecord r) {
    return new DiffSide(
        r.artifact().path(),
        r.evidenceId(),
        r.artifact().format(),
        r.artifact().headerSha256(),
        r.artifact().sha256(),
        facts(r.formatFacts()),
        r.metadata(),
        members(r.metadata().size(), null),
        r.tensors(),
        members(r.tensors().size(), null),
        r.types(),
        r.totals(),
        complete(r),
        r.observedAt(),
        r.request().assumeLayout());
  }

  /**
   * The side of a model set (CONTRACT sections 9 and 11): its tensors are every member's rows in
   * member order, each with its member's index; so are its metadata rows (each member's keys are
   * that member's: a safetensors shard's {@code __metadata__}, a GGUF split member's {@code
   * split.*} keys); its facts are the set's kind and member count, each member of a safetensors
   * index's own {@code metadata} as {@code index.<key>} (its value's text, a boolean, or null:
   * {@code index.total_size} is what the index declares of the whole checkpoint), the first
   * member's facts that do not depend on where data sits ({@link #layoutFreeFacts}) and, for each
   * later member k whose such fact differs from the first member's, {@code member[k].<field>};
   * types and totals are the set's.
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
    List<MetadataRow> metadata = new ArrayList<>();
    List<@Nullable Integer> keyOwners = new ArrayList<>();
    List<FormatFacts> facts = new ArrayList<>(members.size());
    for (int i = 0; i < members.size(); i++) {
      EvidenceRecord m = members.get(i);
      for (TensorRow t : m.tensors()) {
        tensors.add(t);
        owners.add(i);
      }
      metadata.addAll(m.metadata());
      keyOwners.addAll(members(m.metadata().size(), i));
      facts.add(m.formatFacts());
    }
    EvidenceRecord first = members.get(0);
    return new DiffSide(
        set.set().path(),
        set.evidenceId(),
        first.artifact().format(),
        null,
        null,
        setFacts(set.set().kind(), set.set().index(), facts),
        metadata,
        keyOwners,
        tensors,
        owners,
        set.types(),
        set.totals(),
        // The set's coverage is its members' weakest: complete only when every header is.
        ModelSetRecord.STATUS_COMPLETE.equals(set.status())
            && Coverage.COMPLETE.equals(set.coverage().header()),
        set.observedAt(),
        set.request().assumeLayout());
  }

  /** @return whether a record holds its whole header ({@code coverage.header} complete) */
  private static boolean complete(EvidenceRecord r) {
    return Coverage.COMPLETE.equals(r.coverage().header());
  }

  /**
   * One file's record as a set of one ({@code single_file}, CONTRACT section 9), for comparing a
   * file with a set: the file's tensors and metadata are member 0's and its facts those of {@link
   * #ofSet}.
   *
   * @param r the file's record
   * @return the side
   */
  public static DiffSide asSetOfOne(EvidenceRecord r) {
    return new DiffSide(
        r.artifact().path(),
        r.evidenceId(),
        r.artifact().format(),
        r.artifact().headerSha256(),
        r.artifact().sha256(),
        setFacts("single_file", null, List.of(r.formatFacts())),
        r.metadata(),
        members(r.metadata().size(), 0),
        r.tensors(),
        members(r.tensors().size(), 0),
        r.types(),
        r.totals(),
        complete(r),
        r.observedAt(),
        r.request().assumeLayout());
  }

  /** {@code n} entries of {@code member}. */
  private static List<@Nullable Integer> members(int n, @Nullable Integer member) {
    List<@Nullable Integer> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(member);
    }
    return out;
  }

  /**
   * A set's facts: a later member's layout-free fact is listed as {@code member[k].<field>} only
   * where it differs from the first member's, so a set whose members agree has the facts of one
   * file (and compares clean against the file it merges into), while a member that does not is
   * named with its fact.
   */
  private static Map<String, @Nullable Object> setFacts(
      String kind, ModelSetRecord.@Nullable IndexInfo index, List<FormatFacts> members) {
    Map<String, @Nullable Object> out = new LinkedHashMap<>();
    out.put("set_kind", kind);
    out.put("members", members.size());
    if (index != null) {
      for (ModelSetRecord.IndexEntry e : index.metadata()) {
        out.put(
            "index." + e.key(),
            e.isBoolean() ? Boolean.valueOf(Boolean.parseBoolean(e.value())) : e.value());
      }
    }
    Map<String, @Nullable Object> first = layoutFreeFacts(members.get(0));
    out.putAll(first);
    for (int k = 1; k < members.size(); k++) {
      for (Map.Entry<String, @Nullable Object> e : layoutFreeFacts(members.get(k)).entrySet()) {
        if (!first.containsKey(e.getKey()) || !Objects.equals(first.get(e.getKey()), e.getValue())) {
          out.put("member[" + k + "]." + e.getKey(), e.getValue());
        }
      }
    }
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
