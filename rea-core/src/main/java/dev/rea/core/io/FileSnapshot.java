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
 */
public record FileSnapshot(
    boolean regularFile,
    boolean directory,
    long size,
    @Nullable Long device,
    @Nullable Long inode,
    long modifiedNanos,
    String modifiedText) {

  /** @return true when both snapshots describe the same file with the same size and mtime */
  public boolean sameIdentity(FileSnapshot other) {
    return size == other.size
        && java.util.Objects.equals(device, other.device)
        && java.util.Objects.equals(inode, other.inode)
        && modifiedNanos == other.modifiedNanos;
  }
}
