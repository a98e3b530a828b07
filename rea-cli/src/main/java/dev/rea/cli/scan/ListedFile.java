package dev.rea.cli.scan;

import dev.rea.core.evidence.FileIdentity;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A regular file found by the walk ({@link TreeWalker}), with the identity the walk observed
 * (its own {@code lstat}: device, inode, size, modification time; {@code verified} false).
 *
 * @param path the file: the PATH it was reached from, joined with the names below it (never
 *     normalised, never through a symbolic link)
 * @param identity the identity observed while listing
 */
public record ListedFile(Path path, FileIdentity identity) {
  public ListedFile {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(identity, "identity");
  }

  /** @return the file's name within its directory */
  public String name() {
    Path n = path.getFileName();
    return n == null ? path.toString() : n.toString();
  }
}
