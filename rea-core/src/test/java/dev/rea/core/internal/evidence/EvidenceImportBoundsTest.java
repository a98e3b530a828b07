package dev.rea.core.internal.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.io.StrictJson;
import dev.rea.core.options.Limits;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.core.StreamReadConstraints;

/**
 * Importing Evidence someone hands us builds nothing from a forged input before its size is
 * checked: the size limit ({@link Limits#evidenceInputBytes()}, 64 MiB) comes first, for files
 * before they are read, and every parser carries Jackson {@link StreamReadConstraints} made of the
 * same bounds (document, string and name length, nesting depth).
 */
class EvidenceImportBoundsTest {
  @TempDir Path dir;

  private static void assertSizeRefusal(ReaException e, long limit, long size) {
    assertThat(e.constraint()).isEqualTo(Constraint.EVIDENCE_REJECTED);
    assertThat(e.diagnostics())
        .containsEntry("limit", "evidence_input_bytes")
        .containsEntry("limit_bytes", Long.toString(limit))
        .containsEntry("requested_bytes", Long.toString(size));
  }

  @Test
  void theSizeLimitComesFromLimitsAndIsCheckedBeforeAnythingElse() {
    Limits limits = Limits.builder().retainedBudgetBytes(1000).evidenceInputBytes(1000).build();
    EvidenceImport importer = new EvidenceImport(limits);
    assertThat(importer.maxInputBytes()).isEqualTo(1000);
    assertThat(EvidenceImport.standard().maxInputBytes())
        .isEqualTo(Limits.DEFAULT_EVIDENCE_INPUT_BYTES)
        .isEqualTo(64L << 20);
    // Forged inputs one byte over the limit, each also wrong in another way that a later check
    // would report (nesting, a string longer than the rest, bad UTF-8, NUL, a BOM, no JSON): the
    // size is what is reported, so none of them was parsed.
    byte[] deep = ("{\"x\":" + "[".repeat(996)).getBytes(StandardCharsets.US_ASCII);
    byte[] string = ("{\"schema\":\"" + "a".repeat(988) + "\"}").getBytes(StandardCharsets.US_ASCII);
    byte[] badUtf8 = new byte[1001];
    Arrays.fill(badUtf8, (byte) 0xC0);
    byte[] nul = new byte[1001];
    byte[] bom = new byte[1001];
    bom[0] = (byte) 0xEF;
    bom[1] = (byte) 0xBB;
    bom[2] = (byte) 0xBF;
    for (byte[] forged : new byte[][] {deep, string, badUtf8, nul, bom}) {
      assertThat(forged).hasSize(1001);
      assertThatThrownBy(() -> importer.read(forged))
          .isInstanceOfSatisfying(ReaException.class, e -> assertSizeRefusal(e, 1000, 1001));
    }
    // At the limit, the other checks run.
    assertThatThrownBy(() -> importer.read(Arrays.copyOf(deep, 1000)))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.EVIDENCE_REJECTED);
          assertThat(e.diagnostics()).doesNotContainKey("limit_bytes");
        });
  }

  @Test
  void parsersCarryStreamReadConstraintsMadeOfTheLimits() throws ReaException {
    EvidenceImport importer = EvidenceImport.standard();
    long max = importer.maxInputBytes();
    int depth = importer.maxDepth();
    assertThat(depth).isEqualTo(4 + 2 * Limits.DEFAULT_NESTING_LIMIT);
    StreamReadConstraints c = StrictJson.constraints(max, depth);
    assertThat(c.getMaxDocumentLength()).isEqualTo(max);
    assertThat((long) c.getMaxStringLength()).isEqualTo(max);
    assertThat((long) c.getMaxNameLength()).isEqualTo(max);
    assertThat(c.getMaxNestingDepth()).isEqualTo(depth);
    assertThat(c.getMaxTokenCount()).isEqualTo(max);
    assertThat(c.getMaxNumberLength()).isEqualTo(64);
    // The cursor over an accepted input uses exactly these (not Jackson's defaults).
    try (StrictJson j = StrictJson.open("{\"a\":[1]}".getBytes(StandardCharsets.US_ASCII), max, depth,
        Constraint.EVIDENCE_REJECTED, "evidence")) {
      StreamReadConstraints used = j.streamReadConstraints();
      assertThat(used.getMaxDocumentLength()).isEqualTo(max);
      assertThat((long) used.getMaxStringLength()).isEqualTo(max);
      assertThat(used.getMaxNestingDepth()).isEqualTo(depth);
      try (StrictJson again = j.reopen()) {
        assertThat(again.streamReadConstraints().getMaxDocumentLength()).isEqualTo(max);
      }
      // A narrower string bound (the record copier's, the retained budget) changes only the
      // string and name lengths; a wider one is held to the input's bound.
      try (StrictJson narrow = j.reopen(1000)) {
        StreamReadConstraints n = narrow.streamReadConstraints();
        assertThat(n.getMaxStringLength()).isEqualTo(1000);
        assertThat(n.getMaxNameLength()).isEqualTo(1000);
        assertThat(n.getMaxDocumentLength()).isEqualTo(max);
        assertThat(n.getMaxNestingDepth()).isEqualTo(depth);
      }
      try (StrictJson wide = j.reopen(Long.MAX_VALUE)) {
        assertThat((long) wide.streamReadConstraints().getMaxStringLength()).isEqualTo(max);
      }
    }
    // Jackson's own nesting limit agrees with the importer's: one level deeper is refused.
    String deep = "{\"schema\":\"rea.evidence.v1\",\"x\":" + "[".repeat(depth) + "]".repeat(depth) + "}";
    assertThatThrownBy(() -> importer.read(deep.getBytes(StandardCharsets.US_ASCII)))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.EVIDENCE_REJECTED);
          assertThat(e.getMessage()).contains("nesting depth").contains(Integer.toString(depth));
        });
  }

  @Test
  void anOversizedEvidenceFileIsRefusedByItsSizeBeforeItIsRead() throws Exception {
    // A sparse file one byte over 64 MiB: refused from its size, never read into memory.
    Path big = dir.resolve("forged.json");
    try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
      f.setLength(Limits.DEFAULT_EVIDENCE_INPUT_BYTES + 1);
    }
    long max = EvidenceImport.standard().maxInputBytes();
    assertThatThrownBy(() -> EvidenceFiles.read(big, max))
        .isInstanceOfSatisfying(ReaException.class,
            e -> assertSizeRefusal(e, max, Limits.DEFAULT_EVIDENCE_INPUT_BYTES + 1));
  }

  @Test
  void theRetainedBudgetCannotExceedTheImportLimit() {
    // The Evidence an inspection writes is at most the retained budget, so it can be imported.
    assertThat(Limits.DEFAULT_RETAINED_BUDGET_BYTES).isLessThan(Limits.DEFAULT_EVIDENCE_INPUT_BYTES);
    assertThatThrownBy(
            () -> Limits.builder().retainedBudgetBytes(2000).evidenceInputBytes(1999).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must not exceed the Evidence input limit");
    assertThat(Limits.builder().retainedBudgetBytes(2000).evidenceInputBytes(2000).build()
        .evidenceInputBytes()).isEqualTo(2000);
  }

  /** {"schema":"rea.bundle.v1","records":[{...n made-up properties...}]} placed after a prefix. */
  private static byte[] crowded(String prefix, int n, String suffix) {
    StringBuilder b = new StringBuilder(prefix).append('{');
    for (int i = 0; i < n; i++) {
      // Colons, braces and escaped quotes inside names and values must not be counted.
      b.append(i == 0 ? "" : ",").append("\"k:{").append(i).append("\\\"\":\"v:[\"");
    }
    return b.append('}').append(suffix).toString().getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void anObjectWithMoreThanTheMostPropertiesIsRefusedBeforeJacksonReadsIt() {
    String prefix = "{\"schema\":\"rea.bundle.v1\",\"records\":[";
    byte[] over = crowded(prefix, StrictJson.MAX_PROPERTIES + 1, "]}");
    assertThatThrownBy(() -> EvidenceImport.standard().read(over))
        .isInstanceOfSatisfying(
            ReaException.class,
            e -> {
              assertThat(e.constraint()).isEqualTo(Constraint.EVIDENCE_REJECTED);
              assertThat(e.getMessage()).contains("more than 1024 properties");
              // The crowded object's opening brace.
              assertThat(e.offset()).isEqualTo((long) prefix.length());
            });
    // At the most, the scan lets it through: the record's first made-up name is what is refused.
    byte[] atMost = crowded(prefix, StrictJson.MAX_PROPERTIES, "]}");
    assertThatThrownBy(() -> EvidenceImport.standard().read(atMost))
        .isInstanceOfSatisfying(
            ReaException.class,
            e -> assertThat(e.getMessage()).doesNotContain("properties").contains("k:{0"));
    // Properties of nested objects are counted per object, not per document.
    StringBuilder nested = new StringBuilder(prefix);
    for (int i = 0; i < 3; i++) {
      nested.append(i == 0 ? "" : ",")
          .append(new String(crowded("", 600, ""), StandardCharsets.US_ASCII));
    }
    byte[] many = nested.append("]}").toString().getBytes(StandardCharsets.US_ASCII);
    assertThatThrownBy(() -> EvidenceImport.standard().read(many))
        .isInstanceOfSatisfying(
            ReaException.class, e -> assertThat(e.getMessage()).doesNotContain("properties"));
  }
}
