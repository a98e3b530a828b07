package dev.rea.cli.scan;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.FileIdentity;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One unit of a scan: what one line of {@code rea scan}'s output describes (CONTRACT section 10):
 * one model file ({@link Kind#FILE}), or a model set ({@link Kind#SET}: a safetensors index with
 * its members, a GGUF split set; CONTRACT section 9) as {@link DirectorySets} groups them.
 *
 * @param kind what the unit is
 * @param path the unit's path: the file, or for a set its index or first split member (what
 *     {@code inspect-model-set} records as {@code set.path})
 * @param identity the identity the walk observed of {@code path} (for a set whose first member
 *     is missing, of its first present file): what {@code --resume} compares with the earlier
 *     line's
 * @param members the files of the unit the walk found, with their identities, in member order
 *     (an index first): for a file, just itself; a set's missing members are absent. A member
 *     reached through a symbolic link has its target's identity (what the set inspection reads)
 * @param membersKnown false when a file of the set exists but could not be examined: the
 *     members' identities are then incomplete, and {@code --resume} never keeps the unit's line
 * @param refusal why the set is not inspected at all, or null: a file of it is a symbolic link
 *     that leads out of the scanned PATHs ({@link DirectorySets}); its line is this failure, and
 *     {@code members} holds none of what lies outside
 */
public record ScanUnit(
    Kind kind,
    Path path,
    FileIdentity identity,
    List<ListedFile> members,
    boolean membersKnown,
    @Nullable ReaException refusal) {
  public ScanUnit {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(identity, "identity");
    members = List.copyOf(members);
  }

  /** @return the unit of one model file inspected alone */
  public static ScanUnit file(ListedFile file) {
    return new ScanUnit(Kind.FILE, file.path(), file.identity(), List.of(file), true, null);
  }

  /**
   * @param anchor the set's index or first split member (present or not)
   * @param present the set's files that were found, in member order (an index first)
   * @param membersKnown whether every file of the set was found or known missing
   * @return the unit of a set, inspected as {@code inspect-model-set ANCHOR} inspects it
   */
  public static ScanUnit set(Path anchor, List<ListedFile> present, boolean membersKnown) {
    return set(anchor, present, membersKnown, null);
  }

  /**
   * @param anchor the set's index or first split member (present or not)
   * @param present the set's files that were found inside the scanned PATHs, in member order
   * @param refusal why the set is not inspected ({@link #refusal()})
   * @return the unit of a set that is written as failed without being read; {@code --resume}
   *     never keeps its line
   */
  public static ScanUnit refused(Path anchor, List<ListedFile> present, ReaException refusal) {
    return set(anchor, present, false, refusal);
  }

  private static ScanUnit set(
      Path anchor,
      List<ListedFile> present,
      boolean membersKnown,
      @Nullable ReaException refusal) {
    FileIdentity id = null;
    for (ListedFile f : present) {
      if (f.path().equals(anchor)) {
        id = f.identity();
      }
    }
    if (id == null) {
      id = present.isEmpty()
          ? FileIdentity.observed(null, null, 0, java.time.Instant.EPOCH)
          : present.get(0).identity();
    }
    return new ScanUnit(Kind.SET, anchor, id, present, membersKnown, refusal);
  }

  /** What a unit is: the line's {@code kind}. */
  public enum Kind {
    /** One file, inspected as {@code inspect-model-artifact} inspects it. */
    FILE("file"),
    /** A model set, inspected as {@code inspect-model-set} inspects it. */
    SET("set");

    private final String wire;

    Kind(String wire) {
      this.wire = wire;
    }

    /** @return the line's spelling */
    public String wire() {
      return wire;
    }
  }
}
