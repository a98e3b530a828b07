package dev.rea.cli.scan;

import dev.rea.core.evidence.FileIdentity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Map;

/**
 * What one {@code stat} (or {@code lstat}) of a path says: its type and its identity as REA
 * records it ({@link FileIdentity#observed}). One system call per path: the {@code unix} view
 * gives device and inode with the basic attributes; where it is missing, device and inode are
 * null and identity falls back to size and modification time.
 *
 * @param type the file's type (of the link itself when not following links)
 * @param identity device, inode, size and modification time
 */
record FileStat(Type type, FileIdentity identity) {
  /** File types the walk tells apart. */
  enum Type {
    REGULAR,
    DIRECTORY,
    SYMBOLIC_LINK,
    /** A FIFO, socket or device. */
    OTHER
  }

  private static final String UNIX_ATTRIBUTES =
      "unix:dev,ino,size,lastModifiedTime,isRegularFile,isDirectory,isSymbolicLink";

  private static final LinkOption[] NO_FOLLOW = {LinkOption.NOFOLLOW_LINKS};
  private static final LinkOption[] FOLLOW = {};

  /** Whether the {@code unix} attribute view answered so far (it is checked once per process). */
  private static volatile boolean unixView = true;

  /**
   * @param path the path
   * @param follow whether to follow a symbolic link at {@code path}
   * @return its type and identity
   * @throws IOException when it cannot be examined ({@link java.nio.file.NoSuchFileException}
   *     when it is gone)
   */
  static FileStat of(Path path, boolean follow) throws IOException {
    LinkOption[] options = follow ? FOLLOW : NO_FOLLOW;
    if (unixView) {
      try {
        Map<String, Object> a = Files.readAttributes(path, UNIX_ATTRIBUTES, options);
        Type type =
            Boolean.TRUE.equals(a.get("isSymbolicLink"))
                ? Type.SYMBOLIC_LINK
                : Boolean.TRUE.equals(a.get("isDirectory"))
                    ? Type.DIRECTORY
                    : Boolean.TRUE.equals(a.get("isRegularFile")) ? Type.REGULAR : Type.OTHER;
        return new FileStat(
            type,
            FileIdentity.observed(
                (Long) a.get("dev"),
                (Long) a.get("ino"),
                java.util.Objects.requireNonNull((Long) a.get("size"), "size"),
                java.util.Objects.requireNonNull((FileTime) a.get("lastModifiedTime"), "mtime")
                    .toInstant()));
      } catch (UnsupportedOperationException | IllegalArgumentException e) {
        unixView = false;
      }
    }
    BasicFileAttributes b = Files.readAttributes(path, BasicFileAttributes.class, options);
    Type type =
        b.isSymbolicLink()
            ? Type.SYMBOLIC_LINK
            : b.isDirectory() ? Type.DIRECTORY : b.isRegularFile() ? Type.REGULAR : Type.OTHER;
    return new FileStat(
        type, FileIdentity.observed(null, null, b.size(), b.lastModifiedTime().toInstant()));
  }

  /** @return true when both name the same file (device and inode, where known) */
  boolean sameFile(FileStat other) {
    return identity.device() != null
        && identity.inode() != null
        && identity.device().equals(other.identity.device())
        && identity.inode().equals(other.identity.inode());
  }
}
