package dev.rea.core.internal.format.gguf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.internal.format.gguf.GgmlType.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The type table of CONTRACT section 8, entry by entry. */
class GgmlTypesTest {

  /** id, label, kind, row multiple, block elements, block bytes (notes section 4). */
  @ParameterizedTest
  @CsvSource({
    "0,F32,STANDARD,1,1,4",
    "1,F16,STANDARD,1,1,2",
    "2,Q4_0,STANDARD,32,32,18",
    "3,Q4_1,STANDARD,32,32,20",
    "4,UNKNOWN_4,UNKNOWN,0,0,0",
    "5,UNKNOWN_5,UNKNOWN,0,0,0",
    "6,Q5_0,STANDARD,32,32,22",
    "7,Q5_1,STANDARD,32,32,24",
    "8,Q8_0,STANDARD,32,32,34",
    "9,Q8_1,Q8_1,32,0,0",
    "10,Q2_K,K_QUANT,64,0,0",
    "11,Q3_K,K_QUANT,64,0,0",
    "12,Q4_K,K_QUANT,64,0,0",
    "13,Q5_K,K_QUANT,64,0,0",
    "14,Q6_K,K_QUANT,64,0,0",
    "15,Q8_K,K_QUANT,64,0,0",
    "16,AMBIGUOUS_16,AMBIGUOUS,0,0,0",
    "17,AMBIGUOUS_17,AMBIGUOUS,0,0,0",
    "18,AMBIGUOUS_18,AMBIGUOUS,0,0,0",
    "19,AMBIGUOUS_19,AMBIGUOUS,0,0,0",
    "20,AMBIGUOUS_20,AMBIGUOUS,0,0,0",
    "21,AMBIGUOUS_21,AMBIGUOUS,0,0,0",
    "22,AMBIGUOUS_22,AMBIGUOUS,0,0,0",
    "23,AMBIGUOUS_23,AMBIGUOUS,0,0,0",
    "24,AMBIGUOUS_24,AMBIGUOUS,0,0,0",
    "25,AMBIGUOUS_25,AMBIGUOUS,0,0,0",
    "26,I32,STANDARD,1,1,4",
    "27,I64,STANDARD,1,1,8",
    "28,F64,STANDARD,1,1,8",
    "29,IQ1_M,STANDARD,256,256,56",
    "30,BF16,STANDARD,1,1,2",
    "31,Q4_0_4_4,REMOVED,32,32,18",
    "32,Q4_0_4_8,REMOVED,32,32,18",
    "33,Q4_0_8_8,REMOVED,32,32,18",
    "34,TQ1_0,STANDARD,256,256,54",
    "35,TQ2_0,STANDARD,256,256,66",
    "36,IQ4_NL_4_4,REMOVED,32,32,18",
    "37,IQ4_NL_4_8,REMOVED,32,32,18",
    "38,IQ4_NL_8_8,REMOVED,32,32,18",
    "39,MXFP4,STANDARD,32,32,17",
    "40,NVFP4,STANDARD,64,64,36",
    "41,Q1_0,STANDARD,128,128,18",
    "42,Q2_0,STANDARD,64,64,18",
    "43,UNKNOWN_43,UNKNOWN,0,0,0",
    "44,UNKNOWN_44,UNKNOWN,0,0,0",
    "1000,UNKNOWN_1000,UNKNOWN,0,0,0",
    "4294967295,UNKNOWN_4294967295,UNKNOWN,0,0,0"
  })
  void entries(long id, String label, Kind kind, long row, long blockElements, long blockBytes) {
    GgmlType t = GgmlTypes.of(id);
    assertThat(t.id()).isEqualTo(id);
    assertThat(t.label()).isEqualTo(label);
    assertThat(t.kind()).isEqualTo(kind);
    assertThat(t.rowMultiple()).isEqualTo(row);
    assertThat(t.blockElements()).isEqualTo(blockElements);
    assertThat(t.blockBytes()).isEqualTo(blockBytes);
    // Empty tensors: 0 bytes for every known or ambiguous ID, unknown for unknown IDs.
    assertThat(t.byteLength(0)).isEqualTo(kind == Kind.UNKNOWN ? GgmlType.UNKNOWN_LENGTH : 0);
    long elements = row == 0 ? 256 : 256 * row;
    long expected = blockElements == 0 ? GgmlType.UNKNOWN_LENGTH : elements / blockElements * blockBytes;
    assertThat(t.byteLength(elements)).isEqualTo(expected);
  }

