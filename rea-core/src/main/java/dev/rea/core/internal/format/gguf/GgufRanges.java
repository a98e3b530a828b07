package dev.rea.core.internal.format.gguf;

import dev.rea.core.error.ReaException;
import dev.rea.core.internal.io.FieldPath;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The checks of a GGUF tensor directory that need the whole of it (CONTRACT section 8): where
 * the data section starts, that every range lies within the file and that no two overlap. Each
 * failure is {@code file_format_rejected} naming the tensor's field ({@code tensor[2].offset},
 * {@code tensor[2].dims}) or {@code tensor_data_offset}.
 */
final class GgufRanges {
  /** Said of a tensor range past the end of the file: the usual cause, in the reader's words. */
  private static final String TRUNCATED_HINT =
      " (the file is shorter than its header declares: an incomplete download or a truncated"
          + " copy?)";

  /**
   * @return what a message says of a length or block size that rests on the request's layout
   *     assumption ({@code " under the assumed ggml-modern layout"}), or nothing
   */
  static String assumedNote(GgmlType type) {
    return type.assumption() == null
        ? ""
        : " under the assumed " + type.assumption() + " layout (--assume-layout)";
  }

  private final FieldPath path;
  private final long fileSize;
  private final long alignment;

  /**
   * @param path the read's field path
   * @param fileSize the file size in bytes
   * @param alignment the alignment in bytes
   */
  GgufRanges(FieldPath path, long fileSize, long alignment) {
    this.path = path;
    this.fileSize = fileSize;
    this.alignment = alignment;
  }

  /**
   * The data section start (CONTRACT section 8): with tensors, the directory end padded to the
   * alignment, which must not exceed the file size; with none, the directory end when the file
   * ends there, the aligned offset when the whole gap is present, and a partial gap is rejected.
   */
  long dataOffset(long directoryEnd, long tensorCount) throws ReaException {
    path.reset("tensor_data_offset");
    long aligned = directoryEnd + (alignment - directoryEnd % alignment) % alignment;
    if (tensorCount == 0 && fileSize == directoryEnd) {
      return directoryEnd;
    }
    if (aligned > fileSize) {
      throw GgufReader.reject(
          path,
          directoryEnd,
          "the directory ends at "
              + directoryEnd
              + " and the tensor data would start at "
              + aligned
              + " (alignment "
              + alignment
              + "), but the file ends at "
              + fileSize
              + ": the alignment padding before the data section is missing or incomplete");
    }
    return aligned;
  }

  /**
   * Per tensor, in directory order: the file offset fits in 64 bits; a known range ends within
   * the file; a nonempty tensor of unknown length starts before the end of the file. Then the
   * overlaps ({@link #checkOverlaps}).
   */
  void check(List<GgufTensor> decls, long dataOffset) throws ReaException {
    long room = fileSize - dataOffset;
    for (GgufTensor d : decls) {
      long offset = d.offset();
      long byteLength = d.byteLength();
      path.reset("tensor").index(d.index()).name("offset");
      if (Long.compareUnsigned(offset, -1L - dataOffset) > 0) {
        throw GgufReader.reject(
            path,
            d.offsetAt,
            "the data section starts at "
                + dataOffset
                + " and offset "
                + Long.toUnsignedString(offset)
                + " takes the file offset beyond 2^64-1");
      }
      if (byteLength == GgmlType.LENGTH_OVERFLOW) {
        // The dimensions, not the offset, make the tensor larger than any file.
        path.truncate(2).name("dims");
        java.math.BigInteger exact = d.ggmlType().exactByteLength(d.elements());
        throw GgufReader.reject(
            path,
            d.dimsAt,
            d.type().label()
                + " shape "
                + GgufReader.dimsText(d.shape(), d.shape().length)
                + (exact == null || exact.bitLength() > 64
                    ? " needs more than 2^64-1 bytes"
                    : " needs " + exact + " bytes, more than any file holds (2^63-1)")
                + assumedNote(d.ggmlType())
                + ", which cannot lie within the file");
      }
      if (byteLength != GgmlType.UNKNOWN_LENGTH) {
        if (Long.compareUnsigned(offset, room) > 0
            || Long.compareUnsigned(byteLength, room - offset) > 0) {
          throw GgufReader.reject(
              path,
              d.offsetAt,
              "the range of "
                  + Long.toUnsignedString(byteLength)
                  + " bytes"
                  + assumedNote(d.ggmlType())
                  + " at file offset "
                  + Long.toUnsignedString(dataOffset + offset)
                  + " ends past the end of the file at "
                  + fileSize
                  + TRUNCATED_HINT);
        }
      } else if (d.elements() != 0 && Long.compareUnsigned(offset, room) >= 0) {
        throw GgufReader.reject(
            path,
            d.offsetAt,
            "a nonempty tensor of unknown byte length starts at file offset "
                + Long.toUnsignedString(dataOffset + offset)
                + ", not before the end of the file at "
                + fileSize
                + TRUNCATED_HINT);
      }
    }
    checkOverlaps(decls);
  }

