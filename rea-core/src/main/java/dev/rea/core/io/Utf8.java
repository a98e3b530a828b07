package dev.rea.core.io;

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
    while (i < end) {
      // ASCII fast path, 8 bytes at a time.
      while (i + 8 <= end && (((long) LONG_LE.get(b, i)) & HIGH_BITS) == 0) {
        i += 8;
      }
      if (i >= end) {
        break;
      }
      int c = b[i] & 0xFF;
      if (c < 0x80) {
        i++;
        continue;
      }
      int need;
      int lo = 0x80;
      int hi = 0xBF;
      if (c >= 0xC2 && c <= 0xDF) {
        need = 1;
      } else if (c >= 0xE0 && c <= 0xEF) {
        need = 2;
        if (c == 0xE0) {
          lo = 0xA0;
        } else if (c == 0xED) {
          hi = 0x9F;
        }
      } else if (c >= 0xF0 && c <= 0xF4) {
        need = 3;
        if (c == 0xF0) {
          lo = 0x90;
        } else if (c == 0xF4) {
          hi = 0x8F;
        }
      } else {
        return i;
      }
      int start = i;
      // Second byte has the restricted range; later ones are plain continuation bytes.
      for (int k = 1; k <= need; k++) {
        int p = start + k;
        if (p >= end) {
          return -(start + 2);
        }
        int cc = b[p] & 0xFF;
        if (k == 1 ? (cc < lo || cc > hi) : (cc < 0x80 || cc > 0xBF)) {
          return start;
        }
      }
      i = start + need + 1;
    }
    return VALID;
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
