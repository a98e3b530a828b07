package dev.rea.cli.scan;

import dev.rea.core.evidence.FileIdentity;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * One unit of a scan: what one line of {@code rea scan}'s output describes (CONTRACT section 10).
 * Today every unit is one file ({@link Kind#FILE}); model sets (an index with its members, a
 * GGUF split set: CONTRACT section 9) become units of their own through {@link UnitGrouping}.
 *
 * @param kind what the unit is
 * @param path the unit's path: the file (or, for a set, its index or first member)
 * @param identity the identity the walk observed of {@code path}: what {@code --resume}
 *     compares with the earlier line's
 * @param members the files the unit covers, {@code path} included (for a file, just itself)
 */
public record ScanUnit(Kind kind, Path path, FileIdentity identity, List<Path> members) {
  public ScanUnit {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(identity, "identity");
    members = List.copyOf(members);
  }

  /** @return the unit of one model file inspected alone */
  public static ScanUnit file(ListedFile file) {
    return new ScanUnit(Kind.FILE, file.path(), file.identity(), List.of(file.path()));
  }

  /** What a unit is: the line's {@code kind}. */
  public enum Kind {
    /** One file, inspected as {@code inspect-model-artifact} inspects it. */
    FILE("file");

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
