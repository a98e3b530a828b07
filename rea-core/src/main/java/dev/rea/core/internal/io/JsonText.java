package dev.rea.core.internal.io;


/**
 * Sizes of JSON string literals as REA writes them, so that the retained budget can charge a
 * string what it will cost in the Evidence JSON rather than its UTF-8 length.
 *
 * <p>The escaping rules are those of the Evidence writer ({@code EvidenceJson}: Jackson's
 * {@code UTF8JsonGenerator} with default features) and of the RFC 8785 canonical form ({@code
 * EvidenceIds}: the reference canonicalizer), which agree byte for byte (checked for every code
 * point by {@code JsonTextTest}):
 *
 * <ul>
 *   <li>{@code "} and {@code \} become two bytes ({@code \"}, {@code \\});
 *   <li>U+0008, U+0009, U+000A, U+000C, U+000D become two bytes ({@code \b \t \n \f \r});
 *   <li>every other control character U+0000..U+001F becomes six bytes (a backslash, {@code u}
 *       and four hex digits);
 *   <li>everything else, {@code /} and U+007F included, is written as its UTF-8 bytes.
 * </ul>
 *
 * <p>So a string of n UTF-8 bytes costs between n and 6n bytes inside its quotes.
 */
public final class JsonText {
  /** Extra bytes (beyond the one raw byte) each ASCII byte costs when escaped. */
  private static final byte[] EXTRA = new byte[128];

  static {
    for (int c = 0; c < 0x20; c++) {
      EXTRA[c] = 5;
    }
    EXTRA['\b'] = 1;
    EXTRA['\t'] = 1;
    EXTRA['\n'] = 1;
    EXTRA['\f'] = 1;
    EXTRA['\r'] = 1;
    EXTRA['"'] = 1;
    EXTRA['\\'] = 1;
  }

  private JsonText() {}

  /**
   * @param c a character below U+0080
   * @return the bytes escaping adds to it: 5 for a control character with no short escape, 1
   *     for {@code "}, {@code \} and {@code \b \t \n \f \r}, else 0
   */
  public static int escapeExtra(char c) {
    return EXTRA[c];
  }

  /**
   * @return the bytes that escaping adds to the UTF-8 text {@code b[off, end)}: 1 per {@code "},
   *     {@code \} and short-escaped control byte, 5 per other control byte (bytes of multi-byte
   *     sequences are never escaped)
   */
  public static long escapeExtra(byte[] b, int off, int end) {
    long extra = 0;
    for (int i = off; i < end; i++) {
      byte x = b[i];
      if (x >= 0) {
        extra += EXTRA[x];
      }
    }
    return extra;
  }

  /**
   * @return the length in bytes of {@code s} inside a JSON string literal (without the two
   *     quotes): its UTF-8 length plus {@link #escapeExtra escapes}. A lone surrogate counts three
   *     bytes (REA never writes one: every retained string was well-formed UTF-8 or is rejected).
   */
  public static long escapedLength(CharSequence s) {
    long n = 0;
    int len = s.length();
    for (int i = 0; i < len; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n += 1 + EXTRA[c];
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < len
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }

  /** @return the length in bytes of {@code s} as a JSON string literal, quotes included */
  public static long quotedLength(CharSequence s) {
    return 2 + escapedLength(s);
  }
}
