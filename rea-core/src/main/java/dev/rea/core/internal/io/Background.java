package dev.rea.core.internal.io;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * One computation that may run on a daemon thread of its own while the caller goes on, and whose
 * result the caller then takes with {@link #join()}: REA's way of using the second core for a
 * digest over bytes it already holds (an index's SHA-256 while the index is parsed, a record's
 * {@code evidence_id} while it is signed). Not started, the computation runs on the caller's
 * thread when joined, so a small input costs no thread.
 *
 * @param <T> the result
 */
public final class Background<T> {
  private final FutureTask<T> task;

  private Background(Callable<T> work) {
    this.task = new FutureTask<>(work);
  }

  /**
   * @param work the computation; it must not need the caller's thread or locks
   * @param threadName the name of its thread, when started
   * @param onThread true to start it now on a daemon thread; false to run it when joined
   * @return the computation
   */
  public static <T> Background<T> start(Callable<T> work, String threadName, boolean onThread) {
    Background<T> b = new Background<>(work);
    if (onThread) {
      Thread t = new Thread(b.task, threadName);
      t.setDaemon(true);
      t.start();
    }
    return b;
  }

  /**
   * The result, computed here if the computation was not started (or has not begun). The wait
   * ignores interruption (it lasts at most the computation) and restores the thread's interrupt
   * status, so a cancelled caller sees its cancellation at its next interruptible step.
   *
   * @throws RuntimeException or {@link Error} as the computation threw it; an {@link
   *     IllegalStateException} naming {@code what} for a checked exception
   */
  public T join(String what) {
    task.run(); // no-op when the thread started it
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return task.get();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } catch (ExecutionException e) {
      throw unwrap(e, what);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * The exception a task threw, as its caller should see it.
   *
   * @param e what a {@code Future} reported
   * @param what what the task was doing, for a checked exception's message
   * @return the task's {@link RuntimeException}, or an {@link IllegalStateException} naming
   *     {@code what} for a checked exception (for the caller to throw)
   * @throws Error the task's error, as it was
   */
  public static RuntimeException unwrap(ExecutionException e, String what) {
    Throwable cause = e.getCause();
    if (cause instanceof RuntimeException re) {
      return re;
    }
    if (cause instanceof Error err) {
      throw err;
    }
    return new IllegalStateException(what + " failed", cause);
  }
}
