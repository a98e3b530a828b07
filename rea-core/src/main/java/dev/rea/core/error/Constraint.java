package dev.rea.core.error;

/**
 * The specific rule a failure broke (CONTRACT section 6, "constraints"). Each constraint fixes
 * its public {@link ErrorCode} and {@link ErrorCategory}, so a failure can never be reported with
 * a code that contradicts its constraint.
 */
public enum Constraint {
  // invalid_input / invalid_request
  /**
   * Options that cannot be used together, e.g. {@code --view} or {@code --detail summary} with
   * {@code --detail complete} (CONTRACT section 1).
   */
  CONFLICTING_CHOICES("conflicting_choices", ErrorCode.INVALID_INPUT, ErrorCategory.INVALID_REQUEST),
  /** A model path that must be absolute and is not (the MCP {@code path} argument). */
  RELATIVE_PATH("relative_path", ErrorCode.INVALID_INPUT, ErrorCategory.INVALID_REQUEST),
  /**
   * A view object that is malformed or asks for something the view surface does not offer
   * (collection, filter, field, offset, limit).
   */
  BAD_VIEW("bad_view", ErrorCode.INVALID_INPUT, ErrorCategory.INVALID_REQUEST),
  /**
   * Evidence read back that fails its schema, {@code evidence_id}, signature, positional indices or
   * uniqueness, reported before anything is indexed (CONTRACT section 5).
   */
  EVIDENCE_REJECTED("evidence_rejected", ErrorCode.INVALID_INPUT, ErrorCategory.INVALID_REQUEST),
  /** An {@code evidence_id} that names no retained or imported record. */
  UNKNOWN_EVIDENCE("unknown_evidence", ErrorCode.INVALID_INPUT, ErrorCategory.INVALID_REQUEST),
  /** A request argument that is missing or malformed (e.g. an unknown hash mode). */
  BAD_ARGUMENT("bad_argument", ErrorCode.INVALID_INPUT, ErrorCategory.INVALID_REQUEST),
  /**
   * A directory given as a model set that holds several models (CONTRACT section 9); the
   * diagnostics list them ({@code units}).
   */
  AMBIGUOUS_SET("ambiguous_set", ErrorCode.INVALID_INPUT, ErrorCategory.INVALID_REQUEST),

  // target_unavailable / unsupported_target
  /**
   * A model header that breaks its format's rules; the message names the field and byte offset
   * (CONTRACT sections 6 and 8).
   */
  FILE_FORMAT_REJECTED(
      "file_format_rejected", ErrorCode.TARGET_UNAVAILABLE, ErrorCategory.UNSUPPORTED_TARGET),
  /**
   * A file that is neither GGUF nor safetensors by its content; recognised non-models (ZIP, pickle,
   * GGML/GGJT, Git LFS pointers, HTML) get a hint.
   */
  UNSUPPORTED_FORMAT(
      "unsupported_format", ErrorCode.TARGET_UNAVAILABLE, ErrorCategory.UNSUPPORTED_TARGET),
  /**
   * A GGUF version REA does not read (v1, big-endian v2, anything but v2 and v3), with the four
   * version bytes and both UINT32 readings.
   */
  UNSUPPORTED_VERSION(
      "unsupported_version", ErrorCode.TARGET_UNAVAILABLE, ErrorCategory.UNSUPPORTED_TARGET),

  /**
   * A model set whose members contradict each other or their index (CONTRACT section 9); up to
   * 32 contradictions, each naming member, tensor and field, in {@code
   * details.diagnostics.contradictions}.
   */
  SET_REJECTED("set_rejected", ErrorCode.TARGET_UNAVAILABLE, ErrorCategory.UNSUPPORTED_TARGET),

  // target_unavailable / missing_target
  /** No file at the given path. */
  NOT_FOUND("not_found", ErrorCode.TARGET_UNAVAILABLE, ErrorCategory.MISSING_TARGET),
  /** The path names a directory or another file that is not a regular file. */
  NOT_REGULAR_FILE("not_regular_file", ErrorCode.TARGET_UNAVAILABLE, ErrorCategory.MISSING_TARGET),
  /** The file exists but may not be read. */
  PERMISSION_DENIED(
      "permission_denied", ErrorCode.TARGET_UNAVAILABLE, ErrorCategory.MISSING_TARGET),

  // execution_failure / host_failure
  /**
   * The host failed a read or write (EIO, EMFILE and the like); path and reason in the diagnostics.
   */
  IO_ERROR("io_error", ErrorCode.EXECUTION_FAILURE, ErrorCategory.HOST_FAILURE),
  /**
   * The model or Evidence file changed while it was opened or read (replaced, grown or shortened).
   */
  TARGET_CHANGED("target_changed", ErrorCode.EXECUTION_FAILURE, ErrorCategory.HOST_FAILURE),

  // resource_exhausted / resource_limit
  /**
   * A declared length that fits the file but would take the header past 100,000,000 bytes (CONTRACT
   * section 8), refused before anything is allocated from it.
   */
  HEADER_CEILING("header_ceiling", ErrorCode.RESOURCE_EXHAUSTED, ErrorCategory.RESOURCE_LIMIT),
  /**
   * A record whose retained representation would pass the budget every record REA writes or reads
   * back is bounded by.
   */
  RETAINED_BUDGET("retained_budget", ErrorCode.RESOURCE_EXHAUSTED, ErrorCategory.RESOURCE_LIMIT),
  /**
   * Containers nested deeper than allowed: GGUF ARRAY level 33, safetensors JSON depth 33 (CONTRACT
   * section 8).
   */
  NESTING_LIMIT("nesting_limit", ErrorCode.RESOURCE_EXHAUSTED, ErrorCategory.RESOURCE_LIMIT),
  /** A second inspection asked of an MCP server while one is running (views keep answering). */
  PROVIDER_BUSY("provider_busy", ErrorCode.RESOURCE_EXHAUSTED, ErrorCategory.RESOURCE_LIMIT),
  /** An MCP message larger than the server's inbound line limit (rea-mcp {@code InboundFilter}). */
  REQUEST_SIZE("request_size", ErrorCode.RESOURCE_EXHAUSTED, ErrorCategory.RESOURCE_LIMIT),

  // cancelled / cancelled
  /** The work was cancelled (SIGINT, SIGTERM, or MCP {@code notifications/cancelled}). */
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
