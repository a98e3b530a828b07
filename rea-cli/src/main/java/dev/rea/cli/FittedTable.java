package dev.rea.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A table laid out to a terminal's width ({@link Screen}) instead of being wrapped by it. Each
 * column says whether its cells may be shortened (text: names, keys, values, cut with "...",
 * never in the middle of a number) or not (numbers, shapes, type labels, states), the width a
 * shortened column should keep ({@code preferred}) and must keep ({@code least}), and when it may
 * be dropped. To fit, expendable columns (drop order {@value #EXPENDABLE} and up) go, the most
 * expendable first, until the table fits with text columns at their preferred width; when that
 * is not enough, text columns give up width down to their least, with as few drops of any
 * droppable column as then fit (orders below {@value #EXPENDABLE} go only then). Width left over
 * goes back to the text columns. The caller says which columns were dropped ({@link #droppedNote}). On an
 * unlimited screen the table is {@link TextTable#print}'s.
 *
 * <p>A table with a {@linkplain Column#name name column} (tensor names, member files) fits
 * differently, since a row whose name is cut like its neighbours' is of no use (a trial at 80
 * columns saw twelve rows all reading {@code model.layers.3.mlp.experts....}): every droppable
 * column goes, most expendable first, before a name is cut at all, and a name is then cut in the
 * middle so that it stays told apart from the others ({@link NameCuts}).
 */
final class FittedTable {
  /**
   * One column.
   *
   * @param title its heading (on an unlimited screen, and when no fitted title is given)
   * @param fittedTitle its heading on a limited screen (may be shorter), or null for {@code
   *     title}
   * @param shortenable whether cells may be cut
   * @param least the width a shortened column keeps at the least (the title is never cut)
   * @param preferred the width other columns are dropped to leave it, at most
   * @param dropOrder 0 when never dropped; else columns with higher values are dropped first
   * @param name whether the cells are names that tell rows apart: cut only once every droppable
   *     column is gone, and then in the middle ({@link NameCuts})
   */
  record Column(
      String title,
      @Nullable String fittedTitle,
      boolean shortenable,
      int least,
      int preferred,
      int dropOrder,
      boolean name) {
    /** @return a column that is never cut nor dropped */
    static Column fixed(String title) {
      return new Column(title, null, false, 0, 0, 0, false);
    }

    /** @return a column that may be cut down to {@code least}, never dropped */
    static Column text(String title, int least, int preferred) {
      return new Column(title, null, true, least, preferred, 0, false);
    }

    /** @return a name column, cut down to {@code least} only when nothing else can go */
    static Column name(String title, int least) {
      return new Column(title, null, true, least, Integer.MAX_VALUE, 0, true);
    }

    /** @return a column that is never cut, dropped in {@code dropOrder} (higher first) */
    static Column droppable(String title, int dropOrder) {
      return new Column(title, null, false, 0, 0, dropOrder, false);
    }

    String heading(boolean limited) {
      return limited && fittedTitle != null ? fittedTitle : title;
    }
  }

  /** Drop orders from this one up may go to leave text columns their preferred width. */
  static final int EXPENDABLE = 3;

  private FittedTable() {}

  /**
   * What fitting did.
   *
   * @param dropped titles of the columns dropped, in table order
   * @param cut whether any cell was shortened
   */
  record Fit(List<String> dropped, boolean cut) {}

  /**
   * Prints the table.
   *
   * @param out where to print
   * @param screen the width to fit
   * @param columns the columns
   * @param rows cells, as many per row as columns
   * @param withHeader whether to print the headings
   * @return the columns dropped and whether a cell was cut (nothing, when unlimited)
   */
  static Fit print(
      PrintWriter out, Screen screen, List<Column> columns, List<String[]> rows, boolean withHeader) {
    if (!screen.limited()) {
      List<String> header = new ArrayList<>();
      if (withHeader) {
        for (Column c : columns) {
          header.add(c.title());
        }
      }
      TextTable.print(out, header, rows);
      return new Fit(List.of(), false);
    }
    int n = columns.size();
    int[] natural = new int[n];
    int[] least = new int[n];
    int[] preferred = new int[n];
    for (int c = 0; c < n; c++) {
      int title = withHeader ? TextTable.columns(columns.get(c).heading(true)) : 0;
      natural[c] = title;
      for (String[] r : rows) {
        natural[c] = Math.max(natural[c], TextTable.columns(r[c]));
      }
      Column col = columns.get(c);
      least[c] = col.shortenable() ? Math.min(natural[c], Math.max(col.least(), title)) : natural[c];
      preferred[c] =
          col.shortenable() ? Math.min(natural[c], Math.max(col.preferred(), title)) : natural[c];
    }
    boolean names = columns.stream().anyMatch(Column::name);
    int[] start = preferred;
    boolean[] kept = keptColumns(columns, preferred, screen.columns(), names ? 1 : EXPENDABLE);
    if (lineWidth(kept, preferred) > screen.columns()) {
      start = least;
      // With names, every droppable column is already gone.
      kept = names ? kept : keptColumns(columns, least, screen.columns(), 1);
    }
    int[] width = widths(kept, natural, start, columns, screen.columns());
    // A name column's cells are cut together (each against the others), by column.
    java.util.Map<Integer, String[]> cutNames = new java.util.HashMap<>();
    for (int c = 0; c < n; c++) {
      if (kept[c] && columns.get(c).name()) {
        String[] cells = new String[rows.size()];
        for (int i = 0; i < cells.length; i++) {
          cells[i] = rows.get(i)[c];
        }
        cutNames.put(c, NameCuts.cut(cells, width[c]));
      }
    }
    List<String> headings = new ArrayList<>();
    List<String[]> cells = new ArrayList<>();
    boolean anyCut = false;
    for (int c = 0; c < n; c++) {
      if (kept[c]) {
        headings.add(columns.get(c).heading(true));
      }
    }
    for (int i = 0; i < rows.size(); i++) {
      String[] r = rows.get(i);
      String[] out2 = new String[headings.size()];
      int k = 0;
      for (int c = 0; c < n; c++) {
        if (kept[c]) {
          Column col = columns.get(c);
          String[] named = cutNames.get(c);
          out2[k] = named != null ? named[i] : col.shortenable() ? cut(r[c], width[c]) : r[c];
          anyCut |= !out2[k].equals(r[c]);
          k++;
        }
      }
      cells.add(out2);
    }
    TextTable.print(out, withHeader ? headings : List.of(), cells, screen.columns());
    List<String> dropped = new ArrayList<>();
    for (int c = 0; c < n; c++) {
      if (!kept[c]) {
        dropped.add(columns.get(c).heading(true));
      }
    }
    return new Fit(dropped, anyCut);
  }

  /**
   * @param leastOrder the lowest drop order that may go
   * @return which columns stay: the fewest drops, most expendable first, that fit the width
   */
  private static boolean[] keptColumns(
      List<Column> columns, int[] widths, int width, int leastOrder) {
    int n = columns.size();
    boolean[] kept = new boolean[n];
    java.util.Arrays.fill(kept, true);
    List<Integer> order = new ArrayList<>();
    for (int c = 0; c < n; c++) {
      if (columns.get(c).dropOrder() >= leastOrder) {
        order.add(c);
      }
    }
    // Higher dropOrder first; among equals, the rightmost first.
    order.sort((a, b) -> {
      int d = Integer.compare(columns.get(b).dropOrder(), columns.get(a).dropOrder());
      return d != 0 ? d : Integer.compare(b, a);
    });
    for (int next = 0; lineWidth(kept, widths) > width && next < order.size(); next++) {
      kept[order.get(next)] = false;
    }
    return kept;
  }

  /** @return the widths of the kept columns: {@code start}, plus what is left to text columns */
  private static int[] widths(
      boolean[] kept, int[] natural, int[] start, List<Column> columns, int width) {
    int[] w = start.clone();
    int spare = width - lineWidth(kept, start);
    for (int c = 0; c < w.length && spare > 0; c++) {
      if (kept[c] && columns.get(c).shortenable()) {
        int more = Math.min(spare, natural[c] - start[c]);
        w[c] += more;
        spare -= more;
      }
    }
    return w;
  }

  /** @return the width of a line with the kept columns at the given widths (indent included) */
  private static int lineWidth(boolean[] kept, int[] width) {
    int total = 2;
    int count = 0;
    for (int c = 0; c < width.length; c++) {
      if (kept[c]) {
        total += width[c];
        count++;
      }
    }
    return total + 2 * Math.max(0, count - 1);
  }

  /**
   * @return {@code text} when it fits {@code max} columns, else its beginning and "..." cut
   *     where no number is split: a cut that would fall inside a run of digits (with the commas
   *     and points between them, {@code 32,000} or {@code 1.5}) moves before the run
   */
  static String cut(String text, int max) {
    String cut = TextTable.cut(text, max);
    if (cut.equals(text) || !cut.endsWith("...")) {
      return cut;
    }
    int end = cut.length() - 3;
    while (end > 0 && partOfNumber(text, end - 1) && partOfNumber(text, end)) {
      end--;
    }
    return text.substring(0, end) + "...";
  }

  /**
   * @return whether the char at {@code i} is a digit, a point between digits, or a comma grouping
   *     thousands (a digit before it, exactly three after it: {@code 32,000}, not the separator
   *     of {@code 0.0,0.0})
   */
  private static boolean partOfNumber(String s, int i) {
    if (i < 0 || i >= s.length()) {
      return false;
    }
    char c = s.charAt(i);
    if (isDigit(s, i)) {
      return true;
    }
    if (i == 0 || !isDigit(s, i - 1)) {
      return false;
    }
    if (c == '.') {
      return isDigit(s, i + 1);
    }
    return c == ','
        && isDigit(s, i + 1)
        && isDigit(s, i + 2)
        && isDigit(s, i + 3)
        && !isDigit(s, i + 4);
  }

  private static boolean isDigit(String s, int i) {
    return i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9';
  }

  /** Prints {@link #droppedNote} for what {@code fit} dropped, when it dropped any. */
  static void printDroppedNote(PrintWriter out, Fit fit, Screen screen) {
    String note = droppedNote(fit.dropped(), screen);
    if (note != null) {
      screen.println(out, note, 3);
    }
  }

  /**
   * @param dropped titles of the dropped columns
   * @param screen the screen fitted
   * @return a note saying which columns were dropped and how to see them, or null when none
   */
  static @Nullable String droppedNote(List<String> dropped, Screen screen) {
    if (dropped.isEmpty()) {
      return null;
    }
    return "  ("
        + String.join(", ", dropped)
        + (dropped.size() == 1 ? " is" : " are")
        + " not shown, to fit "
        + screen.columns()
        + " columns: --wide shows every column)";
  }
}
