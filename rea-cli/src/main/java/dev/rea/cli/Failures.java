package dev.rea.cli;

import dev.rea.core.Rea;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import java.io.PrintWriter;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Reports a typed failure: JSON on stdout with {@code --json}, otherwise text on stderr (made
 * printable by {@link TerminalText}).
 */
final class Failures {
  private Failures() {}

  /**
   * Prints the failure, with the command line's advice for a slip it recognises ({@link
   * Advice#advise}), and returns its exit status. Partial Evidence is printed too: inside the
   * error object with {@code --json}, as a readable report on stdout otherwise.
   */
  static int report(
      ReaException failure, boolean json, PrintWriter stdout, PrintWriter stderr, int maxRows) {
    return report(failure, null, json, stdout, stderr, maxRows, false);
  }

  /**
   * As {@link #report(ReaException, boolean, PrintWriter, PrintWriter, int)}, with partial
   * Evidence; with {@code findingsShown}, a list of findings among the diagnostics (a set's
   * contradictions) that the readable report on stdout already listed is only counted on stderr.
   */
  static int report(
      ReaException failure,
      @Nullable EvidenceRecord partial,
      boolean json,
      PrintWriter stdout,
      PrintWriter stderr,
      int maxRows,
      boolean findingsShown) {
    ReaException e = Advice.advise(failure);
    if (json) {
      Output.printJson(stdout, Rea.errorJson(e, partial));
    } else {
      // The message, path, field and diagnostics can quote the file or the command line: each is
      // one line (TerminalText.printable escapes the line breaks and tabs they quote).
      PrintWriter out = TerminalText.wrap(stdout);
      PrintWriter err = TerminalText.wrap(stderr);
      if (partial != null) {
        new HumanReport(out, maxRows).print(partial);
        out.flush();
      }
      err.println("rea: " + e.code().wireName() + " (" + e.constraint().wireName() + "): " + TerminalText.printable(e.getMessage()));
      if (e.path() != null) {
        err.println("  path:   " + TerminalText.printable(e.path()));
      }
      if (e.field() != null) {
        err.println("  field:  " + TerminalText.printable(e.field()));
      }
      if (e.offset() != null) {
        err.println("  offset: " + Long.toUnsignedString(e.offset()));
      }
      for (Map.Entry<String, Object> d : e.diagnostics().entrySet()) {
        if (d.getValue() instanceof java.util.List<?> items
            && !items.isEmpty()
            && items.get(0) instanceof Map) {
          if (findingsShown) {
            err.println("  " + d.getKey() + ": " + items.size() + ", listed above");
            continue;
          }
          // A list of findings (a set's contradictions): one line each, not a Java map dump.
          err.println("  " + d.getKey() + ":");
          for (Object item : items) {
            err.println("    - " + TerminalText.printable(
                item instanceof Map<?, ?> m ? finding(m) : String.valueOf(item)));
          }
          continue;
        }
        String value = String.valueOf(d.getValue());
        boolean repeated =
            (d.getKey().endsWith("path") && value.equals(e.path()))
                || (d.getKey().equals("offset")
                    && e.offset() != null
                    && value.equals(Long.toUnsignedString(e.offset())))
                || (d.getKey().equals("reason") && e.getMessage().contains(value))
                // Text the message already quotes whole (an ambiguous set's units).
                || (value.length() >= 12 && e.getMessage().contains(value))
                || (d.getValue() instanceof java.util.List<?> items
                    && !items.isEmpty()
                    && e.getMessage().contains(joined(items)))
                // The count of a list printed just above ("contradiction_count" of
                // "contradictions").
                || countOfList(e.diagnostics(), d.getKey(), value)
                // Java class names help a developer, not a reader of the report: --json keeps them.
                || d.getKey().equals("exception");
        if (!repeated) {
          err.println("  " + d.getKey() + ": " + TerminalText.printable(value));
        }
      }
      err.flush();
    }
    return e.code().exitStatus();
  }

  private static String joined(java.util.List<?> items) {
    StringBuilder sb = new StringBuilder();
    for (Object item : items) {
      sb.append(sb.length() == 0 ? "" : ", ").append(item);
    }
    return sb.toString();
  }

  /**
   * @return whether diagnostic {@code key} is {@code NAME_count} and equals the size of the list
   *     diagnostic {@code NAMEs}, which is printed (or counted) beside it
   */
  private static boolean countOfList(Map<String, Object> diagnostics, String key, String value) {
    if (!key.endsWith("_count")) {
      return false;
    }
    Object list = diagnostics.get(key.substring(0, key.length() - "_count".length()) + "s");
    return list instanceof java.util.List<?> items && Integer.toString(items.size()).equals(value);
  }

  /**
   * @return a finding as a line: {@code member M (PATH), tensor "T", FIELD: MESSAGE} for a set's
   *     contradiction, else its entries as {@code key: value} joined by commas
   */
  static String finding(Map<?, ?> m) {
    if (m.containsKey("member") && m.containsKey("field") && m.containsKey("message")) {
      return "member " + m.get("member") + " (" + m.get("path") + ")"
          + (m.get("tensor") == null ? "" : ", tensor \"" + m.get("tensor") + "\"")
          + ", " + m.get("field") + ": " + m.get("message");
    }
    StringBuilder b = new StringBuilder();
    for (Map.Entry<?, ?> x : m.entrySet()) {
      b.append(b.length() > 0 ? ", " : "").append(x.getKey()).append(": ").append(x.getValue());
    }
    return b.toString();
  }
}
