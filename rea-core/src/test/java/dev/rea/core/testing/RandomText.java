package dev.rea.core.testing;

import java.util.Random;

/**
 * Random text for JSON-size properties: ASCII, every kind of character JSON escapes (controls,
 * quote, backslash), DEL, and two-, three- and four-byte UTF-8 characters.
 */
public final class RandomText {
  private RandomText() {}

  /**
   * @param r the source of randomness
   * @param alphabet the characters to draw from (code points)
   * @param max the longest result, in code points
   * @return from 0 to {@code max} code points drawn from {@code alphabet}
   */
  public static String of(Random r, String alphabet, int max) {
    StringBuilder sb = new StringBuilder();
    int n = r.nextInt(max + 1);
    int points = alphabet.codePointCount(0, alphabet.length());
    for (int i = 0; i < n; i++) {
      sb.appendCodePoint(alphabet.codePointAt(alphabet.offsetByCodePoints(0, r.nextInt(points))));
    }
    return sb.toString();
  }
}
