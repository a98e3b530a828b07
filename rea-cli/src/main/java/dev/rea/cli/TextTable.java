package dev.rea.cli;

import java.io.PrintWriter;
import java.util.List;

/**
 * Left-aligned text tables for the readable reports, indented by two spaces. Columns are sized in
 * terminal columns ({@link #columns}), not in UTF-16 units, so that CJK names, combining accents
 * and characters outside the BMP from a file keep the next column in place.
 */
final class TextTable {
  private TextTable() {}

  /**
   * Widest cell, in terminal columns, that sets its column's width. A longer cell (a file may
   * name a tensor with 100,000 characters) is printed whole and pushes the rest of its own row
   * right, instead of padding every other row of the table to its width.
   */
  static final int MAX_PADDED_COLUMNS = 120;

  /**
   * Prints the rows under an optional header, each column as wide as its widest cell of at most
   * {@link #MAX_PADDED_COLUMNS} columns.
   *
   * @param header column titles, or an empty list for none
   * @param rows rows with as many cells as the header (or as the first row)
   */
  static void print(PrintWriter out, List<String> header, List<String[]> rows) {
    print(out, header, rows, Integer.MAX_VALUE);
  }

  /**
   * As {@link #print(PrintWriter, List, List)}, with one space between columns instead of two
   * when two would make a line wider than {@code fit} terminal columns (a narrow terminal).
   *
   * @param fit the widest line wanted, in terminal columns
   */
  static void print(PrintWriter out, List<String> header, List<String[]> rows, int fit) {
    int cols = header.isEmpty() ? (rows.isEmpty() ? 0 : rows.get(0).length) : header.size();
    int[] width = new int[cols];
    for (int c = 0; c < cols; c++) {
      width[c] = header.isEmpty() ? 0 : columns(header.get(c));
      for (String[] r : rows) {
        int w = columns(r[c]);
        if (w <= MAX_PADDED_COLUMNS) {
          width[c] = Math.max(width[c], w);
        }
      }
    }
    int total = 2 + 2 * Math.max(0, cols - 1);
    for (int w : width) {
      total += w;
    }
    String gap = total > fit ? " " : "  ";
    if (!header.isEmpty()) {
      out.println("  " + line(header.toArray(new String[0]), width, gap));
    }
    for (String[] r : rows) {
      out.println("  " + line(r, width, gap));
    }
  }

  /**
   * @return {@code text} when it takes at most {@code max} terminal columns, else as many of its
   *     first code points as fit in {@code max - 3} columns and "..." (a surrogate pair is never
   *     split)
   */
  static String cut(String text, int max) {
    if (columns(text) <= max) {
      return text;
    }
    int room = Math.max(0, max - 3);
    int[] cp = text.codePoints().toArray();
    int used = 0;
    int end = 0;
    while (end < cp.length) {
      int w = width(cp[end]);
      if (used + w > room) {
        break;
      }
      used += w;
      end++;
    }
    while (end > 0 && splitsEscape(cp, end)) {
      end--; // an escape whole or not at all: its tail alone ("u001b") reads as text
    }
    return new String(cp, 0, end) + "...";
  }

  /**
   * @return whether a cut before code point {@code at} falls inside an escape of {@link
   *     TerminalText} (a backslash, {@code u} and four hex digits): after its backslash, before its
   *     last digit
   */
  static boolean splitsEscape(int[] cp, int at) {
    for (int start = Math.max(0, at - 5); start < at; start++) {
      if (isEscapeAt(cp, start)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isEscapeAt(int[] cp, int i) {
    if (i + 6 > cp.length || cp[i] != '\\' || cp[i + 1] != 'u') {
      return false;
    }
    for (int k = i + 2; k < i + 6; k++) {
      if (Character.digit(cp[k], 16) < 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Terminal columns {@code text} takes: the sum of {@link #width} over its code points.
   *
   * @return a count of columns, not of characters
   */
  static int columns(String text) {
    int n = 0;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      n += width(cp);
      i += Character.charCount(cp);
    }
    return n;
  }

  /**
   * Columns one code point takes on a terminal, as {@code wcwidth} counts them: 0 for combining
   * marks and format characters, 2 for East Asian wide and fullwidth characters (Hangul Jamo,
   * CJK, Hangul syllables, compatibility ideographs, fullwidth forms, emoji pictographs, the
   * supplementary ideographic planes), 1 otherwise. Control characters never reach a table
   * ({@link TerminalText#printable} escapes them first).
   */
  static int width(int cp) {
    int type = Character.getType(cp);
    if (type == Character.NON_SPACING_MARK
        || type == Character.ENCLOSING_MARK
        || type == Character.FORMAT) {
      return 0;
    }
    boolean wide =
        (cp >= 0x1100 && cp <= 0x115F)
            || (cp >= 0x2E80 && cp <= 0x303E)
            || (cp >= 0x3041 && cp <= 0x33FF)
            || (cp >= 0x3400 && cp <= 0x4DBF)
            || (cp >= 0x4E00 && cp <= 0x9FFF)
            || (cp >= 0xA000 && cp <= 0xA4CF)
            || (cp >= 0xAC00 && cp <= 0xD7A3)
            || (cp >= 0xF900 && cp <= 0xFAFF)
            || (cp >= 0xFE30 && cp <= 0xFE4F)
            || (cp >= 0xFF00 && cp <= 0xFF60)
            || (cp >= 0xFFE0 && cp <= 0xFFE6)
            || (cp >= 0x1F300 && cp <= 0x1F64F)
            || (cp >= 0x1F900 && cp <= 0x1F9FF)
            || (cp >= 0x20000 && cp <= 0x3FFFD);
    return wide ? 2 : 1;
  }

  private static String line(String[] cells, int[] width, String gap) {
    StringBuilder sb = new StringBuilder();
    for (int c = 0; c < cells.length; c++) {
      if (c > 0) {
        sb.append(gap);
      }
      sb.append(cells[c]);
      if (c < cells.length - 1) {
        sb.append(" ".repeat(Math.max(0, width[c] - columns(cells[c]))));
      }
    }
    return sb.toString().stripTrailing();
  }
}
