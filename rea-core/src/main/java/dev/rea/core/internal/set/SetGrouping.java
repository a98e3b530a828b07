package dev.rea.core.internal.set;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.evidence.Derivations;
import dev.rea.core.options.Limits;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Groups one directory's files into models (CONTRACT section 9, and section 10 for {@code rea
 * scan} and the Spark job): a pure function of the listing, so that local paths and Hadoop paths
 * share it through thin adapters. Names in, {@link SetUnit}s out; the only input read is an
 * index, through {@link Indexes}.
 *
 * <p>Rules, in order:
 *
 * <ol>
 *   <li>every file whose name ends in {@code .safetensors.index.json} is an index; its unit's
 *       members are the distinct files its {@code weight_map} names (present or not); a file
 *       named by any index is no unit of its own; an index that cannot be read is a unit with
 *       its error and no members;
 *   <li>every GGUF file (by content) named {@code PREFIX-NNNNN-of-MMMMM.gguf} joins the split set
 *       of its prefix and count, whose members are {@code PREFIX-00001-of-MMMMM.gguf} to {@code
 *       -MMMMM-} (present or not: a missing member is the set's failure when it is inspected);
 *   <li>every other model file (GGUF or safetensors by content) is a unit alone ({@code
 *       single_file}); files that are not models are not units.
 * </ol>
 *
 * <p>Units are returned in code-point order of their anchors. Thread-safe (no state).
 */
public final class SetGrouping {
  /** Most unit names listed in an {@code ambiguous_set} refusal. */
  public static final int LISTED_UNITS = 32;

  private SetGrouping() {}

  /** One file of the listing. */
  public record Listed(String name, @Nullable String modelFormat) {
    /**
     * @param name the file name (no directory)
     * @param modelFormat {@code "gguf"} or {@code "safetensors"} when the content is that model
     *     format, else null (an index is recognised by its name, not its content)
     */
    public Listed {
      java.util.Objects.requireNonNull(name, "name");
    }
  }

  /** Reads and parses an index file ({@link SafetensorsIndexReader}). */
  @FunctionalInterface
  public interface Indexes {
    /**
     * @param name the index file's name in the directory
     * @return the index
     * @throws ReaException when it cannot be read, is over the header ceiling or is refused
     */
    SafetensorsIndex read(String name) throws ReaException;
  }

  /**
   * @param streams opens an index file's bytes; each call a new stream from its start
   * @param limits the reader's limits (the header ceiling is checked as bytes arrive)
   * @return indexes read from those streams, one chunk at a time: no index is held whole
   */
  public static Indexes fromStreams(IndexStreams streams, Limits limits) {
    return name -> {
      try {
        return SafetensorsIndexReader.read(() -> {
          try {
            return streams.open(name);
          } catch (ReaException e) {
            throw new NotOpened(e);
          }
        }, limits, false);
      } catch (NotOpened e) {
        throw e.why;
      } catch (IOException e) {
        throw ReaException.builder(Constraint.IO_ERROR, "reading the index failed: " + name)
            .cause(e)
            .build();
      }
    };
  }

  /** Carries an opener's refusal through {@link SafetensorsIndexReader.IndexSource#open}. */
  private static final class NotOpened extends IOException {
    private static final long serialVersionUID = 1L;
    final transient ReaException why;

    NotOpened(ReaException why) {
      super(why.getMessage(), why);
      this.why = why;
    }
  }

  /** Opens an index file. */
  @FunctionalInterface
  public interface IndexStreams {
    /**
     * @param name the index file's name in the directory
     * @return a stream of its bytes from its start (closed by the reader)
     * @throws ReaException when it cannot be opened
     */
    InputStream open(String name) throws ReaException;
  }

  /**
   * Groups a listing.
   *
   * @param listing the directory's regular files
   * @param indexes reads an index's bytes
   * @return the units, in anchor order
   */
  public static List<SetUnit> group(List<Listed> listing, Indexes indexes) {
    List<SetUnit> units = new ArrayList<>();
    Set<String> claimed = new HashSet<>();
    for (Listed f : listing) {
      if (SafetensorsIndex.isIndexName(f.name())) {
        SetUnit u = indexUnit(f.name(), indexes);
        units.add(u);
        claimed.add(f.name());
        claimed.addAll(u.members());
      }
    }
    Map<String, GgufSplitName> splits = new LinkedHashMap<>();
    for (Listed f : listing) {
      if (claimed.contains(f.name()) || !"gguf".equals(f.modelFormat())) {
        continue;
      }
      GgufSplitName s = GgufSplitName.parse(f.name());
      if (s != null) {
        claimed.add(f.name());
        splits.putIfAbsent(s.first(), s);
      }
    }
    for (GgufSplitName s : splits.values()) {
      units.add(splitUnit(s));
    }
    for (Listed f : listing) {
      if (!claimed.contains(f.name()) && f.modelFormat() != null) {
        units.add(SetUnit.single(f.name()));
      }
    }
    units.sort((a, b) -> Derivations.compareCodePoints(a.anchor(), b.anchor()));
    return units;
  }

  /**
   * The unit a file names by itself (CONTRACT section 9, PATH a file): an index with its members,
   * any split member with its whole set, else the file alone.
   *
   * @param fileName the file's name in its directory
   * @param modelFormat the file's model format by content, or null (an index has none)
   * @param indexes reads the index's bytes
   * @return the unit (an index that cannot be read carries its error)
   */
  public static SetUnit unitOf(
      String fileName, @Nullable String modelFormat, Indexes indexes) {
    if (SafetensorsIndex.isIndexName(fileName)) {
      return indexUnit(fileName, indexes);
    }
    GgufSplitName s = "gguf".equals(modelFormat) ? GgufSplitName.parse(fileName) : null;
    return s != null ? splitUnit(s) : SetUnit.single(fileName);
  }

  /**
   * The index that makes a safetensors file a shard (CONTRACT section 9, PATH "any member"): a
   * shard named alone belongs to the checkpoint whose index, in the same directory, maps tensors
   * to it.
   *
   * @param fileName the safetensors file's name
   * @param listing the directory's regular files
   * @param indexes reads an index's bytes
   * @return the index unit whose members include the file; when two or more do, a unit whose
   *     error is {@code invalid_input} / {@code ambiguous_set} naming them (which checkpoint the
   *     file belongs to is the user's to say); else the first index that cannot be read (it may
   *     be the file's: its error is the answer); else null
   */
  public static @Nullable SetUnit indexClaiming(
      String fileName, List<Listed> listing, Indexes indexes) {
    List<String> names = new ArrayList<>();
    for (Listed f : listing) {
      if (SafetensorsIndex.isIndexName(f.name())) {
        names.add(f.name());
      }
    }
    names.sort(Derivations::compareCodePoints);
    SetUnit unreadable = null;
    List<SetUnit> claiming = new ArrayList<>();
    for (String n : names) {
      SetUnit u = indexUnit(n, indexes);
      if (u.error() != null) {
        unreadable = unreadable == null ? u : unreadable;
      } else if (u.members().contains(fileName)) {
        claiming.add(u);
      }
    }
    if (claiming.size() > 1) {
      List<Object> anchors = new ArrayList<>();
      for (SetUnit u : claiming) {
        anchors.add(u.anchor());
      }
      ReaException e = ReaException.builder(
              Constraint.AMBIGUOUS_SET,
              claiming.size() + " safetensors indexes in the directory name "
                  + ReaException.truncateForMessage(fileName) + " as a member: "
                  + ReaException.truncateForMessage(String.join(", ", names(anchors)))
                  + "; name the index of the checkpoint to inspect")
          .diagnostic("units", anchors)
          .diagnostic("unit_count", anchors.size())
          .build();
      return new SetUnit(SetKind.SAFETENSORS_INDEX, claiming.get(0).anchor(), List.of(), null, e);
    }
    return claiming.isEmpty() ? unreadable : claiming.get(0);
  }

  private static List<String> names(List<Object> anchors) {
    List<String> out = new ArrayList<>();
    for (Object a : anchors) {
      out.add(String.valueOf(a));
    }
    return out;
  }

  /**
   * The one model of a directory (CONTRACT section 9).
   *
   * @param units the directory's units
   * @param directory the directory as the user named it, for messages
   * @return the only unit; of several, the one index when it cannot be read (its error is the
   *     answer)
   * @throws ReaException {@code invalid_input} / {@code ambiguous_set} for several units (listing
   *     up to {@value #LISTED_UNITS} anchors in {@code details.diagnostics.units}); {@code
   *     target_unavailable} / {@code unsupported_format} for none
   */
  public static SetUnit only(List<SetUnit> units, String directory) throws ReaException {
    if (units.size() == 1) {
      return units.get(0);
    }
    // One index that cannot be read leaves its shards as units of their own: the index's own
    // failure says what is wrong, where "several models" would not.
    SetUnit brokenIndex = null;
    int indexUnits = 0;
    for (SetUnit u : units) {
      if (u.kind() == SetKind.SAFETENSORS_INDEX) {
        indexUnits++;
        brokenIndex = u.error() != null ? u : brokenIndex;
      }
    }
    if (indexUnits == 1 && brokenIndex != null) {
      return brokenIndex;
    }
    if (units.isEmpty()) {
      throw ReaException.builder(
              Constraint.UNSUPPORTED_FORMAT,
              "the directory holds no GGUF file, safetensors file or safetensors index: "
                  + directory)
          .path(directory)
          .build();
    }
    List<Object> names = new ArrayList<>();
    StringBuilder m = new StringBuilder();
    for (SetUnit u : units) {
      if (names.size() == LISTED_UNITS) {
        m.append(", ... (").append(units.size()).append(" in all)");
        break;
      }
      names.add(u.anchor());
      m.append(names.size() > 1 ? ", " : "").append(ReaException.truncateForMessage(u.anchor()));
    }
    String shards = shardsWithoutIndex(units);
    throw ReaException.builder(
            Constraint.AMBIGUOUS_SET,
            shards != null
                ? "the directory holds " + units.size() + " files named as shards of " + shards
                    + ", but no safetensors index naming them: " + m + "; a sharded checkpoint is"
                    + " checked against its index (is it missing?), or name one shard to inspect"
                    + " it alone"
                : "the directory holds "
                    + units.size()
                    + " models, not one: "
                    + m
                    + "; name one of them (an index, a split member or a file)")
        .path(directory)
        .diagnostic("units", names)
        .diagnostic("unit_count", units.size())
        .build();
  }

  /**
   * @return {@code "PREFIX (N shards)"} when every unit is a lone safetensors file named as a shard
   *     of one checkpoint ({@link ShardName}: same prefix and count), else null
   */
  private static @Nullable String shardsWithoutIndex(List<SetUnit> units) {
    ShardName first = null;
    for (SetUnit u : units) {
      ShardName s = u.kind() == SetKind.SINGLE_FILE ? ShardName.parse(u.anchor()) : null;
      if (s == null
          || (first != null && (!s.prefix().equals(first.prefix()) || s.count() != first.count()))) {
        return null;
      }
      first = first == null ? s : first;
    }
    return first == null
        ? null
        : ReaException.truncateForMessage(first.prefix()) + " (of " + first.count() + ")";
  }

  private static SetUnit indexUnit(String name, Indexes indexes) {
    try {
      SafetensorsIndex index = indexes.read(name);
      return new SetUnit(SetKind.SAFETENSORS_INDEX, name, index.members(), index, null);
    } catch (ReaException e) {
      return new SetUnit(SetKind.SAFETENSORS_INDEX, name, List.of(), null, e);
    } catch (OutOfMemoryError e) {
      // One index too large for the heap is that index's failure, not the end of a scan that
      // groups every directory on one thread.
      return new SetUnit(
          SetKind.SAFETENSORS_INDEX, name, List.of(), null, ReaException.heapExhausted(e));
    }
  }

  private static SetUnit splitUnit(GgufSplitName s) {
    List<String> members = new ArrayList<>();
    for (int i = 1; i <= s.count(); i++) {
      members.add(s.member(i));
    }
    return new SetUnit(SetKind.GGUF_SPLIT, s.first(), members, null, null);
  }
}
