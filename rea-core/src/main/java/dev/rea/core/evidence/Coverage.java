package dev.rea.core.evidence;

import java.util.Objects;

/**
 * What the record covers (CONTRACT section 3, {@code coverage}); each field is the JSON spelling.
 *
 * @param header {@code "complete"} or {@code "partial"}
 * @param storageSizes {@code "complete"} or {@code "partial"} (partial when any byte length or
 *     storage check is unknown)
 * @param ranges {@code "complete"} or {@code "partial"} (partial when any range end is unknown)
 * @param digest {@code "none"} (header hash only), {@code "complete"} or {@code "unknown"}
 * @param finalIdentity {@code "verified"} or {@code "unverified"}
 */
public record Coverage(
    String header, String storageSizes, String ranges, String digest, String finalIdentity) {
  public static final String COMPLETE = "complete";
  public static final String PARTIAL = "partial";
  public static final String NONE = "none";
  public static final String UNKNOWN = "unknown";
  public static final String VERIFIED = "verified";
  public static final String UNVERIFIED = "unverified";

  public Coverage {
    Objects.requireNonNull(header, "header");
    Objects.requireNonNull(storageSizes, "storageSizes");
    Objects.requireNonNull(ranges, "ranges");
    Objects.requireNonNull(digest, "digest");
    Objects.requireNonNull(finalIdentity, "finalIdentity");
  }
}
