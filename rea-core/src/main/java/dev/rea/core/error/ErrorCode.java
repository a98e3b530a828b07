package dev.rea.core.error;

/**
 * Public error codes of CONTRACT section 6, with the CLI exit status of CONTRACT section 1.
 *
 * <p>The wire name ({@link #wireName()}) is what appears in {@code error.code}.
 */
public enum ErrorCode {
  /** The request itself is wrong: exit status 2. */
  INVALID_INPUT("invalid_input", 2),
  /** The selected file cannot be inspected (missing, unreadable, not a supported model): exit 3. */
  TARGET_UNAVAILABLE("target_unavailable", 3),
  /** The host failed while reading a valid selection (EIO, EMFILE, file changed): exit 4. */
  EXECUTION_FAILURE("execution_failure", 4),
  /** A configured limit was reached (header ceiling, retained budget, nesting, busy): exit 5. */
  RESOURCE_EXHAUSTED("resource_exhausted", 5),
  /** The work was cancelled (SIGINT on the CLI, {@code notifications/cancelled} over MCP): 130. */
  CANCELLED("cancelled", 130);

  private final String wireName;
  private final int exitStatus;

  ErrorCode(String wireName, int exitStatus) {
    this.wireName = wireName;
    this.exitStatus = exitStatus;
  }

  /** @return the JSON spelling, e.g. {@code "target_unavailable"} */
  public String wireName() {
    return wireName;
  }

  /** @return the CLI exit status for this code (CONTRACT section 1) */
  public int exitStatus() {
    return exitStatus;
  }
}
