package dev.rea.core.evidence;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Names of the values of GGUF's {@code general.file_type}: llama.cpp's {@code enum llama_ftype},
 * as declared in {@code include/llama.h} of ggml-org/llama.cpp at commit {@code
 * 3679b65db16ebaabba95a893c62eb6c4840e832c}. A name is the enumerator without its {@code
 * LLAMA_FTYPE_} prefix ({@code 15} is {@code MOSTLY_Q4_K_M}).
 *
 * <p>At that commit the enum names 0 to 3, 7 to 32, 36, 37 and 1024 ({@code GUESSED}, "not
 * specified in the model file"). It does not name these numbers, which stay numbers here:
 *
 * <ul>
 *   <li>4 ({@code MOSTLY_Q4_1_SOME_F16}), 5 ({@code MOSTLY_Q4_2}) and 6 ({@code MOSTLY_Q4_3}):
 *       commented out, their support removed;
 *   <li>33 to 35 ({@code MOSTLY_Q4_0_4_4}, {@code MOSTLY_Q4_0_4_8}, {@code MOSTLY_Q4_0_8_8}):
 *       commented out, "removed from gguf files, use Q4_0 and runtime repack";
 *   <li>41 and above (other than 1024): not declared by either source below; a later llama.cpp
 *       that adds values there gets them named when the table follows it.
 * </ul>
 *
 * <p>38 to 40 ({@code MOSTLY_MXFP4_MOE}, {@code MOSTLY_NVFP4}, {@code MOSTLY_Q1_0}) were added to
 * {@code llama_ftype} after that commit; they are named from gguf-py 0.19.0 (PyPI), whose {@code
 * gguf/constants.py} mirrors the enum as {@code LlamaFileType}. gpt-oss GGUF files declare 38, and
 * the tensor type table already knows MXFP4, NVFP4 and Q1_0.
 *
 * <p>{@code general.file_type} is a declaration of the writer ("mostly" this type), not a fact
 * about the tensors: the type rows are the facts.
 */
public final class LlamaFtype {
  /** The llama.cpp commit whose {@code include/llama.h} this table follows. */
  public static final String SOURCE_COMMIT = "3679b65db16ebaabba95a893c62eb6c4840e832c";

  private static final Map<Long, String> NAMES =
      Map.ofEntries(
          Map.entry(0L, "ALL_F32"),
          Map.entry(1L, "MOSTLY_F16"),
          Map.entry(2L, "MOSTLY_Q4_0"),
          Map.entry(3L, "MOSTLY_Q4_1"),
          Map.entry(7L, "MOSTLY_Q8_0"),
          Map.entry(8L, "MOSTLY_Q5_0"),
          Map.entry(9L, "MOSTLY_Q5_1"),
          Map.entry(10L, "MOSTLY_Q2_K"),
          Map.entry(11L, "MOSTLY_Q3_K_S"),
          Map.entry(12L, "MOSTLY_Q3_K_M"),
          Map.entry(13L, "MOSTLY_Q3_K_L"),
          Map.entry(14L, "MOSTLY_Q4_K_S"),
          Map.entry(15L, "MOSTLY_Q4_K_M"),
          Map.entry(16L, "MOSTLY_Q5_K_S"),
          Map.entry(17L, "MOSTLY_Q5_K_M"),
          Map.entry(18L, "MOSTLY_Q6_K"),
          Map.entry(19L, "MOSTLY_IQ2_XXS"),
          Map.entry(20L, "MOSTLY_IQ2_XS"),
          Map.entry(21L, "MOSTLY_Q2_K_S"),
          Map.entry(22L, "MOSTLY_IQ3_XS"),
          Map.entry(23L, "MOSTLY_IQ3_XXS"),
          Map.entry(24L, "MOSTLY_IQ1_S"),
          Map.entry(25L, "MOSTLY_IQ4_NL"),
          Map.entry(26L, "MOSTLY_IQ3_S"),
          Map.entry(27L, "MOSTLY_IQ3_M"),
          Map.entry(28L, "MOSTLY_IQ2_S"),
          Map.entry(29L, "MOSTLY_IQ2_M"),
          Map.entry(30L, "MOSTLY_IQ4_XS"),
          Map.entry(31L, "MOSTLY_IQ1_M"),
          Map.entry(32L, "MOSTLY_BF16"),
          Map.entry(36L, "MOSTLY_TQ1_0"),
          Map.entry(37L, "MOSTLY_TQ2_0"),
          Map.entry(38L, "MOSTLY_MXFP4_MOE"),
          Map.entry(39L, "MOSTLY_NVFP4"),
          Map.entry(40L, "MOSTLY_Q1_0"),
          Map.entry(1024L, "GUESSED"));

  /** The GGUF key holding the file type. */
  public static final String KEY = "general.file_type";

  private LlamaFtype() {}

  /**
   * @param r a record
   * @return its {@value #KEY} row when the record is GGUF and the row holds an integer scalar
   *     (any width), else null
   */
  public static @Nullable MetadataRow declared(EvidenceRecord r) {
    if (!"gguf".equals(r.artifact().format())) {
      return null;
    }
    for (MetadataRow row : r.metadata()) {
      if (row.key().equals(KEY)) {
        return (row.type().isSmallInteger() || row.type().isWideInteger())
                && row.value() instanceof MetadataValue.IntegerValue
            ? row
            : null;
      }
    }
    return null;
  }

  /**
   * @param row a row returned by {@link #declared}
   * @return the name of its value, or null when the pinned enum does not name it (a UINT64 value
   *     above 2^63 - 1 never has one)
   */
  public static @Nullable String name(MetadataRow row) {
    long bits = ((MetadataValue.IntegerValue) row.value()).bits();
    if (row.type() == ValueType.UINT64 && bits < 0) {
      return null;
    }
    return name(bits);
  }

  /**
   * @param value a {@code general.file_type} value (as declared; a negative signed value never
   *     has a name)
   * @return its {@code llama_ftype} name without the {@code LLAMA_FTYPE_} prefix, or null when
   *     the pinned enum does not name it
   */
  public static @Nullable String name(long value) {
    return NAMES.get(value);
  }
}