  @Test
  void lengthsOverTheLargestFileAreReportedAsOverflow() {
    assertThat(GgmlTypes.of(0).byteLength(1L << 62)).isEqualTo(GgmlType.LENGTH_OVERFLOW);
    // (2^62 - 1) * 4 = 2^64 - 4 fits 64 bits but no file (at most 2^63 - 1 bytes), and as -4L
    // it would sit beside the markers -1 (unknown) and -2 (overflow): it is the overflow.
    assertThat(GgmlTypes.of(0).byteLength((1L << 62) - 1)).isEqualTo(GgmlType.LENGTH_OVERFLOW);
    // (2^61 - 1) * 4 = 2^63 - 4 is a length a file could hold.
    assertThat(GgmlTypes.of(0).byteLength((1L << 61) - 1)).isEqualTo(Long.MAX_VALUE - 3);
    assertThat(GgmlTypes.of(27).byteLength(-1L)).isEqualTo(GgmlType.LENGTH_OVERFLOW);
    // Q8_0 (34 bytes per 32 elements) at the top of the range: the last whole block count that
    // fits 2^63 - 1 bytes, and one more.
    long blocks = Long.MAX_VALUE / 34;
    assertThat(GgmlTypes.of(8).byteLength(blocks * 32)).isEqualTo(blocks * 34);
    assertThat(GgmlTypes.of(8).byteLength((blocks + 1) * 32)).isEqualTo(GgmlType.LENGTH_OVERFLOW);
  }

  /**
   * Candidates of IDs 16-25, spelled out from the specification's snapshot table (I8/I16/I32 at
   * b1500 16/17/18 ... b2300 24/25/26) and the modern meanings (PR 6050), in order of release.
   */
  @Test
  void ambiguousIdsNameEveryReleasedMeaning() {
    assertThat(GgmlTypes.of(16).candidates()).containsExactly("I8", "IQ2_XXS");
    assertThat(GgmlTypes.of(17).candidates()).containsExactly("I16", "I8", "IQ2_XS");
    assertThat(GgmlTypes.of(18).candidates()).containsExactly("I32", "I16", "I8", "IQ3_XXS");
    assertThat(GgmlTypes.of(19).candidates()).containsExactly("I32", "I16", "I8", "IQ1_S");
    assertThat(GgmlTypes.of(20).candidates()).containsExactly("I32", "I16", "I8", "IQ4_NL");
    assertThat(GgmlTypes.of(21).candidates()).containsExactly("I32", "I16", "I8", "IQ3_S");
    assertThat(GgmlTypes.of(22).candidates()).containsExactly("I32", "I16", "I8", "IQ2_S");
    assertThat(GgmlTypes.of(23).candidates()).containsExactly("I32", "I16", "I8", "IQ4_XS");
    assertThat(GgmlTypes.of(24).candidates()).containsExactly("I32", "I16", "I8");
    assertThat(GgmlTypes.of(25).candidates()).containsExactly("I32", "I16");
    assertThat(GgmlTypes.ambiguousHistory(16)).isEqualTo(
        "I8 (b1500), IQ2_XXS (b1803, b1871, b2100, b2172, b2221, b2253, b2275, b2300, modern)");
    assertThat(GgmlTypes.ambiguousHistory(25)).isEqualTo("I32 (b2275), I16 (b2300, modern)");
    assertThat(GgmlTypes.ambiguousHistory(18)).startsWith("I32 (b1500), I16 (b1803), I8 (b1871), IQ3_XXS (b2100");
  }

  @Test
  void limitationMessagesNameTheAlternatives() {
    assertThat(GgmlTypes.limitationMessage(GgmlTypes.of(9), 2)).contains("36", "40", "2 tensors");
    assertThat(GgmlTypes.limitationMessage(GgmlTypes.of(14), 1)).contains("Q6_K", "K64", "K256", "1 tensor");
    assertThat(GgmlTypes.limitationMessage(GgmlTypes.of(24), 1)).contains("I32 (b2253)", "I8 (b2300, modern)");
    assertThat(GgmlTypes.limitationMessage(GgmlTypes.of(4), 1)).contains("removed");
    assertThat(GgmlTypes.limitationMessage(GgmlTypes.of(77), 3)).contains("not defined", "3 tensors");
    assertThat(GgmlTypes.of(10).candidates()).containsExactly(
        "K256: 84 bytes per 256 elements", "K64: 24 bytes per 64 elements (LLAMA_QKK_64 builds)");
    assertThat(GgmlTypes.of(15).candidates()).containsExactly(
        "K256: 292 bytes per 256 elements", "K64: 76 bytes per 64 elements (LLAMA_QKK_64 builds)");
    for (int id : List.of(0, 2, 31, 42)) {
      assertThat(GgmlTypes.of(id).candidates()).isEmpty();
    }
  }
}
