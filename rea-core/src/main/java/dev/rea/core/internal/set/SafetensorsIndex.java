package dev.rea.core.internal.set;

import java.util.List;
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
 * @param names per member file, how many tensors the {@code weight_map} maps to it and a keyed
 *     digest of their names
 * @param weightMap the {@code weight_map} itself (tensor name to file, in the index's order)
 *     when the index was read with its names kept ({@link SafetensorsIndexReader#readExact}),
 *     else null
 * @param totalSize {@code metadata.total_size} when present (bytes, non-negative), else null
 * @param fileSize the index file's size in bytes (the bytes read)
 * @param sha256 the lower-case hex SHA-256 of the file's bytes, or null when the reader was not
 *     asked for it
 * @param mayRepeatNames whether two of the names may be the same (the reader then reads the
 *     file again with its names kept; true only between the two reads)
 */
public record SafetensorsIndex(
    List<Entry> metadata,
    MappedNames names,
    @Nullable WeightMap weightMap,
    @Nullable Long totalSize,
    long fileSize,
    @Nullable String sha256,
    boolean mayRepeatNames) {

  /** The name suffix of a safetensors index file. */
  public static final String SUFFIX = ".safetensors.index.json";

  public SafetensorsIndex {
    metadata = List.copyOf(metadata);
    Objects.requireNonNull(names, "names");
  }

  /** @return the distinct file names the {@code weight_map} names, in code-point order */
  public List<String> members() {
    return names.files();
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
