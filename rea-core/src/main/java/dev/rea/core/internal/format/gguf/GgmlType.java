package dev.rea.core.internal.format.gguf;

import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.evidence.DeclaredTensor;
import dev.rea.core.internal.evidence.TensorType;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How REA interprets one numeric ggml tensor type ID found in a GGUF tensor directory: its label,
 * the row multiple the first dimension must satisfy, and, when the storage layout is established,
 * its block size in elements and bytes, and what tensors of the type carry in the record (a
 * limitation for Q8_1, the K types, ambiguous and unknown IDs; a warning for removed ones).
 * Instances come from {@link GgmlTypes#of(long)}.
 *
 * <p>Source: specification "Facts and selected queries" (Q8_1, K-quantization and ID 16-25
 * rules) and CONTRACT section 8 "Type table"; block sizes from {@code shared/notes/gguf-readers.md}
 * section 4 (ggml-org/ggml {@code src/ggml-common.h} at d99724f).
 */
public final class GgmlType implements TensorType {
  /** The rule that decides how a type ID is reported. */
  public enum Kind {
    /** Upstream ggml meaning with one established block layout (0-3, 6-8, 26-30, 34, 35, 39-42). */
    STANDARD,
    /** Q8_1 (ID 9): two released layouts (36 or 40 bytes per 32 elements); row multiple 32. */
    Q8_1,
    /** Q2_K...Q8_K (IDs 10-15): K64 and K256 layouts were both released; row multiple 64. */
    K_QUANT,
    /** IDs 16-25: several released meanings; reported as {@code AMBIGUOUS_<id>}. */
    AMBIGUOUS,
    /** IDs 31-33 and 36-38: removed from ggml with one released meaning (32 elements, 18 bytes). */
    REMOVED,
    /** IDs 4, 5 and every ID ggml never defined: {@code UNKNOWN_<id>}, no layout. */
    UNKNOWN,
    /**
     * IDs 9-25 read under a layout assumption the caller stated ({@code --assume-layout
     * ggml-modern}; CONTRACT section 12): modern ggml's name and block layout.
     */
    ASSUMED
  }

  /**
   * One released storage layout of a type whose layout is not established, as {@code
   * candidates_fitting_ranges} names it (docs/gguf.md, "Candidate layouts").
   *
   * @param name the candidate's name: {@code Q8_1_36}, {@code K256}, {@code IQ2_XXS}, ...
   * @param elements elements per block (the first dimension must be a whole number of blocks)
   * @param bytes bytes per block
   */
  public record Layout(String name, long elements, long bytes) {}

  private final long id;
  private final String label;
  private final Kind kind;
  private final long rowMultiple;
  private final long blockElements;
  private final long blockBytes;
  private final List<String> candidates;
  private final long boundElements;
  private final long boundBytes;
  private List<Layout> layouts = List.of();
  private @Nullable String assumption;

  GgmlType(
      long id,
      String label,
      Kind kind,
      long rowMultiple,
      long blockElements,
      long blockBytes,
      List<String> candidates) {
    this(id, label, kind, rowMultiple, blockElements, blockBytes, candidates, 0, 0);
  }

  /**
   * @param boundElements with {@code boundBytes}: the smallest bytes-per-element ratio among the
   *     released layouts of a type whose layout is not established, or 0 when there is no bound
   */
  GgmlType(
      long id,
      String label,
      Kind kind,
      long rowMultiple,
      long blockElements,
      long blockBytes,
      List<String> candidates,
      long boundElements,
      long boundBytes) {
    this.boundElements = boundElements;
    this.boundBytes = boundBytes;
    this.id = id;
    this.label = Objects.requireNonNull(label, "label");
    this.kind = Objects.requireNonNull(kind, "kind");
    this.rowMultiple = rowMultiple;
    this.blockElements = blockElements;
    this.blockBytes = blockBytes;
    this.candidates = List.copyOf(candidates);
  }

  /** Sets the candidate layouts (table construction only). */
  GgmlType withLayouts(List<Layout> value) {
    this.layouts = List.copyOf(value);
    return this;
  }

  /** Marks a type as read under the named layout assumption (table construction only). */
  GgmlType assumedUnder(String value) {
    this.assumption = value;
    return this;
  }

  /** @return the candidate layouts of a type whose layout is not established, else empty */
  public List<Layout> layouts() {
    return layouts;
  }

  /**
   * @return the wire name of the layout assumption this type was read under ({@code
   *     ggml-modern}), or null when its layout does not rest on one
   */
  public @Nullable String assumption() {
    return assumption;
  }

  /** @return the numeric type ID as declared (an unsigned 32-bit value) */
  public long id() {
    return id;
  }

  /** @return {@link #id()}: every GGUF row states its type ID */
  @Override
  public long typeId() {
    return id;
  }

  /**
   * @return the reported type label: the stable ggml name (upper case, as gguf-py writes it),
   *     {@code AMBIGUOUS_<id>} or {@code UNKNOWN_<id>}
   */
  @Override
  public String label() {
    return label;
  }

  /** @return the rule that applies to this ID */
  public Kind kind() {
    return kind;
  }

  /**
   * @return the number of elements the first dimension must be a whole multiple of, or 0 when no
   *     row rule applies (ambiguous and unknown IDs)
   */
  public long rowMultiple() {
    return rowMultiple;
  }

  /**
   * @return elements per storage block when the layout is established, else 0 (Q8_1, K types,
   *     ambiguous and unknown IDs)
   */
  public long blockElements() {
    return blockElements;
  }

  /** @return bytes per storage block when the layout is established, else 0 */
  public long blockBytes() {
    return blockBytes;
  }

  /** @return true when nonempty tensors of this type have a derivable byte length */
  public boolean layoutKnown() {
    return blockElements > 0;
  }

  /**
   * @return true when an empty tensor (zero elements) of this type has a derived byte length of
   *     0: every ID except the unknown ones
   */
  public boolean emptyLengthKnown() {
    return kind != Kind.UNKNOWN;
  }

  /**
   * @return the released meanings of an ambiguous ID, or the candidate layouts of Q8_1 and the K
   *     types; empty for the other kinds
   */
  public List<String> candidates() {
    return candidates;
  }

  /**
   * Derives the storage length of a tensor of this type.
   *
   * @param elements the tensor's element count (unsigned 64-bit), a whole multiple of {@link
   *     #blockElements()} when the layout is known (the reader checks the row rule first)
   * @return the length in bytes, at most 2^63-1; 0 for an empty tensor of a known or ambiguous
   *     type; {@link #UNKNOWN_LENGTH} when the layout is not established; {@link
   *     #LENGTH_OVERFLOW} when the length is over 2^63-1 bytes, more than any file holds (so that
   *     no real length can be taken for either marker: -1 and -2 are 2^64-1 and 2^64-2 unsigned)
   */
  public long byteLength(long elements) {
    if (elements == 0) {
      return emptyLengthKnown() ? 0 : UNKNOWN_LENGTH;
    }
    if (!layoutKnown()) {
      return UNKNOWN_LENGTH;
    }
    return withinFiles(Long.divideUnsigned(elements, blockElements), blockBytes);
  }

  /**
   * The exact storage length, for messages about a length over what {@link #byteLength} returns.
   *
   * @param elements the element count (unsigned 64-bit)
   * @return {@code elements / blockElements * blockBytes}, or null when the layout is not
   *     established
   */
  public java.math.@Nullable BigInteger exactByteLength(long elements) {
    if (!layoutKnown()) {
      return null;
    }
    return new java.math.BigInteger(Long.toUnsignedString(Long.divideUnsigned(elements, blockElements)))
        .multiply(java.math.BigInteger.valueOf(blockBytes));
  }

  /** @return {@code blocks * bytes}, or {@link #LENGTH_OVERFLOW} when it is over 2^63-1 */
  private static long withinFiles(long blocks, long bytes) {
    if (Long.compareUnsigned(blocks, Long.MAX_VALUE / bytes) > 0) {
      return LENGTH_OVERFLOW;
    }
    return blocks * bytes;
  }

  /**
   * A lower bound on the storage of a nonempty tensor whose layout is not established (Q8_1, the
   * K types, ambiguous IDs): the fewest bytes its elements take under <em>every</em> released
   * layout the type ID has had, {@code floor(elements * bytes / elements-per-block)} for the
   * smallest ratio. It selects no layout: it only proves that a range shorter than this cannot
   * hold the tensor under any of them (a truncated file, or ranges that overlap).
   *
   * @param elements the element count (unsigned 64-bit)
   * @return the bound in bytes; {@link #UNKNOWN_LENGTH} when the type has none (unknown IDs, or
   *     a known layout: use {@link #byteLength(long)}); {@link #LENGTH_OVERFLOW} when it exceeds
   *     2^63-1 (no file can hold it)
   */
  @Override
  public long minByteLength(long elements) {
    if (boundElements == 0) {
      return UNKNOWN_LENGTH;
    }
    java.math.BigInteger b =
        new java.math.BigInteger(Long.toUnsignedString(elements))
            .multiply(java.math.BigInteger.valueOf(boundBytes))
            .divide(java.math.BigInteger.valueOf(boundElements));
    return b.bitLength() > 63 ? LENGTH_OVERFLOW : b.longValue();
  }


  @Override
  public List<String> layoutNames() {
    List<String> names = new java.util.ArrayList<>(layouts.size());
    for (Layout l : layouts) {
      names.add(l.name());
    }
    return names;
  }

  @Override
  public long lengthUnder(int layout, long[] shape, long elements) {
    Layout l = layouts.get(layout);
    long first = shape.length == 0 ? 1 : shape[0];
    if (Long.remainderUnsigned(first, l.elements()) != 0) {
      return UNKNOWN_LENGTH;
    }
    return withinFiles(Long.divideUnsigned(elements, l.elements()), l.bytes());
  }

  /**
   * A tensor's length rests on the assumption when its type was read under one and the layout
   * matters: every tensor of IDs 16-25 (whose name rests on it too), nonempty Q8_1 and K tensors.
   */
  @Override
  public @Nullable String assumedLayout(long elements) {
    if (assumption == null || (elements == 0 && id < 16)) {
      return null;
    }
    return assumption;
  }

  /**
   * Returned by {@link #byteLength(long)} when the layout is unknown. It is -1 (2^64-1 unsigned),
   * a value no real length within a file can take, as files are at most 2^63-1 bytes.
   */
  public static final long UNKNOWN_LENGTH = DeclaredTensor.UNKNOWN_LENGTH;

  /** Returned by {@link #byteLength(long)} when the length exceeds 2^63-1 bytes: -2. */
  public static final long LENGTH_OVERFLOW = DeclaredTensor.LENGTH_OVERFLOW;

  /**
   * Ambiguous and unknown IDs always carry a limitation, Q8_1 and the K types when nonempty (an
   * empty tensor has no layout to be ambiguous about); removed IDs carry a warning. An ID no
   * released ggml defines (unknown, other than 4 and 5) carries the {@code unknown_type_id}
   * warning too (CONTRACT section 12): such IDs usually mean a damaged header.
   */
  @Override
  public Note note(long elements) {
    switch (kind) {
      case AMBIGUOUS:
        return Note.LIMITATION;
      case UNKNOWN:
        return GgmlTypes.neverDefined(id) ? Note.LIMITATION_AND_WARNING : Note.LIMITATION;
      case Q8_1:
      case K_QUANT:
        return elements != 0 ? Note.LIMITATION : Note.NONE;
      case REMOVED:
        return Note.WARNING;
      default:
        return Note.NONE;
    }
  }

  /**
   * @return the limitation of this type carried by {@code count} tensors, listing {@code
   *     indices}: code and message from {@link GgmlTypes}, the type ID and the candidates
   */
  @Override
  public Limitation limitation(int count, List<Integer> indices) {
    return limitation(count, indices, null);
  }

  /**
   * @param fitting the names of the candidate layouts the ranges fit ({@code
   *     candidates_fitting_ranges}), or null when not known
   */
  @Override
  public Limitation limitation(int count, List<Integer> indices, @Nullable List<String> fitting) {
    return new Limitation(
        GgmlTypes.limitationCode(this),
        GgmlTypes.limitationMessage(this, count),
        indices,
        id,
        candidates.isEmpty() ? null : candidates,
        layouts.isEmpty() ? null : fitting);
  }

  /**
   * @return the warning of this type carried by the tensors {@code indices} (the first 8 are
   *     named, the rest counted): {@code removed_type} for a removed ID, {@code unknown_type_id}
   *     for an ID no released ggml defines
   */
  @Override
  public Warning warning(List<Integer> indices) {
    StringBuilder list = new StringBuilder();
    for (int k = 0; k < Math.min(indices.size(), 8); k++) {
      list.append(k == 0 ? "" : ", ").append(indices.get(k));
    }
    if (indices.size() > 8) {
      list.append(" and ").append(indices.size() - 8).append(" more");
    }
    if (kind == Kind.UNKNOWN) {
      return new Warning(
          GgmlTypes.WARNING_UNKNOWN,
          "type ID "
              + Long.toUnsignedString(id)
              + " is defined by no released ggml, which usually means a damaged header; tensor"
              + (indices.size() == 1 ? " " : "s ")
              + list
              + " declare"
              + (indices.size() == 1 ? "s" : "")
              + " it");
    }
    return new Warning(
        GgmlTypes.WARNING_REMOVED,
        "type ID "
            + id
            + " ("
            + label
            + ") has been removed from ggml; its one released layout (32 elements in 18"
            + " bytes) is assumed for tensor"
            + (indices.size() == 1 ? " " : "s ")
            + list);
  }

  /** @return {@code label(id)}, for debugging */
  @Override
  public String toString() {
    return label + "(" + id + ")";
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof GgmlType t && t.id == id && t.kind == kind;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(id);
  }
}
