package dev.rea.core.internal.canonical;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.testing.RandomRecords;
import dev.rea.core.testing.Rfc8785Oracle;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.quicktheories.QuickTheory;
import org.quicktheories.generators.SourceDSL;

/**
 * ECMAScript Number::toString as RFC 8785 writes numbers: the RFC's own table, Node.js's output
 * for thousands of hard values, and the reference library on random doubles.
 */
class EcmaNumbersTest {

  /** RFC 8785 Appendix B: IEEE 754 bit patterns and the JSON text the RFC gives for each. */
  @ParameterizedTest
  @CsvSource({
    "0000000000000000, 0",
    "8000000000000000, 0",
    "0000000000000001, 5e-324",
    "8000000000000001, -5e-324",
    "7fefffffffffffff, 1.7976931348623157e+308",
    "ffefffffffffffff, -1.7976931348623157e+308",
    "4340000000000000, 9007199254740992",
    "c340000000000000, -9007199254740992",
    "4430000000000000, 295147905179352830000",
    "44b52d02c7e14af5, 9.999999999999997e+22",
    "44b52d02c7e14af6, 1e+23",
    "44b52d02c7e14af7, 1.0000000000000001e+23",
    "444b1ae4d6e2ef4e, 999999999999999700000",
    "444b1ae4d6e2ef4f, 999999999999999900000",
    "444b1ae4d6e2ef50, 1e+21",
    "3eb0c6f7a0b5ed8c, 9.999999999999997e-7",
    "3eb0c6f7a0b5ed8d, 0.000001",
    "41b3de4355555553, 333333333.3333332",
    "41b3de4355555554, 333333333.33333325",
    "41b3de4355555555, 333333333.3333333",
    "41b3de4355555556, 333333333.3333334",
    "41b3de4355555557, 333333333.33333343",
    "becbf647612f3696, -0.0000033333333333333333",
    "43143ff3c1cb0959, 1424953923781206.2",
  })
  void rfc8785AppendixB(String bits, String expected) {
    double d = Double.longBitsToDouble(Long.parseUnsignedLong(bits, 16));
    assertThat(EcmaNumbers.toString(d)).isEqualTo(expected);
    CanonicalSink sink = CanonicalSink.toBytes(8);
    sink.number(d);
    assertThat(new String(sink.bytes(), StandardCharsets.US_ASCII)).isEqualTo(expected);
  }

  /** RFC 8785 Appendix B's last rows: NaN and Infinity have no JSON form. */
  @ParameterizedTest
  @ValueSource(strings = {"7fffffffffffffff", "7ff0000000000000", "fff0000000000000"})
  void nanAndInfinitiesAreRefused(String bits) {
    double d = Double.longBitsToDouble(Long.parseUnsignedLong(bits, 16));
    assertThatThrownBy(() -> EcmaNumbers.toString(d)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> CanonicalSink.toBytes(8).number(d))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** Java 17's Double.toString is not the shortest here; ECMAScript's form is. */
  @Test
  void notJavasDoubleToString() {
    // 1e23 as "9.999999999999999E22": it reads back as 1e23, but it is neither short nor closest.
    assertThat(Double.toString(1.0E23)).isEqualTo("9.999999999999999E22");
    assertThat(EcmaNumbers.toString(1.0E23)).isEqualTo("1e+23");
    // 2^-44: Java 17 writes 18 significant digits, one more than the shortest.
    assertThat(Double.toString(0x1p-44)).isEqualTo("5.6843418860808015E-14");
    assertThat(EcmaNumbers.toString(0x1p-44)).isEqualTo("5.684341886080802e-14");
  }

  @Test
  void everyValueOfTheNodeJsVectorsIsWrittenAsNodeJsWritesIt() throws IOException {
    assertThat(checkVectors("/evidence/numbers-ecmascript.txt")).isEqualTo(5399);
    assertThat(checkVectors("/evidence/subnormals-ecmascript.txt")).isEqualTo(312);
  }

  /** @return how many vectors of the resource were checked */
  private static int checkVectors(String resource) throws IOException {
    int checked = 0;
    try (InputStream in = EcmaNumbersTest.class.getResourceAsStream(resource)) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.trim().split(" ");
        double d = Double.longBitsToDouble(Long.parseUnsignedLong(f[0], 16));
        assertThat(EcmaNumbers.toString(d)).as(f[0]).isEqualTo(f[1]);
        checked++;
      }
    }
    return checked;
  }

  /**
   * The reference library on random doubles of every kind (its subnormal mistakes corrected by
   * the oracle), and the text always reads back as the same double.
   */
  @Test
  void randomDoublesAreWrittenAsTheOracleWritesThem() {
    QuickTheory.qt()
        .withExamples(20_000)
        .forAll(SourceDSL.longs().all())
        .checkAssert(
            seed -> {
              Random r = new Random(seed);
              double d = r.nextBoolean() ? RandomRecords.doubleValue(r) : RandomRecords.floatValue(r);
              if (Double.isNaN(d) || Double.isInfinite(d)) {
                return;
              }
              String mine = EcmaNumbers.toString(d);
              assertThat(mine).as("%s (bits %x)", d, Double.doubleToRawLongBits(d))
                  .isEqualTo(oracleText(Double.toString(d)));
              if (d != 0) {
                assertThat(Double.parseDouble(mine)).isEqualTo(d);
              }
            });
  }

  /** Integers up to 2^53 are their digits; beyond, the double they read as. */
  @Test
  void integersAreTheirDigitsUpTo2To53() {
    long[] values = {0, 1, -1, 9007199254740991L, 9007199254740992L, -9007199254740992L,
        9007199254740993L, Long.MAX_VALUE, Long.MIN_VALUE, 1_000_000_000_000_000_000L};
    String[] expected = {"0", "1", "-1", "9007199254740991", "9007199254740992",
        "-9007199254740992", "9007199254740992", "9223372036854776000", "-9223372036854776000",
        "1000000000000000000"};
    for (int i = 0; i < values.length; i++) {
      CanonicalSink sink = CanonicalSink.toBytes(4);
      sink.integer(values[i]);
      assertThat(new String(sink.bytes(), StandardCharsets.US_ASCII))
          .as("%d", values[i])
          .isEqualTo(expected[i])
          .isEqualTo(oracleText(Long.toString(values[i])));
    }
  }

  /** @return the oracle's canonical text of one JSON number (in an array: the library's root) */
  private static String oracleText(String number) {
    String array = new String(
        Rfc8785Oracle.canonicalize(("[" + number + "]").getBytes(StandardCharsets.US_ASCII)),
        StandardCharsets.US_ASCII);
    return array.substring(1, array.length() - 1);
  }
}
