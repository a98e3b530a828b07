package dev.rea.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How wide readable output may be. {@link #UNLIMITED} lays reports out as they have always been
 * (lines as long as their content: what a pipe, a file or {@code --wide} gets, byte for byte);
 * a limited screen is a terminal's width, and reports fit it: prose is wrapped at spaces, long
 * digests and identities go on lines of their own, and tables shorten or drop columns ({@link
 * FittedTable}) rather than let the terminal wrap them.
 */
final class Screen {
  /** No limit: today's layout. */
  static final Screen UNLIMITED = new Screen(0);

  /** Indent of a word too long to follow its label, on a line of its own. */
  static final int OWN_LINE_INDENT = 4;

  private final int columns;

  private Screen(int columns) {
    this.columns = columns;
  }

  /**
   * @param columns the width, at least 20
   * @return a screen of that width
   */
  static Screen of(int columns) {
    if (columns < 20) {
      throw new IllegalArgumentException("a screen is at least 20 columns wide: " + columns);
    }
    return new Screen(columns);
  }

  /**
   * The screen for stdout's readable output: the terminal's width ({@link Terminal#columns}) when
   * stdout is a terminal and {@code --wide} was not given, else {@link #UNLIMITED}.
   *
   * @param env the environment ({@code COLUMNS})
   * @param wide whether {@code --wide} was given
   */
  static Screen forStdout(Map<String, String> env, boolean wide) {
    if (wide || !Terminal.stdoutIsTerminal()) {
      return UNLIMITED;
    }
    return of(Terminal.columns(env));
  }

  /** @return true when output must fit {@link #columns()} */
  boolean limited() {
    return columns > 0;
  }

  /** @return the width in terminal columns (0 when unlimited) */
  int columns() {
    return columns;
  }

  /**
   * Prints {@code text}: as is when unlimited, else wrapped at spaces into lines of at most the
   * width, continuation lines indented by {@code indent} spaces; a word longer than a line goes
   * on a line of its own (it is never cut, so a digest or path stays whole).
   *
   * @param out where to print
   * @param text one line of text, already printable
   * @param indent columns before each continuation line
   */
  void println(PrintWriter out, String text, int indent) {
    if (!limited() || TextTable.columns(text) <= columns) {
      out.println(text);
      return;
    }
    int lead = 0;
    while (lead < text.length() && text.charAt(lead) == ' ') {
      lead++;
    }
    for (String line : wrap(text.substring(lead), columns - lead, columns - indent)) {
      out.println(" ".repeat(lead) + line);
      lead = indent;
    }
  }

  /**
   * Wraps words into lines: the first of at most {@code first} columns, the others of at most
   * {@code rest}. A word longer than its line is a line of its own.
   *
   * @return the lines, without indentation
   */
  static List<String> wrap(String text, int first, int rest) {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    int used = 0;
    int max = first;
    for (String word : text.split(" ")) {
      if (word.isEmpty()) {
        continue;
      }
      int w = TextTable.columns(word);
      if (used > 0 && used + 1 + w > max) {
        lines.add(line.toString());
        line.setLength(0);
        used = 0;
        max = rest;
      }
      if (used > 0) {
        line.append(' ');
        used++;
      }
      line.append(word);
      used += w;
    }
    lines.add(line.toString());
    return lines;
  }

  /**
   * Prints label/value rows (the facts at the top of a report): as {@link TextTable#print} does
   * when unlimited; else each value wrapped in the value column, and a word that does not fit
   * there (a digest, an evidence ID, a path) on a line of its own, indented by {@value
   * #OWN_LINE_INDENT}.
   */
  void printFacts(PrintWriter out, List<String[]> facts) {
    if (!limited()) {
      TextTable.print(out, List.of(), facts);
      return;
    }
    int labelWidth = 0;
    for (String[] f : facts) {
      labelWidth = Math.max(labelWidth, TextTable.columns(f[0]));
    }
    int valueColumn = 2 + labelWidth + 2;
    int valueWidth = Math.max(10, columns - valueColumn);
    for (String[] f : facts) {
      String head = "  " + f[0] + " ".repeat(labelWidth - TextTable.columns(f[0]) + 2);
      List<String> lines = wrap(f[1], valueWidth, valueWidth);
      for (int i = 0; i < lines.size(); i++) {
        String l = lines.get(i);
        boolean alone = TextTable.columns(l) > valueWidth;
        if (i == 0 && !alone) {
          out.println(head + l);
        } else if (i == 0) {
          out.println(head.stripTrailing());
          out.println(" ".repeat(OWN_LINE_INDENT) + l);
        } else {
          out.println(" ".repeat(alone ? OWN_LINE_INDENT : valueColumn) + l);
        }
      }
    }
  }
}