  /**
   * Rejects every overlap the declarations prove: known ranges that intersect, two nonempty
   * tensors at one offset, a nonempty tensor starting inside a known range. Empty tensors occupy
   * no bytes. O(n log n): nonempty tensors sorted by offset, swept once keeping the furthest
   * known end. Offsets and ends are below the file size here ({@link #check} ran first).
   */
  private void checkOverlaps(List<GgufTensor> decls) throws ReaException {
    int n = 0;
    GgufTensor[] sorted = new GgufTensor[decls.size()];
    boolean inOrder = true;
    for (GgufTensor d : decls) {
      if (d.elements() != 0) {
        if (n > 0 && d.offset() < sorted[n - 1].offset()) {
          inOrder = false;
        }
        sorted[n++] = d;
      }
    }
    if (!inOrder) {
      Arrays.sort(
          sorted,
          0,
          n,
          (a, b) ->
              a.offset() != b.offset()
                  ? Long.compare(a.offset(), b.offset())
                  : a.index() - b.index());
    }
    long furthestEnd = 0;
    @Nullable GgufTensor furthest = null;
    for (int k = 0; k < n; k++) {
      GgufTensor d = sorted[k];
      @Nullable GgufTensor prev = k > 0 ? sorted[k - 1] : null;
      if (prev != null && prev.offset() == d.offset()) {
        throw overlap(d, prev, "both nonempty tensors start at offset " + d.offset());
      }
      if (furthest != null && d.offset() < furthestEnd) {
        throw overlap(d, furthest, inside(d, furthest, furthestEnd));
      }
      if (d.byteLength() != GgmlType.UNKNOWN_LENGTH && d.offset() + d.byteLength() > furthestEnd) {
        furthestEnd = d.offset() + d.byteLength();
        furthest = d;
      }
    }
  }

  private static String inside(GgufTensor d, GgufTensor furthest, long furthestEnd) {
    return "tensor["
        + d.index()
        + "] starts at offset "
        + d.offset()
        + ", inside the "
        + (furthest.ggmlType().assumption() == null ? "known" : "assumed")
        + " range ["
        + furthest.offset()
        + ", "
        + furthestEnd
        + ") of tensor["
        + furthest.index()
        + "]";
  }

  /** The overlap failure, naming the tensor declared later in the directory. */
  private ReaException overlap(GgufTensor later, GgufTensor other, String why) {
    GgufTensor named = later.index() > other.index() ? later : other;
    GgufTensor first = named == later ? other : later;
    path.reset("tensor").index(named.index()).name("offset");
    return GgufReader.reject(
        path,
        named.offsetAt,
        "tensor["
            + named.index()
            + "] overlaps tensor["
            + first.index()
            + "]: "
            + why);
  }
}
