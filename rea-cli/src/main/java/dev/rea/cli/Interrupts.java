package dev.rea.cli;

import dev.rea.core.io.Cancellation;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Turns SIGINT into cooperative cancellation while an inspection runs, so a full hash stops
 * cleanly, the file is closed, and partial Evidence is printed with exit status 130. A second
 * SIGINT falls back to the JVM's default handler (immediate exit).
 */
final class Interrupts implements AutoCloseable {
  private final SignalHandler previous;
  private final boolean installed;

  private Interrupts(SignalHandler previous, boolean installed) {
    this.previous = previous;
    this.installed = installed;
  }

  /** Installs the handler; {@link #close()} restores the previous one. */
  static Interrupts onSigint(Cancellation cancellation) {
    try {
      Signal sig = new Signal("INT");
      SignalHandler[] prev = new SignalHandler[1];
      prev[0] =
          Signal.handle(
              sig,
              s -> {
                if (cancellation.isCancelled() && prev[0] != null) {
                  prev[0].handle(s);
                } else {
                  cancellation.cancel("interrupted (SIGINT)");
                }
              });
      return new Interrupts(prev[0], true);
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      return new Interrupts(null, false);
    }
  }

  @Override
  public void close() {
    if (installed && previous != null) {
      try {
        Signal.handle(new Signal("INT"), previous);
      } catch (IllegalArgumentException e) {
        // nothing to restore
      }
    }
  }
}
