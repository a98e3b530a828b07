package dev.rea.cli;

import java.io.FilterWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.text.Normalizer;

/**
 * Makes text from a model file or a command line safe to show on a terminal. A file under
 * inspection chooses its metadata strings, tensor names and (through them) error messages; a
 * control character among them could move the cursor, rewrite earlier lines, retitle the window
 * or hide text. In readable output every C0 control except line feed and tab, DEL, every C1
 * control (U+0080–U+009F, which some terminals obey in UTF-8), the Unicode line and paragraph
 * separators (U+2028, U+2029), every format character (Unicode category Cf: the bidirectional
 * marks, embeddings, overrides and isolates, zero-width spaces and joiners, U+00AD, U+FEFF, and
 * the tag characters U+E0001 and U+E0020–U+E007F, which can carry hidden ASCII text), the
 * variation selectors and the characters that show nothing though they are letters or marks
 * (U+034F, the Hangul and Khmer fillers), and any unpaired surrogate are shown as {@code
 * \}{@code uXXXX} instead, a supplementary character as its two escaped UTF-16 units ({@link
 * #wrap}): none of them shows, and each can reorder or hide what follows.
 * A value from the file (a name, a metadata string, a path, a message quoting them) is one line
 * of the report: {@link #printable(String)} also escapes its line feeds and tabs, so that a value
 * cannot start a row of its own or shift a column. A value that is not in Unicode normalization
 * form C also has its combining marks escaped: "cafe" + U+0301 and "caf" + U+00E9 are two
 * tensor names that a terminal draws alike, and the report must not show two names as one
 * (values in form C, as nearly all text is, keep their marks: they are how many scripts are
 * written). JSON output is never filtered: its bytes are the Evidence.
 */
final class TerminalText {
  private TerminalText() {}

  /**
   * @return true when {@code c} must not reach a terminal as is, even in REA's own text (line
   *     feed and tab are allowed there: they lay the report out)
   */
  static boolean unsafe(char c) {
    return (c < 0x20 && c != '\n' && c != '\t')
        || (c >= 0x7F && c <= 0x9F)
        || c == 0x2028
        || c == 0x2029
        // Format characters (Unicode category Cf): bidirectional controls, zero-width spaces and
        // joiners, U+00AD, U+2060..206F, U+FEFF, U+FFF9..FFFB, ...
        || Character.getType(c) == Character.FORMAT
        // Characters that show nothing though they are not Cf: the combining grapheme joiner,
        // Hangul and Khmer fillers, Mongolian and other variation selectors.
        || c == 0x034F
        || c == 0x115F
        || c == 0x1160
        || c == 0x17B4
        || c == 0x17B5
        || (c >= 0x180B && c <= 0x180F)
        || c == 0x2800 // Braille pattern blank: a symbol (So) that draws nothing
        || c == 0x3164
        || (c >= 0xFE00 && c <= 0xFE0F)
        || c == 0xFFA0
        // Half of a surrogate pair on its own prints as '?'.
        || Character.isSurrogate(c);
  }

  /**
   * As {@link #unsafe(char)} for a whole code point: also the supplementary format characters
   * (the tag characters U+E0001 and U+E0020..E007F, which can carry hidden ASCII text, U+1D173..
   * 1D17A, U+1BCA0..1BCA3) and the variation selectors U+E0100..E01EF.
   */
  static boolean unsafeCodePoint(int cp) {
    if (cp < Character.MIN_SUPPLEMENTARY_CODE_POINT) {
      return unsafe((char) cp);
    }
    return Character.getType(cp) == Character.FORMAT || (cp >= 0xE0100 && cp <= 0xE01EF);
  }

  /** Appends the code point at {@code s[i]} (one or two UTF-16 units) escaped, unit by unit. */
  private static void appendEscaped(StringBuilder sb, String s, int i, int units) {
    for (int k = 0; k < units; k++) {
      appendEscape(sb, s.charAt(i + k));
    }
  }

  /**
   * A value for one line or one table cell of the report.
   *
   * @return {@code s} with every character that {@link #unsafeCodePoint} names, line feed and
   *     tab, and a backslash followed by {@code u}, written as {@code \}{@code uXXXX}; null for
   *     null
   */
  // Null in, null out (OutputSafetyTest pins it), which NullAway cannot express without a contract
  // annotation; with the parameter non-null it checks that REA's own callers never pass null.
  @SuppressWarnings("NullAway")
  static String printable(String s) {
    if (s == null) {
      return null;
    }
    return escaped(s, true, true);
  }

  /**
   * A message REA wrote (a limitation, a warning, a check reason) for one line of the report:
   * as {@link #printable}, except that a backslash before {@code u} is kept. Such a message
   * quotes file text JSON-style ({@code FieldPath.quote}: a backslash of the file is already
   * {@code \\}, a control character already {@code \}{@code uXXXX}), so its backslash-u is an
   * escape it wrote, and escaping that backslash again would misstate the name it quotes.
   *
   * @param s the message
   * @return the message, safe for one line
   */
  static String message(String s) {
    return escaped(s, true, false);
  }

