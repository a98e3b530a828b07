package dev.rea.core.internal.format.gguf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Coverage;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.Request;
import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.internal.evidence.EvidenceImport;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.internal.evidence.RecordChecks;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.internal.format.gguf.GgufBuilder.Tensor;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.LayoutAssumption;
import dev.rea.core.options.Limits;
import dev.rea.core.testing.Rfc8785Oracle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --assume-layout ggml-modern} (CONTRACT section 12) over a Q4_K_M-style file gguf-py
 * wrote ({@code layout/gguf-py-q4_k_m-style.gguf}, made by {@code
 * scripts/gguf-py-layout-fixture.py}); the byte lengths gguf-py's own {@code GGML_QUANT_SIZES}
 * gives each tensor are recorded beside it ({@code .expected}, its first line names the gguf-py
 * version).
 */
class LayoutAssumptionTest {
  private static final String FIXTURE = "/layout/gguf-py-q4_k_m-style";

  @TempDir Path dir;

  /** name -> {type_id, elements, gguf-py byte length}. */
  private static Map<String, long[]> expected() throws Exception {
    Map<String, long[]> out = new HashMap<>();
    Path p = Path.of(LayoutAssumptionTest.class.getResource(FIXTURE + ".expected").toURI());
    List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
    assertThat(lines.get(0)).startsWith("# source: gguf-py ");
    for (String line : lines) {
      if (!line.startsWith("#")) {
        String[] f = line.split(" ");
        out.put(f[0], new long[] {Long.parseLong(f[1]), Long.parseLong(f[3]), Long.parseLong(f[4])});
      }
    }
    return out;
  }

  private static EvidenceRecord inspect(LayoutAssumption layout) throws Exception {
    Path p = Path.of(LayoutAssumptionTest.class.getResource(FIXTURE + ".gguf").toURI());
    return ModelInspector.standard().withLayout(layout).inspect(p.toAbsolutePath(), HashMode.HEADER);
  }

  private static Limitation limitation(EvidenceRecord r, String code) {
    return r.limitations().stream().filter(l -> l.code().equals(code)).findFirst().orElseThrow();
  }

  @Test
  void everyKQuantTensorGetsTheLengthGgufPyGivesIt() throws Exception {
    Map<String, long[]> want = expected();
    EvidenceRecord r = inspect(LayoutAssumption.GGML_MODERN);
    int kTensors = 0;
    for (TensorRow t : r.tensors()) {
      long[] w = want.get(t.name());
      assertThat(w).as(t.name()).isNotNull();
      assertThat(t.typeId()).isEqualTo(w[0]);
      assertThat(t.parameterCount()).isEqualTo(w[1]);
      if (w[0] >= 10 && w[0] <= 15) {
        kTensors++;
        assertThat(t.byteLength()).as(t.name()).isEqualTo(w[2]);
        assertThat(t.storageValidation()).isEqualTo(StorageValidation.CONSISTENT);
      }
    }
    assertThat(kTensors).isEqualTo(10);
    // IDs 16-25 take their modern names, and lengths that agree with gguf-py's too.
    TensorRow iq4 = row(r, "blk.0.iq4_nl.weight");
    assertThat(iq4.type()).isEqualTo("IQ4_NL");
    assertThat(iq4.byteLength()).isEqualTo(want.get("blk.0.iq4_nl.weight")[2]);
    TensorRow iq2 = row(r, "blk.0.iq2_xxs.weight");
    assertThat(iq2.type()).isEqualTo("IQ2_XXS");
    assertThat(iq2.byteLength()).isEqualTo(want.get("blk.0.iq2_xxs.weight")[2]);
  }

