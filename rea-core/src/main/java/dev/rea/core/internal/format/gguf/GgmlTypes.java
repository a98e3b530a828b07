package dev.rea.core.internal.format.gguf;

import dev.rea.core.internal.format.gguf.GgmlType.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * REA's ggml tensor type table: numeric type ID to {@link GgmlType} (CONTRACT section 8, "Type
 * table"). The specification's rules for ID 9 (Q8_1), 10-15 (K quantizations) and 16-25
 * (shifted integer/IQ IDs) come first; every other ID takes upstream ggml's meaning at
 * ggml-org/ggml d99724f (2026-08); removed IDs with one released meaning keep it; IDs 4, 5 and
 * IDs ggml never defined are {@code UNKNOWN_<id>}.
 *
 * <p>Block sizes (elements, bytes per block) are the {@code ggml-common.h} struct sizes listed in
 * {@code shared/notes/gguf-readers.md} section 4. The released snapshot table for IDs 16-25 is
 * the specification's ("Integer IDs also shifted each time IQ types were added").
 */
public final class GgmlTypes {
  /** Limitation code for nonempty Q8_1 tensors (two released layouts). */
  public static final String LIMITATION_Q8_1 = "q8_1_layout_ambiguous";

  /** Limitation code for nonempty K-quantized tensors (K64 and K256 layouts). */
  public static final String LIMITATION_K_QUANT = "k_quant_layout_ambiguous";

  /** Limitation code for IDs 16-25 (several released meanings). */
  public static final String LIMITATION_AMBIGUOUS = "ambiguous_type_id";

  /** Limitation code for IDs with no known meaning (4, 5, undefined IDs). */
  public static final String LIMITATION_UNKNOWN = "unknown_type_id";

  /**
   * Warning code for IDs no released ggml defines (not 4 or 5, which ggml removed before GGUF):
   * CONTRACT section 12. Same spelling as the limitation, which the tensors carry too.
   */
  public static final String WARNING_UNKNOWN = "unknown_type_id";

  /** Warning code for removed IDs 31-33 and 36-38. */
  public static final String WARNING_REMOVED = "removed_type";

  /** First ID ggml has not defined (d99724f: {@code GGML_TYPE_COUNT} = 43). */
  public static final long FIRST_UNDEFINED_ID = 43;

  /**
   * Released {@code ggml.h} snapshots of the specification and the I8 ID each declares (I16 and
   * I32 follow it). IDs from 16 up to the I8 ID were IQ types, in the order of {@link #IQ_NAMES}.
   */
  private static final String[] SNAPSHOTS = {
    "b1500", "b1803", "b1871", "b2100", "b2172", "b2221", "b2253", "b2275", "b2300"
  };

  private static final int[] SNAPSHOT_I8 = {16, 17, 18, 19, 20, 21, 22, 23, 24};

  /** Modern (pinned by upstream PR 6050) meanings of IDs 16-25. */
  private static final String[] MODERN_16_25 = {
    "IQ2_XXS", "IQ2_XS", "IQ3_XXS", "IQ1_S", "IQ4_NL", "IQ3_S", "IQ2_S", "IQ4_XS", "I8", "I16"
  };

  /** Names of the IQ types at IDs 16-23, the order in which they were added. */
  private static final String[] IQ_NAMES = {
    "IQ2_XXS", "IQ2_XS", "IQ3_XXS", "IQ1_S", "IQ4_NL", "IQ3_S", "IQ2_S", "IQ4_XS"
  };

  /** K types 10-15: name, bytes per 64 elements (K64), bytes per 256 elements (K256). */
  private static final String[] K_NAMES = {"Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K", "Q8_K"};

  private static final int[] K64_BYTES = {24, 28, 38, 46, 54, 76};
  private static final int[] K256_BYTES = {84, 110, 144, 176, 210, 292};

  private static final GgmlType[] TABLE = new GgmlType[(int) FIRST_UNDEFINED_ID];

  /** Candidate name of Q8_1's modern layout (36 bytes per 32 elements). */
  static final String Q8_1_MODERN = "Q8_1_36";

  /** Candidate name of the K types' modern layout (256-element blocks). */
  static final String K_MODERN = "K256";

  /** Wire name of the modern ggml layout assumption ({@code request.assume_layout}). */
  public static final String GGML_MODERN = "ggml-modern";

