package dev.rea.core.internal.canonical;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Where RFC 8785 (JSON Canonicalization Scheme) text is written, token by token, as UTF-8 bytes:
 * into a growing byte array ({@link #toBytes}), through a fixed buffer into a {@link
 * MessageDigest} ({@link #toDigest}: no array the size of the text), or compared with expected
 * bytes ({@link #comparingWith}: the first offset that differs). The writers decide structure
 * and member order; this class writes the tokens in their canonical spelling:
 *
 * <ul>
 *   <li>strings as ECMAScript's JSON.stringify writes them (RFC 8785 section 3.2.2.2): {@code \"}
 *       and {@code \\}; {@code \b \t \n \f \r}; every other character below U+0020 as {@code
 *       \}{@code u00xx} with lowercase hex; every other character as its UTF-8 bytes, unescaped
 *       (U+2028, U+2029, U+007F and non-characters included);
 *   <li>numbers as ECMAScript's Number::toString writes them ({@link EcmaNumbers}); integers of
 *       magnitude up to 2^53 are their decimal digits, written without a String;
 *   <li>{@code true}, {@code false}, {@code null}.
 * </ul>
 *
 * <p>Not thread-safe: one document per instance, then {@link #finish}.
 */
public final class CanonicalSink {
  /** Bytes buffered before a digest or comparing sink drains them. */
  static final int CHUNK = 1 << 15;

  /** Room every single token write may take without checking: an escaped char, a long. */
  private static final int SLACK = 32;

  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  /** For each ASCII byte: 0 written as is, else the letter of its short escape, or 'u'. */
  private static final byte[] ESCAPE = new byte[128];

  static {
    for (int c = 0; c < 0x20; c++) {
      ESCAPE[c] = 'u';
    }
    ESCAPE['\b'] = 'b';
    ESCAPE['\t'] = 't';
    ESCAPE['\n'] = 'n';
    ESCAPE['\f'] = 'f';
    ESCAPE['\r'] = 'r';
    ESCAPE['"'] = '"';
    ESCAPE['\\'] = '\\';
  }

  private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
  private static final byte[] NULL = {'n', 'u', 'l', 'l'};

  private byte[] buf;
  private int pos;
  /** Bytes drained before {@code buf[0]} (digest and comparing sinks). */
  private long drained;

  private final @Nullable MessageDigest digest;
  private final byte @Nullable [] expected;
  /** Comparing sink: the first offset that differs from {@code expected}, or -1. */
  private long mismatch = -1;

  private CanonicalSink(
      int capacity, @Nullable MessageDigest digest, byte @Nullable [] expected) {
    this.buf = new byte[Math.max(capacity, 2 * SLACK)];
    this.digest = digest;
    this.expected = expected;
  }

  /**
   * @param capacity the first size of the array in bytes (it doubles as needed); the text's
   *     expected length avoids both growth and a final copy
   * @return a sink collecting the text, for {@link #bytes}
   */
  public static CanonicalSink toBytes(int capacity) {
    return new CanonicalSink(capacity, null, null);
  }

  /** @return a sink feeding {@code digest} in chunks of 32 KiB */
  public static CanonicalSink toDigest(MessageDigest digest) {
    return new CanonicalSink(CHUNK, digest, null);
  }

  /** @return a sink that compares the text with {@code expected}, for {@link #mismatch} */
  public static CanonicalSink comparingWith(byte[] expected) {
    return new CanonicalSink(CHUNK, null, expected);
  }

  /** Writes one ASCII byte. */
  public void ascii(char c) {
    room(1);
    buf[pos++] = (byte) c;
  }

  /** Writes bytes that are already canonical text (punctuation, encoded property names). */
  public void raw(byte[] bytes) {
    raw(bytes, 0, bytes.length);
  }

  /** Writes {@code bytes[from..to)}, already canonical text. */
  public void raw(byte[] bytes, int from, int to) {
    int n = to - from;
    if (n > buf.length - pos) {
      drain(n);
      if (n > buf.length - pos) {
        // Only a digest or comparing sink, with its fixed buffer, gets here.
        drainBytes(bytes, from, n);
        return;
      }
    }
    System.arraycopy(bytes, from, buf, pos, n);
    pos += n;
  }

  /** Writes {@code true} or {@code false}. */
  public void bool(boolean b) {
    raw(b ? TRUE : FALSE);
  }

  /** Writes {@code null}. */
  public void nul() {
    raw(NULL);
  }

  /**
   * Writes a string value or property name with its quotes, escaped as RFC 8785 prescribes.
   *
   * @throws IllegalArgumentException for an unpaired surrogate, which has no UTF-8 form (REA's
   *     readers refuse such input, so no record holds one)
   */
  public void string(String s) {
    int n = s.length();
    int i = 0;
    if (n < CHUNK - SLACK) {
      room(n + SLACK);
      buf[pos++] = '"';
      // The common case, ASCII: the JDK's encoder copies it (a UTF-8 form as long as the string
      // is ASCII only); one pass over the bytes finds what needs escaping, and the general loop
      // below takes over from there. An encoding as long as the string holds one byte per
      // character: ASCII, or '?' standing for an unpaired surrogate, which the general loop
      // refuses.
      byte[] ascii = s.getBytes(StandardCharsets.UTF_8);
      if (ascii.length == n) {
        while (i < n && ESCAPE[ascii[i]] == 0 && (ascii[i] != '?' || s.charAt(i) == '?')) {
          i++;
        }
        System.arraycopy(ascii, 0, buf, pos, i);
        pos += i;
      }
    } else {
      room(SLACK);
      buf[pos++] = '"';
    }
    for (; i < n; i++) {
      if (pos > buf.length - SLACK) {
        drain(SLACK);
      }
      char c = s.charAt(i);
      if (c < 0x80) {
        byte e = ESCAPE[c];
        if (e == 0) {
          buf[pos++] = (byte) c;
        } else {
          escape(c, e);
        }
      } else if (c < 0x800) {
        buf[pos++] = (byte) (0xC0 | (c >> 6));
        buf[pos++] = (byte) (0x80 | (c & 0x3F));
      } else if (!Character.isSurrogate(c)) {
        buf[pos++] = (byte) (0xE0 | (c >> 12));
        buf[pos++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        buf[pos++] = (byte) (0x80 | (c & 0x3F));
      } else {
        char low = i + 1 < n ? s.charAt(i + 1) : 0;
        if (!Character.isHighSurrogate(c) || !Character.isLowSurrogate(low)) {
          throw new IllegalArgumentException(
              "unpaired surrogate U+" + Integer.toHexString(c).toUpperCase() + " at char " + i);
        }
        i++;
        codePoint(Character.toCodePoint(c, low));
      }
    }
    buf[pos++] = '"';
  }

  /** Writes a code point above U+FFFF as its four UTF-8 bytes (room was made by the caller). */
  private void codePoint(int cp) {
    buf[pos++] = (byte) (0xF0 | (cp >> 18));
    buf[pos++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
    buf[pos++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
    buf[pos++] = (byte) (0x80 | (cp & 0x3F));
  }

  /** Writes the escape of an ASCII character ({@code e}: its letter, or 'u' for a hex escape). */
  private void escape(char c, byte e) {
    buf[pos++] = '\\';
    buf[pos++] = e;
    if (e == 'u') {
      buf[pos++] = '0';
      buf[pos++] = '0';
      buf[pos++] = HEX[c >> 4];
      buf[pos++] = HEX[c & 0xF];
    }
  }

  /**
   * Writes one character decoded from JSON text (used by {@link JsonTextCanonicalizer} for
   * escapes): escaped or as UTF-8, as {@link #string} writes it inside quotes.
   *
   * @param cp a Unicode scalar value (never a surrogate)
   */
  void character(int cp) {
    room(SLACK);
    if (cp < 0x80) {
      byte e = ESCAPE[cp];
      if (e == 0) {
        buf[pos++] = (byte) cp;
      } else {
        escape((char) cp, e);
      }
    } else if (cp < 0x800) {
      buf[pos++] = (byte) (0xC0 | (cp >> 6));
      buf[pos++] = (byte) (0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      buf[pos++] = (byte) (0xE0 | (cp >> 12));
      buf[pos++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
      buf[pos++] = (byte) (0x80 | (cp & 0x3F));
    } else {
      codePoint(cp);
    }
  }

  /**
   * Writes an integer as a JSON number: its digits when its magnitude is at most 2^53 (every
   * such integer is a double, written whole by Number::toString), else the ECMAScript form of
   * the nearest double, which is what reading the integer's text as a number gives.
   */
  public void integer(long v) {
    if (v >= -EcmaNumbers.EXACT_INTEGER && v <= EcmaNumbers.EXACT_INTEGER) {
      room(SLACK);
      if (v < 0) {
        buf[pos++] = '-';
        v = -v;
      }
      digits(v);
    } else {
      number((double) v);
    }
  }

  /** Writes a finite double as ECMAScript's Number::toString does ({@link EcmaNumbers}). */
  public void number(double d) {
    if (d == Math.rint(d) && Math.abs(d) <= EcmaNumbers.EXACT_INTEGER) {
      // Both zeros are "0"; every other integral double of this range is its digits.
      integer((long) d);
      return;
    }
    String s = EcmaNumbers.toString(d);
    room(s.length());
    for (int i = 0; i < s.length(); i++) {
      buf[pos++] = (byte) s.charAt(i);
    }
  }

  /** Writes an unsigned 64-bit value as a decimal string: {@code "18446744073709551615"}. */
  public void unsignedString(long v) {
    room(SLACK);
    buf[pos++] = '"';
    if (v >= 0) {
      digits(v);
    } else {
      // The top digits of the unsigned value, then its last digit.
      long q = (v >>> 1) / 5;
      digits(q);
      buf[pos++] = (byte) ('0' + (v - q * 10));
    }
    buf[pos++] = '"';
  }

  /** Writes a signed 64-bit value as a decimal string: {@code "-9223372036854775808"}. */
  public void signedString(long v) {
    if (v == Long.MIN_VALUE) {
      raw("\"-9223372036854775808\"".getBytes(StandardCharsets.US_ASCII));
      return;
    }
    room(SLACK);
    buf[pos++] = '"';
    if (v < 0) {
      buf[pos++] = '-';
      v = -v;
    }
    digits(v);
    buf[pos++] = '"';
  }

  /** Writes a non-negative integer of any size as a decimal string. */
  public void decimalString(BigInteger v) {
    if (v.bitLength() < 63) {
      signedString(v.longValue());
    } else {
      string(v.toString());
    }
  }

  /** Powers of ten up to 10^18, for counting digits without dividing. */
  private static final long[] POWERS = new long[19];

  /** The two ASCII digits of 0 to 99: tens at {@code 2i}, ones at {@code 2i + 1}. */
  private static final byte[] PAIRS = new byte[200];

  static {
    long p = 1;
    for (int i = 0; i < POWERS.length; i++) {
      POWERS[i] = p;
      p *= 10;
    }
    for (int i = 0; i < 100; i++) {
      PAIRS[2 * i] = (byte) ('0' + i / 10);
      PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
    }
  }

  /**
   * Writes the digits of {@code v >= 0} (room for 19 was made by the caller), two at a time from
   * the right, in int arithmetic once the value fits: offsets, sizes and counts are mostly below
   * 2^31, and this is most of a large record's canonical form.
   */
  private void digits(long v) {
    // floor(log10(v)) + 1 from the bit length (1233 / 4096 ~ log10(2)), corrected once.
    int t = ((64 - Long.numberOfLeadingZeros(v | 1)) * 1233) >>> 12;
    int n = Math.max(1, t + (v >= POWERS[t] ? 1 : 0));
    int p = pos + n;
    pos = p;
    while (v > Integer.MAX_VALUE) {
      long q = v / 100;
      int r = (int) (v - q * 100);
      buf[--p] = PAIRS[2 * r + 1];
      buf[--p] = PAIRS[2 * r];
      v = q;
    }
    int w = (int) v;
    while (w >= 100) {
      int q = w / 100;
      int r = w - q * 100;
      buf[--p] = PAIRS[2 * r + 1];
      buf[--p] = PAIRS[2 * r];
      w = q;
    }
    if (w >= 10) {
      buf[--p] = PAIRS[2 * w + 1];
      buf[--p] = PAIRS[2 * w];
    } else {
      buf[--p] = (byte) ('0' + w);
    }
  }

  /** Makes room for {@code n <= SLACK} bytes (or any {@code n}, for an array sink). */
  private void room(int n) {
    if (n > buf.length - pos) {
      drain(n);
    }
  }

  /**
   * Makes room for {@code n} more bytes: an array sink grows; a digest or comparing sink passes
   * its buffer on and starts it again (it may still be shorter than {@code n} after that).
   */
  private void drain(int n) {
    if (digest == null && expected == null) {
      long want = Math.max((long) pos + n, 2L * buf.length);
      if (want > Integer.MAX_VALUE - 8) {
        if ((long) pos + n > Integer.MAX_VALUE - 8) {
          throw new OutOfMemoryError("canonical form of more than 2 GiB");
        }
        want = Integer.MAX_VALUE - 8;
      }
      buf = Arrays.copyOf(buf, (int) want);
      return;
    }
    drainBytes(buf, 0, pos);
    pos = 0;
  }

  /** Passes bytes to the digest, or compares them with the expected text. */
  private void drainBytes(byte[] b, int from, int n) {
    if (digest != null) {
      digest.update(b, from, n);
    } else if (mismatch < 0 && expected != null) {
      long at = drained;
      int same = at >= expected.length ? 0 : (int) Math.min(n, expected.length - at);
      int i = Arrays.mismatch(b, from, from + same, expected, (int) at, (int) at + same);
      if (i >= 0) {
        mismatch = at + i;
      } else if (same < n) {
        mismatch = at + same;
      }
    }
    drained += n;
  }

  /** Drains what is buffered (digest and comparing sinks); an array sink keeps it. */
  public void finish() {
    if (digest != null || expected != null) {
      drainBytes(buf, 0, pos);
      pos = 0;
      if (expected != null && mismatch < 0 && drained < expected.length) {
        mismatch = drained;
      }
    }
  }

  /**
   * @return the text of an array sink: its buffer itself when the text fills it exactly (the
   *     capacity given was the text's length), else a copy of the right length
   */
  public byte[] bytes() {
    if (digest != null || expected != null) {
      throw new IllegalStateException("not an array sink");
    }
    return pos == buf.length ? buf : Arrays.copyOf(buf, pos);
  }

  /**
   * @return for a comparing sink after {@link #finish}: the first byte offset where the text
   *     differs from the expected bytes (the shorter one's length when one is a prefix of the
   *     other), or -1 when they are equal
   */
  public long mismatch() {
    return mismatch;
  }
}
