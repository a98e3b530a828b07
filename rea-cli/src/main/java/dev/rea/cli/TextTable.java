package dev.rea.cli;

import java.io.PrintWriter;
import java.util.List;

/** Left-aligned text tables for the readable reports, indented by two spaces. */
final class TextTable {
  private TextTable() {}

  /**
   * Prints the rows under an optional header, each column as wide as its widest cell.
   *
   * @param header column titles, or an empty list for none
   * @param rows rows with as many cells as the header (or as the first row)
   */
  static void print(PrintWriter out, List<String> header, List<String[]> rows) {
    int cols = header.isEmpty() ? (rows.isEmpty() ? 0 : rows.get(0).length) : header.size();
    int[] width = new int[cols];
    for (int c = 0; c < cols; c++) {
      width[c] = header.isEmpty() ? 0 : header.get(c).length();
      for (String[] r : rows) {
        width[c] = Math.max(width[c], r[c].length());
      }
    }
    if (!header.isEmpty()) {
      out.println("  " + line(header.toArray(new String[0]), width));
    }
    for (String[] r : rows) {
      out.println("  " + line(r, width));
    }
  }

  /**
   * @return {@code text} when it has at most {@code max} characters, else its first {@code max -
   *     3} characters and "..."
   */
  static String cut(String text, int max) {
    return text.length() > max ? text.substring(0, Math.max(0, max - 3)) + "..." : text;
  }

  private static String line(String[] cells, int[] width) {
    StringBuilder sb = new StringBuilder();
    for (int c = 0; c < cells.length; c++) {
      if (c > 0) {
        sb.append("  ");
      }
      sb.append(cells[c]);
      if (c < cells.length - 1) {
        sb.append(" ".repeat(width[c] - cells[c].length()));
      }
    }
    return sb.toString().stripTrailing();
  }
}
