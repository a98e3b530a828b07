package dev.rea.mcp;

import dev.rea.core.options.Cancellation;
import java.util.ArrayDeque;
import java.util.Deque;
import org.jspecify.annotations.Nullable;

/**
 * The server's one inspection slot and the cancellation of the inspection in it (CONTRACT
 * section 7: one inspection at a time per server; {@code notifications/cancelled} cancels a
 * running inspection).
 *
 * <p>A cancellation can arrive before its request's handler has started (the SDK dispatches
 * handlers on worker threads); such ids are remembered (the last {@value #EARLY_CANCELS}) and
 * applied when that request takes the slot. Thread-safe.
 */
final class Inspections {
  static final int EARLY_CANCELS = 64;

  /** A held slot: release it with {@link #finish(Ticket)}. */
  static final class Ticket {
    final @Nullable String requestKey;
    final Cancellation cancellation = new Cancellation();

    private Ticket(@Nullable String requestKey) {
      this.requestKey = requestKey;
    }
  }

  private @Nullable Ticket running;
  private final Deque<String> early = new ArrayDeque<>();
  private boolean closed;

  /**
   * Takes the slot.
   *
   * @param requestKey the JSON-RPC id key of the request, when known
   * @return the ticket, or null when an inspection is already running
   */
  synchronized @Nullable Ticket tryStart(@Nullable String requestKey) {
    if (running != null) {
      return null;
    }
    Ticket t = new Ticket(requestKey);
    running = t;
    if (closed) {
      t.cancellation.cancel("cancelled: the client closed the server's input");
    } else if (requestKey != null && early.remove(requestKey)) {
      t.cancellation.cancel("cancelled by the client (notifications/cancelled)");
    }
    return t;
  }

  /** Releases the slot held by {@code t}. */
  synchronized void finish(Ticket t) {
    if (running == t) {
      running = null;
    }
  }

  /** Cancels the inspection of request {@code requestKey}, now or when it starts. */
  synchronized void cancel(String requestKey) {
    if (running != null && requestKey.equals(running.requestKey)) {
      running.cancellation.cancel("cancelled by the client (notifications/cancelled)");
      return;
    }
    if (early.size() == EARLY_CANCELS) {
      early.removeFirst();
    }
    early.addLast(requestKey);
  }

  /** Cancels the running inspection and every later one: the input has ended. */
  synchronized void close() {
    closed = true;
    if (running != null) {
      running.cancellation.cancel("cancelled: the client closed the server's input");
    }
  }

  /** @return true while an inspection holds the slot */
  synchronized boolean busy() {
    return running != null;
  }
}
