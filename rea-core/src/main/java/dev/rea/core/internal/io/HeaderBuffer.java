package dev.rea.core.internal.io;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.options.Cancellation;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ReadableByteChannel;
import java.security.MessageDigest;
import org.jspecify.annotations.Nullable;

/**
 * The byte layer under {@link HeaderInput}: a forward-only buffer over the file's channel that
 * knows the absolute offset of every buffered byte, fetches no further than a read needs or the
 * header is known to reach, and feeds every consumed byte, exactly once and in order, into the
 * header digest (and into an open digest window). {@link HeaderInput} adds what the bytes mean:
 * typed reads, UTF-8, the field path and the header ceiling.
 *
 * <p>A fetch that finds the channel ended before the size observed at open fails with {@code
 * execution_failure} / {@code target_changed}; a channel failure with {@code io_error} naming the
 * offset; an interrupted read with {@code cancelled}. Not thread-safe.
 */
abstract sealed class HeaderBuffer permits HeaderInput {
  /** First buffer size in bytes: 8 KiB (it grows as reads need: {@link #grow}). */
  static final int INITIAL_BUFFER = 8 << 10;

  private final ReadableByteChannel channel;
  final long fileSize;
  final MessageDigest digest;
  final Cancellation cancellation;
  /**
   * The buffer: it starts at {@link #INITIAL_BUFFER} bytes (or the capacity, when smaller) and grows
   * up to {@link #capacity} only when a read needs more room, so that inspecting a file whose
   * header is small allocates (and zeroes) a small buffer, whatever the file's size. A scan of
   * 10,000 small models allocated 1 MiB per file before (10 GB in all, JFR).
   */
  byte[] buf;

  private ByteBuffer bufView;

  /** Largest the buffer may grow: the capacity asked for, at most the file size, at least 16. */
  final int capacity;

  /** Absolute file offset of {@code buf[0]}. */
  long bufStart;

  /** Index in {@code buf} of the next unread byte. */
  int pos;

  /** Index in {@code buf} past the last buffered byte. */
  int lim;

  /** Index in {@code buf} up to which bytes have been fed to the digest. */
  int hashMark;

  /**
   * A second digest fed the same consumed bytes while a window is open ({@link #openWindow}), or
   * null: the GGUF reader hashes each array value with it in the same pass as the header digest.
   */
  @Nullable MessageDigest window;

  /** Bytes fetched from the channel so far. */
  long fetched;

  /** Absolute offset the header is known to reach: reads may fetch ahead up to here. */
  private long knownEnd;

  /**
   * @param channel the open file, positioned at byte 0; not closed by this class
   * @param fileSize the file size in bytes observed when the file was opened
   * @param digest receives every consumed byte (typically a fresh SHA-256)
   * @param cancellation checked before every fetch from the channel
   * @param capacity the largest buffer in bytes (at least 16); never more than the file size
   *     (but at least 16 bytes)
   */
  HeaderBuffer(
      ReadableByteChannel channel,
      long fileSize,
      MessageDigest digest,
      Cancellation cancellation,
      int capacity) {
    if (capacity < 16) {
      throw new IllegalArgumentException("capacity must be at least 16: " + capacity);
    }
    this.channel = channel;
    this.fileSize = fileSize;
    this.digest = digest;
    this.cancellation = cancellation;
    // A small file needs no more buffer than its size.
    this.capacity = (int) Math.max(16, Math.min(capacity, fileSize));
    this.buf = new byte[Math.min(this.capacity, INITIAL_BUFFER)];
    this.bufView = ByteBuffer.wrap(buf);
  }

  /**
   * @param n bytes a read needs
   * @return the {@code file_format_rejected} failure for a read of {@code n} bytes at the current
   *     position, naming the reader's current field
   */
  abstract ReaException truncated(long n);

  /** @return absolute offset of the next unread byte */
  public long position() {
    return bufStart + pos;
  }

  /** @return the file size observed at open, in bytes */
  public long fileSize() {
    return fileSize;
  }

  /** @return bytes left in the file after {@link #position()} */
  public long remaining() {
    return fileSize - position();
  }

  /** @return bytes fetched from the channel so far */
  public long bytesFetched() {
    return fetched;
  }

  /**
   * Tells this input that the header reaches at least {@code absoluteEnd} (a lower bound the
   * reader derives from what it has read: counts and lengths still to come, at their smallest):
   * reads may fetch ahead up to there, and never further than a read needs. Lower bounds only
   * add up; a larger one than the file (a malformed count) is cut at the file's end.
   *
   * @param absoluteEnd file offset in bytes; negative (an overflowed sum) means the file's end
   */
  public void expectHeaderAtLeast(long absoluteEnd) {
    long end = absoluteEnd < 0 ? fileSize : Math.min(absoluteEnd, fileSize);
    if (end > knownEnd) {
      knownEnd = end;
    }
  }

  /**
   * {@code position() + count * each}, saturating (a result past {@code Long.MAX_VALUE} is
   * negative, which {@link #expectHeaderAtLeast} takes as the file's end).
   *
   * @param count unsigned count of items still to come
   * @param each the fewest bytes one item takes
   */
  public long positionPlus(long count, long each) {
    if (count < 0 || (each != 0 && count > (Long.MAX_VALUE - position()) / each)) {
      return -1;
    }
    return position() + count * each;
  }

  /**
   * Feeds every consumed byte not yet hashed into the digest and returns a copy of the digest
   * state, so the caller can finish it (the SHA-256 of the first {@link #position()} bytes) while
   * this input keeps hashing further bytes.
   */
  public MessageDigest consumedDigest() {
    flushDigest();
    try {
      return (MessageDigest) digest.clone();
    } catch (CloneNotSupportedException e) {
      throw new IllegalStateException("digest cannot be cloned: " + digest.getAlgorithm(), e);
    }
  }

