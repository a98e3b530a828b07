package dev.rea.core.testing;

import dev.rea.core.io.FileAccess;
import dev.rea.core.io.FileSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Wraps a {@link FileAccess} so that, the first time a read of the opened file starts at or
 * after byte {@code at}, an action runs before the read (the test renames, truncates, appends
 * or rewrites the file there). Counts opened and closed channels.
 */
public final class HookedFileAccess implements FileAccess {
  /** A change applied to the file while it is being read. */
  @FunctionalInterface
  public interface Action {
    void run() throws IOException;
  }

  private final FileAccess delegate;
  private final long at;
  private final Action action;
  private final AtomicBoolean fired = new AtomicBoolean();
  private final AtomicInteger opened = new AtomicInteger();
  private final AtomicInteger closed = new AtomicInteger();

  /**
   * @param delegate the real access
   * @param at the byte offset at which the action runs (before the read starting there)
   * @param action the change
   */
  public HookedFileAccess(FileAccess delegate, long at, Action action) {
    this.delegate = delegate;
    this.at = at;
    this.action = action;
  }

  /** @return true once the action ran */
  public boolean fired() {
    return fired.get();
  }

  /** @return channels opened so far */
  public int opened() {
    return opened.get();
  }

  /** @return channels closed so far */
  public int closed() {
    return closed.get();
  }

  @Override
  public FileSnapshot stat(Path path) throws IOException {
    return delegate.stat(path);
  }

  @Override
  public SeekableByteChannel open(Path path) throws IOException {
    SeekableByteChannel real = delegate.open(path);
    opened.incrementAndGet();
    return new SeekableByteChannel() {
      private boolean open = true;

      @Override
      public int read(ByteBuffer dst) throws IOException {
        long pos = real.position();
        if (pos + dst.remaining() > at && pos < at) {
          // Stop this read at the chosen byte, so the next one starts there.
          int old = dst.limit();
          dst.limit(dst.position() + (int) (at - pos));
          try {
            return real.read(dst);
          } finally {
            dst.limit(old);
          }
        }
        if (pos >= at && fired.compareAndSet(false, true)) {
          try {
            action.run();
          } catch (IOException e) {
            throw new UncheckedIOException("the test's change failed", e);
          }
        }
        return real.read(dst);
      }

      @Override
      public int write(ByteBuffer src) {
        throw new NonWritableChannelException();
      }

      @Override
      public long position() throws IOException {
        return real.position();
      }

      @Override
      public SeekableByteChannel position(long newPosition) throws IOException {
        real.position(newPosition);
        return this;
      }

      @Override
      public long size() throws IOException {
        return real.size();
      }

      @Override
      public SeekableByteChannel truncate(long size) {
        throw new NonWritableChannelException();
      }

      @Override
      public boolean isOpen() {
        return open;
      }

      @Override
      public void close() throws IOException {
        if (open) {
          open = false;
          closed.incrementAndGet();
        }
        real.close();
      }
    };
  }
}
