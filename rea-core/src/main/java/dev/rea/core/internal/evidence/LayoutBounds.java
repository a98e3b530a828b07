package dev.rea.core.internal.evidence;

import dev.rea.core.evidence.Warning;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the released layouts of a type whose layout is not established (GGUF: Q8_1, the K types,
 * ambiguous IDs) still prove about a file: every one of them that can hold a tensor's shape needs
 * at least {@link #boundOf} bytes for it. When even that many bytes do not fit before the
 * end of the file, or would run into the next tensor, no released layout can hold the declaration.
 *
 * <p>CONTRACT section 8 rejects only what the declarations prove without a layout (a nonempty
 * tensor of unknown length must start before the end of the file; known ranges must not
 * overlap), and the specification says file size and the next tensor's offset do not establish
 * a layout. So these findings do not change the verdict: they are reported as warnings ({@value
 * #TRUNCATED}, {@value #OVERLAP}), which a careful reader of a download needs to see (a file cut
 * short in its K-quantized data would otherwise look fine).
 */
public final class LayoutBounds {
  /** Warning: tensors that cannot fit before the end of the file under any released layout. */
  public static final String TRUNCATED = "short_under_every_layout";

  /** Warning: tensors that run into a later tensor under every released layout. */
  public static final String OVERLAP = "overlap_under_every_layout";

  /** Tensors named in one warning message before the rest are only counted. */
  private static final int NAMED = 8;

  private LayoutBounds() {}

  /** @return true when some nonempty tensor has no known length but a lower bound on it */
  private static boolean anyBound(List<? extends DeclaredTensor> decls) {
    for (DeclaredTensor d : decls) {
      if (d.elements() != 0
          && d.byteLength() == DeclaredTensor.UNKNOWN_LENGTH
          && d.type().minByteLength(d.elements()) != DeclaredTensor.UNKNOWN_LENGTH) {
        return true;
      }
    }
    return false;
  }

  /**
   * Adds the warnings for {@code decls} (ranges already checked by the reader's rules).
   *
   * @param room bytes from the start of the data section to the end of the file
   * @param dataOffset absolute offset of the data section
   */
  public static void warnings(
      List<? extends DeclaredTensor> decls, long room, long dataOffset, List<Warning> out) {
    if (!anyBound(decls)) {
      return; // every length is known (the reader has checked those ranges) or wholly unknown
    }
    List<String> shortOnes = new ArrayList<>();
    int shortCount = 0;
    int n = 0;
    DeclaredTensor[] nonempty = new DeclaredTensor[decls.size()];
    long[] proven = new long[decls.size()];
    for (DeclaredTensor d : decls) {
      if (d.elements() == 0) {
        continue;
      }
      long length = d.byteLength();
      boolean bound = false;
      if (length == DeclaredTensor.UNKNOWN_LENGTH) {
        length = boundOf(d);
        bound = true;
      }
      if (length == DeclaredTensor.UNKNOWN_LENGTH) {
        continue; // unknown IDs: nothing is known about their storage
      }
      if (bound
          && (length == DeclaredTensor.LENGTH_OVERFLOW || Long.compareUnsigned(length, room - d.offset()) > 0)) {
        shortCount++;
        if (shortOnes.size() < NAMED) {
          shortOnes.add(
              shortEntry(
                  d.index(),
                  d.type().label(),
                  dataOffset + d.offset(),
                  length == DeclaredTensor.LENGTH_OVERFLOW ? "2^63" : Long.toString(length),
                  room - d.offset()));
        }
        length = room - d.offset(); // only for the overlap sweep below
      }
      proven[n] = length;
      nonempty[n++] = d;
    }
    if (shortCount > 0) {
      out.add(truncatedWarning(shortCount, shortOnes));
    }
    overlapWarning(nonempty, proven, n, dataOffset, out);
  }

  /**
   * The least bytes a nonempty tensor of unknown length needs: the shortest of its type's
   * candidate layouts under which its first dimension is a whole number of blocks (a row of 64
   * Q4_K elements can only be K64's: ggml stores whole blocks per row), or, when no candidate
   * holds its shape, the type's bound ({@link TensorType#minByteLength}). Matches what {@link
   * CandidateFit} calls fitting: a tensor no candidate fits is short or overlaps under every one.
   *
   * @return bytes; {@link DeclaredTensor#UNKNOWN_LENGTH} when nothing is known; {@link
   *     DeclaredTensor#LENGTH_OVERFLOW} when every applicable layout needs more than 2^63-1
   */
  static long boundOf(DeclaredTensor d) {
    TensorType type = d.type();
    long best = DeclaredTensor.UNKNOWN_LENGTH;
    for (int k = 0; k < type.layoutNames().size(); k++) {
      long length = type.lengthUnder(k, d.shape(), d.elements());
      if (length == DeclaredTensor.UNKNOWN_LENGTH) {
        continue; // the row is not whole blocks of this layout
      }
      if (best == DeclaredTensor.UNKNOWN_LENGTH
          || best == DeclaredTensor.LENGTH_OVERFLOW
          || (length != DeclaredTensor.LENGTH_OVERFLOW && Long.compareUnsigned(length, best) < 0)) {
        best = length;
      }
    }
    return best == DeclaredTensor.UNKNOWN_LENGTH ? type.minByteLength(d.elements()) : best;
  }

  /** One named tensor of the {@value #TRUNCATED} warning. */
  private static String shortEntry(
      int index, String label, long fileOffset, String needs, long remain) {
    return "tensor["
        + index
        + "] "
        + label
        + " at file offset "
        + Long.toUnsignedString(fileOffset)
        + " needs at least "
        + needs
        + " bytes, "
        + remain
        + " remain";
  }

  private static Warning truncatedWarning(int count, List<String> named) {
    return new Warning(
        TRUNCATED,
        count
            + (count == 1 ? " tensor" : " tensors")
            + " of a type whose layout is not established cannot end within the file under"
            + " any released layout of its type (the file may be truncated): "
            + listed(count, named));
  }

  /** The named entries of a warning, then how many of its {@code count} were left unnamed. */
  private static String listed(int count, List<String> named) {
    return String.join("; ", named)
        + (count > named.size() ? "; and " + (count - named.size()) + " more" : "");
  }

  /**
   * One named tensor of the {@value #OVERLAP} warning, at file offsets (as the truncation
   * warning and the readable tensor table give them), not the directory's data-relative ones.
   */
  private static String overlapEntry(
      int index, long fileOffset, long proven, int furthestIndex, String furthestLabel,
      long furthestFileOffset) {
    return "tensor["
        + index
        + "] starts at file offset "
        + Long.toUnsignedString(fileOffset)
        + ", inside the "
        + proven
        + " bytes tensor["
        + furthestIndex
        + "] ("
        + furthestLabel
        + ") takes at least from file offset "
        + Long.toUnsignedString(furthestFileOffset);
  }

  private static Warning overlapWarningOf(int count, List<String> named) {
    return new Warning(
        OVERLAP,
        count
            + (count == 1 ? " tensor starts" : " tensors start")
            + " inside the storage a tensor of unestablished layout needs under every"
            + " released layout of its type: "
            + listed(count, named));
  }

  /** Widest type label: {@code AMBIGUOUS_} and ten digits (ggml names are shorter). */
  private static final String WIDEST_LABEL = "AMBIGUOUS_4294967295";

  /**
   * @return the most bytes both warnings can take in the Evidence JSON, separating commas
   *     included: each at its widest count with {@value #NAMED} named tensors of the widest
   *     index, label and numbers (the retained budget charges this once per file that can have
   *     them)
   */
  public static long widestWarningsBytes() {
    List<String> shortOnes = new ArrayList<>();
    List<String> overlaps = new ArrayList<>();
    for (int k = 0; k < NAMED; k++) {
      shortOnes.add(
          shortEntry(Integer.MAX_VALUE, WIDEST_LABEL, -1L, Long.toString(Long.MIN_VALUE),
              Long.MIN_VALUE));
      overlaps.add(
          overlapEntry(Integer.MAX_VALUE, -1L, Long.MIN_VALUE, Integer.MAX_VALUE, WIDEST_LABEL,
              -1L));
    }
    return RecordSize.warningBytes(truncatedWarning(Integer.MAX_VALUE, shortOnes))
        + RecordSize.warningBytes(overlapWarningOf(Integer.MAX_VALUE, overlaps))
        + 2 * RecordSize.SEPARATOR;
  }

  /**
   * Sweeps nonempty tensors by offset with their proven lengths (known, or the smallest released
   * layout's); overlaps involving only known lengths were rejected already, so what is found here
   * involves a bound.
   */
  private static void overlapWarning(
      DeclaredTensor[] d, long[] proven, int n, long dataOffset, List<Warning> out) {
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Long.compareUnsigned(d[a].offset(), d[b].offset()));
    List<String> named = new ArrayList<>();
    int count = 0;
    long furthestEnd = 0;
    int furthest = -1;
    for (int k = 0; k < n; k++) {
      int i = order[k];
      if (furthest >= 0 && Long.compareUnsigned(d[i].offset(), furthestEnd) < 0) {
        count++;
        if (named.size() < NAMED) {
          named.add(
              overlapEntry(
                  d[i].index(),
                  dataOffset + d[i].offset(),
                  proven[furthest],
                  d[furthest].index(),
                  d[furthest].type().label(),
                  dataOffset + d[furthest].offset()));
        }
      }
      long end = d[i].offset() + proven[i];
      if (furthest < 0 || Long.compareUnsigned(end, furthestEnd) > 0) {
        furthestEnd = end;
        furthest = i;
      }
    }
    if (count > 0) {
      out.add(overlapWarningOf(count, named));
    }
  }
}
