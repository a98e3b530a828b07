package dev.rea.cli.scan;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ErrorCategory;
import dev.rea.core.error.ReaException;
import org.jspecify.annotations.Nullable;

/**
 * A scan line's {@code status} (CONTRACT section 10), and how a failed inspection maps to it.
 */
public enum UnitStatus {
  /** Complete Evidence. */
  COMPLETE("complete"),
  /** The header validated, then the inspection failed (an I/O error during a full hash). */
  PARTIAL("partial"),
  /** The file is a model REA refuses: malformed, unsupported, or beyond a limit. */
  REJECTED("rejected"),
  /** The host failed: unreadable, vanished, changed while read, an I/O error. */
  FAILED("failed"),
  /** Not a model (or a symbolic link, or a special file): listed only with --list-skipped. */
  SKIPPED("skipped");

  private final String wire;

  UnitStatus(String wire) {
    this.wire = wire;
  }

  /** @return the line's spelling */
  public String wire() {
    return wire;
  }

  /** @return a number from 0 to 7 naming the status (for compact tables) */
  public int code() {
    return switch (this) {
      case COMPLETE -> 0;
      case PARTIAL -> 1;
      case REJECTED -> 2;
      case FAILED -> 3;
      case SKIPPED -> 4;
    };
  }

  /**
   * @param code a {@link #code()}
   * @return the status it names
   * @throws IllegalArgumentException for another number
   */
  public static UnitStatus ofCode(int code) {
    for (UnitStatus s : values()) {
      if (s.code() == code) {
        return s;
      }
    }
    throw new IllegalArgumentException("no status has the code " + code);
  }

  /** @return the status spelled {@code wire}, or null */
  public static @Nullable UnitStatus fromWire(String wire) {
    for (UnitStatus s : values()) {
      if (s.wire.equals(wire)) {
        return s;
      }
    }
    return null;
  }

  /**
   * The status of a failed inspection.
   *
   * <ul>
   *   <li>{@code target_changed}: {@link #FAILED}, whatever was read: the file changed under the
   *       worker, so no Evidence of it stands (the issue: "never a wrong complete one").
   *   <li>Other failures after the header validated (partial Evidence retained): {@link
   *       #PARTIAL}.
   *   <li>{@code unsupported_target} ({@code file_format_rejected}, {@code unsupported_format},
   *       {@code unsupported_version}) and {@code resource_limit} (header ceiling, nesting,
   *       retained budget): {@link #REJECTED}: the file is refused as it is. A Java heap that ran
   *       out ({@code diagnostics.limit: "java_heap"}) is the host's: {@link #FAILED}.
   *   <li>Everything else ({@code missing_target}, {@code host_failure}, an invalid path):
   *       {@link #FAILED}.
   * </ul>
   *
   * @param error the failure (not {@code cancelled}: a cancelled unit has no line)
   * @param partial whether partial Evidence was retained
   * @return the status
   */
  public static UnitStatus ofFailure(ReaException error, boolean partial) {
    if (error.constraint() == Constraint.TARGET_CHANGED) {
      return FAILED;
    }
    if (partial) {
      return PARTIAL;
    }
    ErrorCategory c = error.category();
    if (c == ErrorCategory.UNSUPPORTED_TARGET) {
      return REJECTED;
    }
    if (c == ErrorCategory.RESOURCE_LIMIT && !"java_heap".equals(error.diagnostics().get("limit"))) {
      return REJECTED;
    }
    return FAILED;
  }

  /** @return true for a status that makes the scan's exit status 1 */
  public boolean troubles() {
    return this == PARTIAL || this == REJECTED || this == FAILED;
  }
}