  final void flushDigest() {
    if (pos > hashMark) {
      digest.update(buf, hashMark, pos - hashMark);
      if (window != null) {
        window.update(buf, hashMark, pos - hashMark);
      }
      hashMark = pos;
    }
  }

  /**
   * Opens a digest window at {@link #position()}: from now until {@link #closeWindow}, every
   * consumed byte is also fed, exactly once and in order, into {@code windowDigest}. The bytes
   * reach it when the header digest gets them (in runs of buffered bytes, never per field), so
   * the window costs one more digest update per run and no allocation.
   *
   * @param windowDigest a fresh digest (typically SHA-256), owned by the caller
   * @throws IllegalStateException when a window is already open
   */
  public void openWindow(MessageDigest windowDigest) {
    if (window != null) {
      throw new IllegalStateException("a digest window is already open");
    }
    flushDigest();
    window = windowDigest;
  }

  /**
   * Closes the window {@link #openWindow} opened and completes its digest: the digest of the
   * bytes consumed between the two calls.
   *
   * @return the digest's result (32 bytes for SHA-256)
   * @throws IllegalStateException when no window is open
   */
  public byte[] closeWindow() {
    MessageDigest w = window;
    if (w == null) {
      throw new IllegalStateException("no digest window is open");
    }
    flushDigest();
    window = null;
    return w.digest();
  }

  /** @return the digest fed by this input (not a copy) */
  public MessageDigest digest() {
    return digest;
  }

  // ---------------------------------------------------------------------------------------------
  // Buffer management

  final void ensure(int n) throws ReaException {
    if (lim - pos < n) {
      if (n > remaining()) {
        throw truncated(n);
      }
      fill(n);
    }
  }

  /**
   * Makes at least {@code need} unread bytes available ({@code need} at most the capacity and at
   * most the bytes left in the file).
   */
  final void fill(int need) throws ReaException {
    if (need > remaining()) {
      throw truncated(need);
    }
    cancellation.check();
    // Hash and drop the consumed bytes.
    flushDigest();
    int unread = lim - pos;
    if (pos > 0) {
      System.arraycopy(buf, pos, buf, 0, unread);
      bufStart += pos;
      pos = 0;
      lim = unread;
      hashMark = 0;
    }
    long consumedSoFar = bufStart;
    long readAhead = Math.max(HeaderInput.INITIAL_READ, consumedSoFar);
    grow(need, readAhead);
    while (lim < need) {
      long room = buf.length - lim;
      long want = Math.min(room, Math.max(need - lim, readAhead));
      // Never past what this read needs or the header is known to reach.
      want = Math.min(want, Math.max(need - lim, knownEnd - (bufStart + lim)));
      want = Math.min(want, fileSize - (bufStart + lim));
      bufView.limit((int) (lim + want));
      bufView.position(lim);
      int n = readChannel(bufView);
      if (n < 0) {
        throw changed(
            "the file ended at byte "
                + (bufStart + lim)
                + " but was "
                + fileSize
                + " bytes when it was opened");
      }
      lim += n;
      fetched += n;
    }
  }

  /**
   * Grows the buffer, up to {@link #capacity}, when the read {@link #fill} is about to make (what
   * it would read into a buffer of full capacity) does not fit the unread bytes' room; the
   * unread bytes keep their place. The reads, and so the bytes fetched, are those a buffer of
   * full capacity would make.
   */
  private void grow(int need, long readAhead) {
    if (buf.length >= capacity) {
      return;
    }
    long desired = Math.min(Math.max(need - lim, readAhead), Math.max(need - lim, knownEnd - (bufStart + lim)));
    desired = Math.min(desired, fileSize - (bufStart + lim));
    long wanted = lim + desired;
    if (wanted > buf.length) {
      buf = java.util.Arrays.copyOf(buf, (int) Math.min(capacity, Math.max(wanted, 2L * buf.length)));
      bufView = ByteBuffer.wrap(buf);
    }
  }

  final int readChannel(ByteBuffer target) throws ReaException {
    return readChannel(target, bufStart + lim);
  }

  /**
   * Reads from the channel into {@code target}.
   *
   * @param at absolute file offset of the read, named by an {@code io_error}
   */
  final int readChannel(ByteBuffer target, long at) throws ReaException {
    try {
      int n = ChannelReads.read(channel, target);
      if (n == 0 && target.hasRemaining()) {
        throw ReaException.builder(
                Constraint.IO_ERROR,
                "reading the file failed at byte "
                    + at
                    + ": the channel returned no bytes "
                    + ChannelReads.MAX_EMPTY_READS
                    + " times in a row (a blocking channel returns at least one byte, or -1 at"
                    + " its end)")
            .offset(at)
            .diagnostic("offset", Long.toString(at))
            .build();
      }
      return n;
    } catch (ClosedByInterruptException e) {
      Thread.currentThread().interrupt();
      throw ReaException.builder(Constraint.CANCELLED, "inspection interrupted").cause(e).build();
    } catch (IOException e) {
      throw ReaException.builder(
              Constraint.IO_ERROR,
              "reading the file failed at byte " + at + ": " + IoFailures.describe(e))
          .offset(at)
          .diagnostic("offset", Long.toString(at))
          .diagnostic("reason", IoFailures.describe(e))
          .diagnostic("exception", e.getClass().getName())
          .cause(e)
          .build();
    }
  }

  static ReaException changed(String what) {
    return ReaException.builder(Constraint.TARGET_CHANGED, "the file changed while it was read: " + what)
        .diagnostic("reason", what)
        .build();
  }
}
