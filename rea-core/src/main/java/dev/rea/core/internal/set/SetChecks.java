package dev.rea.core.internal.set;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.io.FieldPath;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The cross-checks of a model set (CONTRACT section 9), fed one member record at a time in member
 * order ({@link #member}) so that a member's rows need not be kept once checked; {@link #finish}
 * gives the warnings or throws the contradictions.
 *
 * <ul>
 *   <li>every set: tensor names unique across members;
 *   <li>safetensors index: each member is safetensors; its tensor names are exactly the names the
 *       index maps to it (mapped but absent, present but unmapped or mapped elsewhere, are each a
 *       contradiction); {@code metadata.total_size} against the sum of the members' tensor byte
 *       lengths is the warning {@code index_total_size_mismatch};
 *   <li>GGUF split (keys and types as gguf-split writes them, ggml-org/llama.cpp
 *       tools/gguf-split/gguf-split.cpp @ 3e00f05f: {@code split.no} and {@code split.count}
 *       UINT16, {@code split.tensors.count} INT32, every other key only in the first member):
 *       each member is GGUF with the first member's version and byte order, {@code split.no} is
 *       its number minus one, {@code split.count} the member count, {@code split.tensors.count}
 *       the sum of all members' tensor counts; other metadata in a later member is the warning
 *       {@code split_metadata_outside_first}.
 * </ul>
 *
 * <p>Every contradiction is counted; the first {@value #LISTED} are kept. Not thread-safe.
 */
public final class SetChecks {
  /** Most contradictions listed in {@code details.diagnostics.contradictions}. */
  public static final int LISTED = 32;

  static final String SPLIT_NO = "split.no";
  static final String SPLIT_COUNT = "split.count";
  static final String SPLIT_TENSORS = "split.tensors.count";

  /**
   * One contradiction.
   *
   * @param member the member's index in the set (0-based)
   * @param path the member's path
   * @param tensor the tensor concerned, or null
   * @param field the field concerned (a path into the member's record or the index)
   * @param message what is wrong
   */
  public record Contradiction(
      int member, String path, @Nullable String tensor, String field, String message) {}

  /**
   * Most tensor names a set without an index may declare over all its members: each is kept to
   * check that no two members hold one name, so without a bound a split set of many members, each
   * within its own retained budget, could hold tens of millions (3.7 GB for 200 members of 130,000
   * tensors). The largest real models declare under 100,000 (DeepSeek-V3's checkpoint: 91,991).
   */
  public static final int MAX_SET_TENSOR_NAMES = 1 << 20;

  private final int maxNames;

  private final SetKind kind;
  private final @Nullable SafetensorsIndex index;
  private final int count;
  private final List<Contradiction> listed = new ArrayList<>();
  private int found;
  private final Map<String, Integer> names = new HashMap<>();
  private final List<Integer> declaredTensorCounts = new ArrayList<>();
  private final List<String> paths = new ArrayList<>();
  private final List<Integer> outsideFirst = new ArrayList<>();
  /** The first few keys other than split.* met in a later member, for the warning. */
  private final Set<String> keysOutsideFirst = new java.util.LinkedHashSet<>();
  private long tensorSum;
  private BigInteger byteSum = BigInteger.ZERO;
  private boolean bytesKnown = true;
  private FormatFacts.@Nullable Gguf first;
  /** The index's entries found in their member, by entry number. */
  private final java.util.BitSet matched = new java.util.BitSet();

  /** Reads the index again with its names ({@link SafetensorsIndexReader#readExact}). */
  @FunctionalInterface
  public interface ExactIndex {
    /** @return the {@code weight_map} with every name */
    WeightMap read() throws ReaException;
  }

  private final ExactIndex exact;
  /** The index's names, once a member disagreed with their digest. */
  private @Nullable WeightMap indexNames;

  /**
   * @param kind the set's kind
   * @param index the index (kind {@link SetKind#SAFETENSORS_INDEX}), else null
   * @param count the number of members
   * @param exact reads the index's names when a member's names disagree with the index's digest
   *     of them (at most once)
   */
  public SetChecks(SetKind kind, @Nullable SafetensorsIndex index, int count, ExactIndex exact) {
    this(kind, index, count, exact, MAX_SET_TENSOR_NAMES);
  }

  /** As the public constructor, with at most {@code maxNames} tensor names (for tests). */
  SetChecks(
      SetKind kind, @Nullable SafetensorsIndex index, int count, ExactIndex exact, int maxNames) {
    this.maxNames = maxNames;
    this.kind = kind;
    this.index = index;
    this.count = count;
    this.exact = exact;
    this.indexNames = index == null ? null : index.weightMap();
  }

  /**
   * Checks one member's record against the index, the members before it and the split keys.
   *
   * @param k the member's index (0-based, in member order, each once)
   * @param name the member's file name (as the index or split names it)
   * @param r its complete record
   * @throws ReaException when the index, read again to name a contradiction, cannot be read or
   *     has changed
   */
  public void member(int k, String name, EvidenceRecord r) throws ReaException {
    String path = r.artifact().path();
    paths.add(path);
    List<TensorRow> tensors = r.tensors();
    // With an index, a name in two members is already a name mapped elsewhere in one of them:
    // the index's own map decides, and no second map of every name is kept.
    List<TensorRow> named = kind == SetKind.SAFETENSORS_INDEX ? List.of() : tensors;
    if (names.size() + (long) named.size() > maxNames) {
      throw ReaException.builder(
              Constraint.RETAINED_BUDGET,
              "the set's members declare more than " + maxNames + " tensors by member "
                  + k + " (" + path + "); REA keeps every name to check that none is in two"
                  + " members, and reads no set larger")
          .path(path)
          .field("tensors")
          .diagnostic("limit", "set_tensor_names")
          .diagnostic("limit_names", maxNames)
          .diagnostic("member", k)
          .build();
    }
    for (TensorRow t : named) {
      Integer other = names.putIfAbsent(t.name(), k);
      if (other != null) {
        add(k, path, t.name(), "tensors[" + t.index() + "].name",
            "the name is also a tensor of member " + other + " (" + paths.get(other) + ")");
      }
    }
    tensorSum += tensors.size();
    if (bytesKnown && r.totals().byteLength() != null) {
      byteSum = byteSum.add(r.totals().byteLength());
    } else {
      bytesKnown = false;
    }
    if (kind == SetKind.SAFETENSORS_INDEX && index != null) {
      checkIndexMember(index, k, name, path, r);
    } else if (kind == SetKind.GGUF_SPLIT) {
      checkSplitMember(k, path, r);
    } else if (kind == SetKind.SINGLE_FILE) {
      splitCountAlone = splitCount(r);
      shardAlone = "safetensors".equals(r.artifact().format()) ? ShardName.parse(name) : null;
    }
  }

  /** The name of a safetensors file taken alone, when it names it one shard of several. */
  private @Nullable ShardName shardAlone;

  /** {@code split.count} of a file taken alone when two or more (UINT64: unsigned); else 0. */
  private long splitCountAlone;

  /**
   * Whether a file taken alone (a set of one, {@code single_file}) is one member of a model by
   * its own account, which {@link #member} then warns of: a safetensors file named as a shard
   * of several ({@code shard_without_index}), or a file declaring {@code split.count} of two or
   * more ({@code split_member_alone}).
   *
   * @param fileName the file's name in its directory
   * @param r its complete record
   */
  public static boolean aloneIsMember(String fileName, EvidenceRecord r) {
    return splitCount(r) != 0
        || ("safetensors".equals(r.artifact().format()) && ShardName.parse(fileName) != null);
  }

  private static long splitCount(EvidenceRecord r) {
    for (dev.rea.core.evidence.MetadataRow m : r.metadata()) {
      if (m.key().equals(SPLIT_COUNT)
          && m.value() instanceof dev.rea.core.evidence.MetadataValue.IntegerValue v
          && (m.type() == dev.rea.core.evidence.ValueType.UINT64
              ? Long.compareUnsigned(v.bits(), 2) >= 0
              : v.bits() >= 2)) {
        // A UINT64 of 2^63 or more is a count of two or more (its bits read as negative).
        return v.bits();
      }
    }
    return 0;
  }

  private void checkIndexMember(
      SafetensorsIndex index, int k, String name, String path, EvidenceRecord r)
      throws ReaException {
    if (!"safetensors".equals(r.artifact().format())) {
      add(k, path, null, "artifact.format",
          "the index names a " + r.artifact().format() + " file; its members must be safetensors");
    }
    WeightMap map = indexNames;
    if (map == null) {
      List<String> held = new ArrayList<>(r.tensors().size());
      for (TensorRow t : r.tensors()) {
        held.add(t.name());
      }
      if (index.names().matches(name, held)) {
        return;
      }
      // A contradiction: its tensors are named from the index's names, read once for the set.
      map = exact.read();
      indexNames = map;
    }
    int file = map.fileNumber(name);
    int mapped = 0;
    for (TensorRow t : r.tensors()) {
      int e = map.find(t.name());
      if (e < 0) {
        add(k, path, t.name(), "tensors[" + t.index() + "].name",
            "the tensor is in the member but the index's weight_map does not map it");
      } else if (map.fileNumberOf(e) != file) {
        add(k, path, t.name(), "tensors[" + t.index() + "].name",
            "the tensor is in this member but the index's weight_map maps it to "
                + quoted(map.fileOf(e)));
      } else {
        matched.set(e);
        mapped++;
      }
    }
    if (mapped < map.count(file)) {
      // Each entry is this member's to match, once (a member's own names are unique).
      for (int e = 0; e < map.size(); e++) {
        if (map.fileNumberOf(e) == file && !matched.get(e)) {
          String tensor = map.name(e);
          add(k, path, tensor, "weight_map[" + quoted(tensor) + "]",
              "the index maps the tensor to this member, which does not hold it");
        }
      }
    }
  }

  private void checkSplitMember(int k, String path, EvidenceRecord r) {
    if (!(r.formatFacts() instanceof FormatFacts.Gguf g)) {
      add(k, path, null, "artifact.format",
          "a split set's members must be GGUF; this one is " + r.artifact().format());
      declaredTensorCounts.add(null);
      return;
    }
    if (k == 0) {
      first = g;
    } else if (first != null) {
      if (g.version() != first.version()) {
        add(k, path, null, "format_facts.version",
            "version " + g.version() + " differs from the first member's " + first.version());
      }
      if (!g.byteOrder().equals(first.byteOrder())) {
        add(k, path, null, "format_facts.byte_order",
            g.byteOrder() + "-endian differs from the first member's " + first.byteOrder());
      }
    }
    Map<String, MetadataRow> split = new LinkedHashMap<>();
    boolean other = false;
    for (MetadataRow m : r.metadata()) {
      if (m.key().equals(SPLIT_NO) || m.key().equals(SPLIT_COUNT) || m.key().equals(SPLIT_TENSORS)) {
        split.put(m.key(), m);
      } else {
        other = true;
        if (k > 0 && keysOutsideFirst.size() < 4) {
          keysOutsideFirst.add(FieldPath.quote(m.key()));
        }
      }
    }
    if (other && k > 0) {
      outsideFirst.add(k);
    }
    Long no = splitValue(k, path, split.get(SPLIT_NO), SPLIT_NO, ValueType.UINT16);
    if (no != null && no != k) {
      add(k, path, null, "metadata[" + quoted(SPLIT_NO) + "]",
          "split.no is " + no + "; member " + k + " must have split.no " + k);
    }
    Long n = splitValue(k, path, split.get(SPLIT_COUNT), SPLIT_COUNT, ValueType.UINT16);
    if (n != null && n != count) {
      add(k, path, null, "metadata[" + quoted(SPLIT_COUNT) + "]",
          "split.count is " + n + "; the set has " + count + " members by its file names");
    }
    Long total = splitValue(k, path, split.get(SPLIT_TENSORS), SPLIT_TENSORS, ValueType.INT32);
    declaredTensorCounts.add(total == null ? null : total.intValue());
  }

  /**
   * gguf-split writes one {@code split.tensors.count}, the set's, in every member. A member whose
   * count differs from what most members declare (on a tie, the count equal to the tensors the
   * members hold, else the first member's) is named first:
   * a member of another set among the right ones holds its own set's count, and only it must be
   * blamed. Then the count most members declare is compared with the tensors all members hold,
   * once, on the first member that declares it.
   */
  private void checkDeclaredTensorCounts() {
    Map<Integer, Integer> votes = new LinkedHashMap<>();
    for (Integer d : declaredTensorCounts) {
      if (d != null) {
        votes.merge(d, 1, Integer::sum);
      }
    }
    if (votes.isEmpty()) {
      return;
    }
    int common = 0;
    int best = 0;
    for (Map.Entry<Integer, Integer> e : votes.entrySet()) {
      // On a tie, the count the members bear out; else the first member's.
      if (e.getValue() > best || (e.getValue() == best && e.getKey() == tensorSum)) {
        common = e.getKey();
        best = e.getValue();
      }
    }
    String field = "metadata[" + quoted(SPLIT_TENSORS) + "]";
    int first = -1;
    for (int k = 0; k < declaredTensorCounts.size(); k++) {
      Integer d = declaredTensorCounts.get(k);
      if (d == null) {
        continue;
      }
      if (d != common) {
        add(k, paths.get(k), null, field,
            "split.tensors.count is " + d + " where "
                + (best == 1 ? "another member declares " : "other members declare ")
                + common + " (gguf-split writes one count in every member; the members hold "
                + tensorSum + " tensors)"
                + (d == tensorSum
                    ? ", which this count matches: either this member is from another set or"
                        + " the others' count is wrong"
                    : ": is this a member of another set?"));
      } else if (first < 0) {
        first = k;
      }
    }
    if (common != tensorSum) {
      add(first, paths.get(first), null, field,
          "split.tensors.count is " + common + "; the members hold " + tensorSum + " tensors");
    }
  }

  /** @return the key's integer value, or null (a contradiction is recorded) */
  private @Nullable Long splitValue(
      int k, String path, @Nullable MetadataRow row, String key, ValueType type) {
    String field = "metadata[" + quoted(key) + "]";
    if (row == null) {
      add(k, path, null, field, key + " is missing; gguf-split writes it in every member");
      return null;
    }
    if (row.type() != type || !(row.value() instanceof MetadataValue.IntegerValue v)) {
      add(k, path, null, field + ".type",
          key + " is " + row.type().name() + "; gguf-split writes it as " + type.name());
      return null;
    }
    return v.bits();
  }

  /**
   * Ends the checks.
   *
   * @return the set's own warnings ({@code index_total_size_mismatch}, {@code
   *     split_member_alone}, {@code shard_without_index}, {@code split_metadata_outside_first})
   * @throws ReaException {@code target_unavailable} / {@code set_rejected} when anything
   *     contradicted, naming the first contradiction's member (its path), tensor and field, with
   *     up to {@value #LISTED} in {@code details.diagnostics.contradictions} and the total in
   *     {@code contradiction_count}
   */
  public List<Warning> finish() throws ReaException {
    if (kind == SetKind.GGUF_SPLIT) {
      checkDeclaredTensorCounts();
    }
    if (found > 0) {
      throw rejection();
    }
    List<Warning> out = new ArrayList<>();
    if (index != null && index.totalSize() != null && bytesKnown
        && !byteSum.equals(BigInteger.valueOf(index.totalSize()))) {
      out.add(new Warning("index_total_size_mismatch",
          "the index's metadata.total_size is " + index.totalSize()
              + " bytes; the members' tensors declare " + byteSum
              + " bytes (writers count total_size differently, or a member is not the file"
              + " the index was written with)"));
    }
    if (splitCountAlone != 0) {
      // A file named other than NAME-0000k-of-0000n.gguf is no member by name (docs/sets.md),
      // yet its header says it is one part of a model: its totals are not the model's.
      out.add(new Warning("split_member_alone",
          "the file declares split.count " + Long.toUnsignedString(splitCountAlone)
              + ": it is one member of a split set, but it is not named as gguf-split names"
              + " members (NAME-00001-of-0000N.gguf), so it was taken alone and its totals are"
              + " this file's only"));
    }
    if (shardAlone != null) {
      // No index in the directory names it (else the set would be the index's).
      out.add(new Warning("shard_without_index",
          "the file is named as shard " + shardAlone.number() + " of " + shardAlone.count()
              + " of a checkpoint, but no safetensors index in its directory names it: it was"
              + " taken alone, and its totals are this file's only (a checkpoint's shards are"
              + " checked against its index, " + shardAlone.prefix()
              + ".safetensors.index.json as save_pretrained names it)"));
    }
    if (!outsideFirst.isEmpty()) {
      out.add(new Warning("split_metadata_outside_first",
          "metadata other than split.* is in later members " + shortList(outsideFirst)
              + " (" + String.join(", ", keysOutsideFirst)
              + (keysOutsideFirst.size() == 4 ? ", ..." : "") + ")"
              + "; gguf-split keeps it in the first member only, and readers may ignore it"));
    }
    return out;
  }

  /** @return the checks passed, for the readable report (names only; call after {@link #finish}) */
  public List<String> passed() {
    List<String> out = new ArrayList<>();
    out.add("tensor names unique across members");
    if (kind == SetKind.SAFETENSORS_INDEX) {
      out.add("weight_map matches every member both ways");
    } else if (kind == SetKind.GGUF_SPLIT) {
      out.add("split.no, split.count and split.tensors.count agree");
      out.add("same GGUF version and byte order");
    }
    return out;
  }

  /**
   * One contradiction as a set rejection's message names it: {@code member K (PATH), tensor
   * "NAME", FIELD: MESSAGE}, the tensor part only when there is one. The same words serve the
   * entries of {@code details.diagnostics.contradictions} (their {@code member}, {@code path},
   * {@code tensor}, {@code field} and {@code message}).
   */
  public static String finding(
      Object member, Object path, @Nullable Object tensor, Object field, Object message) {
    return "member " + member + " (" + path + ")"
        + (tensor == null ? "" : ", tensor \"" + tensor + "\"")
        + ", " + field + ": " + message;
  }

  private ReaException rejection() {
    Contradiction c = listed.get(0);
    List<Object> list = new ArrayList<>();
    for (Contradiction x : listed) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("member", x.member());
      m.put("path", x.path());
      if (x.tensor() != null) {
        m.put("tensor", x.tensor());
      }
      m.put("field", x.field());
      m.put("message", x.message());
      list.add(m);
    }
    String where = finding(c.member(), c.path(), c.tensor(), c.field(), c.message());
    return ReaException.builder(
            Constraint.SET_REJECTED,
            "the model set is inconsistent ("
                + found
                + (found == 1 ? " contradiction" : " contradictions")
                + "): "
                + where)
        .path(c.path())
        .field(c.field())
        .diagnostic("contradictions", list)
        .diagnostic("contradiction_count", found)
        .build();
  }

  private void add(int k, String path, @Nullable String tensor, String field, String message) {
    found++;
    if (listed.size() < LISTED) {
      // A name is file-controlled and may be megabytes long: messages and diagnostics keep
      // its start and length (a field path holds it quoted, already shortened).
      listed.add(new Contradiction(k, path,
          tensor == null ? null : ReaException.truncateForMessage(tensor), field, message));
    }
  }

  /** @return the contradictions kept so far (at most {@value #LISTED}) */
  public List<Contradiction> contradictions() {
    return List.copyOf(listed);
  }

  private static String quoted(String s) {
    return "\"" + ReaException.truncateForMessage(s) + "\"";
  }

  private static String shortList(List<Integer> ks) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < Math.min(8, ks.size()); i++) {
      b.append(i > 0 ? ", " : "").append(ks.get(i));
    }
    if (ks.size() > 8) {
      b.append(", ... (").append(ks.size()).append(")");
    }
    return b.toString();
  }
}
