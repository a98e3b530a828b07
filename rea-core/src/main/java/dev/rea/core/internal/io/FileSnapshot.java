package dev.rea.core.internal.io;

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
   * A snapshot of a regular file known only by what its caller observed ({@code
   * dev.rea.core.source.SourceIdentity}): no inode change time.
   *
   * @param size size in bytes
   * @param modified last-modified time
   * @param device device number, or null
   * @param inode inode number, or null
   * @return the snapshot
   */
  public static FileSnapshot ofRegularFile(
      long size, java.time.Instant modified, @Nullable Long device, @Nullable Long inode) {
    long nanos;
    try {
      nanos =
          Math.addExact(
              Math.multiplyExact(modified.getEpochSecond(), 1_000_000_000L), modified.getNano());
    } catch (ArithmeticException beyondYear2262) {
      // Nanoseconds since the epoch fit a long until 2262; beyond, the text still tells apart.
      nanos = modified.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return new FileSnapshot(
        true, false, size, device, inode, nanos, SystemFileAccess.formatTime(modified), null);
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
        && modifiedText.equals(other.modifiedText)
        && java.util.Objects.equals(changedNanos, other.changedNanos);
  }

  /**
   * Names what {@link #sameIdentity} found different, for messages. Another device or inode means
   * the path names another file, whose other attributes say nothing about this one: it is named
   * alone.
   *
   * @param later a later snapshot of the same path
   * @return e.g. {@code "modification time (2020-01-01T00:00:00.000000000Z, now
   *     2026-...Z) and inode change time"}, or null when {@link #sameIdentity} holds
   */
  public @Nullable String changesTo(FileSnapshot later) {
    if (!java.util.Objects.equals(device, later.device)
        || !java.util.Objects.equals(inode, later.inode)) {
      return "identity (device and inode: the path now names another file)";
    }
    java.util.List<String> parts = new java.util.ArrayList<>(3);
    if (size != later.size) {
      parts.add("size (" + size + " bytes, now " + later.size + ")");
    }
    if (modifiedNanos != later.modifiedNanos || !modifiedText.equals(later.modifiedText)) {
      parts.add("modification time (" + modifiedText + ", now " + later.modifiedText + ")");
    }
    if (!java.util.Objects.equals(changedNanos, later.changedNanos)) {
      parts.add("inode change time");
    }
    if (parts.isEmpty()) {
      return null;
    }
    String last = parts.remove(parts.size() - 1);
    return parts.isEmpty() ? last : String.join(", ", parts) + " and " + last;
  }
}
