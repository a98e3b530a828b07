package dev.rea.core.internal.set;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.evidence.Derivations;
import dev.rea.core.internal.io.StrictJson;
import dev.rea.core.options.Limits;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonToken;

/**
 * The test oracle of {@link SafetensorsIndexReader}: the reader REA had before its own single-pass
 * lexer, over Jackson and {@link StrictJson} (the whole text held, five passes). Same rules; its
 * result is a plain map.
 *
 * <p>Reads a safetensors index ({@code *.safetensors.index.json}: {@code {"metadata": {...}?,
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
 *       {@code resource_exhausted} / {@code nesting_limit}, found by one pass over the bytes
 *       that allocates nothing;
 *   <li>{@link StrictJson}: strict UTF-8, no byte order mark or NUL, JSON syntax, duplicate keys
 *       at every level (compared after unescaping), nothing after the top-level object: {@code
 *       target_unavailable} / {@code file_format_rejected};
 *   <li>the shape: {@code weight_map} present, an object of strings, mapping at least one tensor;
 *       {@code metadata} absent, null, or an object of scalars (a string, number, true, false or
 *       null); {@code metadata.total_size}, when present, a non-negative integer (a JSON number
 *       without fraction or exponent, or a decimal string); members of the top-level object
 *       other than these two are checked as JSON and not kept;
 *   <li>member names: not empty, no {@code /}, {@code \}, {@code ..}, control character or
 *       {@code :} (which covers absolute paths on every system REA runs on), so that members
 *       never leave the index's directory.
 * </ol>
 *
 * <p>Nothing is allocated from a size the file declares: the JSON is parsed from the bytes read,
 * and the maps grow with the entries actually present. Stateless and thread-safe.
 */
final class JacksonIndexOracle {
  private static final String WHAT = "safetensors index";

  private JacksonIndexOracle() {}

  /**
   * Reads an index file's bytes.
   *
   * @param bytes the whole file
   * @param limits the header ceiling and nesting limit
   * @return the index
   * @throws ReaException {@code header_ceiling}, {@code nesting_limit} or {@code
   *     file_format_rejected} as the class comment lists
   */
  static Result read(byte[] bytes, Limits limits) throws ReaException {
    SafetensorsIndexReader.checkSize(bytes.length, limits);
    checkNesting(bytes, limits.nestingLimit());
    try (StrictJson j =
        StrictJson.open(
            bytes,
            bytes.length,
            limits.nestingLimit() + 1,
            bytes.length,
            // The weight_map names every tensor: its size is bounded by the index's size limit.
            Integer.MAX_VALUE,
            Constraint.FILE_FORMAT_REJECTED,
            WHAT)) {
      return walk(j);
    }
  }

  /** One pass over the bytes: container depth outside strings, refused past the limit. */
  static void checkNesting(byte[] b, int limit) throws ReaException {
    int depth = 0;
    for (int i = 0; i < b.length; i++) {
      byte c = b[i];
      if (c == '"') {
        for (i++; i < b.length && b[i] != '"'; i++) {
          if (b[i] == '\\') {
            i++;
          }
        }
      } else if (c == '{' || c == '[') {
        depth++;
        if (depth > limit) {
          throw ReaException.builder(
                  Constraint.NESTING_LIMIT,
                  "the safetensors index nests "
                      + depth
                      + " containers deep at byte "
                      + i
                      + ", over the nesting limit of "
                      + limit
                      + " (the top-level object is level 1)")
              .field("index")
              .offset(i)
              .diagnostic("limit", "nesting_limit")
              .diagnostic("limit_levels", limit)
              .diagnostic("requested_levels", depth)
              .build();
        }
      } else if (c == '}' || c == ']') {
        depth--;
      }
    }
  }

