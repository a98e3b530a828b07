package dev.rea.core.testing;

import dev.rea.core.internal.io.FileAccess;
import dev.rea.core.internal.io.FileSnapshot;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link FileAccess} serving one in-memory regular file at any path, for fuzzing and fault
 * tests without a disk. Counts the channels it opened and closed, so a test can assert that the
 * inspector closed every descriptor before it returned.
 */
public final class MemoryFileAccess implements FileAccess {
  private final byte[] bytes;
  private final AtomicInteger opened = new AtomicInteger();
  private final AtomicInteger closed = new AtomicInteger();

  /** @param bytes the file's content (not copied) */
  public MemoryFileAccess(byte[] bytes) {
    this.bytes = bytes;
  }

  @Override
  public FileSnapshot stat(Path path) throws IOException {
    if (path.getFileName() == null) {
      throw new NoSuchFileException(path.toString());
    }
    return new FileSnapshot(true, false, bytes.length, 1L, 1L, 0L, "1970-01-01T00:00:00.000000000Z");
  }

  @Override
  public SeekableByteChannel open(Path path) {
    opened.incrementAndGet();
    return new Channel();
  }

  /** @return channels opened so far */
  public int opened() {
    return opened.get();
  }

  /** @return channels closed so far */
  public int closed() {
    return closed.get();
  }

  private final class Channel implements SeekableByteChannel {
    private long position;
    private boolean open = true;

    @Override
    public int read(ByteBuffer dst) throws IOException {
      if (!open) {
        throw new ClosedChannelException();
      }
      if (position >= bytes.length) {
        return -1;
      }
      int n = (int) Math.min(dst.remaining(), bytes.length - position);
      dst.put(bytes, (int) position, n);
      position += n;
      return n;
    }

    @Override
    public int write(ByteBuffer src) {
      throw new NonWritableChannelException();
    }

    @Override
    public long position() {
      return position;
    }

    @Override
    public SeekableByteChannel position(long newPosition) {
      position = newPosition;
      return this;
    }

    @Override
    public long size() {
      return bytes.length;
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
    public void close() {
      if (open) {
        open = false;
        closed.incrementAndGet();
      }
    }
  }
}
