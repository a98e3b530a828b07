package dev.rea.core.internal.evidence;

import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.Warning;
import java.util.List;

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
    WARNING
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
