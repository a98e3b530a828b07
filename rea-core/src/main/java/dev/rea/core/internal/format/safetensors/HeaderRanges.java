package dev.rea.core.internal.format.safetensors;

import static dev.rea.core.internal.io.FieldPath.quote;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The storage checks of safetensors tensor entries (README "Format", {@code
 * shared/notes/safetensors-readers.md}): a known dtype's storage is a whole number of bytes equal
 * to the declared range; names are unique; the ranges, sorted, cover the byte buffer from 0 to its
 * end without gap or overlap. Each failure is {@code file_format_rejected} naming the entry's
 * field ({@code tensors["a"].shape}, {@code tensors["a"].data_offsets}) or {@code byte_buffer}.
 */
final class HeaderRanges {
  private static final long PREFIX = SafetensorsReader.PREFIX_BYTES;

  /** Dimensions shown when a shape appears in a message. */
  private static final int SHOWN_DIMS = 8;

  private HeaderRanges() {}

  /** @return {@code tensors["name"]}, the name quoted and truncated */
  static String tensorPath(String name) {
    return "tensors[" + quote(name) + "]";
  }

  /**
   * A {@code file_format_rejected} failure whose message names the field and the absolute byte
   * offset first, as every rejection of both readers does (CONTRACT section 6): {@code
   * tensors["a"].data_offsets at offset 37: why}.
   */
  static ReaException rejectAt(String field, long at, String why) {
    return ReaException.rejected(field, at, field + " at offset " + at + ": " + why);
  }

  /** Known dtype: whole-byte storage that equals the declared range. */
  static void checkStorage(SafetensorsTensor d, SafetensorsDtype dt) throws ReaException {
    long elements = d.elements();
    int perUnit = dt.elementsPerUnit();
    if (Long.remainderUnsigned(elements, perUnit) != 0) {
      throw rejectAt(
          tensorPath(d.name()) + ".shape",
          d.shapeAt,
          "the tensor declares "
              + Long.toUnsignedString(elements)
              + " "
              + dt.name()
              + " elements of "
              + dt.bits()
              + " bits, which is not a whole number of bytes (shape "
              + shapeText(d.shape())
              + ")");
    }
    long units = Long.divideUnsigned(elements, perUnit);
    int unitBytes = dt.bytesPerUnit();
    if (Long.compareUnsigned(units, Long.MAX_VALUE / unitBytes) > 0) {
      throw rejectAt(
          tensorPath(d.name()) + ".shape",
          d.shapeAt,
          "the tensor declares "
              + Long.toUnsignedString(elements)
              + " "
              + dt.name()
              + " elements (shape "
              + shapeText(d.shape())
              + "), more than 2^63-1 bytes: no file can hold them");
    }
    long bytes = units * unitBytes;
    long range = d.byteLength();
    if (bytes != range) {
      throw rejectAt(
          tensorPath(d.name()) + ".data_offsets",
          d.offsetsAt,
          "the tensor is "
              + dt.name()
              + " with shape "
              + shapeText(d.shape())
              + ", which needs "
              + bytes
              + " bytes, but data_offsets ["
              + d.begin()
              + ", "
              + d.end()
              + "] spans "
              + range
              + " bytes");
    }
  }

  /**
   * Duplicate tensor names, compared as decoded strings: equal names are adjacent in name order
   * (a stable sort keeps them in declaration order). The earliest repeated declaration in the
   * document is reported, at its name.
   */
  static void checkDuplicates(SafetensorsTensor[] byName) throws ReaException {
    SafetensorsTensor first = null;
    for (int i = 1; i < byName.length; i++) {
      if (byName[i].name().equals(byName[i - 1].name())
          && (first == null || byName[i].index() < first.index())) {
        first = byName[i];
      }
    }
    if (first != null) {
      String at = tensorPath(first.name());
      throw ReaException.rejected(
          at,
          first.nameAt,
          at
              + " at offset "
              + first.nameAt
              + " is declared twice (keys are compared after unescaping; safetensors keys must"
              + " be unique)");
    }
  }

  /**
   * Sorted by (begin, end): contiguous from 0, no gap or overlap, last end equal to the bytes
   * after the header.
   *
   * @param decls the entries in document order
   * @param jsonLength the header's JSON length {@code N}
   * @param fileSize the file size
   * @param order the name order (ties between equal ranges)
   */
  static void checkRanges(
      List<SafetensorsTensor> decls, long jsonLength, long fileSize, Comparator<String> order)
      throws ReaException {
    long dataStart = PREFIX + jsonLength;
    long available = fileSize - dataStart;
    SafetensorsTensor[] sorted = decls.toArray(new SafetensorsTensor[0]);
    Arrays.sort(
        sorted,
        (a, b) -> {
          int c = Long.compare(a.begin(), b.begin());
          if (c == 0) {
            c = Long.compare(a.end(), b.end());
          }
          return c != 0 ? c : order.compare(a.name(), b.name());
        });
    long start = 0;
    SafetensorsTensor prev = null;
    for (SafetensorsTensor d : sorted) {
      if (d.begin() != start) {
        throw rejectAt(tensorPath(d.name()) + ".data_offsets", d.offsetsAt, notAt(d, prev, start));
      }
      if (d.end() > available) {
        throw rejectAt(
            tensorPath(d.name()) + ".data_offsets",
            d.offsetsAt,
            "the range ends at byte "
                + d.end()
                + " of the byte buffer, but the file holds only "
                + available
                + " bytes after the header (truncated data)");
      }
      start = d.end();
      prev = d;
    }
    if (start != available) {
      throw ReaException.builder(
              Constraint.FILE_FORMAT_REJECTED,
              "byte_buffer at offset "
                  + (dataStart + start)
                  + ": the file has "
                  + (available - start)
                  + " bytes after the end of the last tensor range that no tensor indexes (the"
                  + " byte buffer must be entirely indexed)")
          .field("byte_buffer")
          .offset(dataStart + start)
          .diagnostic("indexed_bytes", Long.toString(start))
          .diagnostic("buffer_bytes", Long.toString(available))
          .build();
    }
  }

  /** Why range {@code d} does not start at {@code start}, where the ranges before it ended. */
  private static String notAt(SafetensorsTensor d, @Nullable SafetensorsTensor prev, long start) {
    if (prev == null) {
      // Nothing before it: d starts after 0 (ranges are not negative).
      return "the first range of the byte buffer starts at "
          + d.begin()
          + ", not 0: bytes [0, "
          + d.begin()
          + ") are not covered by any tensor";
    }
    if (d.begin() > start) {
      return "bytes ["
          + start
          + ", "
          + d.begin()
          + ") of the byte buffer are not covered by any tensor (gap after tensors["
          + quote(prev.name())
          + "])";
    }
    return "range ["
        + d.begin()
        + ", "
        + d.end()
        + ") overlaps tensors["
        + quote(prev.name())
        + "] ["
        + prev.begin()
        + ", "
        + prev.end()
        + ")";
  }

  private static String shapeText(long[] shape) {
    StringBuilder sb = new StringBuilder("[");
    int shown = Math.min(shape.length, SHOWN_DIMS);
    for (int i = 0; i < shown; i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(Long.toUnsignedString(shape[i]));
    }
    if (shape.length > shown) {
      sb.append(", ... (").append(shape.length).append(" dimensions)");
    }
    return sb.append(']').toString();
  }
}
