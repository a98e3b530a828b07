package dev.rea.core.internal.set;

import dev.rea.core.error.ReaException;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One model found in a directory's listing by {@link SetGrouping} (CONTRACT sections 9 and 10):
 * a safetensors index with its members, a GGUF split set, or one model file alone. Names are
 * file names relative to the directory, never paths.
 *
 * @param kind what holds the model together
 * @param anchor the name the unit is known by: the index file, the first split member ({@code
 *     PREFIX-00001-of-MMMMM.gguf}, whether or not it is present), or the file itself
 * @param members member file names in member order: the index's distinct files in code-point
 *     order, split members 1 to MMMMM, or the one file; empty for an index that failed to read
 * @param index the parsed index (kind {@link SetKind#SAFETENSORS_INDEX} read without error), else
 *     null
 * @param error why the index could not be read (then {@code members} is empty), else null
 */
public record SetUnit(
    SetKind kind,
    String anchor,
    List<String> members,
    @Nullable SafetensorsIndex index,
    @Nullable ReaException error) {
  public SetUnit {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(anchor, "anchor");
    members = List.copyOf(members);
  }

  /** @return a unit of one model file */
  public static SetUnit single(String file) {
    return new SetUnit(SetKind.SINGLE_FILE, file, List.of(file), null, null);
  }
}
