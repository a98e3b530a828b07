package dev.rea.core.error;

/** Error categories of CONTRACT section 6; {@link #wireName()} is the JSON spelling. */
public enum ErrorCategory {
  /** The request itself is wrong: options, view, arguments or Evidence read back. */
  INVALID_REQUEST("invalid_request"),
  /** The target is a file REA does not accept: rejected header, other format, other version. */
  UNSUPPORTED_TARGET("unsupported_target"),
  /** The target cannot be opened as a regular, readable file. */
  MISSING_TARGET("missing_target"),
  /** The host failed underneath REA, or the file changed while it was read. */
  HOST_FAILURE("host_failure"),
  /** A bound REA keeps on memory, nesting or concurrency would be passed. */
  RESOURCE_LIMIT("resource_limit"),
  /** The work was cancelled. */
  CANCELLED("cancelled");

  private final String wireName;

  ErrorCategory(String wireName) {
    this.wireName = wireName;
  }

  /** @return the JSON spelling, e.g. {@code "unsupported_target"} */
  public String wireName() {
    return wireName;
  }
}
