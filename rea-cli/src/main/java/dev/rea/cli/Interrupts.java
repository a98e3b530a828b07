package dev.rea.cli;

import dev.rea.core.io.Cancellation;
import java.util.ArrayList;
import java.util.List;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Turns SIGINT and SIGTERM into cooperative cancellation while an inspection runs, so a full
 * hash stops cleanly, the file is closed, and partial Evidence is printed: exit status 130 for
 * SIGINT (CONTRACT section 1), 143 (128 + 15, the shell's convention) for SIGTERM, which the
 * contract leaves open. A second signal of either kind falls back to the JVM's default handler
 * (immediate exit, after shutdown hooks: an evidence file being written is then removed, never
 * left half-written).
 */
final class Interrupts implements AutoCloseable {
  private final List<Signal> signals = new ArrayList<>();
  private final List<SignalHandler> previous = new ArrayList<>();
  private volatile boolean terminated;

  private Interrupts() {}

  /** Installs the handlers; {@link #close()} restores the previous ones. */
  static Interrupts install(Cancellation cancellation) {
    Interrupts it = new Interrupts();
    it.handle("INT", cancellation, "interrupted (SIGINT)", false);
    it.handle("TERM", cancellation, "terminated (SIGTERM)", true);
    return it;
  }

  private void handle(String name, Cancellation cancellation, String reason, boolean term) {
    try {
      Signal sig = new Signal(name);
      SignalHandler[] prev = new SignalHandler[1];
      prev[0] =
          Signal.handle(
              sig,
              s -> {
                if (cancellation.isCancelled() && prev[0] != null) {
                  prev[0].handle(s);
                } else {
                  if (term) {
                    terminated = true;
                  }
                  cancellation.cancel(reason);
                }
              });
      signals.add(sig);
      previous.add(prev[0]);
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      // The signal is unknown here or reserved by the JVM: it keeps its default behaviour.
    }
  }

  /**
   * @param status the exit status of a run
   * @return 143 when the run was cancelled (130) by SIGTERM, else {@code status}
   */
  int exitStatus(int status) {
    return status == 130 && terminated ? 143 : status;
  }

  @Override
  public void close() {
    for (int i = 0; i < signals.size(); i++) {
      if (previous.get(i) != null) {
        try {
          Signal.handle(signals.get(i), previous.get(i));
        } catch (IllegalArgumentException e) {
          // nothing to restore
        }
      }
    }
  }
}
