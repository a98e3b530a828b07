package dev.rea.core.text;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Strict UTF-8 validation (Unicode 15, Table 3-7 "Well-Formed UTF-8 Byte Sequences"): rejects
 * overlong forms ({@code C0 AF}, {@code E0 80 80}), encoded surrogates ({@code ED A0 80}), code
 * points above U+10FFFF, the bytes C0, C1 and F5..FF, stray continuation bytes and sequences cut
 * short. {@code new String(bytes, UTF_8)} silently replaces such input; Jackson's UTF-8 decoder
 * accepts overlongs and surrogates (see {@code shared/notes/safetensors-readers.md} section 7).
 */
public final class Utf8 {
  /** Result of {@link #scan}: every byte was well formed. */
  public static final int VALID = -1;

  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long HIGH_BITS = 0x8080808080808080L;

  private Utf8() {}

  /**
   * Scans {@code b[off, end)}.
   *
   * @return {@link #VALID}; or the index of the first byte of an ill-formed sequence (&gt;= 0);
   *     or {@code -(i + 2)} when the range ends inside a sequence that starts at index {@code i}
   *     and is well formed so far (the caller decides whether more bytes follow)
   */
  public static int scan(byte[] b, int off, int end) {
    int i = off;
    int wordLimit = b.length - 8;
    while (i < end) {
      // Fast path, 8 bytes at a time: ASCII and complete two- and three-byte sequences (Latin
      // text, the byte-level BPE marker U+0120, SentencePiece's U+2581, most CJK ...). The word
      // may extend past end (never past the array): those bytes are masked to zero, which reads
      // as ASCII.
      while (i <= wordLimit) {
        int n = end - i;
        long w = (long) LONG_LE.get(b, i);
        if (n < 8) {
          w &= -1L >>> (8 * (8 - n));
        }
        if ((w & HIGH_BITS) != 0 && !wordOfShortSequences(w)) {
          break;
        }
        if (n <= 8) {
          return VALID;
        }
        i += 8;
      }
      if (b[i] >= 0) {
        i++;
        continue;
      }
      int c = b[i] & 0xFF;
      if (c < 0xC2) {
        // Stray continuation byte (80..BF) or overlong lead (C0, C1).
        return i;
      }
      if (c < 0xE0) {
        // Two bytes: C2..DF 80..BF.
        if (i + 1 >= end) {
          return -(i + 2);
        }
        if ((b[i + 1] & 0xC0) != 0x80) {
          return i;
        }
        i += 2;
        continue;
      }
      int need;
      int lo;
      int hi;
      if (c < 0xF0) {
        // Three bytes; E0 needs A0..BF (no overlongs), ED needs 80..9F (no surrogates).
        need = 2;
        lo = c == 0xE0 ? 0xA0 : 0x80;
        hi = c == 0xED ? 0x9F : 0xBF;
      } else if (c <= 0xF4) {
        // Four bytes; F0 needs 90..BF (no overlongs), F4 needs 80..8F (at most U+10FFFF).
        need = 3;
        lo = c == 0xF0 ? 0x90 : 0x80;
        hi = c == 0xF4 ? 0x8F : 0xBF;
      } else {
        return i;
      }
      if (i + 1 >= end) {
        return -(i + 2);
      }
      int c1 = b[i + 1] & 0xFF;
      if (c1 < lo || c1 > hi) {
        return i;
      }
      for (int k = 2; k <= need; k++) {
        if (i + k >= end) {
          return -(i + 2);
        }
        if ((b[i + k] & 0xC0) != 0x80) {
          return i;
        }
      }
      i += need + 1;
    }
    return VALID;
  }

  private static final long LOW_5_BITS = 0x1E1E1E1E1E1E1E1EL;
  private static final long LOW_NIBBLE = 0x0F0F0F0F0F0F0F0FL;
  private static final long NIBBLE_D = 0x0D0D0D0D0D0D0D0DL;
  private static final long SEVEN_F = 0x7F7F7F7F7F7F7F7FL;

