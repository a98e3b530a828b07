package dev.rea.core.options;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;

/**
 * A cooperative cancellation flag, checked by the readers between buffer fills and by the full
 * hash loop between chunks. Thread-safe: {@link #cancel()} may be called from any thread (a
 * SIGINT handler, an MCP {@code notifications/cancelled} handler).
 */
public final class Cancellation {
  private volatile boolean cancelled;
  private volatile String reason = "cancelled";

  /** A token that is never cancelled. */
  public static Cancellation none() {
    return new Cancellation();
  }

  /** Requests cancellation. Idempotent. */
  public void cancel() {
    cancelled = true;
  }

  /** Requests cancellation with a reason shown in the error message. */
  public void cancel(String why) {
    reason = why;
    cancelled = true;
  }

  /** @return true once {@link #cancel()} has been called */
  public boolean isCancelled() {
    return cancelled;
  }

  /**
   * Throws when cancellation was requested.
   *
   * @throws ReaException {@code cancelled} / {@code cancelled}
   */
  public void check() throws ReaException {
    if (cancelled) {
      throw ReaException.builder(Constraint.CANCELLED, "inspection " + reason).build();
    }
  }
}