  /** IDs 9-25 under the {@value #GGML_MODERN} assumption, indexed by {@code id - 9}. */
  private static final GgmlType[] MODERN = new GgmlType[17];

  /** Released meanings of IDs 16-25, each with the snapshots that declare it. */
  private static final Map<Long, String> AMBIGUOUS_HISTORY = new LinkedHashMap<>();

  /**
   * Elements per block and bytes per block of every released meaning of IDs 16-25
   * ({@code ggml-common.h}; notes section 4).
   */
  private static final Map<String, long[]> CANDIDATE_LAYOUTS =
      Map.ofEntries(
          Map.entry("I8", new long[] {1, 1}),
          Map.entry("I16", new long[] {1, 2}),
          Map.entry("I32", new long[] {1, 4}),
          Map.entry("IQ2_XXS", new long[] {256, 66}),
          Map.entry("IQ2_XS", new long[] {256, 74}),
          Map.entry("IQ3_XXS", new long[] {256, 98}),
          Map.entry("IQ1_S", new long[] {256, 50}),
          Map.entry("IQ4_NL", new long[] {32, 18}),
          Map.entry("IQ3_S", new long[] {256, 110}),
          Map.entry("IQ2_S", new long[] {256, 82}),
          Map.entry("IQ4_XS", new long[] {256, 136}));


  static {
    standard(0, "F32", 1, 4);
    standard(1, "F16", 1, 2);
    standard(2, "Q4_0", 32, 18);
    standard(3, "Q4_1", 32, 20);
    unknown(4);
    unknown(5);
    standard(6, "Q5_0", 32, 22);
    standard(7, "Q5_1", 32, 24);
    standard(8, "Q8_0", 32, 34);
    TABLE[9] =
        new GgmlType(
            9,
            "Q8_1",
            Kind.Q8_1,
            32,
            0,
            0,
            List.of(
                "36 bytes per 32 elements (ggml da8e2a5, modern)",
                "40 bytes per 32 elements (llama.cpp b1500)"),
            32,
            36)
            .withLayouts(
                List.of(
                    new GgmlType.Layout(Q8_1_MODERN, 32, 36),
                    new GgmlType.Layout("Q8_1_40", 32, 40)));
    for (int k = 0; k < K_NAMES.length; k++) {
      int id = 10 + k;
      TABLE[id] =
          new GgmlType(
              id,
              K_NAMES[k],
              Kind.K_QUANT,
              64,
              0,
              0,
              List.of(
                  "K256: " + K256_BYTES[k] + " bytes per 256 elements",
                  "K64: " + K64_BYTES[k] + " bytes per 64 elements (LLAMA_QKK_64 builds)"),
              // K256 takes fewer bytes per element than K64 for every K type.
              256,
              K256_BYTES[k])
              .withLayouts(
                  List.of(
                      new GgmlType.Layout(K_MODERN, 256, K256_BYTES[k]),
                      new GgmlType.Layout("K64", 64, K64_BYTES[k])));
    }
    for (int id = 16; id <= 25; id++) {
      ambiguous(id);
    }
    for (int id = 9; id <= 25; id++) {
      MODERN[id - 9] = modern(TABLE[id], id);
    }
    standard(26, "I32", 1, 4);
    standard(27, "I64", 1, 8);
    standard(28, "F64", 1, 8);
    standard(29, "IQ1_M", 256, 56);
    standard(30, "BF16", 1, 2);
    removed(31, "Q4_0_4_4");
    removed(32, "Q4_0_4_8");
    removed(33, "Q4_0_8_8");
    standard(34, "TQ1_0", 256, 54);
    standard(35, "TQ2_0", 256, 66);
    removed(36, "IQ4_NL_4_4");
    removed(37, "IQ4_NL_4_8");
    removed(38, "IQ4_NL_8_8");
    standard(39, "MXFP4", 32, 17);
    standard(40, "NVFP4", 64, 36);
    standard(41, "Q1_0", 128, 18);
    standard(42, "Q2_0", 64, 18);
  }

  private GgmlTypes() {}

