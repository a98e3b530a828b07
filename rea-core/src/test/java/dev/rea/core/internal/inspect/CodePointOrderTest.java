package dev.rea.core.internal.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.internal.evidence.Derivations;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link Derivations#compareCodePoints} against a reference over code point arrays. */
class CodePointOrderTest {
  private static int reference(String a, String b) {
    return Integer.signum(Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray()));
  }

  private static final int[] POOL = {
    'a', 'b', 'z', 0x7F, 0xE9, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFF61, 0xFFFD, 0xFFFF, 0x10000,
    0x1F600, 0x1F601, 0x10FFFF
  };

  private static String random(SplittableRandom r) {
    StringBuilder sb = new StringBuilder();
    int n = r.nextInt(5);
    for (int i = 0; i < n; i++) {
      sb.appendCodePoint(POOL[r.nextInt(POOL.length)]);
    }
    return sb.toString();
  }

  @Test
  void matchesCodePointOrder() {
    SplittableRandom r = new SplittableRandom(3);
    for (int k = 0; k < 200_000; k++) {
      String a = random(r);
      String b = k % 5 == 0 ? a + random(r) : random(r);
      assertThat(Integer.signum(Derivations.compareCodePoints(a, b)))
          .as("%s vs %s", a, b)
          .isEqualTo(reference(a, b));
    }
  }

  @Test
  void differsFromUtf16OrderWhereItShould() {
    String astral = new String(Character.toChars(0x1F600));
    assertThat(astral.compareTo("\uFF61")).isNegative();
    assertThat(Derivations.compareCodePoints(astral, "\uFF61")).isPositive();
    assertThat(Derivations.compareCodePoints("\uFF61", astral)).isNegative();
    assertThat(Derivations.compareCodePoints("ab", "ab")).isZero();
    assertThat(Derivations.compareCodePoints("ab", "abc")).isNegative();
  }
}
