package dev.rea.core.error;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The one checked exception REA's library throws: a typed failure carrying the fields of the
 * CONTRACT section 6 error object ({@code code}, {@code category}, {@code constraint},
 * {@code message}, {@code details}). Partial Evidence is never carried by an exception: an
 * inspection that fails after its header validated returns it beside the failure ({@code
 * dev.rea.core.evidence.Inspection.Failed}).
 *
 * <p>The message is bounded: callers must not put unbounded file content (keys, names, values)
 * into it; use {@link #truncateForMessage(String)}.
 */
public final class ReaException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Longest excerpt of file-controlled text echoed in a message, in characters. */
  public static final int MAX_ECHO_CHARS = 256;

  private final Constraint constraint;
  private final @Nullable String path;
  private final @Nullable Long offset;
  private final @Nullable String field;
  private final Map<String, Object> diagnostics;

  private ReaException(Builder b) {
    super(Objects.requireNonNull(b.message, "message"), b.cause);
    this.constraint = Objects.requireNonNull(b.constraint, "constraint");
    this.path = b.path;
    this.offset = b.offset;
    this.field = b.field;
    this.diagnostics = Collections.unmodifiableMap(new LinkedHashMap<>(b.diagnostics));
  }

  /**
   * @return the message, never null: every failure is built with one (the constructor checks it)
   */
  @Override
  public String getMessage() {
    return Objects.requireNonNull(super.getMessage(), "message");
  }

  /** @return a builder for a failure of the given constraint with the given message */
  public static Builder builder(Constraint constraint, String message) {
    return new Builder(constraint, message);
  }

  /**
   * A {@code file_format_rejected} failure at a byte offset of the file.
   *
   * @param field the field path that went wrong, e.g. {@code tensor[3].dims[1]}
   * @param offset the absolute byte offset of the field in the file (bytes from file start)
   * @param message what went wrong, without unbounded file content
   * @return the exception (not thrown)
   */
  public static ReaException rejected(String field, long offset, String message) {
    return builder(Constraint.FILE_FORMAT_REJECTED, message).field(field).offset(offset).build();
  }

  /**
   * The failure for a Java heap that ran out while Evidence was built, read or written: the
   * work needed more memory than this process has, which is a resource limit ({@code
   * resource_exhausted} / {@code retained_budget}), not a defect. Callers catch {@link
   * OutOfMemoryError} only at the top of a command or tool call, where everything the failed
   * work held is already unreachable.
   *
   * @param e the error
   * @return the exception (not thrown)
   */
  public static ReaException heapExhausted(OutOfMemoryError e) {
    long maxMiB = Runtime.getRuntime().maxMemory() >> 20;
    String reason = String.valueOf(e.getMessage());
    return builder(
            Constraint.RETAINED_BUDGET,
            "the Java heap ("
                + maxMiB
                + " MiB) ran out: this input needs more memory than the process has; give the JVM"
                + " a larger heap (for example JAVA_TOOL_OPTIONS=-Xmx2g)")
        .diagnostic("limit", "java_heap")
        .diagnostic("limit_bytes", Long.toString(Runtime.getRuntime().maxMemory()))
        .diagnostic("reason", reason)
        .build();
  }

  /** @return the constraint that failed */
  public Constraint constraint() {
    return constraint;
  }

  /** @return the public error code (derived from the constraint) */
  public ErrorCode code() {
    return constraint.code();
  }

  /** @return the error category (derived from the constraint) */
  public ErrorCategory category() {
    return constraint.category();
  }

  /** @return the selected path, when the failure concerns a file */
  public @Nullable String path() {
    return path;
  }

  /** @return the absolute byte offset in the file where it went wrong, if known */
  public @Nullable Long offset() {
    return offset;
  }

  /** @return the field path that went wrong, if known */
  public @Nullable String field() {
    return field;
  }

  /** @return extra machine-readable facts (insertion-ordered, unmodifiable) */
  public Map<String, Object> diagnostics() {
    return diagnostics;
  }

  /** @return a copy of this failure with the path filled in (if it had none) */
  public ReaException withPath(String selectedPath) {
    if (path != null) {
      return this;
    }
    return toBuilder().path(selectedPath).build();
  }

  /** @return a builder initialised with this failure's fields */
  public Builder toBuilder() {
    return toBuilder(getMessage());
  }

  /**
   * @param message the new message
   * @return a builder initialised with this failure's fields (path, offset, field, diagnostics,
   *     cause) and the given message
   */
  public Builder toBuilder(String message) {
    Builder b = new Builder(constraint, message);
    b.path = path;
    b.offset = offset;
    b.field = field;
    b.diagnostics.putAll(diagnostics);
    b.cause = getCause();
    return b;
  }

  /**
   * Shortens file-controlled text for use inside a message.
   *
   * @param text text taken from the file
   * @return at most {@link #MAX_ECHO_CHARS} characters, with an ellipsis and the original length
   *     when cut
   */
  public static String truncateForMessage(String text) {
    if (text.length() <= MAX_ECHO_CHARS) {
      return text;
    }
    return text.substring(0, MAX_ECHO_CHARS) + "... (" + text.length() + " chars)";
  }

  /** Builder for {@link ReaException}. */
  public static final class Builder {
    private final Constraint constraint;
    private final String message;
    private @Nullable String path;
    private @Nullable Long offset;
    private @Nullable String field;
    private final Map<String, Object> diagnostics = new LinkedHashMap<>();
    private @Nullable Throwable cause;

    private Builder(Constraint constraint, String message) {
      this.constraint = constraint;
      this.message = message;
    }

    /** Sets the selected path. */
    public Builder path(@Nullable String value) {
      this.path = value;
      return this;
    }

    /** Sets the absolute byte offset (bytes from the start of the file). */
    public Builder offset(long value) {
      this.offset = value;
      return this;
    }

    /** Sets the field path, e.g. {@code metadata[2].value}. */
    public Builder field(@Nullable String value) {
      this.field = value;
      return this;
    }

    /**
     * Adds a diagnostic entry. Values must be JSON-representable: String, Boolean, Integer,
     * Long (written as a JSON number), or a nested Map/List of those.
     */
    public Builder diagnostic(String key, Object value) {
      diagnostics.put(key, value);
      return this;
    }

    /** Records the underlying cause (kept for debugging; never printed to users). */
    public Builder cause(@Nullable Throwable value) {
      this.cause = value;
      return this;
    }

    /** @return the exception */
    public ReaException build() {
      return new ReaException(this);
    }
  }
}
