package dev.rea.core.evidence;

import java.util.Objects;

/**
 * What the record covers (CONTRACT section 3, {@code coverage}); each field is the JSON spelling.
 *
 * @param header {@code "complete"} or {@code "partial"}
 * @param storageSizes {@code "complete"}, {@code "partial"} (when any byte length or storage
 *     check is unknown) or {@code "assumed"} (all known, some resting on the request's layout
 *     assumption: CONTRACT section 12)
 * @param ranges {@code "complete"} or {@code "partial"} (partial when any range end is unknown)
 * @param digest {@code "none"} (header hash only), {@code "complete"} or {@code "unknown"}
 * @param finalIdentity {@code "verified"} or {@code "unverified"}
 */
public record Coverage(
    String header, String storageSizes, String ranges, String digest, String finalIdentity) {
  /** Everything of this kind was read and established. */
  public static final String COMPLETE = "complete";

  /** Some of it was not read, or some value of it is unknown. */
  public static final String PARTIAL = "partial";

  /**
   * {@code storage_sizes}: every byte length and storage check is known, some only under the
   * layout the request assumed ({@code request.assume_layout}; the {@code layout_assumed}
   * limitation lists them).
   */
  public static final String ASSUMED = "assumed";

  /** {@code digest}: only the header was hashed (the default, {@code --hash header}). */
  public static final String NONE = "none";

  /** {@code digest}: the record is partial (reading stopped), so no digest is established. */
  public static final String UNKNOWN = "unknown";

  /** {@code final_identity}: the file's identity after reading matched the one before. */
  public static final String VERIFIED = "verified";

  /**
   * {@code final_identity}: the record is partial, so the identity was not compared again after
   * reading.
   */
  public static final String UNVERIFIED = "unverified";

  /**
   * @throws NullPointerException if any field is null
   */
  public Coverage {
    Objects.requireNonNull(header, "header");
    Objects.requireNonNull(storageSizes, "storageSizes");
    Objects.requireNonNull(ranges, "ranges");
    Objects.requireNonNull(digest, "digest");
    Objects.requireNonNull(finalIdentity, "finalIdentity");
  }
}
