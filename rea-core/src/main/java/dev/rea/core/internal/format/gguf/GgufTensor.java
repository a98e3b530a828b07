package dev.rea.core.internal.format.gguf;

import dev.rea.core.internal.evidence.DeclaredTensor;

/**
 * One validated GGUF tensor entry, before the data section's start is known, with the offsets
 * of its fields that the range and overlap checks name ({@link GgufRanges}).
 */
final class GgufTensor extends DeclaredTensor {
  /** File offset of the entry's {@code offset} field. */
  final long offsetAt;

  /** File offset of the first dimension (just after {@code n_dims}). */
  final long dimsAt;

  /**
   * @param index position in the directory
   * @param name the name
   * @param type the type (kept when unknown)
   * @param shape the dimensions, fastest first (not copied)
   * @param elements their product
   * @param offset the data offset relative to the data section
   * @param byteLength {@link GgmlType#byteLength} of the elements
   * @param offsetAt file offset of the {@code offset} field
   * @param dimsAt file offset of the first dimension
   */
  GgufTensor(
      int index,
      String name,
      GgmlType type,
      long[] shape,
      long elements,
      long offset,
      long byteLength,
      long offsetAt,
      long dimsAt) {
    // A derived length (even one too large for any file, rejected with the ranges) is checked
    // against the storage; an unknown layout is not.
    super(index, name, type, shape, elements, offset, byteLength, byteLength != UNKNOWN_LENGTH);
    this.offsetAt = offsetAt;
    this.dimsAt = dimsAt;
  }

  /** @return the type as the ggml table gave it */
  GgmlType ggmlType() {
    return (GgmlType) type();
  }
}
