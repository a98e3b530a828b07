package dev.rea.core.evidence;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
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
  /** RFC 3339 UTC with nine fraction digits, the form of {@code modified}. */
  private static final DateTimeFormatter MODIFIED =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.nnnnnnnnn'Z'").withZone(ZoneOffset.UTC);

  /**
   * The identity of a file as REA records it (not yet verified by a second observation): for a
   * caller that observed the file itself and must compare its observation with a recorded one
   * ({@code rea scan --resume}, CONTRACT section 10), field for field.
   *
   * @param device the device ID, or null where the file system does not report one; written as
   *     an unsigned decimal string
   * @param inode the inode number, or null; written as an unsigned decimal string
   * @param size the file size in bytes
   * @param modified the last-modified time
   * @return the identity with {@code verified} false
   */
  public static FileIdentity observed(
      @Nullable Long device, @Nullable Long inode, long size, Instant modified) {
    return new FileIdentity(
        device == null ? null : Long.toUnsignedString(device),
        inode == null ? null : Long.toUnsignedString(inode),
        size,
        modifiedText(modified),
        false);
  }

  /**
   * @param modified a last-modified time
   * @return it as {@code modified} is written: RFC 3339 UTC with nine fraction digits ({@code
   *     2026-01-02T03:04:05.123456789Z})
   */
  public static String modifiedText(Instant modified) {
    return MODIFIED.format(modified);
  }

  /** @return a copy with {@code verified} set as given */
  public FileIdentity withVerified(boolean value) {
    return new FileIdentity(device, inode, size, modified, value);
  }
}
