package dev.rea.core.internal.set;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A safetensors index ({@code *.safetensors.index.json}) as read by {@link
 * SafetensorsIndexReader} (CONTRACT section 9): its metadata entries, its {@code weight_map} and
 * the distinct member file names it names.
 *
 * @param metadata the {@code metadata} members in code-point order of their keys; each value is a
 *     JSON string's text, a number's exact text, or {@code true}/{@code false}/{@code null}
 *     (see {@link Entry})
 * @param weightMap tensor name to member file name, in the index's own order
 * @param members the distinct file names {@code weightMap} names, in code-point order
 * @param totalSize {@code metadata.total_size} when present (bytes, non-negative), else null
 */
public record SafetensorsIndex(
    List<Entry> metadata,
    Map<String, String> weightMap,
    List<String> members,
    @Nullable Long totalSize) {

  /** The name suffix of a safetensors index file. */
  public static final String SUFFIX = ".safetensors.index.json";

  public SafetensorsIndex {
    metadata = List.copyOf(metadata);
    // Not copied: the reader hands over a map of its own, which for a large set is most of the
    // memory the set inspection holds (92k entries for DeepSeek-V3).
    weightMap = java.util.Collections.unmodifiableMap(weightMap);
    members = List.copyOf(members);
  }

  /**
   * One {@code metadata} member.
   *
   * @param key the member name
   * @param value the value's text: the decoded string for a JSON string, the exact number text
   *     for a number (integers are decimal strings in REA's output, CONTRACT section 2), {@code
   *     "true"}/{@code "false"}, or null for JSON null
   * @param kind what the JSON value was
   */
  public record Entry(String key, @Nullable String value, Kind kind) {
    public Entry {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(kind, "kind");
    }
  }

  /** The JSON kind of a metadata value. */
  public enum Kind {
    STRING,
    NUMBER,
    BOOLEAN,
    NULL
  }

  /** @return whether a file name names a safetensors index (by its suffix) */
  public static boolean isIndexName(String fileName) {
    return fileName.endsWith(SUFFIX) && fileName.length() > SUFFIX.length();
  }
}
