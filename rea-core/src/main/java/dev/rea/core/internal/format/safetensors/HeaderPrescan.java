package dev.rea.core.internal.format.safetensors;

import dev.rea.core.error.ReaException;
import dev.rea.core.text.Utf8;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The byte pass over a safetensors header's JSON before it is parsed: strict UTF-8 ({@link
 * Utf8}: overlong forms and encoded surrogates are invalid), no raw control byte but tab, LF and
 * CR (never valid in JSON text; this also keeps Jackson from guessing a UTF-16/32 encoding), and
 * an object as the top-level value (a byte-order mark or any other value is rejected). Each
 * failure is {@code file_format_rejected} with the field {@code header} and the offending byte's
 * absolute offset.
 */
final class HeaderPrescan {
  private static final long PREFIX = SafetensorsReader.PREFIX_BYTES;

  private HeaderPrescan() {}

  /**
   * Strict UTF-8, no raw control bytes but tab, LF and CR, and an object as the top-level value.
   */
  static void check(byte[] json) throws ReaException {
    int n = json.length;
    int r = Utf8.scan(json, 0, n);
    if (r != Utf8.VALID) {
      int bad = r >= 0 ? r : -(r + 2);
      throw HeaderRanges.rejectAt(
          "header",
          PREFIX + bad,
          "the header JSON has invalid UTF-8 (byte 0x"
              + hex(json[bad])
              + "; overlong forms, encoded surrogates and cut sequences are invalid)");
    }
    int ctl = firstForbiddenControl(json);
    if (ctl >= 0) {
      throw HeaderRanges.rejectAt(
          "header",
          PREFIX + ctl,
          "the header JSON has the control byte 0x"
              + hex(json[ctl])
              + " (only space, tab, CR and LF may appear outside strings, and control"
              + " characters inside strings must be escaped)");
    }
    int i = 0;
    while (i < n && isJsonSpace(json[i])) {
      i++;
    }
    if (i == n) {
      throw HeaderRanges.rejectAt(
          "header",
          PREFIX + n,
          n == 0
              ? "the header JSON is empty (json_length is 0); a JSON object is required"
              : "the header JSON is only whitespace; a JSON object is required");
    }
    if (json[i] != '{') {
      boolean bom =
          i + 2 < n
              && (json[i] & 0xFF) == 0xEF
              && (json[i + 1] & 0xFF) == 0xBB
              && (json[i + 2] & 0xFF) == 0xBF;
      throw HeaderRanges.rejectAt(
          "header",
          PREFIX + i,
          bom
              ? "the header JSON starts with a UTF-8 byte-order mark; the header must be a JSON"
                  + " object, optionally surrounded by space, tab, CR or LF"
              : "the header's top-level JSON value is not an object; the header must be a JSON"
                  + " object");
    }
  }

  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /**
   * @return the index of the first byte below 0x20 other than tab, LF and CR, or -1. Eight bytes
   *     at a time: a word holds a byte below 0x20 exactly when {@code (w - 0x20..20) & ~w &
   *     0x80..80} is nonzero; only such words are examined byte by byte.
   */
  static int firstForbiddenControl(byte[] b) {
    int n = b.length;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      long w = (long) LONG_LE.get(b, i);
      if (((w - 0x2020202020202020L) & ~w & 0x8080808080808080L) != 0) {
        for (int k = i; k < i + 8; k++) {
          if (isForbiddenControl(b[k])) {
            return k;
          }
        }
      }
    }
    for (; i < n; i++) {
      if (isForbiddenControl(b[i])) {
        return i;
      }
    }
    return -1;
  }

  private static boolean isForbiddenControl(byte c) {
    return c >= 0 && c < 0x20 && c != '\t' && c != '\n' && c != '\r';
  }

  static boolean isJsonSpace(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\r';
  }

  private static String hex(byte b) {
    return String.format("%02x", b & 0xFF);
  }
}