  /**
   * A string value in double quotes, as the readable report shows string values: line feed, CR,
   * tab, quote and backslash as their JSON escapes, every other {@link #unsafe} character as
   * {@code \}{@code uXXXX}.
   *
   * @param s the value
   * @param maxChars the most UTF-16 units of {@code s} to show (one fewer rather than half of a
   *     surrogate pair); a longer value is closed after them and followed by {@code ... (N
   *     characters)}, N counting code points
   * @return the quoted text, safe for one line or cell
   */
  static String quoted(String s, int maxChars) {
    boolean marks = !Normalizer.isNormalized(s, Normalizer.Form.NFC);
    int limit = Math.min(s.length(), maxChars);
    if (limit < s.length() && limit > 0 && Character.isHighSurrogate(s.charAt(limit - 1))) {
      limit--; // never half a character: its other half would print as '?'
    }
    StringBuilder sb = new StringBuilder(limit + 2);
    sb.append('"');
    int run = 0;
    for (int i = 0; i < limit; ) {
      int cp = s.codePointAt(i);
      int units = Math.min(Character.charCount(cp), limit - i);
      run = isMark(cp) ? run + 1 : 0;
      switch (cp) {
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        default -> {
          if (unsafeCodePoint(cp) || (marks && isMark(cp)) || run > MOST_STACKED_MARKS) {
            appendEscaped(sb, s, i, units);
          } else {
            sb.append(s, i, i + units);
          }
        }
      }
      i += units;
    }
    sb.append('"');
    if (s.length() > limit) {
      sb.append("... (")
          .append(Sizes.grouped(s.codePointCount(0, s.length())))
          .append(" characters)");
    }
    return sb.toString();
  }

  private static String escaped(String s, boolean value, boolean backslashU) {
    boolean marks = value && !Normalizer.isNormalized(s, Normalizer.Form.NFC);
    StringBuilder sb = null;
    int run = 0;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      int units = Character.charCount(cp);
      run = isMark(cp) ? run + 1 : 0;
      // In a value, a backslash before 'u' is escaped too, so that every backslash-u of the
      // report starts an escape: a name holding the six characters backslash, u, 2, 0, 0, b
      // never reads as one holding U+200B. (The wrapped writer sees the escapes: not there.)
      boolean escapeLike =
          value && backslashU && cp == '\\' && i + 1 < s.length() && s.charAt(i + 1) == 'u';
      if ((value && (cp == '\n' || cp == '\t'))
          || unsafeCodePoint(cp)
          || escapeLike
          || (marks && isMark(cp))
          || (value && run > MOST_STACKED_MARKS)) {
        if (sb == null) {
          sb = new StringBuilder(s.length() + 16).append(s, 0, i);
        }
        appendEscaped(sb, s, i, units);
      } else if (sb != null) {
        sb.append(s, i, i + units);
      }
      i += units;
    }
    return sb == null ? s : sb.toString();
  }

  /**
   * Combining marks drawn on one character before the rest of their run is escaped. Written
   * languages stack two or three (Vietnamese, Devanagari, Hebrew points); dozens (so-called Zalgo
   * text) draw over the lines above and below, even in text already in normalization form C.
   */
  static final int MOST_STACKED_MARKS = 3;

  /** @return true for a combining mark (Unicode categories Mn, Mc and Me) */
  private static boolean isMark(int cp) {
    int type = Character.getType(cp);
    return type == Character.NON_SPACING_MARK
        || type == Character.COMBINING_SPACING_MARK
        || type == Character.ENCLOSING_MARK;
  }

  /** Appends {@code c} as {@code \}{@code uXXXX} (four lowercase hex digits). */
  static void appendEscape(StringBuilder sb, char c) {
    sb.append("\\u");
    String hex = Integer.toHexString(c);
    sb.append("0".repeat(4 - hex.length())).append(hex);
  }

  /**
   * Wraps a writer so that everything printed through it has its {@link #unsafe} characters
   * escaped (line feeds and tabs pass: values are made {@link #printable} first). Errors of
   * the wrapped writer stay on it ({@link PrintWriter#checkError()} of {@code target} sees them).
   */
  static Safe wrap(PrintWriter target) {
    return target instanceof Safe s ? s : new Safe(target);
  }

  /**
   * A writer whose text is made printable. {@link #raw()} gives the unfiltered writer for the
   * progress bar, whose carriage return and erase-line sequence are REA's own.
   */
  static final class Safe extends PrintWriter {
    private final PrintWriter raw;

    private Safe(PrintWriter raw) {
      super(new Filter(raw), true);
      this.raw = raw;
    }

    /** @return the unfiltered writer */
    PrintWriter raw() {
      return raw;
    }
  }

  /** Escapes unsafe characters on their way to the wrapped writer. */
  private static final class Filter extends FilterWriter {
    Filter(Writer out) {
      super(out);
    }

    @Override
    public void write(int c) throws IOException {
      if (unsafe((char) c)) {
        StringBuilder sb = new StringBuilder(6);
        appendEscape(sb, (char) c);
        out.write(sb.toString());
      } else {
        out.write(c);
      }
    }

    @Override
    public void write(char[] buf, int off, int len) throws IOException {
      out.write(escaped(new String(buf, off, len), false, false));
    }

    @Override
    public void write(String s, int off, int len) throws IOException {
      out.write(escaped(s.substring(off, off + len), false, false));
    }
  }

  /** @return the unfiltered writer under {@code w}, for REA's own terminal control sequences */
  static PrintWriter raw(PrintWriter w) {
    return w instanceof Safe s ? s.raw() : w;
  }
}
