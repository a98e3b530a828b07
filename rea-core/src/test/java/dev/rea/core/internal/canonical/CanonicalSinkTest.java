package dev.rea.core.internal.canonical;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.testing.RandomRecords;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quicktheories.QuickTheory;
import org.quicktheories.generators.SourceDSL;

/** The token spellings of {@link CanonicalSink}, on both its string paths and at digit edges. */
class CanonicalSinkTest {
  private static String written(java.util.function.Consumer<CanonicalSink> w) {
    CanonicalSink sink = CanonicalSink.toBytes(1);
    w.accept(sink);
    return new String(sink.bytes(), StandardCharsets.UTF_8);
  }

  /** Unpaired surrogates anywhere (after ASCII, after non-ASCII, at either end) are refused. */
  @ParameterizedTest
  @ValueSource(strings = {"\ud800", "a\ud800", "\udc00a", "ab?\ud800?", "\u00e9\udc00",
      "x\ud83d", "\ude00\ud83d", "?\ud800"})
  void unpairedSurrogatesAreRefused(String s) {
    assertThatThrownBy(() -> written(sink -> sink.string(s)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unpaired surrogate");
  }

  @Test
  void questionMarksAndPairsAreWrittenAsTheyAre() {
    assertThat(written(sink -> sink.string("a?b??"))).isEqualTo("\"a?b??\"");
    assertThat(written(sink -> sink.string("?\ud83d\ude00?"))).isEqualTo("\"?\ud83d\ude00?\"");
    assertThat(written(sink -> sink.string(""))).isEqualTo("\"\"");
    assertThat(written(sink -> sink.string("ab\"c\\d\u0000"))).isEqualTo("\"ab\\\"c\\\\d\\u0000\"");
  }

  /**
   * Random strings, short (the ASCII fast path) and longer than a chunk (the general loop), are
   * escaped as JSON.stringify does: the same through an array sink and a digest sink.
   */
  @Test
  void randomStringsAreEscapedTheSameOnEveryPath() throws Exception {
    QuickTheory.qt()
        .withExamples(300)
        .forAll(SourceDSL.longs().all())
        .checkAssert(
            seed -> {
              Random r = new Random(seed);
              StringBuilder s = new StringBuilder();
              int target = r.nextBoolean() ? r.nextInt(40) : CanonicalSink.CHUNK + r.nextInt(999);
              while (s.length() < target) {
                s.append(r.nextInt(3) == 0 ? RandomRecords.text(r) : "plain-ascii.");
              }
              String expected = stringify(s.toString());
              assertThat(written(sink -> sink.string(s.toString()))).isEqualTo(expected);
              try {
                MessageDigest md = MessageDigest.getInstance("SHA-256");
                CanonicalSink d = CanonicalSink.toDigest(md);
                d.string(s.toString());
                d.finish();
                assertThat(HexFormat.of().formatHex(md.digest())).isEqualTo(HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256")
                        .digest(expected.getBytes(StandardCharsets.UTF_8))));
              } catch (java.security.NoSuchAlgorithmException e) {
                throw new AssertionError(e);
              }
            });
  }

  /** JSON.stringify's escaping, written out plainly (ECMA-262 QuoteJSONString). */
  private static String stringify(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '\b' -> b.append("\\b");
        case '\t' -> b.append("\\t");
        case '\n' -> b.append("\\n");
        case '\f' -> b.append("\\f");
        case '\r' -> b.append("\\r");
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        default -> b.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
      }
    }
    return b.append('"').toString();
  }

  /** Every digit count, at each power of ten and its neighbours, and random values. */
  @Test
  void decimalsAreJavasDigitsAtEveryLength() {
    java.util.List<Long> values = new java.util.ArrayList<>(
        java.util.List.of(0L, Long.MAX_VALUE, Long.MIN_VALUE, -1L, (long) Integer.MAX_VALUE + 1));
    long p = 1;
    for (int k = 0; k <= 18; k++, p *= 10) {
      values.add(p - 1);
      values.add(p);
      values.add(p + 1);
      values.add(-p);
    }
    Random r = new Random(3);
    for (int i = 0; i < 20_000; i++) {
      values.add(r.nextLong() >> r.nextInt(64));
    }
    for (long v : values) {
      assertThat(written(sink -> sink.unsignedString(v))).as("%d", v)
          .isEqualTo("\"" + Long.toUnsignedString(v) + "\"");
      assertThat(written(sink -> sink.signedString(v))).as("%d", v)
          .isEqualTo("\"" + v + "\"");
      if (Math.abs((double) v) <= 0x1p53) {
        assertThat(written(sink -> sink.integer(v))).as("%d", v).isEqualTo(Long.toString(v));
      }
      BigInteger big = new BigInteger(Long.toUnsignedString(v)).shiftLeft(r.nextInt(3) * 40);
      assertThat(written(sink -> sink.decimalString(big))).isEqualTo("\"" + big + "\"");
    }
  }
}
