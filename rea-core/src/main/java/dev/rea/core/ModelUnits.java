package dev.rea.core;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.set.GgufSplitName;
import dev.rea.core.internal.set.SafetensorsIndex;
import dev.rea.core.internal.set.SetChecks;
import dev.rea.core.internal.set.ShardName;
import dev.rea.core.internal.set.SetGrouping;
import dev.rea.core.internal.set.SetUnit;
import dev.rea.core.options.Limits;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Groups one directory's file names into units the way {@code inspect-model-set} groups them
 * (CONTRACT section 9), for front ends that walk many directories ({@code rea scan}, the Spark
 * job: CONTRACT section 10): a safetensors index with the files its {@code weight_map} names, a
 * GGUF split set {@code PREFIX-NNNNN-of-MMMMM.gguf}, and every other name alone.
 *
 * <p>Pure but for the two callbacks: {@code gguf} is asked only of names shaped like a split
 * member (the set is by content, so a file so named that is not GGUF stays alone), and {@code
 * indexes} reads each index (bounded by {@link Limits#headerCeilingBytes()}). Names that are
 * not models by content are still returned, each alone ({@link Unit#set()} false): the caller
 * probes them as it probes any file. Thread-safe (no state).
 */
public final class ModelUnits {
  private ModelUnits() {}

  /** Opens an index file. */
  @FunctionalInterface
  public interface IndexReader {
    /**
     * @param name the index file's name in the directory
     * @return a stream of its bytes from its start, closed by the grouping; it is read a chunk at
     *     a time and refused past the header ceiling as bytes arrive (an index is never held
     *     whole), and opened a second time only when two of its names may be one
     * @throws ReaException when it cannot be opened: the index's unit then has no members, and
     *     {@code inspect-model-set} of it reports the failure
     */
    InputStream open(String name) throws ReaException;
  }

  /**
   * One unit of a directory.
   *
   * @param kind {@code "safetensors_index"}, {@code "gguf_split"} or {@code "single_file"} (the
   *     set record's {@code set.kind})
   * @param anchor the name the unit is known by and inspected through: the index, the first split
   *     member ({@code PREFIX-00001-of-MMMMM.gguf}, present in the listing or not), or the file
   * @param members the member names in member order (shards in code-point order, split members 1
   *     to MMMMM, present or not); empty for an index that could not be read; the file itself for
   *     a single file
   */
  public record Unit(String kind, String anchor, List<String> members) {
    public Unit {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(anchor, "anchor");
      members = List.copyOf(members);
    }

    /** @return true for an index or a split set (a {@code kind: "set"} unit of a scan) */
    public boolean set() {
      return !kind.equals("single_file");
    }

    /**
     * @return true for an index that could not be read (its unit has no members: an index that
     *     names none is refused). Any safetensors file beside it may be its shard, so a scan
     *     reads such a file as {@code inspect-model-set FILE} does, which answers with the
     *     index's failure ({@link ModelUnits#besideUnreadableIndex})
     */
    public boolean unreadableIndex() {
      return kind.equals("safetensors_index") && members.isEmpty();
    }

    /** @return the names this unit covers: the anchor (an index) and the members, no repeats */
    public List<String> names() {
      if (!kind.equals("safetensors_index")) {
        return members;
      }
      List<String> out = new ArrayList<>(members.size() + 1);
      out.add(anchor);
      out.addAll(members);
      return out;
    }
  }

  /**
   * Which files that no set of their directory claims are read as sets all the same, because an
   * index beside them could not be read ({@link Unit#unreadableIndex}): {@code rea scan} and the
   * Spark job give such a file that index's failure, as {@code rea check FILE} does, instead of a
   * complete line of its own. Worked out once per directory.
   *
   * @param units a directory's units ({@link #group})
   * @return a test of a file name: its safetensors files when an index there could not be read,
   *     else none
   */
  public static Predicate<String> besideUnreadableIndex(List<Unit> units) {
    return units.stream().anyMatch(Unit::unreadableIndex)
        ? name -> name.endsWith(".safetensors")
        : name -> false;
  }

  /**
   * @param name a file name
   * @return whether it names a safetensors index ({@code *.safetensors.index.json})
   */
  public static boolean isIndexName(String name) {
    return SafetensorsIndex.isIndexName(name);
  }

  /**
   * Whether a directory holds an entry named as a safetensors index ({@link #isIndexName}), of
   * any type: a shard beside one is that index's to claim or refuse (CONTRACT section 9).
   *
   * @param directory the directory to list
   * @return whether an index name is among its entries
   * @throws IOException when it cannot be listed
   */
  public static boolean holdsIndexName(java.nio.file.Path directory) throws IOException {
    try (java.nio.file.DirectoryStream<java.nio.file.Path> entries =
        java.nio.file.Files.newDirectoryStream(
            directory, p -> p.getFileName() != null && isIndexName(p.getFileName().toString()))) {
      return entries.iterator().hasNext();
    } catch (java.nio.file.DirectoryIteratorException e) {
      throw e.getCause();
    }
  }

  /**
   * @param name a file name
   * @return whether it is shaped like a GGUF split member ({@code PREFIX-NNNNN-of-MMMMM.gguf})
   */
  public static boolean isSplitName(String name) {
    return GgufSplitName.parse(name) != null;
  }

  /**
   * @param name a file name
   * @return whether it is named as shard K of N of a checkpoint, as save_pretrained names them
   *     ({@code PREFIX-0000K-of-0000N.safetensors}, N of two or more, K from 1 to N)
   */
  public static boolean isShardName(String name) {
    return ShardName.parse(name) != null;
  }

  /**
   * Whether a file taken alone is one member of a model by its own account: a safetensors file
   * named as a shard of several ({@link #isShardName}), or a file whose record declares {@code
   * split.count} of two or more. Read as a set of one ({@code inspect-model-set FILE}), such a
   * file carries the warning {@code shard_without_index} or {@code split_member_alone}; this is
   * the rule those warnings follow.
   *
   * @param fileName the file's name in its directory
   * @param record its complete record
   */
  public static boolean isLoneMember(String fileName, EvidenceRecord record) {
    return SetChecks.aloneIsMember(fileName, record);
  }

  /**
   * Groups a directory's regular files.
   *
   * @param names the files' names (no directory; each once)
   * @param gguf whether a file named like a split member is GGUF by content
   * @param indexes reads an index
   * @param limits the index reader's limits
   * @return the units in code-point order of their anchors; every name is in exactly one unit's
   *     {@link Unit#names()}, which may also name files absent from {@code names} (a set's
   *     missing members: {@code inspect-model-set} then fails the set naming them)
   */
  public static List<Unit> group(
      List<String> names, Predicate<String> gguf, IndexReader indexes, Limits limits) {
    List<SetGrouping.Listed> listing = new ArrayList<>(names.size());
    for (String n : names) {
      String format;
      if (isIndexName(n)) {
        format = null;
      } else if (isSplitName(n)) {
        // Only "gguf" matters to the grouping; anything else non-null keeps the name alone.
        format = gguf.test(n) ? "gguf" : "other";
      } else {
        format = "other";
      }
      listing.add(new SetGrouping.Listed(n, format));
    }
    List<Unit> out = new ArrayList<>();
    for (SetUnit u : SetGrouping.group(listing, SetGrouping.fromStreams(indexes::open, limits))) {
      out.add(new Unit(u.kind().wire(), u.anchor(), u.members()));
    }
    return out;
  }
}
