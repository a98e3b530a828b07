package dev.rea.core;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Whether one unit passes a check (CONTRACT section 12), and why not.
 *
 * @param path the unit's path; or, for a file whose name is not valid text in the locale's
 *     encoding, its {@code file:} URI with the name's bytes percent-encoded (as the error's {@code
 *     details.diagnostics.uri} gives it), which {@link Rea#sarifLog} names it by
 * @param ok true when nothing in {@link #reasons} was found
 * @param evidenceId the Evidence the verdict rests on, or null when the inspection failed
 *     before any
 * @param reasons why it fails, in the order found: the rejection, the digest, warnings,
 *     limitations
 */
public record Verdict(String path, boolean ok, @Nullable String evidenceId, List<Reason> reasons) {
  public Verdict {
    Objects.requireNonNull(path, "path");
    reasons = List.copyOf(reasons);
    if (ok != reasons.isEmpty()) {
      throw new IllegalArgumentException("ok exactly when there is no reason");
    }
  }

  /** What a reason is. */
  public enum Kind {
    /** The inspection failed: REA rejected the file, or could not read it. */
    REJECTION,
    /** The full SHA-256 is not the expected one. */
    DIGEST,
    /** A warning of the Evidence that the policy does not allow. */
    WARNING,
    /** A limitation of the Evidence, when the policy fails on limitations. */
    LIMITATION
  }

  /**
   * One reason a unit fails.
   *
   * @param kind what the reason is
   * @param code the error's constraint ({@code file_format_rejected}...), the warning's or
   *     limitation's code, or {@code sha256_mismatch}
   * @param message what was found
   * @param offset the byte offset in the file the reason points at, when known (a rejection)
   * @param field the field that failed, when known (a rejection)
   * @param file the file {@code offset} is in, when the reason names one: for a set, the member
   *     (or index) that failed, which is not the unit's path; or null (the unit's file)
   */
  public record Reason(
      Kind kind,
      String code,
      String message,
      @Nullable Long offset,
      @Nullable String field,
      @Nullable String file) {
    public Reason {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(code, "code");
      Objects.requireNonNull(message, "message");
    }

    /** A reason in the unit's own file ({@code file} null). */
    public Reason(
        Kind kind, String code, String message, @Nullable Long offset, @Nullable String field) {
      this(kind, code, message, offset, field, null);
    }
  }
}
