package dev.rea.core.error;

/** Error categories of CONTRACT section 6; {@link #wireName()} is the JSON spelling. */
public enum ErrorCategory {
  INVALID_REQUEST("invalid_request"),
  UNSUPPORTED_TARGET("unsupported_target"),
  MISSING_TARGET("missing_target"),
  HOST_FAILURE("host_failure"),
  RESOURCE_LIMIT("resource_limit"),
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
