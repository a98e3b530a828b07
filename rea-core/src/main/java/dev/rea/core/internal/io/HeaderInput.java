package dev.rea.core.internal.io;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.options.Cancellation;
import dev.rea.core.text.Utf8;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.jspecify.annotations.Nullable;

/**
 * A forward-only, buffered reader of an untrusted file header. It tracks the absolute file
 * offset, reads primitives in the chosen byte order, validates UTF-8 strictly, and feeds every
 * byte it consumes, exactly once and in order, into a {@link MessageDigest} (so the digest of
 * the first {@code position()} bytes is available at any point via {@link #consumedDigest()}).
 *
 * <p>Every read first checks the bytes left in the file (as sized when it was opened), so no
 * read can run past the declared end and nothing is allocated from a declared size: a read that
 * needs more bytes than remain fails with {@code file_format_rejected}, naming the current field
 * (the reader's {@linkplain #setFieldPath field path}) and its offset. If the channel ends before
 * the size observed at open, the file shrank underneath REA: {@code execution_failure} / {@code
 * target_changed}.
 *
 * <p>Reads fetch at most {@link #INITIAL_READ} bytes at first and then grow with the amount
 * consumed, but never past the bytes a read needs or the end the header is known to reach
 * ({@link #expectHeaderAtLeast}): the default {@code hash: "header"} "reads only the metadata
 * and tensor directory" (specification, "Identity and reads"), so {@link #bytesFetched()}, what
 * was actually fetched, ends with the header. The buffering, fetching and digest feeding are
 * {@link HeaderBuffer}'s; this class says what the bytes mean. Not thread-safe.
 */
public final class HeaderInput extends HeaderBuffer {
  /** Buffer capacity in bytes: 1 MiB. */
  public static final int CAPACITY = 1 << 20;

  /** First read size in bytes: 64 KiB. */
  public static final int INITIAL_READ = 64 << 10;

  private static final VarHandle I16_LE =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle I16_BE =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle I32_LE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle I32_BE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle I64_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle I64_BE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private long headerCeiling = Long.MAX_VALUE;
  private boolean bigEndian;
  private FieldPath path = FieldPath.of("header");

  /**
   * @param channel the open file, positioned at byte 0; not closed by this class
   * @param fileSize the file size in bytes observed when the file was opened
   * @param digest receives every consumed byte (typically a fresh SHA-256)
   * @param cancellation checked before every fetch from the channel
   */
  public HeaderInput(
      ReadableByteChannel channel, long fileSize, MessageDigest digest, Cancellation cancellation) {
    this(channel, fileSize, digest, cancellation, CAPACITY);
  }

  /**
   * As above with an explicit buffer capacity (at least 16 bytes), for tests. The buffer is never
   * larger than the file (but at least 16 bytes).
   */
  public HeaderInput(
      ReadableByteChannel channel,
      long fileSize,
      MessageDigest digest,
      Cancellation cancellation,
      int capacity) {
    super(channel, fileSize, digest, cancellation, capacity);
  }

  /**
   * Sets the path {@link ReaException#field()} names when a read fails: the reader's own, which
   * it keeps current as it reads and which is formatted only on failure.
   */
  public void setFieldPath(FieldPath fieldPath) {
    this.path = fieldPath;
  }

  /** @return the current field path, formatted */
  public String currentField() {
    return path.get();
  }

  /** Selects the byte order of multi-byte reads. */
  public void order(ByteOrder order) {
    this.bigEndian = order == ByteOrder.BIG_ENDIAN;
  }

  /** @return the byte order of multi-byte reads */
  public ByteOrder order() {
    return bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
  }

  /**
   * Checks that {@code n} more bytes exist in the file, without reading them, and then that they
   * stay within the {@linkplain #setHeaderCeiling header ceiling} (when one is set).
   *
   * @param n bytes needed (treated as unsigned when negative)
   * @throws ReaException {@code file_format_rejected} naming the current field; {@code
   *     resource_exhausted} / {@code header_ceiling} when the bytes fit the file but not the
   *     ceiling
   */
  public void require(long n) throws ReaException {
    if (n < 0 || n > remaining()) {
      throw truncated(n);
    }
    if (n > headerCeiling - position()) {
      throw ceilingExceeded(position() + n, position());
    }
  }

