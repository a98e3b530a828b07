package dev.rea.core.evidence;

import java.util.Objects;

/**
 * A noteworthy fact that does not limit what was established (CONTRACT section 3).
 *
 * @param code stable machine code, e.g. {@code removed_type}
 * @param message human explanation
 */
public record Warning(String code, String message) {
  public Warning {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
  }
}