  /** Adds ID {@code id} (16-25): its released meanings, their layouts and history. */
  private static void ambiguous(int id) {
    List<String> names = new ArrayList<>();
    StringBuilder history = new StringBuilder();
    Map<String, List<String>> bySnapshot = new LinkedHashMap<>();
    for (int s = 0; s < SNAPSHOTS.length; s++) {
      String name = meaningIn(id, SNAPSHOT_I8[s]);
      if (name == null) {
        continue;
      }
      bySnapshot.computeIfAbsent(name, n -> new ArrayList<>()).add(SNAPSHOTS[s]);
    }
    bySnapshot.computeIfAbsent(MODERN_16_25[id - 16], n -> new ArrayList<>()).add("modern");
    for (Map.Entry<String, List<String>> e : bySnapshot.entrySet()) {
      names.add(e.getKey());
      if (history.length() > 0) {
        history.append(", ");
      }
      history.append(e.getKey()).append(" (").append(String.join(", ", e.getValue())).append(')');
    }
    long[] bound = smallestLayout(names);
    List<GgmlType.Layout> layouts = new ArrayList<>();
    for (String n : names) {
      long[] l = Objects.requireNonNull(CANDIDATE_LAYOUTS.get(n), "smallestLayout checked each name");
      layouts.add(new GgmlType.Layout(n, l[0], l[1]));
    }
    TABLE[id] =
        new GgmlType(id, "AMBIGUOUS_" + id, Kind.AMBIGUOUS, 0, 0, 0, names, bound[0], bound[1])
            .withLayouts(layouts);
    AMBIGUOUS_HISTORY.put((long) id, history.toString());
  }

  /**
   * The type of ID 9-25 under modern ggml's layout: Q8_1 in 36-byte blocks of 32, the K types in
   * 256-element blocks, IDs 16-25 their modern names (upstream PR 6050); the row multiple is the
   * block size, as ggml requires of the first dimension.
   */
  private static GgmlType modern(GgmlType t, int id) {
    String name = id >= 16 ? MODERN_16_25[id - 16] : t.label();
    GgmlType.Layout layout = null;
    for (GgmlType.Layout l : t.layouts()) {
      if (l.name().equals(name) || l.name().equals(Q8_1_MODERN) || l.name().equals(K_MODERN)) {
        layout = l;
        break;
      }
    }
    if (layout == null) {
      throw new IllegalStateException("no modern layout for type ID " + id);
    }
    return new GgmlType(
            id, name, Kind.ASSUMED, layout.elements(), layout.elements(), layout.bytes(), List.of())
        .assumedUnder(GGML_MODERN);
  }

  /** @return {elements, bytes} of the candidate with the fewest bytes per element */
  private static long[] smallestLayout(List<String> names) {
    long[] best = null;
    for (String n : names) {
      long[] l = CANDIDATE_LAYOUTS.get(n);
      if (l == null) {
        throw new IllegalStateException("no layout for candidate " + n);
      }
      // l[1]/l[0] < best[1]/best[0]  <=>  l[1]*best[0] < best[1]*l[0]
      if (best == null || l[1] * best[0] < best[1] * l[0]) {
        best = l;
      }
    }
    if (best == null) {
      throw new IllegalStateException("no candidate layouts");
    }
    return best;
  }

  /**
   * The meaning of ID {@code id} (16-25) in a snapshot whose I8 ID is {@code i8}: I8, I16 or I32
   * at {@code i8}, {@code i8 + 1}, {@code i8 + 2}; an IQ type below {@code i8}; above I32 the
   * null when the snapshot did not define the ID yet (its {@code GGML_TYPE_COUNT} was lower).
   */
  private static @Nullable String meaningIn(int id, int i8) {
    if (id < i8) {
      return IQ_NAMES[id - 16];
    }
    switch (id - i8) {
      case 0:
        return "I8";
      case 1:
        return "I16";
      case 2:
        return "I32";
      default:
        // e.g. b1500 ends at I32 = 18 with GGML_TYPE_COUNT = 19: the ID was not defined yet.
        return null;
    }
  }

  private static void standard(int id, String name, long blockElements, long blockBytes) {
    TABLE[id] =
        new GgmlType(id, name, Kind.STANDARD, blockElements, blockElements, blockBytes, List.of());
  }

  private static void removed(int id, String name) {
    TABLE[id] = new GgmlType(id, name, Kind.REMOVED, 32, 32, 18, List.of());
  }

  private static void unknown(int id) {
    TABLE[id] = new GgmlType(id, "UNKNOWN_" + id, Kind.UNKNOWN, 0, 0, 0, List.of());
  }

  /** @return true when no released ggml defines {@code id}: unknown, and neither 4 nor 5 */
  static boolean neverDefined(long id) {
    return id != 4 && id != 5 && (id < 0 || id >= FIRST_UNDEFINED_ID);
  }

