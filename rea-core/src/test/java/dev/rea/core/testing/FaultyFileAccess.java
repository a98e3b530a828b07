package dev.rea.core.testing;

import dev.rea.core.io.FileAccess;
import dev.rea.core.io.FileSnapshot;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Wraps a {@link FileAccess} so that reading byte {@code failAt} of the opened file fails with a
 * chosen {@link IOException} (EIO, EACCES after a permission change, ...). Reads that would cross
 * {@code failAt} return the bytes before it, so the failing read starts exactly at {@code
 * failAt}. Counts opened and closed channels, so tests can assert that every descriptor was
 * closed before the inspector returned.
 */
public final class FaultyFileAccess implements FileAccess {
  private final FileAccess delegate;
  private final long failAt;
  private final Supplier<IOException> failure;
  private final AtomicInteger opened = new AtomicInteger();
  private final AtomicInteger closed = new AtomicInteger();
  private volatile long failedAt = -1;

  /**
   * @param delegate the real access
   * @param failAt absolute offset of the first byte that cannot be read
   * @param failure the exception a read of that byte throws
   */
  public FaultyFileAccess(FileAccess delegate, long failAt, Supplier<IOException> failure) {
    this.delegate = delegate;
    this.failAt = failAt;
    this.failure = failure;
  }

  /** @return an EIO failure, as the JDK reports it on Linux */
  public static IOException eio() {
    return new IOException("Input/output error");
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
        if (pos >= failAt && dst.hasRemaining()) {
          failedAt = pos;
          throw failure.get();
        }
        if (pos + dst.remaining() > failAt) {
          int old = dst.limit();
          dst.limit(dst.position() + (int) (failAt - pos));
          try {
            return real.read(dst);
          } finally {
            dst.limit(old);
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

  /** @return channels opened so far */
  public int opened() {
    return opened.get();
  }

  /** @return channels closed so far */
  public int closed() {
    return closed.get();
  }

  /** @return the offset of the read that failed, or -1 when none failed */
  public long failedAt() {
    return failedAt;
  }
}
