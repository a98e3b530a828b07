package dev.rea.core.source;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What identifies one version of a file that is not on the local file system (or that the
 * caller has already opened): its size, its modification time and, where the file system has
 * them, device and inode numbers. REA compares the identity observed before the read with the
 * one observed after it; any difference makes the inspection fail with {@code
 * execution_failure} / {@code target_changed} rather than describe a file that changed under it
 * (specification, "Identity and reads"; CONTRACT section 10 for Hadoop file systems, whose
 * identity is length and modification time).
 *
 * @param size the file size in bytes
 * @param modified the last-modification time (precision as the file system gives it)
 * @param device the device number, or null where the file system has none
 * @param inode the inode or file ID, or null where the file system has none
 */
public record SourceIdentity(
    long size, Instant modified, @Nullable Long device, @Nullable Long inode) {
  public SourceIdentity {
    if (size < 0) {
      throw new IllegalArgumentException("size must not be negative: " + size);
    }
    Objects.requireNonNull(modified, "modified");
  }

  /** @return an identity of size and modification time alone */
  public static SourceIdentity of(long size, Instant modified) {
    return new SourceIdentity(size, modified, null, null);
  }
}
