package dev.rea.core.testing;

import dev.rea.core.internal.io.FileAccess;
import dev.rea.core.internal.io.FileSnapshot;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link FileAccess} whose channels spring a trap at byte {@code at} of the file: a read that
 * would cross it returns the bytes before it, so the next read starts exactly there, and every
 * read from {@code at} on first calls {@link #atTrap(long)} (which may change the file, pause, or
 * throw). Counts opened and closed channels, so tests can assert that every descriptor was
 * closed before the inspector returned.
 */
public abstract class TrapFileAccess implements FileAccess {
  private final FileAccess delegate;
  private final long at;
  private final AtomicInteger opened = new AtomicInteger();
  private final AtomicInteger closed = new AtomicInteger();

  /**
   * @param delegate the real access
   * @param at absolute offset of the trap
   */
  protected TrapFileAccess(FileAccess delegate, long at) {
    this.delegate = delegate;
    this.at = at;
  }

  /**
   * Called before every read that starts at or after the trap.
   *
   * @param position the absolute offset of that read
   * @throws IOException to fail the read
   */
  protected abstract void atTrap(long position) throws IOException;

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
        if (pos < at && pos + dst.remaining() > at) {
          int old = dst.limit();
          dst.limit(dst.position() + (int) (at - pos));
          try {
            return real.read(dst);
          } finally {
            dst.limit(old);
          }
        }
        if (pos >= at && dst.hasRemaining()) {
          atTrap(pos);
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
