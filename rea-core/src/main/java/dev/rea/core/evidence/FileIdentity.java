package dev.rea.core.evidence;

import org.jspecify.annotations.Nullable;

/**
 * The selected file's identity as observed when it was opened (CONTRACT section 3,
 * {@code artifact.identity}).
 *
 * @param device the device ID ({@code unix:dev}) as a decimal string, or null where the file
 *     system does not report one
 * @param inode the inode number ({@code unix:ino}) as a decimal string, or null
 * @param size the file size in bytes
 * @param modified the last-modified time, RFC 3339 UTC with nanoseconds where available
 * @param verified true when the same identity was observed again after the last read
 */
public record FileIdentity(
    @Nullable String device, @Nullable String inode, long size, String modified, boolean verified) {
  /** @return a copy with {@code verified} set as given */
  public FileIdentity withVerified(boolean value) {
    return new FileIdentity(device, inode, size, modified, value);
  }
}
