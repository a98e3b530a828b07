package dev.rea.core.internal.inspect;


import dev.rea.core.internal.io.FileAccess;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.Limits;
import dev.rea.core.testing.FaultyFileAccess;
import java.nio.file.Path;

/** Cancels an inspection at a chosen byte, as a SIGINT arriving during that read would. */
final class CancelAt {
  private CancelAt() {}

  /** What a cancelled inspection left: its failure and the seam it read through. */
  record Cancelled(Refusal failure, FaultyFileAccess access) {}

  /**
   * Inspects {@code p}; the read that reaches byte {@code at} cancels the inspection and reports
   * an interrupted read. The thread's interrupt flag is cleared afterwards.
   */
  static Cancelled inspect(Path p, long at, HashMode mode) {
    Cancellation cancel = new Cancellation();
    FaultyFileAccess access =
        new FaultyFileAccess(
            FileAccess.system(),
            at,
            () -> {
              cancel.cancel();
              return new java.nio.channels.ClosedByInterruptException();
            });
    Refusal e =
        Refusal.of(
            ModelInspector.withAccess(Limits.defaults(), access),
            p,
            mode,
            new ModelInspector.Listener() {},
            cancel);
    Thread.interrupted(); // clear the flag the interrupted read set
    return new Cancelled(e, access);
  }
}
