package dev.rea.spark.hadoop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.util.Arrays;
import java.util.Objects;
import org.apache.hadoop.fs.PositionedReadable;

/**
 * A read-only {@link SeekableByteChannel} over Hadoop's {@link PositionedReadable} (an {@code
 * FSDataInputStream}): every read is a positioned read, {@code read(position, buffer, offset,
 * length)}, at this channel's own position, so the stream's seek pointer is never moved and no
 * seek-then-read pair can race with another reader of the same stream.
 *
 * <p>The channel's size is fixed when it is made (the length of the {@code FileStatus} observed
 * before the read, CONTRACT section 10): reads stop there even if the file has grown since, and
 * a file that shrank ends early (a read returns -1), which the inspection reports as {@code
 * target_changed}. A read never asks the stream for more bytes than the caller's buffer has room
 * for, so what is fetched is what REA asked for (the header, unless a full hash was asked for).
 *
 * <p>The first bytes, once read for content detection ({@link #readHead}), are kept and served
 * again from memory: the inspection that follows starts by reading them, and a second round trip
 * to the file system for them would cost a request on an object store.
 *
 * <p>REA asks for a GGUF header field by field (its end is known only once it is parsed), so
 * without read-ahead a header costs one positioned read per few fields: cheap on a local disk,
 * one request each on HDFS or an object store. With a read-ahead window ({@code readAhead > 0})
 * a read that misses the window fetches {@code readAhead} bytes (or what the caller asked for,
 * if more) from that offset in one request and serves the following reads from them: fewer
 * requests, at the price of fetching up to {@code readAhead} bytes past the header.
 *
 * <p>Not thread-safe (one inspection reads it); closing it does not close the stream, which its
 * owner ({@link HadoopSource}) closes.
 */
public final class PositionedReadChannel implements SeekableByteChannel {
  private final PositionedReadable in;
  private final long size;
  private final int readAhead;
  private byte[] head = new byte[0];
  private byte[] window = new byte[0];
  private long windowStart;
  private int windowLength;
  private long position;
  private long fetched;
  private boolean open = true;

  /**
   * @param in the stream, read only through its positioned reads
   * @param size the file size in bytes observed before the read
   */
  public PositionedReadChannel(PositionedReadable in, long size) {
    this(in, size, 0);
  }

  /**
   * @param in the stream, read only through its positioned reads
   * @param size the file size in bytes observed before the read
   * @param readAhead bytes fetched at once when a read misses the window (0: none, every read
   *     fetches exactly what is asked)
   */
  public PositionedReadChannel(PositionedReadable in, long size, int readAhead) {
    if (size < 0 || readAhead < 0) {
      throw new IllegalArgumentException("size " + size + ", read-ahead " + readAhead);
    }
    this.in = Objects.requireNonNull(in, "in");
    this.size = size;
    this.readAhead = readAhead;
  }

  /**
   * Reads the bytes at offsets {@code [0, length)} (fewer when the file is shorter or ends early)
   * by positioned reads, keeps them for later reads of the channel, and returns them.
   *
   * @param length how many leading bytes to read (at most a few hundred: content detection)
   * @return the bytes read, {@code min(length, size)} of them unless the file ended early
   * @throws IOException when a read fails
   */
  public byte[] readHead(int length) throws IOException {
    int want = (int) Math.min(length, size);
    if (want <= head.length) {
      return Arrays.copyOf(head, want);
    }
    if (readAhead > 0) {
      if (windowStart != 0 || windowLength < want) {
        fillWindow(0, want);
      }
      head = Arrays.copyOf(window, Math.min(want, windowLength));
      return head.clone();
    }
    byte[] grown = Arrays.copyOf(head, want);
    int done = head.length;
    while (done < want) {
      int n = in.read(done, grown, done, want - done);
      if (n < 0) {
        break;
      }
      done += n;
      fetched += n;
    }
    head = done == want ? grown : Arrays.copyOf(grown, done);
    return head.clone();
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    if (!open) {
      throw new ClosedChannelException();
    }
    if (!dst.hasRemaining()) {
      return 0;
    }
    if (position >= size) {
      return -1;
    }
    int want = (int) Math.min(dst.remaining(), size - position);
    if (position < head.length) {
      int n = (int) Math.min(want, head.length - position);
      dst.put(head, (int) position, n);
      position += n;
      return n;
    }
    if (readAhead > 0) {
      return readThroughWindow(dst, want);
    }
    int n;
    if (dst.hasArray()) {
      n = in.read(position, dst.array(), dst.arrayOffset() + dst.position(), want);
      if (n > 0) {
        dst.position(dst.position() + n);
      }
    } else {
      byte[] tmp = new byte[Math.min(want, 1 << 16)];
      n = in.read(position, tmp, 0, tmp.length);
      if (n > 0) {
        dst.put(tmp, 0, n);
      }
    }
    if (n < 0) {
      return -1;
    }
    position += n;
    fetched += n;
    return n;
  }

  /** Serves a read from the read-ahead window, refilling it at this position on a miss. */
  private int readThroughWindow(ByteBuffer dst, int want) throws IOException {
    if (position < windowStart || position >= windowStart + windowLength) {
      fillWindow(position, want);
      if (windowLength == 0) {
        return -1;
      }
    }
    int n = (int) Math.min(want, windowStart + windowLength - position);
    dst.put(window, (int) (position - windowStart), n);
    position += n;
    return n;
  }

  /** Fetches {@code max(want, readAhead)} bytes at {@code at} (fewer at the end of the file). */
  private void fillWindow(long at, int want) throws IOException {
    int fill = (int) Math.min(Math.max(want, readAhead), size - at);
    if (window.length < fill) {
      window = new byte[fill];
    }
    int done = 0;
    while (done < fill) {
      int n = in.read(at + done, window, done, fill - done);
      if (n < 0) {
        break;
      }
      done += n;
    }
    fetched += done;
    windowStart = at;
    windowLength = done;
  }

  /** @return bytes fetched from the file system so far (the head once, then every read) */
  public long bytesFetched() {
    return fetched;
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
      throw new IllegalArgumentException("position " + newPosition);
    }
    position = newPosition;
    return this;
  }

  @Override
  public long size() throws IOException {
    ensureOpen();
    return size;
  }

  @Override
  public int write(ByteBuffer src) {
    throw new NonWritableChannelException();
  }

  @Override
  public SeekableByteChannel truncate(long newSize) {
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
