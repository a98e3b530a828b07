package dev.rea.core.internal.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.util.Objects;

/** A read-only {@link SeekableByteChannel} over a byte array (not copied). Not thread-safe. */
public final class ByteArrayChannel implements SeekableByteChannel {
  private final byte[] bytes;
  private long position;
  private boolean open = true;

  /** @param bytes the content */
  public ByteArrayChannel(byte[] bytes) {
    this.bytes = Objects.requireNonNull(bytes, "bytes");
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    ensureOpen();
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
  public long position() throws IOException {
    ensureOpen();
    return position;
  }

  @Override
  public SeekableByteChannel position(long newPosition) throws IOException {
    ensureOpen();
    if (newPosition < 0) {
      throw new IllegalArgumentException("negative position: " + newPosition);
    }
    position = newPosition;
    return this;
  }

  @Override
  public long size() throws IOException {
    ensureOpen();
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
    open = false;
  }

  private void ensureOpen() throws ClosedChannelException {
    if (!open) {
      throw new ClosedChannelException();
    }
  }
}
