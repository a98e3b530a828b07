package dev.rea.core.io;

import org.jspecify.annotations.Nullable;

/**
 * File attributes observed at one moment, used to detect replacement or modification between
 * opening the selected path and completing the inspection (specification, "Identity and
 * reads"). Equality of two snapshots is the identity check.
 *
 * @param regularFile true for a regular file (after following links)
 * @param directory true for a directory
 * @param size size in bytes
 * @param device {@code unix:dev}, or null where unavailable
 * @param inode {@code unix:ino}, or null where unavailable
 * @param modifiedNanos last-modified time in nanoseconds since the epoch
 * @param modifiedText last-modified time as RFC 3339 UTC text
 * @param changedNanos inode change time ({@code unix:ctime}) in nanoseconds since the epoch, or
 *     null where unavailable. Unlike the modification time it cannot be set back by a program
 *     ({@code touch -r} changes it), so a rewrite that restores size and mtime is still seen.
 */
public record FileSnapshot(
    boolean regularFile,
    boolean directory,
    long size,
    @Nullable Long device,
    @Nullable Long inode,
    long modifiedNanos,
    String modifiedText,
    @Nullable Long changedNanos) {

  /** A snapshot without an inode change time (file systems or test doubles that lack one). */
  public FileSnapshot(
      boolean regularFile,
      boolean directory,
      long size,
      @Nullable Long device,
      @Nullable Long inode,
      long modifiedNanos,
      String modifiedText) {
    this(regularFile, directory, size, device, inode, modifiedNanos, modifiedText, null);
  }

  /**
   * @return true when both snapshots describe the same file (device, inode) with the same size,
   *     modification time and inode change time
   */
  public boolean sameIdentity(FileSnapshot other) {
    return size == other.size
        && java.util.Objects.equals(device, other.device)
        && java.util.Objects.equals(inode, other.inode)
        && modifiedNanos == other.modifiedNanos
        && java.util.Objects.equals(changedNanos, other.changedNanos);
  }
}
