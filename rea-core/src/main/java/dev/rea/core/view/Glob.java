package dev.rea.core.view;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * A shell-style name pattern, matched against the whole of a tensor name or metadata key
 * (CONTRACT section 12: {@code name_glob}, {@code key_glob}). Matching is on Unicode code points,
 * case-sensitive, with no character special to names ({@code .} and {@code /} are ordinary).
 *
 * <p>Syntax (each element matches one code point, except {@code *}):
 *
 * <ul>
 *   <li>{@code *}: any run of code points, the empty run included;
 *   <li>{@code ?}: any one code point;
 *   <li>{@code [...]}: one code point of a class: single code points and ranges {@code a-z}
 *       (inclusive, by code point value). {@code [!...]} and {@code [^...]} both negate (POSIX
 *       shells use {@code !}, many tools also take {@code ^}). A {@code ]} right after the
 *       opening bracket (or after the negation) is a member, as is a {@code -} first or last;
 *       {@code [} is an ordinary member, but POSIX class names ({@code [:digit:]}, {@code [=}, {@code
 *       [.}) are refused rather than misread: write {@code [0-9]};
 *   <li>{@code \}: the next code point is literal, inside a class too ({@code \*}, {@code \[},
 *       {@code \\});
 *   <li>any other code point matches itself.
 * </ul>
 *
 * <p>A pattern that does not parse (an unclosed class, a reversed range {@code [z-a]}, a
 * trailing {@code \}, a POSIX class name) or is longer than {@value #MAX_CODE_POINTS} code points
 * is refused with a {@link SyntaxError} giving the 0-based code-point position of the problem.
 *
 * <p>Cost: {@link #matches} simulates the pattern's automaton bit-parallel (one bit per element,
 * at most {@value #MAX_CODE_POINTS} + 1 bits), so a name of n code points costs O(n) steps of at
 * most five 64-bit words each and a binary search over the pattern's class boundaries, whatever
 * the pattern: there is no backtracking (a pattern like {@code *a*a*a*a*b} is as cheap as {@code
 * *b}). Instances are immutable and thread-safe.
 */
public final class Glob {
  /** Longest pattern accepted, in code points. */
  public static final int MAX_CODE_POINTS = 256;

  private static final int MAX_CODE_POINT = Character.MAX_CODE_POINT;

  private final String pattern;
  /** Number of elements (states 1..k; state 0 is "nothing matched yet"). */
  private final int k;
  private final int words;
  /** Bit j set when a {@code *} follows element j (state j loops on any code point). */
  private final long[] star;
  /** Starts of the elementary code-point intervals, ascending; the first is 0. */
  private final int[] bounds;
  /** For each elementary interval, the elements that match its code points. */
  private final long[][] intervalMasks;
  /** Masks of ASCII code points (the usual case), taken from {@link #intervalMasks}. */
  private final long[][] asciiMasks;

  private Glob(String pattern, List<int[]> elements, boolean[] starAfter) {
    this.pattern = pattern;
    this.k = elements.size();
    this.words = (k + 1 + 63) / 64;
    this.star = new long[words];
    for (int j = 0; j <= k; j++) {
      if (starAfter[j]) {
        star[j >>> 6] |= 1L << (j & 63);
      }
    }
    TreeSet<Integer> starts = new TreeSet<>();
    starts.add(0);
    for (int[] ranges : elements) {
      for (int r = 0; r < ranges.length; r += 2) {
        starts.add(ranges[r]);
        if (ranges[r + 1] < MAX_CODE_POINT) {
          starts.add(ranges[r + 1] + 1);
        }
      }
    }
    this.bounds = starts.stream().mapToInt(Integer::intValue).toArray();
    this.intervalMasks = new long[bounds.length][words];
    for (int j = 1; j <= k; j++) {
      int[] ranges = elements.get(j - 1);
      for (int r = 0; r < ranges.length; r += 2) {
        int first = Arrays.binarySearch(bounds, ranges[r]);
        for (int i = first; i < bounds.length && bounds[i] <= ranges[r + 1]; i++) {
          intervalMasks[i][j >>> 6] |= 1L << (j & 63);
        }
      }
    }
    this.asciiMasks = new long[128][];
    for (int c = 0; c < 128; c++) {
      asciiMasks[c] = intervalMasks[interval(c)];
    }
  }

  /** @return the pattern as given */
  public String pattern() {
    return pattern;
  }

  @Override
  public String toString() {
    return pattern;
  }

  /**
   * Whether the whole of {@code text} matches the pattern.
   *
   * @param text a name or key (unpaired surrogates count as code points of their own)
   * @return true on a match of the whole text
   */
  public boolean matches(String text) {
    Objects.requireNonNull(text, "text");
    long[] d = new long[words];
    long[] next = new long[words];
    d[0] = 1L; // state 0
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      i += Character.charCount(cp);
      long[] mask = cp < 128 ? asciiMasks[cp] : intervalMasks[interval(cp)];
      long carry = 0;
      long any = 0;
      for (int w = 0; w < words; w++) {
        long shifted = (d[w] << 1) | carry;
        carry = d[w] >>> 63;
        next[w] = (shifted & mask[w]) | (d[w] & star[w]);
        any |= next[w];
      }
      if (any == 0) {
        return false;
      }
      long[] t = d;
      d = next;
      next = t;
    }
    return (d[k >>> 6] & (1L << (k & 63))) != 0;
  }

  /** @return the elementary interval holding {@code cp} */
  private int interval(int cp) {
    int lo = 0;
    int hi = bounds.length - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (bounds[mid] <= cp) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /**
   * Parses a pattern.
   *
   * @param pattern the pattern (see the class comment)
   * @return the compiled pattern
   * @throws SyntaxError when it does not parse or is too long, with the 0-based code-point
   *     position of the problem
   */
  public static Glob compile(String pattern) throws SyntaxError {
    Objects.requireNonNull(pattern, "pattern");
    int[] cps = pattern.codePoints().limit(MAX_CODE_POINTS + 1L).toArray();
    if (cps.length > MAX_CODE_POINTS) {
      throw new SyntaxError(
          MAX_CODE_POINTS, "the pattern is longer than " + MAX_CODE_POINTS + " code points");
    }
    List<int[]> elements = new ArrayList<>();
    boolean[] starAfter = new boolean[cps.length + 1];
    int p = 0;
    while (p < cps.length) {
      int c = cps[p];
      if (c == '*') {
        starAfter[elements.size()] = true; // consecutive stars are one
        p++;
      } else if (c == '?') {
        elements.add(new int[] {0, MAX_CODE_POINT});
        p++;
      } else if (c == '[') {
        p = parseClass(cps, p, elements);
      } else if (c == '\\') {
        if (p + 1 >= cps.length) {
          throw new SyntaxError(p, "'\\' at the end escapes nothing (write \\\\ for a backslash)");
        }
        elements.add(new int[] {cps[p + 1], cps[p + 1]});
        p += 2;
      } else {
        elements.add(new int[] {c, c});
        p++;
      }
    }
    return new Glob(pattern, elements, Arrays.copyOf(starAfter, elements.size() + 1));
  }

  /**
   * Parses the class opened at {@code open} and adds its sorted, merged ranges (complemented when
   * negated) to {@code elements}.
   *
   * @return the position after the closing {@code ]}
   */
  private static int parseClass(int[] cps, int open, List<int[]> elements) throws SyntaxError {
    int p = open + 1;
    boolean negated = p < cps.length && (cps[p] == '!' || cps[p] == '^');
    if (negated) {
      p++;
    }
    List<int[]> ranges = new ArrayList<>();
    boolean first = true;
    while (true) {
      if (p >= cps.length) {
        throw new SyntaxError(open, "the character class opened here has no closing ']'");
      }
      int c = cps[p];
      if (c == ']' && !first) {
        p++;
        break;
      }
      if (c == '[' && p + 1 < cps.length && (cps[p + 1] == ':' || cps[p + 1] == '=' || cps[p + 1] == '.')) {
        throw new SyntaxError(
            p, "POSIX class names like [:digit:] are not supported: list ranges, e.g. [0-9]");
      }
      int at = p;
      int lo;
      if (c == '\\') {
        if (p + 1 >= cps.length) {
          throw new SyntaxError(p, "'\\' at the end escapes nothing (write \\\\ for a backslash)");
        }
        lo = cps[p + 1];
        p += 2;
      } else {
        lo = c;
        p++;
      }
      int hi = lo;
      if (p + 1 < cps.length && cps[p] == '-' && cps[p + 1] != ']') {
        p++;
        if (cps[p] == '\\') {
          if (p + 1 >= cps.length) {
            throw new SyntaxError(p, "'\\' at the end escapes nothing (write \\\\ for a backslash)");
          }
          hi = cps[p + 1];
          p += 2;
        } else {
          hi = cps[p];
          p++;
        }
        if (hi < lo) {
          throw new SyntaxError(
              at,
              "the range "
                  + new String(Character.toChars(lo))
                  + "-"
                  + new String(Character.toChars(hi))
                  + " is reversed (its end is below its start)");
        }
      }
      ranges.add(new int[] {lo, hi});
      first = false;
    }
    int[] merged = merge(ranges);
    elements.add(negated ? complement(merged) : merged);
    return p;
  }

  /** @return {@code ranges} sorted by start and merged where they touch, as flat pairs */
  private static int[] merge(List<int[]> ranges) {
    ranges.sort((a, b) -> Integer.compare(a[0], b[0]));
    int[] out = new int[ranges.size() * 2];
    int n = 0;
    for (int[] r : ranges) {
      if (n > 0 && r[0] <= out[n - 1] + 1) {
        out[n - 1] = Math.max(out[n - 1], r[1]);
      } else {
        out[n++] = r[0];
        out[n++] = r[1];
      }
    }
    return Arrays.copyOf(out, n);
  }

  /** @return the code points 0..U+10FFFF not in the sorted, merged {@code ranges} */
  private static int[] complement(int[] ranges) {
    int[] out = new int[ranges.length + 2];
    int n = 0;
    int from = 0;
    for (int r = 0; r < ranges.length; r += 2) {
      if (ranges[r] > from) {
        out[n++] = from;
        out[n++] = ranges[r] - 1;
      }
      from = ranges[r + 1] + 1;
    }
    if (from <= MAX_CODE_POINT) {
      out[n++] = from;
      out[n++] = MAX_CODE_POINT;
    }
    return Arrays.copyOf(out, n);
  }

  /** A pattern that does not parse, with the 0-based code-point position of the problem. */
  public static final class SyntaxError extends Exception {
    private static final long serialVersionUID = 1L;

    private final int position;
    private final String reason;

    SyntaxError(int position, String reason) {
      super(reason + " (at code point " + position + ", counting from 0)");
      this.position = position;
      this.reason = reason;
    }

    /** @return the 0-based code-point position in the pattern */
    public int position() {
      return position;
    }

    /** @return what is wrong, without the position */
    public String reason() {
      return reason;
    }
  }
}
