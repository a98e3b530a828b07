package dev.rea.core.internal.evidence;

import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.io.JsonText;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The parts of a record that tensors bring through their types: one type row per type, one note
 * per type that carries one (a limitation listing its tensors, or a warning naming them) and the
 * layout warnings of {@link LayoutBounds}. {@link #sharesOf} sizes them, at their widest, as each
 * tensor is declared, so that the retained budget is charged before anything is built; {@link
 * #notes} writes them once the rows are numbered. One instance per read; not thread-safe.
 */
public final class TypeNotes {
  /** A list as wide as a warning can name: 2^31-1 entries of the widest index (for sizing). */
  public static final List<Integer> WIDEST_INDICES =
      new AbstractList<>() {
        @Override
        public Integer get(int i) {
          return Integer.MAX_VALUE;
        }

        @Override
        public int size() {
          return Integer.MAX_VALUE;
        }
      };

  /** Limitation code listing the tensors whose length rests on the request's layout assumption. */
  public static final String LAYOUT_ASSUMED = "layout_assumed";

  /** Types whose type row, limitation or warning was sized; whether the layout warnings were. */
  private final Set<TensorType> typeRows = new HashSet<>();
  private final Set<TensorType> limitations = new HashSet<>();
  private final Set<TensorType> warnings = new HashSet<>();
  private boolean layoutWarnings;
  private boolean assumedSized;
  private @Nullable TensorType lastType;

  /**
   * The bytes the record grows by because tensor {@code d} was declared, beyond its own row: its
   * type row (first tensor of the type, at its widest sums), its type's limitation (first tensor
   * of the type that carries one, at its widest count) and its entry in that limitation's {@code
   * tensor_indices}, its type's warning (first tensor of the type, naming the widest list), and
   * both layout warnings at their widest (first nonempty tensor whose length is not established
   * but bounded). Each separating comma counted.
   *
   * @param rowIndex the index its row will have, or the widest ({@link Integer#MAX_VALUE}) when
   *     rows are numbered later
   */
  long sharesOf(DeclaredTensor d, int rowIndex) {
    TensorType type = d.type();
    long bytes = 0;
    // Tensors of one file mostly share a type: the last one is checked before the set.
    if (!type.equals(lastType) && typeRows.add(type)) {
      bytes += RecordSize.typeRowBytes(quotedLabel(type), type.typeId()) + RecordSize.SEPARATOR;
    }
    lastType = type;
    TensorType.Note note = type.note(d.elements());
    if (note.limits()) {
      if (limitations.add(type)) {
        bytes +=
            RecordSize.limitationBytes(
                    type.limitation(Integer.MAX_VALUE, List.of(), widestFitting(type)))
                + RecordSize.SEPARATOR;
      }
      bytes += RecordSize.indexBytes(rowIndex);
    }
    String assumed = type.assumedLayout(d.elements());
    if (assumed != null) {
      if (!assumedSized) {
        assumedSized = true;
        bytes +=
            RecordSize.limitationBytes(assumedLimitation(assumed, Integer.MAX_VALUE, List.of()))
                + RecordSize.SEPARATOR;
      }
      bytes += RecordSize.indexBytes(rowIndex);
    }
    if (note.warns() && warnings.add(type)) {
      bytes += RecordSize.warningBytes(type.warning(WIDEST_INDICES)) + RecordSize.SEPARATOR;
    }
    if (!layoutWarnings
        && d.elements() != 0
        && d.byteLength() == DeclaredTensor.UNKNOWN_LENGTH
        && type.minByteLength(d.elements()) != DeclaredTensor.UNKNOWN_LENGTH) {
      layoutWarnings = true;
      bytes += LayoutBounds.widestWarningsBytes();
    }
    return bytes;
  }

  /** @return every layout name (the widest {@code candidates_fitting_ranges}), or null */
  private static @Nullable List<String> widestFitting(TensorType type) {
    List<String> names = type.layoutNames();
    return names.isEmpty() ? null : names;
  }

  /**
   * The {@value #LAYOUT_ASSUMED} limitation (CONTRACT section 12): the tensors whose byte length,
   * storage validation or type name rests on the layout the request assumed, not on the header.
   *
   * @param assumption the assumption's wire name ({@code ggml-modern})
   * @param count how many tensors it lists ({@link Integer#MAX_VALUE} to size it at its widest)
   * @param indices their row indices
   */
  static Limitation assumedLimitation(String assumption, int count, List<Integer> indices) {
    return new Limitation(
        LAYOUT_ASSUMED,
        "the byte lengths and storage validation of "
            + (count == 1 ? "1 tensor" : count + " tensors")
            + " (and the type names of IDs 16-25) rest on the layout the request assumed"
            + " (request.assume_layout \""
            + assumption
            + "\": Q8_1 36 bytes per 32 elements, K types in 256-element blocks, IDs 16-25"
            + " their modern names), not on the header, which does not establish them",
        indices,
        null,
        null);
  }

  /** @return the label's length as a JSON string, quotes included */
  static long quotedLabel(TensorType type) {
    return JsonText.quotedLength(type.label());
  }

  /**
   * Writes the notes of tensors in row order: per type in {@link TensorType#ORDER}, its
   * limitation listing the row indices of its tensors, or its warning naming them (or both).
   *
   * @param fit the candidate layouts' fit to the ranges, or null when the ranges are not known
   *     (a header read in part): limitations then carry no {@code candidates_fitting_ranges}
   */
  static void notes(
      List<? extends DeclaredTensor> rows,
      @Nullable CandidateFit fit,
      List<Limitation> limitationsOut,
      List<Warning> out) {
    Map<TensorType, List<Integer>> limited = new TreeMap<>(TensorType.ORDER);
    Map<TensorType, List<Integer>> warned = new TreeMap<>(TensorType.ORDER);
    // Every tensor of a type with candidate layouts, empty ones too: a candidate must hold each
    // one's rows in whole blocks (CONTRACT section 8), though only nonempty K tensors are listed.
    Map<TensorType, List<Integer>> ofType = new TreeMap<>(TensorType.ORDER);
    List<Integer> assumed = new ArrayList<>();
    String assumption = null;
    for (int i = 0; i < rows.size(); i++) {
      DeclaredTensor d = rows.get(i);
      String a = d.type().assumedLayout(d.elements());
      if (a != null) {
        assumed.add(i);
        assumption = a;
      }
      if (!d.type().layoutNames().isEmpty()) {
        ofType.computeIfAbsent(d.type(), k -> new ArrayList<>()).add(i);
      }
      TensorType.Note note = d.type().note(d.elements());
      if (note.limits()) {
        limited.computeIfAbsent(d.type(), k -> new ArrayList<>()).add(i);
      }
      if (note.warns()) {
        warned.computeIfAbsent(d.type(), k -> new ArrayList<>()).add(i);
      }
    }
    for (Map.Entry<TensorType, List<Integer>> e : limited.entrySet()) {
      TensorType type = e.getKey();
      List<String> fitting =
          fit != null && !type.layoutNames().isEmpty()
              // Every row of a type with layouts is in ofType: all of its rows, limited or not.
              ? fit.fitting(type, java.util.Objects.requireNonNull(ofType.get(type), "ofType"))
              : null;
      limitationsOut.add(type.limitation(e.getValue().size(), e.getValue(), fitting));
    }
    if (assumption != null) {
      limitationsOut.add(assumedLimitation(assumption, assumed.size(), assumed));
    }
    for (Map.Entry<TensorType, List<Integer>> e : warned.entrySet()) {
      out.add(e.getKey().warning(e.getValue()));
    }
  }
}
