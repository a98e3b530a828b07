package dev.rea.core.internal.format.safetensors;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.internal.io.JsonText;
import java.math.BigInteger;
import java.util.SplittableRandom;
import dev.rea.core.internal.io.FieldPath;
import org.junit.jupiter.api.Test;

/** The reader's small helpers against slow reference implementations. */
class HeaderParseHelpersTest {

  private static int naiveForbiddenControl(byte[] b) {
    for (int i = 0; i < b.length; i++) {
      int c = b[i] & 0xFF;
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
        return i;
      }
    }
    return -1;
  }

  @Test
  void controlScanMatchesTheByteLoopForEveryByteAtEveryPosition() {
    for (int len = 0; len <= 19; len++) {
      for (int pos = 0; pos < len; pos++) {
        for (int v = 0; v < 256; v++) {
          byte[] b = new byte[len];
          java.util.Arrays.fill(b, (byte) 'a');
          b[pos] = (byte) v;
          assertThat(HeaderPrescan.firstForbiddenControl(b))
              .as("len %d pos %d value %d", len, pos, v)
              .isEqualTo(naiveForbiddenControl(b));
        }
      }
    }
    SplittableRandom r = new SplittableRandom(7);
    for (int k = 0; k < 20_000; k++) {
      byte[] b = new byte[r.nextInt(40)];
      for (int i = 0; i < b.length; i++) {
        // Mostly printable and high bytes, sometimes whitespace or a control byte.
        int pick = r.nextInt(20);
        b[i] = (byte) (pick == 0 ? r.nextInt(0x20) : pick < 4 ? "\t\n\r ".charAt(r.nextInt(4)) : 0x20 + r.nextInt(224));
      }
      assertThat(HeaderPrescan.firstForbiddenControl(b)).isEqualTo(naiveForbiddenControl(b));
    }
  }

  @Test
  void unsignedMultiplyHighMatchesBigInteger() {
    SplittableRandom r = new SplittableRandom(11);
    long[] edges = {0, 1, 2, -1L, -2L, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 32, (1L << 32) - 1};
    for (int k = 0; k < 50_000; k++) {
      long a = k < 81 ? edges[k % 9] : r.nextLong();
      long b = k < 81 ? edges[k / 9] : (k % 3 == 0 ? r.nextLong() >>> r.nextInt(64) : r.nextLong());
      BigInteger p = unsigned(a).multiply(unsigned(b));
      assertThat(HeaderParse.unsignedMultiplyHigh(a, b)).isEqualTo(p.shiftRight(64).longValue());
    }
  }

  private static BigInteger unsigned(long v) {
    return new BigInteger(Long.toUnsignedString(v));
  }

  @Test
  void loneSurrogatesAreFoundAndPairsAreNot() {
    assertThat(dev.rea.core.text.Utf8.findLoneSurrogate("a\uD83D\uDE00b".toCharArray(), 0, 4)).isEqualTo(-1);
    assertThat(dev.rea.core.text.Utf8.findLoneSurrogate("a\uD83Db".toCharArray(), 0, 3)).isEqualTo(1);
    assertThat(dev.rea.core.text.Utf8.findLoneSurrogate("a\uDE00".toCharArray(), 0, 2)).isEqualTo(1);
    assertThat(dev.rea.core.text.Utf8.findLoneSurrogate("\uDE00\uD83D".toCharArray(), 0, 2)).isZero();
    // A pair cut by the end of the range is lone within it.
    assertThat(dev.rea.core.text.Utf8.findLoneSurrogate("\uD83D\uDE00".toCharArray(), 0, 1)).isZero();
  }

  @Test
  void quoteEscapesAndTruncates() {
    assertThat(FieldPath.quote("a\"b\\c\u0000\uD800")).isEqualTo("\"a\\\"b\\\\c\\u0000\\ud800\"");
    String q = FieldPath.quote("x".repeat(1000));
    assertThat(q).startsWith("\"xxx").endsWith("... (1000 chars)\"");
    assertThat(q.length()).isLessThan(300);
  }

  @Test
  void dtypeTableHasTheCrateDtypesWithTheirSizes() {
    String[] names = {
      "BOOL", "F4", "F6_E2M3", "F6_E3M2", "U8", "I8", "F8_E5M2", "F8_E4M3", "F8_E8M0",
      "F8_E4M3FNUZ", "F8_E5M2FNUZ", "I16", "U16", "F16", "BF16", "I32", "U32", "F32", "C64",
      "F64", "I64", "U64"
    };
    int[] bits = {8, 4, 6, 6, 8, 8, 8, 8, 8, 8, 8, 16, 16, 16, 16, 32, 32, 32, 64, 64, 64, 64};
    assertThat(SafetensorsDtype.values()).hasSize(names.length);
    for (int i = 0; i < names.length; i++) {
      SafetensorsDtype d = SafetensorsDtype.byName(names[i]);
      assertThat(d).isNotNull();
      assertThat(d.ordinal()).isEqualTo(i);
      assertThat(d.bits()).isEqualTo(bits[i]);
      // elementsPerUnit elements take bytesPerUnit bytes, exactly.
      assertThat(d.elementsPerUnit() * d.bits()).isEqualTo(8 * d.bytesPerUnit());
      char[] c = ("xx" + names[i] + "yy").toCharArray();
      assertThat(SafetensorsDtype.byName(java.nio.CharBuffer.wrap(c, 2, names[i].length()))).isSameAs(d);
    }
    assertThat(SafetensorsDtype.F4.elementsPerUnit()).isEqualTo(2);
    assertThat(SafetensorsDtype.F6_E2M3.elementsPerUnit()).isEqualTo(4);
    assertThat(SafetensorsDtype.F6_E2M3.bytesPerUnit()).isEqualTo(3);
    // Each name spells its own dtype and no other (HeaderParse tries the last dtype first).
    for (SafetensorsDtype a : SafetensorsDtype.values()) {
      for (SafetensorsDtype b : SafetensorsDtype.values()) {
        char[] c = ("x" + b.name()).toCharArray();
        assertThat(a.spelledBy(java.nio.CharBuffer.wrap(c, 1, c.length - 1)))
            .as(a + " spelled by " + b)
            .isEqualTo(a == b);
      }
    }
    for (String bad : new String[] {"f32", "F128", "E8M0", "FP4", "UE8", "", "F32 "}) {
      assertThat(SafetensorsDtype.byName(bad)).as(bad).isNull();
      assertThat(SafetensorsDtype.byName(new StringBuilder(bad))).isNull();
    }
  }

  /**
   * {@link StringSizer} fed in random chunks agrees with the whole-string checks: a
   * lone surrogate exactly when {@link dev.rea.core.text.Utf8#findLoneSurrogate} finds one, the escaped
   * length of {@link JsonText#escapedLength}, and the text kept exactly when that length is
   * within the limit (one sizer reused, as the parser reuses it).
   */
  @Test
  void stringSizerInChunksAgreesWithTheWholeStringChecks() {
    java.util.Random rnd = new java.util.Random(8785);
    char[] alphabet = {'a', '"', '\\', '\n', '\u0001', '\u00e9', '\u20ac', '\ud800', '\udbff', '\udc00', '\udfff', 'z'};
    StringSizer sizer = new StringSizer(-1);
    for (int round = 0; round < 20_000; round++) {
      char[] c = new char[rnd.nextInt(12)];
      for (int i = 0; i < c.length; i++) {
        c[i] = alphabet[rnd.nextInt(alphabet.length)];
      }
      String whole = new String(c);
      long length = JsonText.escapedLength(whole);
      long keep = rnd.nextInt(4) == 0 ? -1 : rnd.nextInt(40);
      String shown =
          whole
              .chars()
              .mapToObj(x -> String.format("%04x", x))
              .collect(java.util.stream.Collectors.joining(" ", "[", "] keep " + keep));
      sizer.reset(keep);
      int at = 0;
      while (at < c.length) {
        int n = 1 + rnd.nextInt(c.length - at);
        sizer.write(c, at, n);
        at += n;
      }
      boolean lone = dev.rea.core.text.Utf8.findLoneSurrogate(c, 0, c.length) >= 0;
      org.assertj.core.api.Assertions.assertThat(sizer.lone()).as("lone " + shown).isEqualTo(lone);
      org.assertj.core.api.Assertions.assertThat(sizer.escapedLength()).as("length " + shown).isEqualTo(length);
      boolean kept = keep >= 0 && length <= keep;
      org.assertj.core.api.Assertions.assertThat(sizer.text()).as("text " + shown).isEqualTo(kept ? whole : null);
      org.assertj.core.api.Assertions.assertThat(sizer.sawPair())
          .as("pair " + shown)
          .isEqualTo(whole.codePoints().anyMatch(Character::isSupplementaryCodePoint));
    }
  }
}