  /**
   * As {@link #require(long)}, but a failure names {@code fieldOffset} (typically the offset of
   * the length or count field that declared the {@code n} bytes) instead of the current position.
   *
   * @param n bytes the declaration needs from the current position (unsigned when negative)
   * @param fieldOffset absolute offset of the declaring field
   */
  public void requireAt(long n, long fieldOffset) throws ReaException {
    if (n < 0 || n > remaining()) {
      throw ReaException.rejected(
          currentField(),
          fieldOffset,
          currentField()
              + " at offset "
              + fieldOffset
              + " declares "
              + Long.toUnsignedString(n)
              + " bytes from offset "
              + position()
              + " but the file has "
              + remaining()
              + " bytes left");
    }
    if (n > headerCeiling - position()) {
      throw ceilingExceeded(position() + n, fieldOffset);
    }
  }

  /**
   * Sets the header ceiling: the header may not extend past this many bytes from the start of the
   * file. {@link #require}, {@link #requireAt}, {@link #skip}, {@link #skipBools}, {@link
   * #skipStrings} and {@link #utf8} then refuse a declared length that fits the file but not the
   * ceiling. Fixed-size reads are not checked; call {@link #checkCeiling()} at record boundaries.
   * Unset, the ceiling is {@link Long#MAX_VALUE} (no limit).
   *
   * @param bytes the ceiling in bytes (positive)
   */
  public void setHeaderCeiling(long bytes) {
    if (bytes <= 0) {
      throw new IllegalArgumentException("header ceiling must be positive: " + bytes);
    }
    this.headerCeiling = bytes;
  }

  /** @return the header ceiling in bytes ({@link Long#MAX_VALUE} when none is set) */
  public long headerCeiling() {
    return headerCeiling;
  }

  /**
   * Checks that the bytes consumed so far are within the header ceiling.
   *
   * @throws ReaException {@code resource_exhausted} / {@code header_ceiling}
   */
  public void checkCeiling() throws ReaException {
    if (position() > headerCeiling) {
      throw ceilingExceeded(position(), position());
    }
  }

  /**
   * A {@code resource_exhausted} / {@code header_ceiling} failure for the current field.
   * Diagnostics: {@code limit} ("header_ceiling"), {@code limit_bytes}, {@code requested_bytes}
   * (the header length the declaration needs at least) and {@code over_bytes}, as decimal strings.
   *
   * @param requestedEnd the header length in bytes the declaration would need at least
   * @param fieldOffset absolute offset of the declaring field
   * @return the exception (not thrown)
   */
  public ReaException ceilingExceeded(long requestedEnd, long fieldOffset) {
    String field = currentField();
    return ReaException.builder(
            Constraint.HEADER_CEILING,
            field
                + " at offset "
                + fieldOffset
                + " would take the header to at least "
                + Long.toUnsignedString(requestedEnd)
                + " bytes, past the header ceiling of "
                + headerCeiling
                + " bytes by "
                + Long.toUnsignedString(requestedEnd - headerCeiling)
                + " bytes")
        .field(field)
        .offset(fieldOffset)
        .diagnostic("limit", "header_ceiling")
        .diagnostic("limit_bytes", Long.toString(headerCeiling))
        .diagnostic("requested_bytes", Long.toUnsignedString(requestedEnd))
        .diagnostic("over_bytes", Long.toUnsignedString(requestedEnd - headerCeiling))
        .build();
  }

  /** @return a {@code file_format_rejected} failure for a read of {@code n} bytes here */
  @Override
  public ReaException truncated(long n) {
    return ReaException.rejected(
        currentField(),
        position(),
        currentField()
            + " at offset "
            + position()
            + " needs "
            + Long.toUnsignedString(n)
            + " bytes but the file has "
            + remaining()
            + " bytes left");
  }

  /** @return a {@code file_format_rejected} failure at the given offset for the current field */
  public ReaException rejectAt(long offset, String message) {
    return ReaException.rejected(currentField(), offset, message);
  }

  // ---------------------------------------------------------------------------------------------
  // Primitive reads

  /** Reads an unsigned byte. */
  public int u8() throws ReaException {
    ensure(1);
    return buf[pos++] & 0xFF;
  }

  /** Reads a 16-bit value, returned sign-extended (mask with 0xFFFF for UINT16). */
  public short i16() throws ReaException {
    ensure(2);
    short v = bigEndian ? (short) I16_BE.get(buf, pos) : (short) I16_LE.get(buf, pos);
    pos += 2;
    return v;
  }

  /** Reads a 32-bit value as a signed int. */
  public int i32() throws ReaException {
    ensure(4);
    int v = bigEndian ? (int) I32_BE.get(buf, pos) : (int) I32_LE.get(buf, pos);
    pos += 4;
    return v;
  }

  /** Reads an unsigned 32-bit value. */
  public long u32() throws ReaException {
    return i32() & 0xFFFF_FFFFL;
  }

