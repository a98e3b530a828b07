package dev.rea.core.error;

/**
 * The specific rule a failure broke (CONTRACT section 6, "constraints"). Each constraint fixes
 * its public {@link ErrorCode} and {@link ErrorCategory}, so a failure can never be reported with
 * a code that contradicts its constraint.
 */
public enum Constraint {
  // invalid_input / invalid_request
  CONFLICTING_CHOICES("conflicting_choices", ErrorCode.INVALID_INPUT, ErrorCategory.INVALID_REQUEST),
  RELATIVE_PATH("relative_path", ErrorCode.INVALID_INPUT, ErrorCategory.INVALID_REQUEST),
  BAD_VIEW("bad_view", ErrorCode.INVALID_INPUT, ErrorCategory.INVALID_REQUEST),
  EVIDENCE_REJECTED("evidence_rejected", ErrorCode.INVALID_INPUT, ErrorCategory.INVALID_REQUEST),
  UNKNOWN_EVIDENCE("unknown_evidence", ErrorCode.INVALID_INPUT, ErrorCategory.INVALID_REQUEST),
  /** A request argument that is missing or malformed (e.g. an unknown hash mode). */
  BAD_ARGUMENT("bad_argument", ErrorCode.INVALID_INPUT, ErrorCategory.INVALID_REQUEST),

  // target_unavailable / unsupported_target
  FILE_FORMAT_REJECTED(
      "file_format_rejected", ErrorCode.TARGET_UNAVAILABLE, ErrorCategory.UNSUPPORTED_TARGET),
  UNSUPPORTED_FORMAT(
      "unsupported_format", ErrorCode.TARGET_UNAVAILABLE, ErrorCategory.UNSUPPORTED_TARGET),
  UNSUPPORTED_VERSION(
      "unsupported_version", ErrorCode.TARGET_UNAVAILABLE, ErrorCategory.UNSUPPORTED_TARGET),

  // target_unavailable / missing_target
  NOT_FOUND("not_found", ErrorCode.TARGET_UNAVAILABLE, ErrorCategory.MISSING_TARGET),
  NOT_REGULAR_FILE("not_regular_file", ErrorCode.TARGET_UNAVAILABLE, ErrorCategory.MISSING_TARGET),
  PERMISSION_DENIED(
      "permission_denied", ErrorCode.TARGET_UNAVAILABLE, ErrorCategory.MISSING_TARGET),

  // execution_failure / host_failure
  IO_ERROR("io_error", ErrorCode.EXECUTION_FAILURE, ErrorCategory.HOST_FAILURE),
  TARGET_CHANGED("target_changed", ErrorCode.EXECUTION_FAILURE, ErrorCategory.HOST_FAILURE),

  // resource_exhausted / resource_limit
  HEADER_CEILING("header_ceiling", ErrorCode.RESOURCE_EXHAUSTED, ErrorCategory.RESOURCE_LIMIT),
  RETAINED_BUDGET("retained_budget", ErrorCode.RESOURCE_EXHAUSTED, ErrorCategory.RESOURCE_LIMIT),
  NESTING_LIMIT("nesting_limit", ErrorCode.RESOURCE_EXHAUSTED, ErrorCategory.RESOURCE_LIMIT),
  PROVIDER_BUSY("provider_busy", ErrorCode.RESOURCE_EXHAUSTED, ErrorCategory.RESOURCE_LIMIT),
  /** An MCP message larger than the server's inbound line limit (rea-mcp {@code InboundFilter}). */
  REQUEST_SIZE("request_size", ErrorCode.RESOURCE_EXHAUSTED, ErrorCategory.RESOURCE_LIMIT),

  // cancelled / cancelled
  CANCELLED("cancelled", ErrorCode.CANCELLED, ErrorCategory.CANCELLED);

  private final String wireName;
  private final ErrorCode code;
  private final ErrorCategory category;

  Constraint(String wireName, ErrorCode code, ErrorCategory category) {
    this.wireName = wireName;
    this.code = code;
    this.category = category;
  }

  /** @return the JSON spelling, e.g. {@code "file_format_rejected"} */
  public String wireName() {
    return wireName;
  }

  /** @return the public code this constraint is reported under */
  public ErrorCode code() {
    return code;
  }

  /** @return the category this constraint is reported under */
  public ErrorCategory category() {
    return category;
  }
}
