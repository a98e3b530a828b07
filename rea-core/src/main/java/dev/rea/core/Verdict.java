package dev.rea.core;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Whether one unit passes a check (CONTRACT section 12), and why not.
 *
 * @param path the unit's path
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

  /**
   * One reason a unit fails.
   *
   * @param code the error's constraint ({@code file_format_rejected}...), the warning's or
   *     limitation's code, or {@code sha256_mismatch}
   * @param message what was found
   * @param offset the byte offset in the file the reason points at, when known (a rejection)
   */
  public record Reason(String code, String message, @Nullable Long offset) {
    public Reason {
      Objects.requireNonNull(code, "code");
      Objects.requireNonNull(message, "message");
    }
  }
}