  /** Reads a 64-bit value; callers treat it as unsigned where the format says so. */
  public long i64() throws ReaException {
    ensure(8);
    long v = bigEndian ? (long) I64_BE.get(buf, pos) : (long) I64_LE.get(buf, pos);
    pos += 8;
    return v;
  }

  /** Reads an IEEE 754 binary32 value. */
  public float f32() throws ReaException {
    return Float.intBitsToFloat(i32());
  }

  /** Reads an IEEE 754 binary64 value. */
  public double f64() throws ReaException {
    return Double.longBitsToDouble(i64());
  }

  /**
   * Reads exactly {@code len} raw bytes (no UTF-8 check).
   *
   * @param len at most {@link #CAPACITY}
   */
  public byte[] bytes(int len) throws ReaException {
    if (len < 0 || len > capacity) {
      throw new IllegalArgumentException("len " + len);
    }
    ensure(len);
    byte[] out = new byte[len];
    System.arraycopy(buf, pos, out, 0, len);
    pos += len;
    return out;
  }

  /**
   * Copies up to {@code dst.length} bytes starting at the current position without consuming
   * them (fewer when the file ends sooner).
   *
   * @return the number of bytes copied
   */
  public int peek(byte[] dst) throws ReaException {
    int n = (int) Math.min(dst.length, remaining());
    ensure(n);
    System.arraycopy(buf, pos, dst, 0, n);
    return n;
  }

  // ---------------------------------------------------------------------------------------------
  // Bulk reads

  /**
   * Consumes exactly {@code len} bytes into {@code dst[off, off + len)}. Every byte is hashed,
   * in order, like any other consumed byte. Bytes already buffered are copied; the rest are
   * read from the channel straight into {@code dst} (in chunks of at most {@link #CAPACITY}
   * bytes, checking cancellation before each), so a large block exists once in memory, in the
   * caller's array, and not a second time in this input's buffer.
   *
   * @param dst destination array, allocated by the caller after checking {@code len} against
   *     the bytes left ({@link #require}) and its own limits
   * @param off first index of {@code dst} to fill
   * @param len bytes to consume
   * @throws ReaException {@code file_format_rejected} when fewer than {@code len} bytes are left
   *     (nothing is consumed then); {@code target_changed} when the channel ends early; {@code
   *     io_error}; {@code cancelled}
   * @throws IndexOutOfBoundsException when {@code [off, off + len)} is not inside {@code dst}
   */
  public void readFully(byte[] dst, int off, int len) throws ReaException {
    java.util.Objects.checkFromIndexSize(off, len, dst.length);
    require(len);
    int fromBuffer = Math.min(lim - pos, len);
    System.arraycopy(buf, pos, dst, off, fromBuffer);
    pos += fromBuffer;
    if (fromBuffer == len) {
      return;
    }
    // The buffer is used up: hash and drop it, then read the rest directly into dst.
    flushDigest();
    bufStart += pos;
    pos = 0;
    lim = 0;
    hashMark = 0;
    int done = fromBuffer;
    ByteBuffer target = ByteBuffer.wrap(dst);
    while (done < len) {
      cancellation.check();
      int step = Math.min(len - done, capacity);
      target.limit(off + done + step);
      target.position(off + done);
      int n = readChannel(target);
      if (n < 0) {
        throw changed(
            "the file ended at byte " + bufStart + " but was " + fileSize + " bytes when it was opened");
      }
      digest.update(dst, off + done, n);
      if (window != null) {
        window.update(dst, off + done, n);
      }
      fetched += n;
      done += n;
      bufStart += n;
    }
  }

  /**
   * Consumes {@code n} bytes (they are hashed like every other byte).
   *
   * @param n unsigned byte count
   */
  public void skip(long n) throws ReaException {
    require(n);
    expectHeaderAtLeast(position() + n);
    long left = n;
    while (left > 0) {
      if (pos == lim) {
        fill(1);
      }
      int step = (int) Math.min(left, lim - pos);
      pos += step;
      left -= step;
    }
  }

  /**
   * Consumes {@code count} BOOL bytes, each of which must be 0 or 1.
   *
   * @return the absolute offset of the first byte that is neither 0 nor 1, or -1
   */
  public long skipBools(long count) throws ReaException {
    require(count);
    expectHeaderAtLeast(position() + count);
    long left = count;
    while (left > 0) {
      if (pos == lim) {
        fill(1);
      }
      int step = (int) Math.min(left, lim - pos);
      for (int i = pos; i < pos + step; i++) {
        if ((buf[i] & 0xFE) != 0) {
          long bad = bufStart + i;
          pos = i;
          return bad;
        }
      }
      pos += step;
      left -= step;
    }
    return -1;
  }

