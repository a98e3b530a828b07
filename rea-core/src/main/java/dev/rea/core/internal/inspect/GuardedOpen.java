package dev.rea.core.internal.inspect;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.io.ConfinedFileAccess;
import dev.rea.core.internal.io.FileAccess;
import dev.rea.core.internal.io.FileSnapshot;
import dev.rea.core.options.Cancellation;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * Opens the selected file without letting a blocking {@code open(2)} hold the inspection. The
 * path was examined and found to be a regular file, but it can be replaced before it is opened;
 * if a FIFO takes its place, {@code open} for reading blocks until a writer appears, and Java
 * offers no {@code O_NONBLOCK} for file channels. So the open runs on a daemon thread while the
 * caller waits in short slices, and between slices: a cancellation (SIGINT, SIGTERM, an MCP
 * {@code notifications/cancelled}) ends the wait as {@code cancelled}; a path that is no longer
 * the examined regular file ends it as {@code target_changed}; and after {@code timeoutMillis}
 * the wait ends as {@code io_error}. An open that completes after the caller has gone is closed
 * by the opening thread, so no descriptor leaks.
 */
final class GuardedOpen {
  /** How long an open may take before the inspection gives up: a stalled file system or a FIFO. */
  static final long DEFAULT_TIMEOUT_MILLIS = 60_000;

  private static final long SLICE_MILLIS = 50;

  private static final ExecutorService OPENERS =
      Executors.newCachedThreadPool(
          r -> {
            // An access that bounds its own blocking (ConfinedFileAccess) need not do it again.
            Thread t = new Thread(() -> {
              ConfinedFileAccess.markBounded();
              r.run();
            }, "rea-open");
            t.setDaemon(true);
            return t;
          });

  private GuardedOpen() {}

  /** The ways an open can fail, mapped by the caller to typed errors. */
  interface OpenFailure {
    /** @return the typed failure for an {@link IOException} of {@code open} */
    ReaException map(IOException e);
  }

  /**
   * Opens {@code path} for reading.
   *
   * @param access the file-system seam
   * @param path the selected path
   * @param examined what {@code stat} saw before (a regular file)
   * @param cancellation checked between waits
   * @param timeoutMillis the longest wait, in milliseconds
   * @param failure maps an {@link IOException} of the open itself
   * @return the open channel
   * @throws ReaException {@code cancelled}; {@code target_changed} when the path stops being the
   *     examined regular file while the open waits; {@code io_error} on timeout or as mapped
   */
  static SeekableByteChannel open(
      FileAccess access,
      Path path,
      FileSnapshot examined,
      Cancellation cancellation,
      long timeoutMillis,
      OpenFailure failure)
      throws ReaException {
    CompletableFuture<SeekableByteChannel> opening = new CompletableFuture<>();
    OPENERS.execute(
        () -> {
          try {
            SeekableByteChannel ch = access.open(path);
            if (!opening.complete(ch)) {
              closeQuietly(ch); // the caller has gone
            }
          } catch (Throwable t) {
            opening.completeExceptionally(t);
          }
        });
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (true) {
      try {
        return opening.get(SLICE_MILLIS, TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        IOException io = ioFailureIn(cause);
        if (io != null) {
          throw failure.map(io);
        }
        if (cause instanceof RuntimeException re) {
          throw re;
        }
        throw new IllegalStateException("opening " + path + " failed", cause);
      } catch (InterruptedException e) {
        abandon(opening);
        Thread.currentThread().interrupt();
        throw ReaException.builder(Constraint.CANCELLED, "inspection interrupted while opening")
            .build();
      } catch (TimeoutException slice) {
        // Still opening: look at what the path is now.
      }
      if (cancellation.isCancelled()) {
        abandon(opening);
        cancellation.check();
      }
      FileSnapshot now;
      try {
        now = access.stat(path);
      } catch (IOException e) {
        now = null;
      }
      if (now == null || !now.regularFile() || !examined.sameIdentity(now)) {
        abandon(opening);
        String what =
            now == null
                ? "the path vanished"
                : !now.regularFile()
                    ? "the path is now not a regular file"
                    : "its " + examined.changesTo(now) + " changed";
        throw ReaException.builder(
                Constraint.TARGET_CHANGED,
                "the path was replaced while it was being opened: " + what)
            .diagnostic("reason", what)
            .build();
      }
      if (System.nanoTime() - deadline > 0) {
        abandon(opening);
        String reason =
            "opening the file did not complete within "
                + timeoutMillis / 1000
                + " s (a stalled file system, or a FIFO swapped in and out)";
        throw ReaException.builder(Constraint.IO_ERROR, reason)
            .diagnostic("reason", reason)
            .build();
      }
    }
  }

  /**
   * The host failure behind a failed open, or null for a defect. An {@link IOException} is one;
   * so is a {@link LinkageError}: the first open of a process loads the JDK's file channel
   * classes, whose static initializers load native code and open files, and with no descriptor
   * left (EMFILE) that fails as an {@link ExceptionInInitializerError} around the {@code
   * IOException}, and later as a {@link NoClassDefFoundError}. The innermost {@code IOException}
   * of the chain (at most 8 causes deep) is returned, else one that names the error.
   */
  static @Nullable IOException ioFailureIn(@Nullable Throwable t) {
    if (t instanceof IOException io) {
      return io;
    }
    if (!(t instanceof LinkageError)) {
      return null;
    }
    Throwable c = t.getCause();
    for (int depth = 0; c != null && depth < 8; depth++, c = c.getCause()) {
      if (c instanceof IOException io) {
        return io;
      }
    }
    return new IOException(
        "the JDK could not load its file I/O support (" + t + "): descriptors or memory may have run out",
        t);
  }

  /** Gives up on an open: a channel it yields later is closed by the opening thread. */
  private static void abandon(CompletableFuture<SeekableByteChannel> opening) {
    if (!opening.cancel(false) && !opening.isCompletedExceptionally()) {
      closeQuietly(opening.join()); // it completed just now
    }
  }

  private static void closeQuietly(SeekableByteChannel ch) {
    try {
      ch.close();
    } catch (IOException e) {
      // Nothing was read from it.
    }
  }
}
