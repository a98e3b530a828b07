package dev.rea.core.internal.format.safetensors;

import dev.rea.core.internal.evidence.DeclaredTensor;
import dev.rea.core.internal.evidence.TensorType;
import org.jspecify.annotations.Nullable;

/**
 * One safetensors tensor entry as declared and checked on its own (dtype, shape, {@code
 * data_offsets}, storage), with what the checks across entries name ({@link HeaderRanges}): the
 * offsets of its name, shape and {@code data_offsets}. Its {@code offset} is {@code begin} and its
 * byte length the declared range {@code end - begin}; its storage is checked when its dtype is
 * known.
 */
final class SafetensorsTensor extends DeclaredTensor {
  /** Absolute offsets of the name token, the shape array and the data_offsets array. */
  final long nameAt;

  final long shapeAt;
  final long offsetsAt;

  /**
   * @param seq position in the document
   * @param name the name
   * @param type a {@link SafetensorsDtype}, or an {@link UnknownDtype}
   * @param shape the dimensions (not copied)
   * @param elements their product, unsigned
   * @param begin {@code data_offsets[0]}
   * @param end {@code data_offsets[1]}, at least {@code begin}
   */
  SafetensorsTensor(
      int seq,
      String name,
      TensorType type,
      long[] shape,
      long elements,
      long begin,
      long end,
      long nameAt,
      long shapeAt,
      long offsetsAt) {
    super(seq, name, type, shape, elements, begin, end - begin, type instanceof SafetensorsDtype);
    this.nameAt = nameAt;
    this.shapeAt = shapeAt;
    this.offsetsAt = offsetsAt;
  }

  /** @return the dtype when it is one of the crate's, else null */
  @Nullable SafetensorsDtype dtype() {
    return type() instanceof SafetensorsDtype d ? d : null;
  }

  /** @return {@code data_offsets[0]} */
  long begin() {
    return offset();
  }

  /** @return {@code data_offsets[1]} */
  long end() {
    return offset() + byteLength();
  }
}