  /**
   * What every layout limitation says about {@code candidates_fitting_ranges} (the same for every
   * outcome, so that the message's size does not depend on the fit).
   */
  private static final String FIT_NOTE =
      " candidates_fitting_ranges lists the candidates under which the declared ranges of these"
          + " tensors end before the next tensor and within the file: one missing from it cannot"
          + " have written them; one listed fits them, which does not show that the writer used"
          + " it (padding can hide the difference), so no length is derived from the fit."
          + " --assume-layout ggml-modern states the modern layout when the writer is known.";

  /**
   * Looks up a type ID.
   *
   * @param id the declared ID, an unsigned 32-bit value (0 to 4294967295)
   * @return the interpretation; IDs outside the table are {@code UNKNOWN_<id>}
   */
  public static GgmlType of(long id) {
    if (id >= 0 && id < TABLE.length) {
      return TABLE[(int) id];
    }
    return new GgmlType(id, "UNKNOWN_" + id, Kind.UNKNOWN, 0, 0, 0, List.of());
  }

  /**
   * Looks up a type ID under a layout assumption.
   *
   * @param id the declared ID, an unsigned 32-bit value
   * @param assumeModern true under {@code --assume-layout ggml-modern}: IDs 9-25 then take modern
   *     ggml's names and layouts ({@link Kind#ASSUMED})
   * @return the interpretation
   */
  public static GgmlType of(long id, boolean assumeModern) {
    if (assumeModern && id >= 9 && id <= 25) {
      return MODERN[(int) id - 9];
    }
    return of(id);
  }

  /**
   * The limitation message for tensors of an affected type.
   *
   * @param t a type of kind Q8_1, K_QUANT, AMBIGUOUS or UNKNOWN
   * @param tensors how many tensors the limitation lists
   * @return the message
   * @throws IllegalArgumentException for kinds that carry no limitation
   */
  static String limitationMessage(GgmlType t, int tensors) {
    String which = tensors == 1 ? "1 tensor" : tensors + " tensors";
    switch (t.kind()) {
      case Q8_1:
        return "Q8_1 (type ID 9) has two released layouts, 36 bytes per 32 elements (Q8_1_36,"
            + " modern ggml) and 40 bytes (Q8_1_40, llama.cpp b1500), and the header does not"
            + " select one: the byte length and storage of "
            + which
            + " are unknown."
            + FIT_NOTE;
      case K_QUANT:
        return t.label()
            + " (type ID "
            + t.id()
            + ") has two released storage layouts: 256-element blocks (K256, the default build,"
            + " used by current writers) and 64-element blocks (K64, llama.cpp built with the"
            + " LLAMA_QKK_64 option, e.g. b1500). The header does not record which one wrote the"
            + " file, so the byte length and storage of "
            + which
            + " are unknown."
            + FIT_NOTE;
      case AMBIGUOUS:
        return "type ID "
            + t.id()
            + " has several released meanings: "
            + AMBIGUOUS_HISTORY.get(t.id())
            + "; the header does not say which one applies to "
            + which
            + ", so nonempty byte lengths are unknown."
            + FIT_NOTE;
      case UNKNOWN:
        return "type ID "
            + t.id()
            + (t.id() == 4 || t.id() == 5
                ? " was removed from ggml before GGUF (no block layout)"
                : " is not defined by ggml")
            + ": the byte length and storage of "
            + which
            + " are unknown";
      default:
        throw new IllegalArgumentException("no limitation for " + t);
    }
  }

  /**
   * @return the limitation code of a type kind
   * @throws IllegalArgumentException for kinds that carry no limitation
   */
  static String limitationCode(GgmlType t) {
    switch (t.kind()) {
      case Q8_1:
        return LIMITATION_Q8_1;
      case K_QUANT:
        return LIMITATION_K_QUANT;
      case AMBIGUOUS:
        return LIMITATION_AMBIGUOUS;
      case UNKNOWN:
        return LIMITATION_UNKNOWN;
      default:
        throw new IllegalArgumentException("no limitation for " + t);
    }
  }

  /** @return the released history of an ambiguous ID (16-25), for messages and tests */
  public static String ambiguousHistory(long id) {
    String h = AMBIGUOUS_HISTORY.get(id);
    if (h == null) {
      throw new IllegalArgumentException("not an ambiguous ID: " + id);
    }
    return h;
  }
}