  /**
   * @param w eight bytes, little-endian
   * @return true when they are only ASCII bytes, complete two-byte sequences C2..DF 80..BF and
   *     complete three-byte sequences E1..EC or EE..EF followed by two bytes 80..BF, none cut at
   *     either end of the word. False leaves the word to the byte-wise path: E0 and ED leads
   *     (whose second byte has a narrower range), four-byte sequences and anything ill formed.
   */
  private static boolean wordOfShortSequences(long w) {
    long high = w & HIGH_BITS;
    // Bits 6, 5 and 4 of each byte, moved up to bit 7.
    long b6 = (w << 1) & HIGH_BITS;
    long b5 = (w << 2) & HIGH_BITS;
    long b4 = (w << 3) & HIGH_BITS;
    long lead = high & b6;
    long cont = high & ~b6;
    long lead2 = lead & ~b5;
    long lead3 = lead & b5 & ~b4;
    // F0..FF, and leads whose continuation bytes would lie past the word.
    if ((lead & b5 & b4) != 0
        || (lead2 & 0x8000000000000000L) != 0
        || (lead3 & 0x8080000000000000L) != 0) {
      return false;
    }
    // Every lead followed by exactly its continuation bytes, every continuation led.
    if ((((lead2 | lead3) << 8) | (lead3 << 16)) != cont) {
      return false;
    }
    // Two-byte leads are C2..DF: some of bits 1-4 set (not C0, C1). Three-byte leads are not E0
    // (low nibble 0) or ED (low nibble D). Per byte, (nibble + 7F) sets bit 7 iff the nibble is
    // not zero; no carry crosses into the next byte.
    long notC0C1 = ((w & LOW_5_BITS) + SEVEN_F) & HIGH_BITS;
    long notE0 = ((w & LOW_NIBBLE) + SEVEN_F) & HIGH_BITS;
    long notED = (((w ^ NIBBLE_D) & LOW_NIBBLE) + SEVEN_F) & HIGH_BITS;
    return (lead2 & ~notC0C1) == 0 && (lead3 & ~(notE0 & notED)) == 0;
  }

  /**
   * A quick positive test for short strings: true when {@code b[off, end)} is at most 8 bytes of
   * ASCII and complete two- and three-byte sequences (three-byte ones not led by E0 or ED),
   * judged from one 8-byte word (which must lie within the array). False means "not decided
   * here": call {@link #scan}.
   */
  public static boolean isShortWellFormed(byte[] b, int off, int end) {
    int n = end - off;
    if (n > 8 || off > b.length - 8) {
      return false;
    }
    long w = (long) LONG_LE.get(b, off);
    if (n < 8) {
      w &= -1L >>> (8 * (8 - n));
    }
    return (w & HIGH_BITS) == 0 || wordOfShortSequences(w);
  }

  /**
   * Finds a char no UTF-8 text can encode: a surrogate that is not half of a pair (in JSON only an
   * escape such as {@code "\ud800"} can put one in a decoded string).
   *
   * @return the index of the first unpaired surrogate in {@code s[from, end)}, or -1; a pair cut
   *     by {@code end} is unpaired within the range
   */
  public static int findLoneSurrogate(CharSequence s, int from, int end) {
    for (int i = from; i < end; i++) {
      char ch = s.charAt(i);
      if (ch >= Character.MIN_SURROGATE && ch <= Character.MAX_SURROGATE) {
        if (Character.isHighSurrogate(ch) && i + 1 < end && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
        } else {
          return i;
        }
      }
    }
    return -1;
  }

  /** As {@link #findLoneSurrogate(CharSequence, int, int)}, over {@code c[off, end)}. */
  public static int findLoneSurrogate(char[] c, int off, int end) {
    return findLoneSurrogate(java.nio.CharBuffer.wrap(c), off, end);
  }

  /** @return true when the whole range is well-formed UTF-8 */
  public static boolean isValid(byte[] b, int off, int end) {
    return scan(b, off, end) == VALID;
  }

  /** @return true when every byte of the range is ASCII (below 0x80) */
  public static boolean isAscii(byte[] b, int off, int end) {
    int i = off;
    while (i + 8 <= end) {
      if ((((long) LONG_LE.get(b, i)) & HIGH_BITS) != 0) {
        return false;
      }
      i += 8;
    }
    while (i < end) {
      if (b[i] < 0) {
        return false;
      }
      i++;
    }
    return true;
  }
}