  private static Result walk(StrictJson j) throws ReaException {
    j.startObject(() -> "index");
    List<SafetensorsIndex.Entry> metadata = List.of();
    Long totalSize = null;
    Map<String, String> weightMap = null;
    String name;
    while ((name = j.nextName()) != null) {
      if (name.equals("metadata")) {
        if (j.next() == JsonToken.VALUE_NULL) {
          continue;
        }
        j.requireObject(() -> "metadata");
        List<SafetensorsIndex.Entry> entries = new ArrayList<>();
        totalSize = readMetadata(j, entries);
        entries.sort((a, b) -> Derivations.compareCodePoints(a.key(), b.key()));
        metadata = entries;
      } else if (name.equals("weight_map")) {
        j.startObject(() -> "weight_map");
        weightMap = readWeightMap(j);
      } else {
        j.next();
        j.skipValue();
      }
    }
    if (weightMap == null) {
      throw j.errorAt(0, "weight_map", "the index has no weight_map object");
    }
    TreeSet<String> files = new TreeSet<>(Derivations::compareCodePoints);
    files.addAll(weightMap.values());
    return new Result(metadata, weightMap, new ArrayList<>(files), totalSize);
  }

  /** Reads the metadata object's members; returns {@code total_size} when present. */
  private static @Nullable Long readMetadata(StrictJson j, List<SafetensorsIndex.Entry> out)
      throws ReaException {
    Long total = null;
    String key;
    while ((key = j.nextName()) != null) {
      String k = key;
      Supplier<String> field = () -> "metadata." + ReaException.truncateForMessage(k);
      JsonToken t = j.next();
      SafetensorsIndex.Entry e;
      switch (t) {
        case VALUE_STRING:
          e = new SafetensorsIndex.Entry(k, j.currentString(field), SafetensorsIndex.Kind.STRING);
          break;
        case VALUE_NUMBER_INT:
        case VALUE_NUMBER_FLOAT:
          e = new SafetensorsIndex.Entry(k, j.numberText(), SafetensorsIndex.Kind.NUMBER);
          break;
        case VALUE_TRUE:
        case VALUE_FALSE:
          e = new SafetensorsIndex.Entry(
              k, t == JsonToken.VALUE_TRUE ? "true" : "false", SafetensorsIndex.Kind.BOOLEAN);
          break;
        case VALUE_NULL:
          e = new SafetensorsIndex.Entry(k, null, SafetensorsIndex.Kind.NULL);
          break;
        default:
          throw j.error(
              field,
              "metadata values must be strings, numbers, true, false or null, found "
                  + StrictJson.describe(t));
      }
      if (k.equals("total_size")) {
        total = totalSize(j, e, t, field);
      }
      out.add(e);
    }
    return total;
  }

  private static long totalSize(
      StrictJson j, SafetensorsIndex.Entry e, JsonToken t, Supplier<String> field)
      throws ReaException {
    String text = e.value();
    if (text == null
        || !(t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_STRING)
        || !StrictJson.isCanonicalDecimal(text, false)) {
      throw j.error(
          field,
          "total_size must be a non-negative integer (bytes), found "
              + (text == null ? "null" : ReaException.truncateForMessage(text)));
    }
    try {
      long v = Long.parseLong(text);
      return v;
    } catch (NumberFormatException overflow) {
      throw j.error(field, "total_size " + ReaException.truncateForMessage(text) + " exceeds 2^63-1");
    }
  }

  private static Map<String, String> readWeightMap(StrictJson j) throws ReaException {
    Map<String, String> map = new LinkedHashMap<>();
    // A few hundred files for up to hundreds of thousands of tensors: one String per file.
    Map<String, String> files = new java.util.HashMap<>();
    String tensor;
    while ((tensor = j.nextName()) != null) {
      String t = tensor;
      Supplier<String> field = () -> "weight_map[\"" + ReaException.truncateForMessage(t) + "\"]";
      if (j.next() != JsonToken.VALUE_STRING) {
        throw j.error(
            field,
            "weight_map values must be file names (strings), found "
                + StrictJson.describe(j.current()));
      }
      String file = j.currentString(field);
      String why = SafetensorsIndexReader.badMemberName(file);
      if (why != null) {
        throw j.error(field, "member file name \"" + ReaException.truncateForMessage(file) + "\" " + why);
      }
      map.put(t, files.computeIfAbsent(file, f -> f));
    }
    if (map.isEmpty()) {
      throw j.error(() -> "weight_map", "weight_map maps no tensor; an index names at least one");
    }
    return map;
  }

  /** What the oracle read. */
  record Result(List<SafetensorsIndex.Entry> metadata, Map<String, String> weightMap,
      List<String> members, @Nullable Long totalSize) {}
}
