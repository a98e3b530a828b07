package dev.rea.core.internal.evidence;

import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.evidence.TensorRow;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One tensor entry as a format reader validated it, before its row exists: what {@link
 * RecordAssembler} needs to charge, note and write the row. Readers extend it with what their own
 * later checks need (the offsets of the fields, for errors). Immutable; the shape array is not
 * copied, so the reader must not change it after construction.
 *
 * <p>All {@code long} quantities are unsigned 64-bit values.
 */
public class DeclaredTensor {
  /** {@link #byteLength()} of a tensor whose storage length is not established: 2^64-1. */
  public static final long UNKNOWN_LENGTH = -1L;

  /**
   * {@link #byteLength()} of a tensor whose storage would exceed what a file holds (GGUF: over
   * 2^63-1 bytes, so that no derived length meets either marker): 2^64-2.
   */
  public static final long LENGTH_OVERFLOW = -2L;

  private final int index;
  private final String name;
  private final TensorType type;
  private final long[] shape;
  private final long elements;
  private final long offset;
  private final long byteLength;
  private final boolean storageChecked;

  /**
   * @param index position in declaration order, from 0
   * @param name the name as declared
   * @param type the declared type
   * @param shape the dimensions as declared (not copied)
   * @param elements their product
   * @param offset the data offset relative to the data section, in bytes
   * @param byteLength the storage length in bytes (derived from type and shape, or the declared
   *     range), {@link #UNKNOWN_LENGTH} or {@link #LENGTH_OVERFLOW}
   * @param storageChecked whether type and shape were checked against the storage ({@code
   *     storage_validation: "consistent"} once the tensor's place in the file is known)
   */
  public DeclaredTensor(
      int index,
      String name,
      TensorType type,
      long[] shape,
      long elements,
      long offset,
      long byteLength,
      boolean storageChecked) {
    this.index = index;
    this.name = Objects.requireNonNull(name, "name");
    this.type = Objects.requireNonNull(type, "type");
    this.shape = Objects.requireNonNull(shape, "shape");
    this.elements = elements;
    this.offset = offset;
    this.byteLength = byteLength;
    this.storageChecked = storageChecked;
  }

  /** @return the position in declaration order, from 0 */
  public final int index() {
    return index;
  }

  /** @return the name as declared */
  public final String name() {
    return name;
  }

  /** @return the declared type */
  public final TensorType type() {
    return type;
  }

  /** @return the dimensions (the array itself: do not change it) */
  public final long[] shape() {
    return shape;
  }

  /** @return the element count, unsigned */
  public final long elements() {
    return elements;
  }

  /** @return the data offset relative to the data section, unsigned bytes */
  public final long offset() {
    return offset;
  }

  /** @return the storage length in bytes, {@link #UNKNOWN_LENGTH} or {@link #LENGTH_OVERFLOW} */
  public final long byteLength() {
    return byteLength;
  }

  /** @return whether type and shape were checked against the storage */
  public final boolean storageChecked() {
    return storageChecked;
  }

  /** @return whether the row states a byte length (neither unknown nor overflowing) */
  final boolean lengthKnown() {
    return byteLength != UNKNOWN_LENGTH && byteLength != LENGTH_OVERFLOW;
  }

  /**
   * @param rowIndex the row's index in the record
   * @param fileOffset the absolute offset of the data, or null when the data section's start is
   *     not known (a header read in part: nothing about the storage was checked then)
   * @return the row
   */
  final TensorRow row(int rowIndex, @Nullable Long fileOffset) {
    Long[] dims = new Long[shape.length];
    for (int k = 0; k < dims.length; k++) {
      dims[k] = shape[k];
    }
    boolean known = lengthKnown();
    long id = type.typeId();
    return new TensorRow(
        rowIndex,
        name,
        type.label(),
        id >= 0 ? id : null,
        List.of(dims),
        elements,
        offset,
        fileOffset,
        known ? byteLength : null,
        storageChecked && known && fileOffset != null
            ? StorageValidation.CONSISTENT
            : StorageValidation.UNKNOWN);
  }
}