  /**
   * Reads {@code len} bytes that must be well-formed UTF-8 and decodes them.
   *
   * @param len unsigned byte length, already declared by the file
   * @param allowance what the string may retain: asked before any byte is read ({@link
   *     StringAllowance#beforeString}) and then, for each run of bytes that JSON escaping
   *     lengthens, before that run is kept ({@link StringAllowance#beforeEscapes})
   * @return the decoded string
   * @throws ReaException {@code file_format_rejected} for invalid UTF-8 (offset of the first bad
   *     byte) or a length past the end of the file; the allowance's refusal
   */
  public String string(long len, StringAllowance allowance) throws ReaException {
    String s = utf8(len, allowance);
    if (s == null) {
      throw new IllegalStateException("a string read with an allowance was not kept");
    }
    return s;
  }

  /**
   * Consumes {@code len} bytes that must be well-formed UTF-8, keeping nothing.
   *
   * @param len unsigned byte length, already declared by the file
   * @throws ReaException {@code file_format_rejected} for invalid UTF-8 (offset of the first bad
   *     byte) or a length past the end of the file
   */
  public void skipUtf8(long len) throws ReaException {
    utf8(len, null);
  }

  /** Validates {@code len} bytes of UTF-8; decodes them when {@code allowance} is given. */
  private @Nullable String utf8(long len, @Nullable StringAllowance allowance)
      throws ReaException {
    long start = position();
    require(len);
    expectHeaderAtLeast(start + len);
    boolean retain = allowance != null;
    long chargedBytes = allowance != null ? allowance.beforeString(len, start) : 0;
    if (len <= capacity) {
      int n = (int) len;
      ensure(n);
      int r = Utf8.scan(buf, pos, pos + n);
      if (r != Utf8.VALID) {
        int bad = r >= 0 ? r : -(r + 2);
        throw invalidUtf8(bufStart + bad);
      }
      if (allowance != null) {
        long extra = JsonText.escapeExtra(buf, pos, pos + n);
        if (extra != 0) {
          allowance.beforeEscapes(extra, chargedBytes, start);
        }
      }
      String s = retain ? new String(buf, pos, n, StandardCharsets.UTF_8) : null;
      pos += n;
      return s;
    }
    // Longer than the buffer: validate chunk by chunk, keeping a cut sequence for the next chunk.
    byte[] keep = retain ? new byte[Math.toIntExact(len)] : null;
    long left = len;
    int kept = 0;
    while (left > 0) {
      if (lim - pos < 4 && lim - pos < left) {
        fill((int) Math.min(4, left));
      }
      int avail = (int) Math.min(left, lim - pos);
      int r = Utf8.scan(buf, pos, pos + avail);
      int consumed;
      if (r == Utf8.VALID) {
        consumed = avail;
      } else if (r >= 0) {
        throw invalidUtf8(bufStart + r);
      } else {
        int cut = -(r + 2);
        if (avail == left) {
          // The string itself ends inside a sequence.
          throw invalidUtf8(bufStart + cut);
        }
        consumed = cut - pos;
        if (consumed == 0) {
          // The cut sequence starts here: fetch the rest of it.
          fill((int) Math.min(4, left));
          continue;
        }
      }
      if (allowance != null) {
        long extra = JsonText.escapeExtra(buf, pos, pos + consumed);
        if (extra != 0) {
          allowance.beforeEscapes(extra, chargedBytes, start);
          chargedBytes += extra;
        }
      }
      if (keep != null) {
        System.arraycopy(buf, pos, keep, kept, consumed);
        kept += consumed;
      }
      pos += consumed;
      left -= consumed;
    }
    return keep == null ? null : new String(keep, StandardCharsets.UTF_8);
  }