  /**
   * gguf-py sizes Q8_1 at 40 bytes per 32 elements (4 + 4 + 32: the b1500 layout), modern ggml at
   * 36: the assumption gives modern ggml's, not gguf-py's, and without it both candidates fit
   * the 160 bytes gguf-py laid out.
   */
  @Test
  void q8OneFollowsModernGgmlWhichGgufPyDoesNot() throws Exception {
    long ggufPy = expected().get("blk.0.q8_1.weight")[2];
    assertThat(ggufPy).isEqualTo(128 / 32 * 40);
    TensorRow assumed = row(inspect(LayoutAssumption.GGML_MODERN), "blk.0.q8_1.weight");
    assertThat(assumed.byteLength()).isEqualTo(128 / 32 * 36).isNotEqualTo(ggufPy);
    EvidenceRecord plain = inspect(LayoutAssumption.NONE);
    assertThat(row(plain, "blk.0.q8_1.weight").byteLength()).isNull();
    assertThat(limitation(plain, "q8_1_layout_ambiguous").candidatesFittingRanges())
        .containsExactly("Q8_1_36", "Q8_1_40");
  }

  @Test
  void theRecordSaysWhatRestsOnTheAssumption() throws Exception {
    EvidenceRecord r = inspect(LayoutAssumption.GGML_MODERN);
    assertThat(r.request().assumeLayout()).isEqualTo("ggml-modern");
    assertThat(r.coverage().storageSizes()).isEqualTo(Coverage.ASSUMED);
    assertThat(r.totals().byteLength()).isNotNull();
    assertThat(r.limitations()).extracting(Limitation::code).containsExactly("layout_assumed");
    List<Integer> listed = new ArrayList<>();
    for (TensorRow t : r.tensors()) {
      if (t.typeId() >= 9 && t.typeId() <= 25) {
        listed.add(t.index());
      }
    }
    assertThat(limitation(r, "layout_assumed").tensorIndices()).isEqualTo(listed).hasSize(13);
    assertThat(r.types()).extracting(t -> t.type()).contains("IQ4_NL", "IQ2_XXS", "Q4_K");
    assertThat(r.types()).allSatisfy(t -> assertThat(t.byteLength()).isNotNull());

    // Written and read back strictly: the same record, its evidence_id recomputed and equal.
    byte[] json = EvidenceJson.recordBytes(r, true);
    assertThat(new String(json, StandardCharsets.UTF_8))
        .contains("\"assume_layout\":\"ggml-modern\"", "\"storage_sizes\":\"assumed\"");
    assertThat(EvidenceImport.standard().read(json).records().get(0).record()).isEqualTo(r);

    // Without the assumption nothing but candidates_fitting_ranges is new.
    EvidenceRecord plain = inspect(LayoutAssumption.NONE);
    assertThat(plain.request().assumeLayout()).isNull();
    assertThat(plain.coverage().storageSizes()).isEqualTo(Coverage.PARTIAL);
    assertThat(new String(EvidenceJson.recordBytes(plain, true), StandardCharsets.UTF_8))
        .doesNotContain("assume_layout");
    assertThat(limitation(plain, "k_quant_layout_ambiguous").candidatesFittingRanges())
        .isNotNull();
  }

  @Test
  void aClaimOfAssumedLengthsWithoutTheRequestIsRefused() throws Exception {
    EvidenceRecord r = inspect(LayoutAssumption.GGML_MODERN);
    EvidenceRecord unstated = withRequest(r, new Request(r.request().path(), r.request().hash()));
    assertThatThrownBy(() -> RecordChecks.check(unstated, "", Limits.defaults(), false))
        .isInstanceOfSatisfying(
            ReaException.class,
            e -> {
              assertThat(e.constraint()).isEqualTo(Constraint.EVIDENCE_REJECTED);
              assertThat(e.getMessage()).contains("limitations[0].code", "assume_layout");
            });
    EvidenceRecord noList =
        new EvidenceRecord(
            r.schema(), null, r.operation(), r.status(), r.observedAt(),
            new Request(r.request().path(), r.request().hash()), r.subject(), r.artifact(),
            r.formatFacts(), r.metadata(), r.tensors(), r.types(), r.totals(), r.coverage(),
            List.of(), r.warnings(), null);
    assertThatThrownBy(() -> RecordChecks.check(noList, "", Limits.defaults(), false))
        .hasMessageContaining("coverage.storage_sizes");
    byte[] forged =
        EvidenceJson.recordBytes(
            unstated.withEvidenceId(Rfc8785Oracle.evidenceId(unstated)), true);
    assertThatThrownBy(() -> EvidenceImport.standard().read(forged))
        .isInstanceOf(ReaException.class)
        .hasMessageContaining("assume_layout");
  }

