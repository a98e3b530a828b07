package dev.rea.core.internal.evidence;

import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.Warning;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A tensor's declared type as its Evidence record reports it: the label and ID of its rows and
 * type row, and the note (a limitation or a warning naming the tensors) that tensors of the type
 * carry (CONTRACT section 3, {@code limitations} and {@code warnings}). The format readers' type
 * tables implement it (a ggml type, a safetensors dtype); {@link RecordAssembler} sizes and
 * writes the notes from it without knowing the formats.
 *
 * <p>Two types are the same type when {@link #equals} says so: the assembler groups tensors by
 * type (one type row, one note per type) and orders notes by {@link #ORDER}.
 */
public interface TensorType {
  /** Orders notes: by type ID when both types have one, else by label in code-point order. */
  java.util.Comparator<TensorType> ORDER =
      (a, b) ->
          a.typeId() >= 0 && b.typeId() >= 0
              ? Long.compare(a.typeId(), b.typeId())
              : Derivations.compareCodePoints(a.label(), b.label());

  /** What the tensors of a type carry in the record. */
  enum Note {
    /** Nothing. */
    NONE,
    /** One limitation per type listing the tensors ({@link #limitation}). */
    LIMITATION,
    /** One warning per type naming the tensors ({@link #warning}). */
    WARNING,
    /** Both: a limitation listing the tensors and a warning naming them. */
    LIMITATION_AND_WARNING;

    /** @return true when the tensors carry a limitation */
    public boolean limits() {
      return this == LIMITATION || this == LIMITATION_AND_WARNING;
    }

    /** @return true when the tensors carry a warning */
    public boolean warns() {
      return this == WARNING || this == LIMITATION_AND_WARNING;
    }
  }

  /** @return the row's {@code type}: a ggml type name, {@code UNKNOWN_<id>}, a dtype */
  String label();

  /** @return the row's {@code type_id} (an unsigned 32-bit value), or -1 when rows have none */
  long typeId();

  /**
   * @param elements the tensor's element count (unsigned)
   * @return what a tensor of this type and element count carries
   */
  Note note(long elements);

  /**
   * The limitation of this type, when {@link #note} says {@link Note#LIMITATION}.
   *
   * @param count tensors carrying it ({@link Integer#MAX_VALUE} to size it at its widest)
   * @param indices their row indices (empty to size it before they are known)
   * @return the limitation
   * @throws UnsupportedOperationException when the type carries no limitation
   */
  default Limitation limitation(int count, List<Integer> indices) {
    throw new UnsupportedOperationException(label() + " carries no limitation");
  }

  /**
   * The limitation of this type with the names of the candidate layouts its tensors' ranges fit
   * ({@link #layoutNames}); types without candidate layouts ignore {@code fitting}.
   *
   * @param fitting the fitting names, in {@link #layoutNames} order, or null when not known (a
   *     header read in part)
   */
  default Limitation limitation(int count, List<Integer> indices, @Nullable List<String> fitting) {
    return limitation(count, indices);
  }

  /**
   * @return the names of the released layouts a tensor of this type may be stored in, when its
   *     layout is not established (GGUF Q8_1, K types, IDs 16-25); empty otherwise
   */
  default List<String> layoutNames() {
    return List.of();
  }

  /**
   * The byte length of a tensor under one of {@link #layoutNames}.
   *
   * @param layout the position in {@link #layoutNames}
   * @param shape the dimensions, first (fastest) first, unsigned
   * @param elements their product, unsigned
   * @return the length; {@link DeclaredTensor#UNKNOWN_LENGTH} when the layout cannot store the
   *     shape (its first dimension is not a whole number of blocks); {@link
   *     DeclaredTensor#LENGTH_OVERFLOW} past 2^63-1 (no file holds it)
   */
  default long lengthUnder(int layout, long[] shape, long elements) {
    return DeclaredTensor.UNKNOWN_LENGTH;
  }

  /**
   * The warning of this type, when {@link #note} says {@link Note#WARNING}.
   *
   * @param indices the row indices of the tensors carrying it (a list as long as the widest
   *     count, of the widest index, sizes it at its widest)
   * @return the warning
   * @throws UnsupportedOperationException when the type carries no warning
   */
  default Warning warning(List<Integer> indices) {
    throw new UnsupportedOperationException(label() + " carries no warning");
  }

  /**
   * @param elements the tensor's element count (unsigned)
   * @return the wire name of the caller's layout assumption ({@code ggml-modern}) when this
   *     tensor's byte length or type name rests on it ({@code layout_assumed}), else null
   */
  default @Nullable String assumedLayout(long elements) {
    return null;
  }

  /**
   * A lower bound on the storage of a nonempty tensor of this type whose length is not
   * established, for the layout warnings ({@link LayoutBounds}).
   *
   * @param elements the element count (unsigned)
   * @return the bound in bytes; {@link DeclaredTensor#UNKNOWN_LENGTH} when there is none; {@link
   *     DeclaredTensor#LENGTH_OVERFLOW} when it exceeds 2^63-1
   */
  default long minByteLength(long elements) {
    return DeclaredTensor.UNKNOWN_LENGTH;
  }
}
