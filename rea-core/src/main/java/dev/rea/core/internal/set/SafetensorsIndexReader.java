package dev.rea.core.internal.set;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.evidence.Derivations;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.io.PipelinedDigest;
import dev.rea.core.internal.io.RetainedBudget;
import dev.rea.core.internal.io.StrictJson;
import dev.rea.core.options.Limits;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads a safetensors index ({@code *.safetensors.index.json}: {@code {"metadata": {...}?,
 * "weight_map": {tensor name: file name}}}, as Hugging Face {@code save_pretrained} writes it)
 * under the JSON rules of CONTRACT section 8, as CONTRACT section 9 asks.
 *
 * <p>Order of checks, each failure typed and naming the field and byte offset in the file:
 *
 * <ol>
 *   <li>size: more than the header ceiling (100,000,000 bytes by default) is {@code
 *       resource_exhausted} / {@code header_ceiling}; the caller checks the file size before
 *       reading it whole, and this reader checks again;
 *   <li>container nesting deeper than the nesting limit (32; the top-level object is level 1) is
 *       {@code resource_exhausted} / {@code nesting_limit};
 *   <li>strict UTF-8, no byte order mark or NUL, JSON syntax, duplicate keys at every level
 *       (compared after unescaping), nothing after the top-level object: {@code
 *       target_unavailable} / {@code file_format_rejected};
 *   <li>the shape: {@code weight_map} present, an object of strings, mapping at least one tensor;
 *       {@code metadata} absent, null, or an object of scalars (a string, number, true, false or
 *       null); {@code metadata.total_size}, when present, a non-negative integer (a JSON number
 *       without fraction or exponent, or a decimal string); members of the top-level object
 *       other than these two are checked as JSON and not kept;
 *   <li>a {@code weight_map} tensor name longer than the retained budget: {@code
 *       resource_exhausted} / {@code retained_budget} at its opening quote, as a member's header
 *       refuses such a name; {@code metadata} (kept in the set record) of more key and value bytes
 *       than the retained budget: the same, at the key that passes it; any other property name
 *       longer than the retained budget: the same, at its opening quote;
 *   <li>member names: not empty, no {@code /}, {@code \}, {@code ..}, control character or
 *       {@code :} (which covers absolute paths on every system REA runs on), so that members
 *       never leave the index's directory.
 * </ol>
 *
 * <p>All of these are checked in one forward pass over the stream ({@link IndexLexer}), so each
 * failure is the first one in byte order. Nothing is allocated from a size the file declares, and
 * the index is not held: the {@code weight_map} goes straight into a {@link WeightMap} (about a
 * third of its UTF-8 size for a sorted map), the other values are read and dropped. Jackson, the
 * library the rest of REA's JSON goes through, needed five passes over the whole text held in
 * memory (the checks of {@link StrictJson}, then a parse that kept every name for its duplicate
 * check); it stays the oracle of this reader's tests. Stateless and thread-safe.
 */
public final class SafetensorsIndexReader {
  private SafetensorsIndexReader() {}

  /** Opens an index file's bytes from its start; each call a new stream, closed by the reader. */
  @FunctionalInterface
  public interface IndexSource {
    /** @return a stream of the file's bytes from its start */
    InputStream open() throws IOException;
  }

  /**
   * Reads an index file's bytes.
   *
   * @param bytes the whole file
   * @param limits the header ceiling and nesting limit
   * @return the index ({@link SafetensorsIndex#sha256()} null: not asked for)
   * @throws ReaException {@code header_ceiling}, {@code nesting_limit} or {@code
   *     file_format_rejected} as the class comment lists
   */
  public static SafetensorsIndex read(byte[] bytes, Limits limits) throws ReaException {
    checkSize(bytes.length, limits);
    try {
      return read(() -> new ByteArrayInputStream(bytes), limits, false);
    } catch (IOException impossible) {
      throw new IllegalStateException("reading a byte array failed", impossible);
    }
  }

