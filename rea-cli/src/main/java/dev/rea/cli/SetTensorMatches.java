package dev.rea.cli;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.view.Glob;
import java.util.ArrayList;
import java.util.List;

/**
 * The tensors of a model set whose name matches {@code inspect-model-set --tensors GLOB}, taken
 * from each member's record as it is checked (members are not kept): the first {@code limit}
 * rows as the readable report prints them, and how many matched in all. Memory is that of the
 * rows kept, whatever the set's size.
 */
final class SetTensorMatches {
  private final Glob pattern;
  private final int limit;
  private final List<String[]> rows = new ArrayList<>();
  private long matched;

  /**
   * @param pattern the pattern the whole name must match
   * @param limit rows kept for printing (0 or more)
   */
  SetTensorMatches(Glob pattern, int limit) {
    this.pattern = pattern;
    this.limit = limit;
  }

  /**
   * Counts member {@code member}'s matching tensors and keeps rows while fewer than the limit
   * are kept: member index, tensor index in the member, name (whole: the report fits it to the
   * screen), type, shape, byte length ({@code unknown} when not known).
   */
  void add(int member, EvidenceRecord record) {
    for (TensorRow t : record.tensors()) {
      if (!pattern.matches(t.name())) {
        continue;
      }
      matched++;
      if (rows.size() < limit) {
        rows.add(
            new String[] {
              Integer.toString(member),
              Integer.toString(t.index()),
              TerminalText.printable(t.name()),
              TerminalText.printable(t.type()),
              HumanReport.shape(t.shape()),
              t.byteLength() == null ? "unknown" : Sizes.grouped(t.byteLength())
            });
      }
    }
  }

  /** @return the pattern, as given */
  String pattern() {
    return pattern.pattern();
  }

  /** @return the rows kept, in member order and each member's tensor order */
  List<String[]> rows() {
    return rows;
  }

  /** @return how many tensors matched in all the members added */
  long matched() {
    return matched;
  }
}