  /**
   * Consumes {@code count} length-prefixed strings, the GGUF {@code gguf_string_t} layout: a
   * 64-bit length in the current byte order followed by that many bytes of well-formed UTF-8.
   * Nothing is retained and no object is created per string. The field path's last segment, an
   * index, numbers the strings: it is {@code base + i} while the string {@code i} (from 0) is read,
   * {@code base} being its value at the call, and {@code base} again on return.
   *
   * <p>Each length is checked against the bytes left in the file, then against the header
   * ceiling, before its bytes are touched.
   *
   * @param count unsigned number of strings; the caller has checked that {@code 8 * count} bytes
   *     are left
   * @throws IllegalStateException when the field path does not end with an index
   * @throws ReaException {@code file_format_rejected} for a length past the end of the file
   *     (offset of the length field) or invalid UTF-8 (offset of the first bad byte); {@code
   *     header_ceiling} for a length past the ceiling
   */
  public void skipStrings(long count) throws ReaException {
    long base = path.lastIndex();
    long i = 0;
    while (Long.compareUnsigned(i, count) < 0) {
      // Hot loop over strings that lie wholly in the buffer, on locals; the fields are written
      // back before anything that can fail or fetch.
      final byte[] b = buf;
      final int l = lim;
      final long ceilingIndex = headerCeiling - bufStart;
      int p = pos;
      while (Long.compareUnsigned(i, count) < 0 && l - p >= 8) {
        long len = bigEndian ? (long) I64_BE.get(b, p) : (long) I64_LE.get(b, p);
        int start = p + 8;
        if (len < 0 || len > l - start || start + len > ceilingIndex) {
          break;
        }
        int end = start + (int) len;
        if (!Utf8.isShortWellFormed(b, start, end)) {
          int r = Utf8.scan(b, start, end);
          if (r != Utf8.VALID) {
            pos = p + 8;
            path.lastIndex(base + i);
            throw invalidUtf8(bufStart + (r >= 0 ? r : -(r + 2)));
          }
        }
        p = end;
        i++;
      }
      pos = p;
      if (Long.compareUnsigned(i, count) >= 0) {
        break;
      }
      // One string the hot loop could not take: its length is not buffered yet, its bytes are
      // not all buffered, or it is invalid. The strings left take 8 bytes each at least.
      path.lastIndex(base + i);
      expectHeaderAtLeast(positionPlus(count - i, 8));
      long lengthAt = bufStart + pos;
      ensure(8);
      long len = bigEndian ? (long) I64_BE.get(buf, pos) : (long) I64_LE.get(buf, pos);
      pos += 8;
      requireAt(len, lengthAt);
      skipUtf8(len);
      i++;
    }
    path.lastIndex(base);
  }

  private ReaException invalidUtf8(long offset) {
    return ReaException.rejected(
        currentField(), offset, currentField() + " has invalid UTF-8 at offset " + offset);
  }

  /**
   * Consumes and hashes the rest of the file, up to the size observed at open, with a bounded
   * buffer.
   *
   * @param progress called after each chunk with (bytes hashed so far in the file, file size)
   * @param chunkHook called with the absolute offset before each channel read (test seam; may be
   *     null)
   * @throws ReaException {@code cancelled}; {@code target_changed} when the channel ends early or
   *     yields more bytes than the size observed at open; {@code io_error} on a read failure
   */
  public void hashRest(@Nullable ProgressListener progress, @Nullable ChunkHook chunkHook)
      throws ReaException {
    pos = lim;
    flushDigest();
    long done = bufStart + lim;
    // Never more buffer than the rest of the file (plus one byte for the end-of-file probe).
    ByteBuffer big =
        ByteBuffer.allocateDirect((int) Math.min(FULL_HASH_CHUNK, Math.max(1, fileSize - done)));
    while (done < fileSize) {
      cancellation.check();
      if (chunkHook != null) {
        chunkHook.beforeRead(done);
      }
      big.clear();
      long want = Math.min(big.capacity(), fileSize - done);
      big.limit((int) want);
      int n = readChannel(big, done);
      if (n < 0) {
        throw changed("the file ended at byte " + done + " but was " + fileSize + " bytes at open");
      }
      fetched += n;
      big.flip();
      digest.update(big);
      done += n;
      if (progress != null) {
        progress.onProgress(done, fileSize);
      }
    }
    // One more read must find the end of the file: a longer file was appended to.
    big.clear();
    big.limit(1);
    int extra = readChannel(big, done);
    if (extra > 0) {
      fetched += extra;
      throw changed("the file grew beyond the " + fileSize + " bytes observed at open");
    }
    bufStart = done;
    pos = 0;
    lim = 0;
    hashMark = 0;
  }

  /** Chunk size of the full-hash loop in bytes: 1 MiB. */
  public static final int FULL_HASH_CHUNK = 1 << 20;

  /** Receives full-hash progress. */
  @FunctionalInterface
  public interface ProgressListener {
    /**
     * @param done bytes of the file hashed so far
     * @param total file size in bytes
     */
    void onProgress(long done, long total);
  }

  /** Test seam called before each channel read of the full-hash loop. */
  @FunctionalInterface
  public interface ChunkHook {
    /** @param offset absolute offset of the next read */
    void beforeRead(long offset) throws ReaException;
  }

}