  /**
   * Reads an index in one pass, keeping per member file the count and a keyed digest of the
   * names the {@code weight_map} maps to it ({@link MappedNames}), not the names. When two names
   * may be the same (their digests agree), the file is read again with every name kept ({@link
   * #readExact}), which refuses the duplicate with its offset.
   *
   * @param source the file
   * @param limits the header ceiling (checked again as bytes arrive) and nesting limit
   * @param sha256 whether to compute the file's SHA-256 while reading it
   * @return the index, its size in bytes and, when asked, its hex SHA-256; no {@link
   *     SafetensorsIndex#weightMap()} unless it had to be read again
   * @throws ReaException as {@link #read(byte[], Limits)}; {@code target_changed} when the file
   *     read again is not the file read first
   * @throws IOException when the file cannot be read
   */
  public static SafetensorsIndex read(IndexSource source, Limits limits, boolean sha256)
      throws ReaException, IOException {
    SafetensorsIndex first = readOnce(source, limits, sha256, false);
    if (!first.mayRepeatNames()) {
      return first;
    }
    SafetensorsIndex exact = readOnce(source, limits, true, true);
    requireSame(first, exact);
    return exact;
  }

  /**
   * Reads an index keeping every name ({@link SafetensorsIndex#weightMap()} set) and its SHA-256:
   * for a set whose members contradict the index, so that each contradiction is named.
   *
   * @param expected the same index as read before, or null: when given, a file that is not the
   *     same (size or SHA-256) is refused
   * @throws ReaException as {@link #read(IndexSource, Limits, boolean)}
   * @throws IOException when the file cannot be read
   */
  public static SafetensorsIndex readExact(
      IndexSource source, Limits limits, @Nullable SafetensorsIndex expected)
      throws ReaException, IOException {
    SafetensorsIndex exact = readOnce(source, limits, true, true);
    if (expected != null) {
      requireSame(expected, exact);
    }
    return exact;
  }

  private static void requireSame(SafetensorsIndex before, SafetensorsIndex now)
      throws ReaException {
    boolean same = before.fileSize() == now.fileSize()
        && (before.sha256() == null || before.sha256().equals(now.sha256()));
    if (!same) {
      throw ReaException.builder(
              Constraint.TARGET_CHANGED,
              "the safetensors index changed while the set was read: it had "
                  + before.fileSize()
                  + " bytes"
                  + (before.sha256() == null ? "" : " (SHA-256 " + before.sha256() + ")")
                  + ", and read again it has "
                  + now.fileSize()
                  + " bytes (SHA-256 "
                  + now.sha256()
                  + ")")
          .field("index")
          .build();
    }
  }

  private static SafetensorsIndex readOnce(
      IndexSource source, Limits limits, boolean sha256, boolean exact)
      throws ReaException, IOException {
    try (InputStream in = source.open();
        PipelinedDigest digest = sha256 ? digest(limits) : null) {
      IndexLexer x = new IndexLexer(in, limits, digest);
      Parts parts = walk(x, exact);
      MappedNames.Builder names = parts.names;
      if (names == null) {
        throw x.fail("the index has no weight_map object", "weight_map", 0);
      }
      x.drain();
      String hex = digest == null ? null : HexFormat.of().formatHex(digest.digest());
      boolean mayRepeat = !exact && names.mayRepeat();
      return new SafetensorsIndex(parts.metadata, names.build(), parts.weightMap,
          parts.totalSize, x.bytesRead(), hex, mayRepeat);
    }
  }

  /**
   * SHA-256 on a second thread while the index is parsed, when the machine has a second core and
   * the index may be large (an 8.8 MB index, DeepSeek-V3's, takes about 0.08 s to hash at the
   * launcher's first-tier compiler, as long as its parse); inputs under one chunk are hashed by
   * the caller.
   */
  private static PipelinedDigest digest(Limits limits) {
    return new PipelinedDigest(
        EvidenceIds.sha256(), Runtime.getRuntime().availableProcessors() > 1);
  }

  /**
   * Refuses an index larger than the header ceiling, before it is read.
   *
   * @param size the file size in bytes
   * @param limits the header ceiling
   * @throws ReaException {@code resource_exhausted} / {@code header_ceiling}
   */
  public static void checkSize(long size, Limits limits) throws ReaException {
    long ceiling = limits.headerCeilingBytes();
    if (size > ceiling) {
      throw ReaException.builder(
              Constraint.HEADER_CEILING,
              "the safetensors index is "
                  + size
                  + " bytes, over the header ceiling of "
                  + ceiling
                  + " bytes")
          .field("index")
          .offset(0)
          .diagnostic("limit", "header_ceiling")
          .diagnostic("limit_bytes", Long.toString(ceiling))
          .diagnostic("requested_bytes", Long.toString(size))
          .build();
    }
  }

