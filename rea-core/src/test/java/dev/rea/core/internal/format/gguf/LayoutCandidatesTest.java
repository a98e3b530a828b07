package dev.rea.core.internal.format.gguf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.internal.format.gguf.GgufBuilder.Tensor;
import org.junit.jupiter.api.Test;

/**
 * {@code candidates_fitting_ranges} (CONTRACT section 12): the candidate layouts of Q8_1, the K
 * types and IDs 16-25 under which the declared ranges end before the next tensor and within the
 * file. Sizes from the specification's K table and {@code ggml-common.h} (docs/gguf.md).
 */
class LayoutCandidatesTest {
  private static Limitation only(GgufBuilder b) throws ReaException {
    ParsedHeader h = GgufTesting.read(b.bytes());
    assertThat(h.limitations()).hasSize(1);
    return h.limitations().get(0);
  }

  @Test
  void aQ4KTensorFollowedCloselyRulesK64Out() throws Exception {
    // 1024 elements: 576 bytes as K256 (4 x 144), 608 as K64 (16 x 38); the next tensor starts
    // at 576.
    Limitation l =
        only(GgufBuilder.v3().tensor("q4k", 12, 256, 4).tensor("f", 0, 8));
    assertThat(l.code()).isEqualTo("k_quant_layout_ambiguous");
    assertThat(l.candidatesFittingRanges()).containsExactly("K256");
    assertThat(l.message())
        .contains("candidates_fitting_ranges", "cannot have written them")
        .doesNotContain("do not prove");
  }

  @Test
  void roomForEitherLayoutListsBoth() throws Exception {
    Limitation l = only(GgufBuilder.v3().tensor(new Tensor("q4k", 12, 256, 4).dataBytes(608)));
    assertThat(l.candidatesFittingRanges()).containsExactly("K256", "K64");
  }

  @Test
  void aRowOf64ElementsCannotBeK256() throws Exception {
    // 64 x 4: four K64 blocks (4 x 46 bytes for Q5_K); no whole 256-element block per row.
    Limitation l = only(GgufBuilder.v3().tensor(new Tensor("q5k", 13, 64, 4).dataBytes(4 * 46)));
    assertThat(l.candidatesFittingRanges()).containsExactly("K64");
  }

  @Test
  void lastTensorIsBoundedByTheEndOfTheFile() throws Exception {
    // Q6_K 256 elements: 210 bytes as K256, 4 x 54 = 216 as K64; the file ends 212 bytes in.
    Limitation l =
        only(
            GgufBuilder.v3()
                .padAfterLastTensor(false)
                .tensor(new Tensor("q6k", 14, 256).dataBytes(212)));
    assertThat(l.candidatesFittingRanges()).containsExactly("K256");
  }

  @Test
  void noCandidateFitsWhenEvenTheSmallestRunsIntoTheNextTensor() throws Exception {
    Limitation l =
        only(
            GgufBuilder.v3()
                .tensor(new Tensor("q4k", 12, 256, 4).dataBytes(544))
                .tensor("f", 0, 8));
    assertThat(l.candidatesFittingRanges()).isEmpty();
  }

  @Test
  void q8OneNamesItsTwoBlockSizes() throws Exception {
    // 256 elements: 288 bytes modern (a multiple of the 32-byte alignment), 320 in b1500.
    assertThat(only(GgufBuilder.v3().tensor("q", 9, 256).tensor("f", 0, 8)).candidatesFittingRanges())
        .containsExactly("Q8_1_36");
    // 64 elements: 72 or 80 bytes, both within the 96 the alignment leaves before the next.
    assertThat(
            only(GgufBuilder.v3().tensor("q", 9, 64).tensor("f", 0, 8))
                .candidatesFittingRanges())
        .containsExactly("Q8_1_36", "Q8_1_40");
  }

  @Test
  void ambiguousIdsListTheReleasedMeaningsThatFit() throws Exception {
    // ID 18 was I32, I16, I8 and IQ3_XXS; 256 elements in 256 bytes fit I8 (256) and IQ3_XXS (98).
    Limitation l =
        only(GgufBuilder.v3().tensor(new Tensor("a", 18, 256).dataBytes(256)).tensor("f", 0, 8));
    assertThat(l.code()).isEqualTo("ambiguous_type_id");
    assertThat(l.candidates()).containsExactly("I32", "I16", "I8", "IQ3_XXS");
    assertThat(l.candidatesFittingRanges()).containsExactly("I8", "IQ3_XXS");
  }

  @Test
  void anEmptyTensorStillNeedsWholeBlocksInItsRowsForACandidate() throws Exception {
    // [100, 0] of ID 16: no bytes, but a row of 100 is no whole 256-element IQ2_XXS block, so
    // only I8 (block 1) fits; [16, 0] of ID 20 rules IQ4_NL (32-element blocks) out the same way.
    Limitation id16 = only(GgufBuilder.v3().tensor("e", 16, 100, 0).tensor("f", 0, 8));
    assertThat(id16.candidatesFittingRanges()).containsExactly("I8");
    Limitation id20 = only(GgufBuilder.v3().tensor("e", 20, 16, 0).tensor("f", 0, 8));
    assertThat(id20.candidatesFittingRanges()).containsExactly("I32", "I16", "I8");
    // An empty Q4_K tensor of 64-element rows can only be K64: with a nonempty one that only K256
    // fits, no candidate is left (the listed tensor is the nonempty one).
    Limitation k = only(GgufBuilder.v3().tensor("a", 12, 64, 0)
        .tensor(new Tensor("b", 12, 256, 1).dataBytes(144)));
    assertThat(k.code()).isEqualTo("k_quant_layout_ambiguous");
    assertThat(k.candidatesFittingRanges()).isEmpty();
    Limitation both = only(GgufBuilder.v3().tensor("a", 12, 256, 0)
        .tensor(new Tensor("b", 12, 256, 1).dataBytes(152)));
    assertThat(both.candidatesFittingRanges()).containsExactly("K256", "K64");
    // Whole blocks: [256, 0] of ID 16 fits both.
    Limitation whole = only(GgufBuilder.v3().tensor("e", 16, 256, 0).tensor("f", 0, 8));
    assertThat(whole.candidatesFittingRanges()).containsExactly("I8", "IQ2_XXS");
  }

  @Test
  void unknownIdsCarryNoCandidates() throws Exception {
    ParsedHeader h = GgufTesting.read(GgufBuilder.v3().tensor(new Tensor("u", 43, 8).dataBytes(8)).bytes());
    assertThat(h.limitations().get(0).candidatesFittingRanges()).isNull();
  }
}
