package dev.rea.core.internal.inspect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;

import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.Totals;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.internal.evidence.Derivations;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.quicktheories.generators.SourceDSL;

/** Per-type and overall sums are exact unsigned sums, whatever the values. */
class DerivationsTest {
  private static TensorRow row(int i, String type, long params, Long bytes) {
    return new TensorRow(i, "t" + i, type, (long) type.charAt(0), List.of(params), params, 0, 0L,
        bytes, bytes == null ? StorageValidation.UNKNOWN : StorageValidation.CONSISTENT);
  }

  private static BigInteger u(long v) {
    return new BigInteger(Long.toUnsignedString(v));
  }

  @Test
  void sumsEqualBigIntegerSumsIncludingCarriesPast64Bits() {
    qt().withExamples(500)
        .forAll(SourceDSL.longs().all())
        .checkAssert(
            seed -> {
              Random r = new Random(seed);
              int n = r.nextInt(60);
              List<TensorRow> rows = new ArrayList<>();
              String[] types = {"A", "B", "C"};
              for (int i = 0; i < n; i++) {
                // Mostly huge values (carries), some small, some unknown byte lengths.
                long p = r.nextInt(3) == 0 ? r.nextInt(1000) : r.nextLong();
                Long b = r.nextInt(10) == 0 ? null : (Long) (r.nextBoolean() ? -1L - r.nextInt(5) : r.nextLong());
                rows.add(row(i, types[r.nextInt(3)], p, b));
              }
              BigInteger params = BigInteger.ZERO;
              BigInteger bytes = BigInteger.ZERO;
              for (TensorRow t : rows) {
                params = params.add(u(t.parameterCount()));
                bytes = bytes == null || t.byteLength() == null ? null : bytes.add(u(t.byteLength()));
              }
              Totals totals = Derivations.totals(rows);
              assertThat(totals.parameterCount()).isEqualTo(params);
              assertThat(totals.byteLength()).isEqualTo(bytes);
              assertThat(totals.tensorCount()).isEqualTo(n);
              for (TypeRow tr : Derivations.types(rows)) {
                BigInteger tp = BigInteger.ZERO;
                BigInteger tb = BigInteger.ZERO;
                int count = 0;
                for (TensorRow t : rows) {
                  if (t.type().equals(tr.type())) {
                    count++;
                    tp = tp.add(u(t.parameterCount()));
                    tb = tb == null || t.byteLength() == null ? null : tb.add(u(t.byteLength()));
                  }
                }
                assertThat(tr.tensorCount()).isEqualTo(count);
                assertThat(tr.parameterCount()).isEqualTo(tp);
                assertThat(tr.byteLength()).isEqualTo(tb);
              }
            });
  }

  @Test
  void twoMaximalValuesCarryIntoBit64() {
    Totals t = Derivations.totals(List.of(row(0, "A", -1L, -1L), row(1, "A", -1L, 1L)));
    assertThat(t.parameterCount()).isEqualTo(BigInteger.ONE.shiftLeft(65).subtract(BigInteger.TWO));
    assertThat(t.byteLength()).isEqualTo(BigInteger.ONE.shiftLeft(64));
  }
}