  private static final class Parts {
    List<SafetensorsIndex.Entry> metadata = List.of();
    @Nullable Long totalSize;
    MappedNames.@Nullable Builder names;
    @Nullable WeightMap weightMap;
  }

  private static Parts walk(IndexLexer x, boolean exact) throws ReaException, IOException {
    int c = x.skipWhitespace();
    if (c < 0) {
      throw x.fail("the input is empty", 0);
    }
    if (c == 0xEF && x.offset() == 0) {
      throw x.fail("a byte order mark is not allowed", 0);
    }
    if (c != '{') {
      throw x.fail("the top-level value must be an object", x.offset());
    }
    x.enter();
    Parts parts = new Parts();
    Set<String> seen = new HashSet<>();
    boolean first = true;
    while (x.nextName(first)) {
      first = false;
      String name = x.string();
      if (!seen.add(name)) {
        throw x.duplicate(name, null, x.stringOffset);
      }
      if (name.equals("metadata")) {
        int v = x.skipWhitespace();
        if (v == 'n') {
          x.readLiteral("null");
          continue;
        }
        if (v != '{') {
          throw shape(x, v, "metadata", "metadata must be an object or null");
        }
        x.enter();
        List<SafetensorsIndex.Entry> entries = new ArrayList<>();
        parts.totalSize = readMetadata(x, entries);
        entries.sort((a, b) -> Derivations.compareCodePoints(a.key(), b.key()));
        parts.metadata = entries;
      } else if (name.equals("weight_map")) {
        int v = x.skipWhitespace();
        if (v != '{') {
          throw shape(x, v, "weight_map", "weight_map must be an object");
        }
        long at = x.offset();
        x.enter();
        parts.names = new MappedNames.Builder();
        parts.weightMap = readWeightMap(x, at, parts.names, exact ? new WeightMap() : null);
      } else {
        x.skipValue();
      }
    }
    if (x.skipWhitespace() >= 0) {
      throw x.fail("content follows the top-level object", x.offset());
    }
    return parts;
  }

  /** A value of the wrong kind: a shape refusal when it is JSON, else a syntax one. */
  private static ReaException shape(IndexLexer x, int c, String field, String reason) {
    if (!IndexLexer.startsValue(c)) {
      return x.unexpected(c, "a value");
    }
    return x.fail(reason + ", found " + IndexLexer.describe(c), field, x.offset());
  }

  /** Reads the metadata object's members; returns {@code total_size} when present. */
  private static @Nullable Long readMetadata(IndexLexer x, List<SafetensorsIndex.Entry> out)
      throws ReaException, IOException {
    Long total = null;
    Set<String> keys = new HashSet<>();
    // The metadata is kept in the set record, which the retained budget bounds as it bounds a
    // file's record: keys are cut off at what is left of it, and each member is charged whole.
    RetainedBudget kept = new RetainedBudget(x.limits().retainedBudgetBytes());
    IndexLexer.LongStringRefusal overBudget = (cut, offset) -> kept.refusalOfAtLeast(
        cut + 1L, "a metadata key of more than " + cut + " bytes", "metadata", offset);
    boolean first = true;
    while (x.nextName(first, left(kept), overBudget)) {
      first = false;
      String k = x.string();
      long keyAt = x.stringOffset;
      int keyBytes = x.strLength;
      if (!keys.add(k)) {
        throw x.duplicate(k, "metadata", x.stringOffset);
      }
      if (keys.size() > MAX_PROPERTIES) {
        throw x.fail("metadata has more than " + MAX_PROPERTIES + " members", "metadata",
            x.stringOffset);
      }
      String field = "metadata." + ReaException.truncateForMessage(k);
      int c = x.skipWhitespace();
      long at = x.offset();
      SafetensorsIndex.Entry e;
      boolean integer = false;
      int valueBytes = 4; // "null"
      if (c == '"') {
        x.stringLimit = MAX_METADATA_VALUE_BYTES;
        try {
          x.readString();
        } finally {
          x.stringLimit = Integer.MAX_VALUE;
        }
        e = new SafetensorsIndex.Entry(k, x.string(), SafetensorsIndex.Kind.STRING);
        valueBytes = x.strLength;
      } else if (c == '-' || (c >= '0' && c <= '9')) {
        String n = x.readNumber();
        integer = n.indexOf('.') < 0 && n.indexOf('e') < 0 && n.indexOf('E') < 0;
        e = new SafetensorsIndex.Entry(k, n, SafetensorsIndex.Kind.NUMBER);
        valueBytes = n.length();
      } else if (c == 't' || c == 'f') {
        String word = c == 't' ? "true" : "false";
        x.readLiteral(word);
        e = new SafetensorsIndex.Entry(k, word, SafetensorsIndex.Kind.BOOLEAN);
        valueBytes = word.length();
      } else if (c == 'n') {
        x.readLiteral("null");
        e = new SafetensorsIndex.Entry(k, null, SafetensorsIndex.Kind.NULL);
      } else {
        throw shape(x, c, field, "metadata values must be strings, numbers, true, false or null");
      }
      if (k.equals("total_size")) {
        total = totalSize(x, e, integer, field, at);
      }
      kept.charge((long) keyBytes + valueBytes, field, keyAt);
      out.add(e);
    }
    return total;
  }

