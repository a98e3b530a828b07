package dev.rea.core.internal.evidence;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Which candidate layouts of a type whose layout is not established fit the declared ranges
 * (CONTRACT section 12, {@code candidates_fitting_ranges}): a candidate fits when, with every
 * nonempty tensor of the type stored under it, none of those tensors runs past the start of the
 * next nonempty tensor (in offset order) or past the end of the file, and each one's first
 * dimension is a whole number of the candidate's blocks. It is a fact about the declarations:
 * several candidates can fit (then the header does not tell them apart), and the one that fits
 * need not be the one the writer used.
 *
 * <p>Only where each range ends matters, so the check does not depend on the lengths of the other
 * tensors. Offsets here were checked by the reader (a nonempty tensor of unknown length starts
 * before the end of the file; no two nonempty tensors share an offset). O(n log n) to build, then
 * O(tensors of the type) per candidate.
 */
final class CandidateFit {
  private final List<? extends DeclaredTensor> rows;

  /** Per row: where the next nonempty tensor starts, or the room when none follows. */
  private final long[] limit;

  /**
   * @param rows the tensor entries in the record's order
   * @param room bytes from the start of the data section to the end of the file
   */
  CandidateFit(List<? extends DeclaredTensor> rows, long room) {
    this.rows = rows;
    this.limit = new long[rows.size()];
    Integer[] order = new Integer[rows.size()];
    int n = 0;
    for (int i = 0; i < rows.size(); i++) {
      if (rows.get(i).elements() != 0) {
        order[n++] = i;
      }
    }
    Arrays.sort(order, 0, n, (a, b) -> Long.compareUnsigned(rows.get(a).offset(), rows.get(b).offset()));
    for (int k = 0; k < n; k++) {
      limit[order[k]] = k + 1 < n ? rows.get(order[k + 1]).offset() : room;
    }
  }

  /**
   * @param type a type with {@link TensorType#layoutNames}
   * @param indices the rows of its tensors
   * @return the names of the layouts under which all of them fit, in {@link
   *     TensorType#layoutNames} order
   */
  List<String> fitting(TensorType type, List<Integer> indices) {
    List<String> names = type.layoutNames();
    List<String> out = new ArrayList<>(names.size());
    for (int k = 0; k < names.size(); k++) {
      if (fits(type, k, indices)) {
        out.add(names.get(k));
      }
    }
    return out;
  }

  private boolean fits(TensorType type, int layout, List<Integer> indices) {
    for (int i : indices) {
      DeclaredTensor d = rows.get(i);
      // An empty tensor takes no bytes, but its rows must still be whole blocks of the layout
      // (CONTRACT section 8: the row rule holds even when another dimension is zero).
      long length = type.lengthUnder(layout, d.shape(), d.elements());
      if (length == DeclaredTensor.UNKNOWN_LENGTH || length == DeclaredTensor.LENGTH_OVERFLOW) {
        return false;
      }
      long room = limit[i] - d.offset();
      if (Long.compareUnsigned(d.offset(), limit[i]) > 0 || Long.compareUnsigned(length, room) > 0) {
        return false;
      }
    }
    return true;
  }
}
