package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No main source class over 800 lines and no method over 80 (issue 17), unless the comment just
 * above it says why it must be: a comment holding {@value #REASON}. Counted on the source text:
 * comments and string literals are blanked first, so braces inside them do not count; a method is
 * a member whose header ends in {@code ) {} (or {@code throws ... {}), measured from its header to
 * its closing brace.
 */
class SourceSizeTest {
  static final String REASON = "Long on purpose:";
  private static final int MAX_CLASS_LINES = 800;

  private static final int MAX_METHOD_LINES = 80;
  private static final Pattern METHOD_HEADER =
      Pattern.compile("^\\s*(?:[\\w<>\\[\\],.?@ ]+\\s)?[\\w<>]+\\s*\\([^;]*\\)\\s*(?:throws [\\w., ]+)?\\{\\s*$");
  private static final Pattern NOT_A_METHOD =
      Pattern.compile(
          "^\\s*}?\\s*(?:if|for|while|switch|catch|try|synchronized|else|do|return|new|case)\\b.*"
              + "|.*(?:->|=|\\b(?:class|record|enum|interface)\\b).*");

  @Test
  void noClassOver800LinesNorMethodOver80WithoutAReason() throws IOException {
    List<String> over = new ArrayList<>();
    Path root = Path.of("").toAbsolutePath().getParent();
    try (Stream<Path> modules = Files.list(root)) {
      for (Path module : modules.filter(p -> p.getFileName().toString().startsWith("rea-")).toList()) {
        Path main = module.resolve("src/main/java");
        if (!Files.isDirectory(main)) {
          continue;
        }
        try (Stream<Path> files = Files.walk(main)) {
          for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
            over.addAll(check(root.relativize(f).toString(), Files.readString(f, StandardCharsets.UTF_8)));
          }
        }
      }
    }
    assertThat(over).as("sizes over the limits without \"" + REASON + "\"").isEmpty();
  }

  @Test
  void theCounterFindsALongMethodAndHonoursAReason() {
    StringBuilder body = new StringBuilder();
    for (int i = 0; i < 85; i++) {
      body.append("    x(\"}\"); // {\n");
    }
    String longOne = "class A {\n  void f() {\n" + body + "  }\n}\n";
    assertThat(check("A.java", longOne)).singleElement().asString().contains("f() {", "87 lines");
    String excused =
        "class A {\n  // " + REASON + " a table.\n  void f() {\n" + body + "  }\n}\n";
    assertThat(check("A.java", excused)).isEmpty();
  }

  /** @return one entry per class or method over its limit and without a reason */
  static List<String> check(String name, String source) {
    List<String> over = new ArrayList<>();
    String[] raw = source.split("\n", -1);
    String[] lines = blank(source).split("\n", -1);
    if (raw.length - 1 > MAX_CLASS_LINES && !reasonBeforeType(raw, lines)) {
      over.add(name + ": " + (raw.length - 1) + " lines");
    }
    Deque<int[]> open = new ArrayDeque<>();
    int depth = 0;
    for (int i = 0; i < lines.length; i++) {
      String l = lines[i];
      if (METHOD_HEADER.matcher(l).matches() && !NOT_A_METHOD.matcher(l).matches()) {
        open.push(new int[] {i, depth});
      }
      for (int k = 0; k < l.length(); k++) {
        char c = l.charAt(k);
        if (c == '{') {
          depth++;
        } else if (c == '}') {
          depth--;
          if (!open.isEmpty() && open.peek()[1] == depth) {
            int start = open.pop()[0];
            int length = i - start + 1;
            if (length > MAX_METHOD_LINES && !reasonAbove(raw, start)) {
              over.add(name + ":" + (start + 1) + " " + raw[start].strip() + " " + length + " lines");
            }
          }
        }
      }
    }
    return over;
  }

  private static final Pattern TYPE_DECLARATION =
      Pattern.compile("^(?:public |final |abstract |sealed )*(?:class|interface|record|enum) .*");

  /** Whether the top-level type's own comment (the text before its declaration) has the reason. */
  private static boolean reasonBeforeType(String[] raw, String[] blanked) {
    for (int i = 0; i < blanked.length; i++) {
      if (TYPE_DECLARATION.matcher(blanked[i]).matches()) {
        for (int k = 0; k < i; k++) {
          if (raw[k].contains(REASON)) {
            return true;
          }
        }
        return false;
      }
    }
    return false;
  }

  /** Whether the comment lines (and annotations) just above line {@code at} hold the reason. */
  private static boolean reasonAbove(String[] raw, int at) {
    for (int i = at - 1; i >= 0; i--) {
      String t = raw[i].strip();
      if (t.contains(REASON)) {
        return true;
      }
      if (!(t.startsWith("//") || t.startsWith("*") || t.startsWith("/*") || t.startsWith("@"))) {
        return false;
      }
    }
    return false;
  }

  /** The source with comments and string and character literals blanked (newlines kept). */
  static String blank(String s) {
    StringBuilder out = new StringBuilder(s.length());
    int i = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (s.startsWith("\"\"\"", i)) {
        int end = s.indexOf("\"\"\"", i + 3);
        end = end < 0 ? s.length() : end + 3;
        keepNewlines(out, s, i, end);
        i = end;
      } else if (c == '"' || c == '\'') {
        int j = i + 1;
        while (j < s.length() && s.charAt(j) != c && s.charAt(j) != '\n') {
          j += s.charAt(j) == '\\' ? 2 : 1;
        }
        out.append("\"\"");
        i = Math.min(j + 1, s.length());
      } else if (s.startsWith("//", i)) {
        int end = s.indexOf('\n', i);
        i = end < 0 ? s.length() : end;
      } else if (s.startsWith("/*", i)) {
        int end = s.indexOf("*/", i + 2);
        end = end < 0 ? s.length() : end + 2;
        keepNewlines(out, s, i, end);
        i = end;
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  private static void keepNewlines(StringBuilder out, String s, int from, int to) {
    for (int k = from; k < to; k++) {
      if (s.charAt(k) == '\n') {
        out.append('\n');
      }
    }
  }
}