  private static long totalSize(
      IndexLexer x, SafetensorsIndex.Entry e, boolean integer, String field, long at)
      throws ReaException {
    String text = e.value();
    boolean kind = e.kind() == SafetensorsIndex.Kind.STRING
        || (e.kind() == SafetensorsIndex.Kind.NUMBER && integer);
    if (text == null || !kind || !StrictJson.isCanonicalDecimal(text, false)) {
      throw x.fail(
          "total_size must be a non-negative integer (bytes), found "
              + (text == null ? "null" : ReaException.truncateForMessage(text)),
          field,
          at);
    }
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException overflow) {
      throw x.fail(
          "total_size " + ReaException.truncateForMessage(text) + " exceeds 2^63-1", field, at);
    }
  }

  /**
   * Reads the weight_map into {@code names} and, when given, {@code map} (sealed); returns it. A
   * name longer than the retained budget is refused as the member reader refuses it ({@code
   * resource_exhausted} / {@code retained_budget}) when it is cut off: no member could declare a
   * name it may keep, and reading it whole held several copies of up to 100 MB.
   */
  private static @Nullable WeightMap readWeightMap(
      IndexLexer x, long at, MappedNames.Builder names, @Nullable WeightMap map)
      throws ReaException, IOException {
    byte[] name = new byte[256];
    // Consecutive tensors mostly live in one file: its bytes are compared, not decoded again.
    byte[] lastFile = new byte[0];
    int lastFileLength = -1;
    int lastId = -1;
    boolean first = true;
    IndexLexer.LongStringRefusal overBudget = (cut, offset) ->
        new RetainedBudget(x.limits().retainedBudgetBytes()).refusalOfAtLeast(
            cut + 1L, "a name of more than " + cut + " bytes in weight_map", "weight_map", offset);
    while (x.nextName(first, x.nameLimit(), overBudget)) {
      first = false;
      long nameAt = x.stringOffset;
      int nameLength = x.strLength;
      if (name.length < nameLength) {
        name = new byte[Math.max(nameLength, name.length * 2)];
      }
      System.arraycopy(x.str, 0, name, 0, nameLength);
      int c = x.skipWhitespace();
      if (c != '"') {
        throw shape(x, c, field(name, nameLength),
            "weight_map values must be file names (strings)");
      }
      long valueAt = x.offset();
      // A file name: refused at its 256th byte rather than read whole.
      x.stringLimit = MAX_MEMBER_NAME_BYTES;
      try {
        x.readString();
      } finally {
        x.stringLimit = Integer.MAX_VALUE;
      }
      int id;
      if (x.strLength == lastFileLength
          && Arrays.equals(x.str, 0, x.strLength, lastFile, 0, lastFileLength)) {
        id = lastId;
      } else {
        String file = x.string();
        String why = badMemberName(file);
        if (why != null) {
          throw x.fail("member file name \"" + ReaException.truncateForMessage(file) + "\" " + why,
              field(name, nameLength), valueAt);
        }
        id = names.fileId(file);
        if (id >= MAX_MEMBER_FILES) {
          throw ReaException.builder(
                  Constraint.RETAINED_BUDGET,
                  "weight_map names more than " + MAX_MEMBER_FILES + " member files; REA opens"
                      + " and checks every member, and reads no checkpoint with more")
              .field(field(name, nameLength))
              .offset(valueAt)
              .diagnostic("limit", "index_member_files")
              .diagnostic("limit_files", MAX_MEMBER_FILES)
              .build();
        }
        if (map != null) {
          map.fileId(file); // numbered in the same order of first sight
        }
        lastFile = Arrays.copyOf(x.str, x.strLength);
        lastFileLength = x.strLength;
        lastId = id;
      }
      if (map != null && map.add(name, nameLength, id) >= 0) {
        throw x.duplicate(
            new String(name, 0, nameLength, java.nio.charset.StandardCharsets.UTF_8),
            "weight_map", nameAt);
      }
      names.add(name, nameLength, id);
    }
    if (names.size() == 0) {
      throw x.fail("weight_map maps no tensor; an index names at least one", "weight_map", at);
    }
    if (map != null) {
      map.seal();
    }
    return map;
  }

  /** @return what is left of {@code budget}, as a string limit */
  private static int left(RetainedBudget budget) {
    return (int) Math.min(budget.limit() - budget.used(), Integer.MAX_VALUE - 8);
  }

  private static String field(byte[] name, int length) {
    String t = new String(name, 0, length, java.nio.charset.StandardCharsets.UTF_8);
    return "weight_map[\"" + ReaException.truncateForMessage(t) + "\"]";
  }

  /**
   * Longest member file name, in UTF-8 bytes: a file name's limit on Linux and macOS (NAME_MAX,
   * 255) and about Windows' (255 UTF-16 units).
   */
  public static final int MAX_MEMBER_NAME_BYTES = 255;

  /**
   * Most distinct member files an index may name: every one is opened and inspected, and a 100 MB
   * index naming millions of them held gigabytes before its first member was found missing.
   * save_pretrained's largest checkpoints have a few hundred shards; gguf-split's names allow
   * 99,999 members.
   */
  public static final int MAX_MEMBER_FILES = 65_536;

  /**
   * Most members of the {@code metadata} object and of any object other than {@code weight_map},
   * as for Evidence ({@link StrictJson#MAX_PROPERTIES}): the metadata is kept in the set record,
   * and an ignored object's names are kept while it is read (to refuse a duplicate). Writers put
   * one or two keys there ({@code total_size}, sometimes {@code total_parameters}).
   */
  public static final int MAX_PROPERTIES = StrictJson.MAX_PROPERTIES;

  /** Most bytes of one metadata value (kept in the set record), in UTF-8. */
  public static final int MAX_METADATA_VALUE_BYTES = 64 * 1024;

  /**
   * @return why a member file name could leave the index's directory or name nothing, or null
   *     when it is a plain file name
   */
  public static @Nullable String badMemberName(String file) {
    if (file.isEmpty()) {
      return "is empty";
    }
    if (file.length() > MAX_MEMBER_NAME_BYTES
        || file.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_MEMBER_NAME_BYTES) {
      return "is longer than " + MAX_MEMBER_NAME_BYTES + " bytes, longer than a file name may be";
    }
    if (file.indexOf('/') >= 0 || file.indexOf('\\') >= 0) {
      return "holds a path separator: members must be in the index's own directory";
    }
    if (file.contains("..")) {
      return "holds '..': members must be in the index's own directory";
    }
    if (file.equals(".")) {
      return "names the directory itself";
    }
    if (file.indexOf(':') >= 0) {
      return "holds ':' (a drive or stream name): members must be plain file names";
    }
    for (int i = 0; i < file.length(); i++) {
      if (file.charAt(i) < 0x20 || file.charAt(i) == 0x7F) {
        return "holds a control character";
      }
    }
    return null;
  }
}
