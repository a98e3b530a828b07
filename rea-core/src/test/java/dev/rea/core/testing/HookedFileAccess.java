package dev.rea.core.testing;

import dev.rea.core.internal.io.FileAccess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Wraps a {@link FileAccess} so that, the first time a read of the opened file starts at or
 * after byte {@code at}, an action runs before the read (the test renames, truncates, appends
 * or rewrites the file there). Counts opened and closed channels.
 */
public final class HookedFileAccess extends TrapFileAccess {
  /** A change applied to the file while it is being read. */
  @FunctionalInterface
  public interface Action {
    void run() throws IOException;
  }

  private final Action action;
  private final AtomicBoolean fired = new AtomicBoolean();

  /**
   * @param delegate the real access
   * @param at the byte offset at which the action runs (before the read starting there)
   * @param action the change
   */
  public HookedFileAccess(FileAccess delegate, long at, Action action) {
    super(delegate, at);
    this.action = action;
  }

  /** @return true once the action ran */
  public boolean fired() {
    return fired.get();
  }

  @Override
  protected void atTrap(long position) {
    if (fired.compareAndSet(false, true)) {
      try {
        action.run();
      } catch (IOException e) {
        throw new UncheckedIOException("the test's change failed", e);
      }
    }
  }
}
