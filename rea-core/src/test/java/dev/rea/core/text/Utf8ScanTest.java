package dev.rea.core.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link Utf8#scan} against an independent reference written from Unicode 15 Table 3-7
 * ("Well-Formed UTF-8 Byte Sequences"), exhaustively for every 1-, 2- and 3-byte input and for
 * random longer inputs, including the "cut inside a sequence" result.
 */
class Utf8ScanTest {

  /** Reference: the same contract as {@link Utf8#scan}, one byte at a time from Table 3-7. */
  static int reference(byte[] b, int off, int end) {
    int i = off;
    while (i < end) {
      int c = b[i] & 0xFF;
      int n;
      int lo = 0x80;
      int hi = 0xBF;
      if (c <= 0x7F) {
        i++;
        continue;
      } else if (c >= 0xC2 && c <= 0xDF) {
        n = 1;
      } else if (c == 0xE0) {
        n = 2;
        lo = 0xA0;
      } else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) {
        n = 2;
      } else if (c == 0xED) {
        n = 2;
        hi = 0x9F;
      } else if (c == 0xF0) {
        n = 3;
        lo = 0x90;
      } else if (c >= 0xF1 && c <= 0xF3) {
        n = 3;
      } else if (c == 0xF4) {
        n = 3;
        hi = 0x8F;
      } else {
        return i;
      }
      for (int k = 1; k <= n; k++) {
        if (i + k >= end) {
          return -(i + 2);
        }
        int cc = b[i + k] & 0xFF;
        boolean ok = k == 1 ? cc >= lo && cc <= hi : cc >= 0x80 && cc <= 0xBF;
        if (!ok) {
          return i;
        }
      }
      i += n + 1;
    }
    return Utf8.VALID;
  }

  @Test
  void everyInputOfUpToThreeBytesMatchesTheReference() {
    // In an array of exactly the input (byte-wise path), and at the start, middle and end of a
    // 16-byte array whose other bytes are continuation bytes (word path, masked tail).
    for (int len = 1; len <= 3; len++) {
      int combos = 1 << (8 * len);
      byte[] exact = new byte[len];
      byte[] wide = new byte[16];
      java.util.Arrays.fill(wide, (byte) 0x80);
      for (int v = 0; v < combos; v++) {
        if (len == 3 && (v & 0x80) == 0) {
          // An ASCII first byte leaves a 2-byte input, covered above.
          continue;
        }
        for (int k = 0; k < len; k++) {
          exact[k] = (byte) (v >>> (8 * k));
        }
        check(exact, 0, len, v);
        for (int off : len == 3 ? new int[] {0, 13} : new int[] {0, 5, 16 - len}) {
          System.arraycopy(exact, 0, wide, off, len);
          check(wide, off, off + len, v);
          java.util.Arrays.fill(wide, (byte) 0x80);
        }
      }
    }
  }

  private static void check(byte[] b, int off, int end, int v) {
    int want = reference(b, off, end);
    if (Utf8.isShortWellFormed(b, off, end) && want != Utf8.VALID) {
      throw new AssertionError("quick test accepted invalid value " + Integer.toHexString(v));
    }
    int got = Utf8.scan(b, off, end);
    if (want != got) {
      throw new AssertionError(
          "range [" + off + ", " + end + ") of " + b.length + " value " + Integer.toHexString(v)
              + ": " + got + " != " + want);
    }
  }

  @Test
  void randomInputsMatchTheReference() {
    Random r = new Random(8785);
    byte[] alphabet = {
      'a', 'b', 'c', 0, 0x7F, (byte) 0xC4, (byte) 0xA0, (byte) 0xC3, (byte) 0xA9, (byte) 0x80, (byte) 0xBF, (byte) 0xC0, (byte) 0xC2, (byte) 0xDF, (byte) 0xE0,
      (byte) 0xA0, (byte) 0xED, (byte) 0x9F, (byte) 0xEF, (byte) 0xF0, (byte) 0x90, (byte) 0xF4,
      (byte) 0x8F, (byte) 0xF5, (byte) 0xFF, (byte) 0xE2, (byte) 0x96, (byte) 0x81, (byte) 0xE6,
      (byte) 0xEC, (byte) 0xEE, (byte) 0xE1
    };
    int quickAccepted = 0;
    for (int t = 0; t < 400_000; t++) {
      int len = r.nextInt(40);
      byte[] b = new byte[len + 4 + r.nextInt(12)];
      for (int k = 0; k < b.length; k++) {
        b[k] = r.nextInt(3) == 0 ? (byte) r.nextInt(256) : alphabet[r.nextInt(alphabet.length)];
      }
      int off = r.nextInt(3);
      int end = Math.min(b.length, off + len);
      int want = reference(b, off, end);
      assertThat(Utf8.scan(b, off, end)).isEqualTo(want);
      if (Utf8.isShortWellFormed(b, off, end)) {
        assertThat(want).isEqualTo(Utf8.VALID);
        quickAccepted++;
      }
    }
    assertThat(quickAccepted).as("inputs the quick test decided").isGreaterThan(1000);
  }

  @Test
  void quickTestAcceptsShortLatinText() {
    byte[] b = "Ġthe\u0000\u0000\u0000\u0000\u0000".getBytes(StandardCharsets.UTF_8);
    assertThat(Utf8.isShortWellFormed(b, 0, 5)).isTrue();
    assertThat(Utf8.isShortWellFormed(b, 0, 1)).isFalse(); // cut after the lead byte
    assertThat(Utf8.isShortWellFormed(b, 1, 5)).isFalse(); // starts with a continuation
    byte[] cjk = "日本\u0000\u0000\u0000".getBytes(StandardCharsets.UTF_8);
    assertThat(Utf8.isShortWellFormed(cjk, 0, 6)).isTrue();
    assertThat(Utf8.isShortWellFormed(cjk, 0, 5)).isFalse(); // cut inside the second character
    assertThat(Utf8.scan(cjk, 0, 6)).isEqualTo(Utf8.VALID);
    byte[] piece = "\u2581the\u0000\u0000\u0000\u0000\u0000".getBytes(StandardCharsets.UTF_8);
    assertThat(Utf8.isShortWellFormed(piece, 0, 6)).isTrue(); // SentencePiece's U+2581 + "the"
    // E0 and ED leads (Hangul syllables from U+D000) and four-byte sequences: not decided here.
    byte[] hangul = "\uD55C\u0000\u0000\u0000\u0000\u0000".getBytes(StandardCharsets.UTF_8);
    assertThat(Utf8.isShortWellFormed(hangul, 0, 3)).isFalse();
    assertThat(Utf8.scan(hangul, 0, 3)).isEqualTo(Utf8.VALID);
    byte[] e0 = "\u0915\u0000\u0000\u0000\u0000\u0000".getBytes(StandardCharsets.UTF_8);
    assertThat(Utf8.isShortWellFormed(e0, 0, 3)).isFalse();
    byte[] emoji = "\uD83D\uDE00\u0000\u0000\u0000\u0000".getBytes(StandardCharsets.UTF_8);
    assertThat(Utf8.isShortWellFormed(emoji, 0, 4)).isFalse();
    // An encoded surrogate (ED A0 80) and an overlong (E0 80 80) are still refused.
    byte[] bad = {(byte) 0xED, (byte) 0xA0, (byte) 0x80, 0, 0, 0, 0, 0};
    assertThat(Utf8.isShortWellFormed(bad, 0, 3)).isFalse();
    assertThat(Utf8.scan(bad, 0, 3)).isEqualTo(0);
    byte[] overlong = {(byte) 0xE0, (byte) 0x80, (byte) 0x80, 0, 0, 0, 0, 0};
    assertThat(Utf8.scan(overlong, 0, 3)).isEqualTo(0);
  }

  /**
   * Mostly well-formed text of 1- to 4-byte characters (so that whole words take the fast path),
   * with an occasional byte replaced, dropped or cut off, against the reference.
   */
  @Test
  void mostlyValidMultibyteTextMatchesTheReference() {
    Random r = new Random(2581);
    int[] starts = {0x20, 0x80, 0x800, 0x1000, 0x2581, 0x4E00, 0xAC00, 0xD000, 0xE000, 0xFFF0};
    int quickThreeByte = 0;
    for (int t = 0; t < 200_000; t++) {
      StringBuilder text = new StringBuilder();
      int chars = r.nextInt(12);
      for (int c = 0; c < chars; c++) {
        int kind = r.nextInt(12);
        if (kind == 0) {
          text.appendCodePoint(0x10000 + r.nextInt(0x100000));
        } else {
          int start = starts[r.nextInt(starts.length)];
          text.appendCodePoint(Math.min(0xFFFF, start + r.nextInt(0x200)));
        }
      }
      byte[] valid = text.toString().getBytes(StandardCharsets.UTF_8);
      byte[] b = java.util.Arrays.copyOf(valid, valid.length + 8);
      int end = valid.length;
      switch (r.nextInt(6)) {
        case 0 -> { if (end > 0) b[r.nextInt(end)] = (byte) r.nextInt(256); }
        case 1 -> { if (end > 0) end = r.nextInt(end); }
        default -> { }
      }
      int want = reference(b, 0, end);
      assertThat(Utf8.scan(b, 0, end)).as("bytes %s", java.util.HexFormat.of().formatHex(b, 0, end)).isEqualTo(want);
      if (Utf8.isShortWellFormed(b, 0, end)) {
        assertThat(want).isEqualTo(Utf8.VALID);
        for (int k = 0; k < end; k++) {
          if ((b[k] & 0xF0) == 0xE0) {
            quickThreeByte++;
            break;
          }
        }
      }
    }
    assertThat(quickThreeByte).as("inputs with three-byte characters the quick test decided").isGreaterThan(1000);
  }

  @Test
  void validTextIsValidAndJavaAgrees() {
    String s = "plain ascii, Ġtoken, Ċ, é, 日本語, 😀 and \u0000";
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    assertThat(Utf8.scan(b, 0, b.length)).isEqualTo(Utf8.VALID);
    assertThat(new String(b, StandardCharsets.UTF_8)).isEqualTo(s);
    // Cut inside the emoji: well formed so far, so "cut at" its first byte.
    int emoji = s.indexOf("😀");
    int at = new String(s.substring(0, emoji)).getBytes(StandardCharsets.UTF_8).length;
    assertThat(Utf8.scan(b, 0, at + 2)).isEqualTo(-(at + 2));
  }
}
