package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Thousands separators as the JDK's formatter writes them ({@code %,d}, the oracle). */
class SizesTest {
  @Test
  void groupedMatchesTheFormatter() {
    Random r = new Random(5);
    for (int i = 0; i < 5000; i++) {
      BigInteger v = new BigInteger(1 + r.nextInt(90), r);
      if (r.nextBoolean()) {
        v = v.negate();
      }
      assertThat(Sizes.grouped(v)).isEqualTo(String.format(Locale.ROOT, "%,d", v));
    }
    for (long v : new long[] {0, 1, 999, 1000, 999_999, 1_000_000, Long.MAX_VALUE, -1}) {
      assertThat(Sizes.grouped(v)).isEqualTo(
          String.format(Locale.ROOT, "%,d", new BigInteger(Long.toUnsignedString(v))));
    }
  }
}
