package dev.rea.core.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class GlobTest {
  static boolean m(String pattern, String text) throws Glob.SyntaxError {
    return Glob.compile(pattern).matches(text);
  }

  static Glob.SyntaxError refusal(String pattern) {
    try {
      Glob.compile(pattern);
    } catch (Glob.SyntaxError e) {
      return e;
    }
    throw new AssertionError("accepted: " + pattern);
  }

  @Test
  void starQuestionAndLiteralsMatchTheWholeName() throws Exception {
    assertThat(m("blk.0.*", "blk.0.attn_q.weight")).isTrue();
    assertThat(m("blk.0.*", "blk.0.")).isTrue();
    assertThat(m("blk.0.*", "blk.10.attn_q.weight")).isFalse();
    // The whole name: a pattern is not a substring search.
    assertThat(m("attn", "blk.0.attn_q.weight")).isFalse();
    assertThat(m("*attn*", "blk.0.attn_q.weight")).isTrue();
    assertThat(m("*.weight", "output.weight")).isTrue();
    assertThat(m("*.weight", "output.bias")).isFalse();
    assertThat(m("blk.?.ffn_up.weight", "blk.7.ffn_up.weight")).isTrue();
    assertThat(m("blk.?.ffn_up.weight", "blk.17.ffn_up.weight")).isFalse();
    assertThat(m("", "")).isTrue();
    assertThat(m("", "a")).isFalse();
    assertThat(m("*", "")).isTrue();
    assertThat(m("**", "anything")).isTrue();
    assertThat(m("a*b*c", "abc")).isTrue();
    assertThat(m("a*b*c", "acb")).isFalse();
    // Case matters; "." is an ordinary character.
    assertThat(m("Output.weight", "output.weight")).isFalse();
    assertThat(m("a.b", "aXb")).isFalse();
  }

  @Test
  void classesRangesAndBothNegations() throws Exception {
    assertThat(m("blk.[0-3].*", "blk.2.x")).isTrue();
    assertThat(m("blk.[0-3].*", "blk.4.x")).isFalse();
    assertThat(m("blk.[!0-3].*", "blk.4.x")).isTrue();
    assertThat(m("blk.[^0-3].*", "blk.4.x")).isTrue();
    assertThat(m("blk.[^0-3].*", "blk.1.x")).isFalse();
    assertThat(m("[abc]", "b")).isTrue();
    assertThat(m("[abc]", "d")).isFalse();
    assertThat(m("[!ac]", "b")).isTrue();
    assertThat(m("[!ac]", "c")).isFalse();
    // "]" first is a member; "-" first or last is a member.
    assertThat(m("[]x]", "]")).isTrue();
    assertThat(m("[!]x]", "]")).isFalse();
    assertThat(m("[!]x]", "y")).isTrue();
    assertThat(m("[-a]", "-")).isTrue();
    assertThat(m("[a-]", "-")).isTrue();
    assertThat(m("[a-]", "b")).isFalse();
    // "[" inside a class is an ordinary member; "^" not first is a member.
    assertThat(m("[[]", "[")).isTrue();
    assertThat(m("[a^]", "^")).isTrue();
    // Several ranges, and the class matches one code point only.
    assertThat(m("[a-cx-z0-9]", "y")).isTrue();
    assertThat(m("[a-cx-z0-9]", "yy")).isFalse();
  }

  @Test
  void backslashEscapesEverywhere() throws Exception {
    assertThat(m("a\\*", "a*")).isTrue();
    assertThat(m("a\\*", "ab")).isFalse();
    assertThat(m("\\?", "?")).isTrue();
    assertThat(m("\\?", "x")).isFalse();
    assertThat(m("\\[0]", "[0]")).isTrue();
    assertThat(m("\\\\", "\\")).isTrue();
    assertThat(m("[\\]]", "]")).isTrue();
    assertThat(m("[\\--\\/]", ".")).isTrue(); // '-' (2D) to '/' (2F)
  }

  @Test
  void matchingIsOnCodePointsNotUtf16Units() throws Exception {
    String grin = new String(Character.toChars(0x1F600)); // two UTF-16 units
    assertThat(m("a?b", "a" + grin + "b")).isTrue();
    assertThat(m("a??b", "a" + grin + "b")).isFalse();
    String range = "[" + new String(Character.toChars(0x1F600)) + "-"
        + new String(Character.toChars(0x1F64F)) + "]";
    assertThat(m(range, new String(Character.toChars(0x1F610)))).isTrue();
    assertThat(m(range, new String(Character.toChars(0x1F650)))).isFalse();
    assertThat(m("[!a]", grin)).isTrue();
    assertThat(m("tok_\u00e9*", "tok_\u00e9t\u00e9")).isTrue();
    assertThat(m("tok_e*", "tok_\u00e9t\u00e9")).isFalse();
    // An unpaired surrogate (possible in a Java string) is one code point of its own.
    assertThat(m("x?y", "x\uD800y")).isTrue();
  }

  @Test
  void refusalsNameWhatIsWrongAndWhere() {
    Glob.SyntaxError open = refusal("blk.[0-9.*");
    assertThat(open.position()).isEqualTo(4);
    assertThat(open.reason()).contains("no closing ']'");
    Glob.SyntaxError reversed = refusal("blk.[9-0]");
    assertThat(reversed.position()).isEqualTo(5);
    assertThat(reversed.reason()).contains("9-0").contains("reversed");
    Glob.SyntaxError trailing = refusal("ab\\");
    assertThat(trailing.position()).isEqualTo(2);
    assertThat(refusal("[]").position()).isZero();
    assertThat(refusal("[!]").position()).isZero();
    Glob.SyntaxError posix = refusal("x[[:digit:]]");
    assertThat(posix.position()).isEqualTo(2);
    assertThat(posix.reason()).contains("[0-9]");
    // Positions count code points: the emoji before the "[" is one.
    String grin = new String(Character.toChars(0x1F600));
    assertThat(refusal(grin + "[a").position()).isEqualTo(1);
    assertThat(refusal("a".repeat(Glob.MAX_CODE_POINTS + 1)).reason()).contains("longer than");
  }

  @Test
  void theLongestPatternAcceptedWorksAcrossWordBoundaries() throws Exception {
    // 256 elements: 257 states spread over five 64-bit words.
    String pattern = "a".repeat(100) + "*" + "b".repeat(155);
    assertThat(pattern.codePointCount(0, pattern.length())).isEqualTo(Glob.MAX_CODE_POINTS);
    assertThat(m(pattern, "a".repeat(100) + "xyz" + "b".repeat(155))).isTrue();
    assertThat(m(pattern, "a".repeat(100) + "b".repeat(155))).isTrue();
    assertThat(m(pattern, "a".repeat(100) + "b".repeat(154))).isFalse();
    assertThat(m("?".repeat(256), "q".repeat(256))).isTrue();
    assertThat(m("?".repeat(256), "q".repeat(255))).isFalse();
    assertThat(m("?".repeat(256), "q".repeat(257))).isFalse();
  }

  @Test
  void patternsThatBacktrackExponentiallyElsewhereStayLinear() {
    // A backtracking matcher tries every way to split the text among the stars: about
    // n^10 / 10! attempts here before it fails. The automaton takes one step per code point.
    String text = "a".repeat(1_000_000);
    assertTimeoutPreemptively(
        Duration.ofSeconds(20),
        () -> {
          assertThat(m("*a*a*a*a*a*a*a*a*a*a*b", text)).isFalse();
          assertThat(m("*a*a*a*a*a*a*a*a*a*a*", text)).isTrue();
          assertThat(m("a*".repeat(120) + "b", text)).isFalse();
          assertThat(m("*" + "?".repeat(200) + "b", text)).isFalse();
        });
  }

  /** An independent oracle: the pattern translated to java.util.regex, every member quoted. */
  static Pattern oracle(String glob) {
    StringBuilder re = new StringBuilder();
    int[] cps = glob.codePoints().toArray();
    for (int p = 0; p < cps.length; p++) {
      int c = cps[p];
      if (c == '*') {
        re.append(".*");
      } else if (c == '?') {
        re.append('.');
      } else if (c == '[') {
        int q = p + 1;
        StringBuilder cls = new StringBuilder("[");
        if (cps[q] == '!' || cps[q] == '^') {
          cls.append('^');
          q++;
        }
        boolean first = true;
        while (first || cps[q] != ']') {
          int lo = cps[q] == '\\' ? cps[++q] : cps[q];
          q++;
          cls.append(quote(lo));
          if (cps[q] == '-' && cps[q + 1] != ']') {
            q++;
            int hi = cps[q] == '\\' ? cps[++q] : cps[q];
            q++;
            cls.append('-').append(quote(hi));
          }
          first = false;
        }
        re.append(cls).append(']');
        p = q;
      } else if (c == '\\') {
        re.append(quote(cps[++p]));
      } else {
        re.append(quote(c));
      }
    }
    return Pattern.compile(re.toString(), Pattern.DOTALL);
  }

  static String quote(int cp) {
    return "\\x{" + Integer.toHexString(cp) + "}";
  }

  @Test
  void agreesWithARegexOracleOnRandomPatternsAndNames() throws Exception {
    Random random = new Random(19);
    String alphabet = "abc,-./]";
    int checked = 0;
    for (int round = 0; round < 20_000; round++) {
      String glob = randomGlob(random, alphabet);
      Glob g = Glob.compile(glob);
      Pattern oracle = oracle(glob);
      for (int t = 0; t < 10; t++) {
        StringBuilder text = new StringBuilder();
        int len = random.nextInt(9);
        for (int i = 0; i < len; i++) {
          text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        String s = text.toString();
        assertThat(g.matches(s)).as("%s against %s", glob, s).isEqualTo(oracle.matcher(s).matches());
        checked++;
      }
    }
    assertThat(checked).isEqualTo(200_000);
  }

  /** A random pattern that parses: literals, escapes, ?, *, classes with ranges and negation. */
  static String randomGlob(Random random, String alphabet) {
    StringBuilder sb = new StringBuilder();
    int elements = random.nextInt(7);
    for (int e = 0; e < elements; e++) {
      switch (random.nextInt(6)) {
        case 0 -> sb.append('*');
        case 1 -> sb.append('?');
        case 2 -> {
          sb.append('[');
          if (random.nextBoolean()) {
            sb.append(random.nextBoolean() ? '!' : '^');
          }
          int members = 1 + random.nextInt(3);
          for (int i = 0; i < members; i++) {
            char lo = alphabet.charAt(random.nextInt(alphabet.length()));
            char hi = alphabet.charAt(random.nextInt(alphabet.length()));
            member(sb, lo, random);
            if (random.nextBoolean()) {
              sb.append('-');
              member(sb, lo <= hi ? hi : lo, random);
            }
          }
          sb.append(']');
        }
        case 3 -> sb.append('\\').append(alphabet.charAt(random.nextInt(alphabet.length())));
        default -> sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
    }
    return sb.toString();
  }

  /** Appends a class member, escaped when it must be ('-', ']') and at random otherwise. */
  static void member(StringBuilder sb, char c, Random random) {
    if (c == '-' || c == ']' || random.nextBoolean()) {
      sb.append('\\');
    }
    sb.append(c);
  }
}
