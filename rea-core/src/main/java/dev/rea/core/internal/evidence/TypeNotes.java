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

  /** Types whose type row, limitation or warning was sized; whether the layout warnings were. */
  private final Set<TensorType> typeRows = new HashSet<>();
  private final Set<TensorType> limitations = new HashSet<>();
  private final Set<TensorType> warnings = new HashSet<>();
  private boolean layoutWarnings;
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
    if (note == TensorType.Note.LIMITATION) {
      if (limitations.add(type)) {
        bytes +=
            RecordSize.limitationBytes(type.limitation(Integer.MAX_VALUE, List.of()))
                + RecordSize.SEPARATOR;
      }
      bytes += RecordSize.indexBytes(rowIndex);
    } else if (note == TensorType.Note.WARNING && warnings.add(type)) {
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

  /** @return the label's length as a JSON string, quotes included */
  static long quotedLabel(TensorType type) {
    return JsonText.quotedLength(type.label());
  }

  /**
   * Writes the notes of tensors in row order: per type in {@link TensorType#ORDER}, its
   * limitation listing the row indices of its tensors, or its warning naming them.
   */
  static void notes(
      List<? extends DeclaredTensor> rows, List<Limitation> limitationsOut, List<Warning> out) {
    Map<TensorType, List<Integer>> limited = new TreeMap<>(TensorType.ORDER);
    Map<TensorType, List<Integer>> warned = new TreeMap<>(TensorType.ORDER);
    for (int i = 0; i < rows.size(); i++) {
      DeclaredTensor d = rows.get(i);
      TensorType.Note note = d.type().note(d.elements());
      if (note == TensorType.Note.LIMITATION) {
        limited.computeIfAbsent(d.type(), k -> new ArrayList<>()).add(i);
      } else if (note == TensorType.Note.WARNING) {
        warned.computeIfAbsent(d.type(), k -> new ArrayList<>()).add(i);
      }
    }
    for (Map.Entry<TensorType, List<Integer>> e : limited.entrySet()) {
      limitationsOut.add(e.getKey().limitation(e.getValue().size(), e.getValue()));
    }
    for (Map.Entry<TensorType, List<Integer>> e : warned.entrySet()) {
      out.add(e.getKey().warning(e.getValue()));
    }
  }
}