  @Test
  void storageIsValidatedUnderTheAssumedLayout() throws Exception {
    // A Q4_K row of 64 elements is a K64 layout: not modern ggml's 256-element blocks.
    Path k64 = Files.write(dir.resolve("k64.gguf"),
        GgufBuilder.v3().tensor(new Tensor("w", 12, 64, 4).dataBytes(4 * 38)).bytes());
    assertThatThrownBy(
            () -> ModelInspector.standard().withLayout(LayoutAssumption.GGML_MODERN)
                .inspect(k64, HashMode.HEADER))
        .hasMessageContaining("tensor[0].dims[0]")
        .hasMessageContaining("assumed ggml-modern layout");
    assertThat(ModelInspector.standard().inspect(k64, HashMode.HEADER).tensors().get(0).byteLength())
        .isNull();
    // 512 Q6_K elements take 420 bytes modern; only 400 are there.
    Path cut = Files.write(dir.resolve("cut.gguf"),
        GgufBuilder.v3().padAfterLastTensor(false)
            .tensor(new Tensor("w", 14, 512).dataBytes(400)).bytes());
    assertThatThrownBy(
            () -> ModelInspector.standard().withLayout(LayoutAssumption.GGML_MODERN)
                .inspect(cut, HashMode.HEADER))
        .hasMessageContaining("420 bytes under the assumed ggml-modern layout");
  }

  /**
   * Lengths of 2^64-1 and 2^64-2 bytes are real lengths, not the markers for an unknown or an
   * overflowing one: an I8 tensor of 2^64-1 elements (ID 24 under the assumption) is rejected as
   * larger than any file, not kept with an unknown length; an F16 tensor of 2^63-1 elements is
   * said to need exactly 2^64-2 bytes.
   */
  @Test
  void lengthsOfTwoToTheSixtyFourMinusOneOrTwoAreTooLargeNotUnknown() throws Exception {
    Path i8 = Files.write(dir.resolve("i8.gguf"),
        GgufBuilder.v3().tensor(new Tensor("t", 24, -1L).dataBytes(32)).bytes());
    assertThatThrownBy(
            () -> ModelInspector.standard().withLayout(LayoutAssumption.GGML_MODERN)
                .inspect(i8, HashMode.HEADER))
        .hasMessageContaining("tensor[0].dims")
        .hasMessageContaining("needs 18446744073709551615 bytes, more than any file holds");
    Path f16 = Files.write(dir.resolve("f16.gguf"),
        GgufBuilder.v3().tensor(new Tensor("t", 1, Long.MAX_VALUE).dataBytes(32)).bytes());
    assertThatThrownBy(() -> ModelInspector.standard().inspect(f16, HashMode.HEADER))
        .hasMessageContaining("needs 18446744073709551614 bytes, more than any file holds");
  }

  private static EvidenceRecord withRequest(EvidenceRecord r, Request q) {
    return new EvidenceRecord(
        r.schema(), null, r.operation(), r.status(), r.observedAt(), q, r.subject(), r.artifact(),
        r.formatFacts(), r.metadata(), r.tensors(), r.types(), r.totals(), r.coverage(),
        r.limitations(), r.warnings(), null);
  }

  private static TensorRow row(EvidenceRecord r, String name) {
    return r.tensors().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
  }
}
