package dev.rea.core.internal.format.gguf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.evidence.LayoutBounds;
import dev.rea.core.internal.evidence.RecordSize;
import dev.rea.core.internal.evidence.TypeNotes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The widest sizes the GGUF reader charges for the parts of a record it derives after the
 * directory (limitations, {@code removed_type} warnings, the two layout warnings) cover what is
 * then written, for extreme inputs: indices near 2^31, counts far over the eight named, offsets
 * near 2^63.
 */
class GgufRecordSharesTest {

  @Test
  void limitationsAreCoveredByTheirWidestFormPlusOneEntryPerIndex() {
    long[] ids = {9, 10, 12, 14, 16, 20, 25, 4, 5, 43, 0xFFFFFFFFL};
    for (long id : ids) {
      GgmlType t = GgmlTypes.of(id);
      List<Integer> indices = new ArrayList<>();
      long perIndex = 0;
      for (int k = 0; k < 1000; k++) {
        int i = Integer.MAX_VALUE - 1000 + k;
        indices.add(i);
        perIndex += RecordSize.indexBytes(i);
      }
      Limitation actual = t.limitation(indices.size(), indices);
      Limitation widest = t.limitation(Integer.MAX_VALUE, List.of());
      assertThat(RecordSize.limitationBytes(widest) + perIndex)
          .as("type %d", id)
          .isGreaterThanOrEqualTo(RecordSize.limitationBytes(actual));
      Limitation one = t.limitation(1, List.of(0));
      assertThat(RecordSize.limitationBytes(widest) + RecordSize.indexBytes(0))
          .isGreaterThanOrEqualTo(RecordSize.limitationBytes(one));
    }
  }

  @Test
  void removedTypeWarningsAreCoveredByTheirWidestForm() {
    List<Integer> many = new ArrayList<>();
    for (int k = 0; k < 100_000; k++) {
      many.add(Integer.MAX_VALUE - k);
    }
    List<Integer> widestIndices = TypeNotes.WIDEST_INDICES;
    for (long id : new long[] {31, 32, 33, 36, 37, 38}) {
      GgmlType t = GgmlTypes.of(id);
      assertThat(t.kind()).isEqualTo(GgmlType.Kind.REMOVED);
      long widest = RecordSize.warningBytes(t.warning(widestIndices));
      for (List<Integer> idx : List.of(many, List.of(7), many.subList(0, 8), many.subList(0, 9))) {
        Warning w = t.warning(idx);
        assertThat(RecordSize.warningBytes(w)).as("type %d, %d tensors", id, idx.size())
            .isLessThanOrEqualTo(widest);
      }
    }
  }

  @Test
  void layoutWarningsAreCoveredByTheirWidestForm() {
    // Forty nonempty K-quant tensors near 2^62, each needing far more than the bytes left before
    // the end of the file, so all overlap one another: both warnings name eight and count the
    // rest.
    GgmlType q4k = GgmlTypes.of(12);
    List<GgufTensor> decls = new ArrayList<>();
    long base = 1L << 62;
    for (int i = 0; i < 40; i++) {
      long elements = 256L * 1_000_000_000_000L;
      decls.add(new GgufTensor(Integer.MAX_VALUE - 40 + i, "t" + i, q4k,
          new long[] {elements}, elements, base + 256L * i, q4k.byteLength(elements), 0, 0));
    }
    List<Warning> out = new ArrayList<>();
    LayoutBounds.warnings(decls, base + 100_000, base, out);
    assertThat(out).extracting(Warning::code)
        .containsExactly(LayoutBounds.TRUNCATED, LayoutBounds.OVERLAP);
    long written = 0;
    for (Warning w : out) {
      written += RecordSize.warningBytes(w) + RecordSize.SEPARATOR;
      assertThat(w.message()).containsPattern("; and 3[12] more$");
    }
    assertThat(LayoutBounds.widestWarningsBytes()).isGreaterThanOrEqualTo(written);
    // The widest form is a few kilobytes: charged once per file that can have these warnings.
    assertThat(LayoutBounds.widestWarningsBytes()).isBetween(written, 8L * 1024);
  }
}
