package dev.rea.cli;

import dev.rea.core.options.Cancellation;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Turns SIGINT and SIGTERM into cooperative cancellation while an inspection runs, so a full
 * hash stops cleanly, the file is closed, and partial Evidence is printed: exit status 130 for
 * SIGINT (CONTRACT section 1), 143 (128 + 15, the shell's convention) for SIGTERM, which the
 * contract leaves open. A second signal of either kind falls back to the JVM's default handler
 * (immediate exit, after shutdown hooks: an evidence file being written is then removed, never
 * left half-written).
 *
 * <p>A read the operating system does not interrupt (a hung network file system, a device file
 * that blocks) would keep a cancelled run waiting for ever, and a supervisor that sends one
 * SIGTERM and waits would wait with it: when the run has not stopped {@link #GRACE_MILLIS} after
 * the first signal, the process says so on stderr and exits with the signal's status (shutdown
 * hooks run, as for a second signal).
 *
 * <p>A signal that arrives after {@code main} starts but before the inspection installs its
 * handlers ({@link #early}: picocli builds its model, the file is examined) is kept and cancels
 * the inspection as soon as it installs them, so {@code --json} still prints its one error object
 * instead of the JVM exiting with nothing on stdout. Only a signal during the JVM's own start,
 * before {@code main}, still ends the process at once.
 */
final class Interrupts implements AutoCloseable {
  /** The first signal ({@code "INT"} or {@code "TERM"}) that came before {@link #install}. */
  private static final java.util.concurrent.atomic.AtomicReference<String> EARLY =
      new java.util.concurrent.atomic.AtomicReference<>();

  /** The JVM's own handlers, replaced by {@link #early} until {@link #install} restores them. */
  private static final java.util.Map<String, SignalHandler> ORIGINAL =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** How long a cancelled run may take to stop before the process exits anyway: 10 s. */
  static final long GRACE_MILLIS = 10_000;

  private final List<Signal> signals = new ArrayList<>();
  private final List<SignalHandler> previous = new ArrayList<>();
  private final long graceMillis;
  private final java.util.function.IntConsumer exit;
  private final java.util.concurrent.atomic.AtomicBoolean watching =
      new java.util.concurrent.atomic.AtomicBoolean();
  private final Cancellation cancellation;
  private volatile boolean terminated;
  private volatile boolean closed;

  private Interrupts(
      Cancellation cancellation, long graceMillis, java.util.function.IntConsumer exit) {
    this.cancellation = cancellation;
    this.graceMillis = graceMillis;
    this.exit = exit;
  }

  /**
   * From the start of {@code main}, for a command that installs handlers later: keeps the first
   * SIGINT or SIGTERM for {@link #install}; a second goes to the JVM's handler (exit).
   */
  static void early() {
    for (String name : new String[] {"INT", "TERM"}) {
      try {
        SignalHandler[] jvm = new SignalHandler[1];
        jvm[0] =
            Signal.handle(
                new Signal(name),
                s -> {
                  if (!EARLY.compareAndSet(null, name) && jvm[0] != null) {
                    jvm[0].handle(s);
                  }
                });
        if (jvm[0] != null) {
          ORIGINAL.put(name, jvm[0]);
        }
      } catch (IllegalArgumentException | UnsupportedOperationException e) {
        // The signal is unknown here or reserved by the JVM: it keeps its default behaviour.
      }
    }
  }

  /** @return the signal kept by {@link #early} and not yet taken, or null (for tests) */
  static @Nullable String pendingEarly() {
    return EARLY.get();
  }

  /** Puts the JVM's handlers back and returns the signal kept by {@link #early}, or null. */
  private static @Nullable String takeEarly() {
    for (java.util.Map.Entry<String, SignalHandler> e : ORIGINAL.entrySet()) {
      try {
        Signal.handle(new Signal(e.getKey()), e.getValue());
      } catch (IllegalArgumentException ignored) {
        // nothing to restore
      }
    }
    ORIGINAL.clear();
    return EARLY.getAndSet(null);
  }

  /**
   * Installs the handlers; {@link #close()} restores the previous ones. A signal kept since
   * {@link #early} cancels at once.
   */
  static Interrupts install(Cancellation cancellation) {
    return install(cancellation, GRACE_MILLIS, status -> Runtime.getRuntime().exit(status));
  }

  /**
   * As {@link #install(Cancellation)}, with the grace period and the way to exit (for tests).
   *
   * @param graceMillis how long a cancelled run may take to stop, in milliseconds
   * @param exit called with 130 or 143 when it has not stopped by then
   */
  static Interrupts install(
      Cancellation cancellation, long graceMillis, java.util.function.IntConsumer exit) {
    String pending = takeEarly();
    Interrupts it = new Interrupts(cancellation, graceMillis, exit);
    it.handle("INT", "interrupted (SIGINT)", false);
    it.handle("TERM", "terminated (SIGTERM)", true);
    if ("TERM".equals(pending)) {
      it.signalled("terminated (SIGTERM)", true);
    } else if ("INT".equals(pending)) {
      it.signalled("interrupted (SIGINT)", false);
    }
    return it;
  }

  /**
   * The first signal: cancels the run, and starts the watch that ends the process when the run
   * has not stopped within the grace period.
   */
  void signalled(String reason, boolean term) {
    if (term) {
      terminated = true;
    }
    cancellation.cancel(reason);
    if (!watching.compareAndSet(false, true)) {
      return;
    }
    Thread watch =
        new Thread(
            () -> {
              try {
                Thread.sleep(graceMillis);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
              }
              if (!closed) {
                System.err.println(
                    "rea: "
                        + reason
                        + ", but the run has not stopped "
                        + (graceMillis / 1000.0)
                        + " s later (a read the system does not interrupt: a hung network file,"
                        + " a device); exiting without its output");
                System.err.flush();
                exit.accept(terminated ? 143 : 130);
              }
            },
            "rea-cancel-watch");
    watch.setDaemon(true);
    watch.start();
  }

  private void handle(String name, String reason, boolean term) {
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
                  signalled(reason, term);
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
    closed = true;
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
