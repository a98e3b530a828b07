package dev.rea.core.internal.canonical;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The RFC 8785 canonical form of JSON text (RFC 8259), for Evidence read back, whose identity is
 * computed over the text as given: object members sorted by their names as UTF-16 code unit
 * sequences ({@link String#compareTo}), no whitespace, strings and numbers in the spelling of
 * {@link CanonicalSink}. A number's value is what {@link Double#parseDouble} reads from its
 * text (correctly rounded), so {@code 1e0}, {@code 1.0} and {@code 10E-1} are all {@code 1}, and
 * {@code -0} is {@code 0}.
 *
 * <p>One pass per nesting level over the input bytes, nothing but the output built: an object's
 * members are found first (names decoded, values skipped), then written in name order, each
 * value canonicalized where it stands. Strings are copied into the output as they are decoded.
 *
 * <p>Refused with {@link IllegalArgumentException} (the message names the byte offset): text
 * that is not one JSON value with optional whitespace around it; invalid UTF-8; an unescaped
 * control character in a string; an escaped lone surrogate (no UTF-8 text can carry one, and
 * Evidence import refuses them); a duplicate name in an object (RFC 8785 section 3.1 needs
 * unique names); a number too large for a double (I-JSON, RFC 7493, on which RFC 8785 builds);
 * nesting deeper than {@link #MAX_DEPTH}.
 *
 * <p>Stateless entry points; thread-safe.
 */
public final class JsonTextCanonicalizer {
  /** Deepest nesting of arrays and objects accepted (Evidence import allows 68). */
  public static final int MAX_DEPTH = 512;

  private final byte[] in;
  private final int end;
  private final CanonicalSink out;
  private int pos;

  private JsonTextCanonicalizer(byte[] in, CanonicalSink out) {
    this.in = in;
    this.end = in.length;
    this.out = out;
  }

  /**
   * @param json UTF-8 JSON text
   * @return its RFC 8785 canonical UTF-8 bytes
   * @throws IllegalArgumentException when the text is not canonicalizable JSON (see the class
   *     comment)
   */
  public static byte[] canonicalize(byte[] json) {
    // The canonical form of a compact text is usually exactly as long (Evidence read back is a
    // compact copy), so the first array is then the result, without a copy.
    CanonicalSink sink = CanonicalSink.toBytes(json.length);
    canonicalize(json, sink);
    return sink.bytes();
  }

  /**
   * Writes the canonical form of {@code json} into {@code sink} ({@link CanonicalSink#finish}
   * is left to the caller).
   *
   * @throws IllegalArgumentException when the text is not canonicalizable JSON
   */
  public static void canonicalize(byte[] json, CanonicalSink sink) {
    JsonTextCanonicalizer c = new JsonTextCanonicalizer(json, sink);
    c.whitespace();
    c.value(0);
    c.whitespace();
    if (c.pos != c.end) {
      throw c.error("text after the JSON value");
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("not canonicalizable JSON: " + what + " at byte " + pos);
  }

  private void whitespace() {
    while (pos < end) {
      byte b = in[pos];
      if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
        return;
      }
      pos++;
    }
  }

  private byte peek() {
    if (pos >= end) {
      throw error("unexpected end of text");
    }
    return in[pos];
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("expected '" + c + "'");
    }
    pos++;
  }

  /** Canonicalizes the value at {@code pos}, nested {@code depth} containers deep. */
  private void value(int depth) {
    byte b = peek();
    switch (b) {
      case '{' -> object(depth + 1);
      case '[' -> array(depth + 1);
      case '"' -> stringValue();
      case 't' -> literal("true");
      case 'f' -> literal("false");
      case 'n' -> literal("null");
      default -> {
        if (b == '-' || (b >= '0' && b <= '9')) {
          number();
        } else {
          throw error("unexpected byte 0x" + Integer.toHexString(b & 0xFF));
        }
      }
    }
  }

  private void literal(String word) {
    int n = word.length();
    if (end - pos < n
        || !Arrays.equals(in, pos, pos + n, word.getBytes(StandardCharsets.US_ASCII), 0, n)) {
      throw error("unexpected literal");
    }
    pos += n;
    out.raw(in, pos - n, pos);
  }

  private void array(int depth) {
    if (depth > MAX_DEPTH) {
      throw error("nesting deeper than " + MAX_DEPTH);
    }
    pos++;
    out.ascii('[');
    whitespace();
    if (peek() == ']') {
      pos++;
      out.ascii(']');
      return;
    }
    while (true) {
      whitespace();
      value(depth);
      whitespace();
      byte b = peek();
      pos++;
      if (b == ']') {
        out.ascii(']');
        return;
      }
      if (b != ',') {
        pos--;
        throw error("expected ',' or ']'");
      }
      out.ascii(',');
    }
  }

  /**
   * An object: its members found (names decoded, each value's span skipped), then written in
   * name order, each value canonicalized from where it starts.
   */
  private void object(int depth) {
    if (depth > MAX_DEPTH) {
      throw error("nesting deeper than " + MAX_DEPTH);
    }
    pos++;
    whitespace();
    if (peek() == '}') {
      pos++;
      out.raw(EMPTY_OBJECT);
      return;
    }
    String[] names = new String[8];
    int[] starts = new int[8];
    int[] ends = new int[8];
    int n = 0;
    while (true) {
      whitespace();
      if (peek() != '"') {
        throw error("expected a property name");
      }
      if (n == names.length) {
        names = Arrays.copyOf(names, n * 2);
        starts = Arrays.copyOf(starts, n * 2);
        ends = Arrays.copyOf(ends, n * 2);
      }
      names[n] = name();
      whitespace();
      expect(':');
      whitespace();
      starts[n] = pos;
      skipValue();
      ends[n] = pos;
      n++;
      whitespace();
      byte b = peek();
      pos++;
      if (b == '}') {
        break;
      }
      if (b != ',') {
        pos--;
        throw error("expected ',' or '}'");
      }
    }
    int after = pos;
    int[] order = sortedOrder(names, n);
    out.ascii('{');
    for (int i = 0; i < n; i++) {
      int m = order[i];
      if (i > 0) {
        if (names[m].equals(names[order[i - 1]])) {
          pos = starts[m];
          throw error("duplicate property name");
        }
        out.ascii(',');
      }
      out.string(names[m]);
      out.ascii(':');
      pos = starts[m];
      value(depth);
      if (pos != ends[m]) {
        throw error("malformed value");
      }
    }
    out.ascii('}');
    pos = after;
  }

  private static final byte[] EMPTY_OBJECT = {'{', '}'};

  /**
   * @return the indices {@code 0..n-1} ordered by {@code names} as UTF-16 code unit sequences
   *     (insertion sort for the few members objects usually have)
   */
  private static int[] sortedOrder(String[] names, int n) {
    if (n > 16) {
      return java.util.stream.IntStream.range(0, n)
          .boxed()
          .sorted((x, y) -> names[x].compareTo(names[y]))
          .mapToInt(Integer::intValue)
          .toArray();
    }
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      int j = i;
      while (j > 0 && names[order[j - 1]].compareTo(names[i]) > 0) {
        order[j] = order[j - 1];
        j--;
      }
      order[j] = i;
    }
    return order;
  }

  /**
   * Moves past the value at {@code pos} without checking it (it is checked when it is
   * canonicalized): a string to its closing quote, a container to its closing bracket, any other
   * token to the next structural character or whitespace.
   */
  private void skipValue() {
    int nesting = 0;
    do {
      byte b = peek();
      if (b == '"') {
        pos++;
        while (peek() != '"') {
          pos += in[pos] == '\\' ? 2 : 1;
        }
        pos++;
      } else if (b == '{' || b == '[') {
        nesting++;
        pos++;
      } else if (b == '}' || b == ']') {
        if (nesting == 0) {
          return; // the enclosing object's end: an empty value, refused when canonicalized
        }
        nesting--;
        pos++;
      } else if (nesting > 0) {
        pos++;
      } else {
        while (pos < end && !delimiter(in[pos])) {
          pos++;
        }
      }
    } while (nesting > 0);
  }

  private static boolean delimiter(byte b) {
    return b == ',' || b == '}' || b == ']' || b == ':' || b == ' ' || b == '\t' || b == '\n'
        || b == '\r' || b == '"' || b == '{' || b == '[';
  }

  /** A string value, written canonically as its bytes are decoded. */
  private void stringValue() {
    pos++;
    out.ascii('"');
    int run = pos;
    while (true) {
      int b = peek() & 0xFF;
      if (b == '"') {
        out.raw(in, run, pos);
        pos++;
        out.ascii('"');
        return;
      }
      if (b == '\\') {
        out.raw(in, run, pos);
        int c = escape();
        out.character(c);
        run = pos;
      } else if (b < 0x20) {
        throw error("unescaped control character in a string");
      } else if (b < 0x80) {
        pos++;
      } else {
        pos += utf8Sequence();
      }
    }
  }

  /** A property name, decoded (for sorting; {@link CanonicalSink#string} writes it). */
  private String name() {
    pos++;
    int start = pos;
    @Nullable StringBuilder escaped = null;
    int run = pos;
    while (true) {
      int b = peek() & 0xFF;
      if (b == '"') {
        pos++;
        if (escaped == null) {
          return new String(in, start, pos - 1 - start, StandardCharsets.UTF_8);
        }
        escaped.append(new String(in, run, pos - 1 - run, StandardCharsets.UTF_8));
        return escaped.toString();
      }
      if (b == '\\') {
        if (escaped == null) {
          escaped = new StringBuilder();
        }
        escaped.append(new String(in, run, pos - run, StandardCharsets.UTF_8));
        escaped.appendCodePoint(escape());
        run = pos;
      } else if (b < 0x20) {
        throw error("unescaped control character in a string");
      } else if (b < 0x80) {
        pos++;
      } else {
        pos += utf8Sequence();
      }
    }
  }

  /**
   * Decodes the escape at {@code pos} (a backslash) and moves past it; a surrogate pair written
   * as two escapes is one code point.
   *
   * @return the code point
   */
  private int escape() {
    int at = pos;
    pos++;
    byte e = peek();
    pos++;
    switch (e) {
      case '"':
        return '"';
      case '\\':
        return '\\';
      case '/':
        return '/';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 'u':
        break;
      default:
        pos = at;
        throw error("invalid escape");
    }
    char c = (char) hex4();
    if (!Character.isSurrogate(c)) {
      return c;
    }
    if (Character.isHighSurrogate(c)
        && end - pos >= 6
        && in[pos] == '\\'
        && in[pos + 1] == 'u') {
      int save = pos;
      pos += 2;
      char low = (char) hex4();
      if (Character.isLowSurrogate(low)) {
        return Character.toCodePoint(c, low);
      }
      pos = save;
    }
    pos = at;
    throw error("escaped lone surrogate");
  }

  private int hex4() {
    if (end - pos < 4) {
      throw error("unexpected end of text");
    }
    int v = 0;
    for (int i = 0; i < 4; i++) {
      int d = Character.digit(in[pos + i], 16);
      if (d < 0) {
        throw error("invalid \\u escape");
      }
      v = (v << 4) | d;
    }
    pos += 4;
    return v;
  }

  /**
   * @return the length of the well-formed UTF-8 sequence of two to four bytes at {@code pos}
   *     (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF)
   */
  private int utf8Sequence() {
    int b = in[pos] & 0xFF;
    int n;
    int lo = 0x80;
    int hi = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) {
      n = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
      n = 3;
      lo = b == 0xE0 ? 0xA0 : 0x80;
      hi = b == 0xED ? 0x9F : 0xBF;
    } else if (b >= 0xF0 && b <= 0xF4) {
      n = 4;
      lo = b == 0xF0 ? 0x90 : 0x80;
      hi = b == 0xF4 ? 0x8F : 0xBF;
    } else {
      throw error("invalid UTF-8");
    }
    if (end - pos < n) {
      throw error("invalid UTF-8");
    }
    for (int i = 1; i < n; i++) {
      int c = in[pos + i] & 0xFF;
      if (c < (i == 1 ? lo : 0x80) || c > (i == 1 ? hi : 0xBF)) {
        throw error("invalid UTF-8");
      }
    }
    return n;
  }

  /** A number (RFC 8259 grammar), written as the ECMAScript form of the double it reads as. */
  private void number() {
    int start = pos;
    if (in[pos] == '-') {
      pos++;
    }
    int intStart = pos;
    if (peek() == '0') {
      pos++;
    } else if (digitsAt() == 0) {
      throw error("invalid number");
    }
    int intDigits = pos - intStart;
    boolean integral = true;
    if (pos < end && in[pos] == '.') {
      pos++;
      integral = false;
      if (digitsAt() == 0) {
        throw error("invalid number");
      }
    }
    if (pos < end && (in[pos] == 'e' || in[pos] == 'E')) {
      pos++;
      integral = false;
      if (pos < end && (in[pos] == '+' || in[pos] == '-')) {
        pos++;
      }
      if (digitsAt() == 0) {
        throw error("invalid number");
      }
    }
    String text = new String(in, start, pos - start, StandardCharsets.US_ASCII);
    if (integral && intDigits <= 15) {
      out.integer(Long.parseLong(text));
      return;
    }
    double d = Double.parseDouble(text);
    if (Double.isInfinite(d)) {
      pos = start;
      throw error("number too large for a double");
    }
    out.number(d);
  }

  /** @return how many ASCII digits were passed at {@code pos} */
  private int digitsAt() {
    int from = pos;
    while (pos < end && in[pos] >= '0' && in[pos] <= '9') {
      pos++;
    }
    return pos - from;
  }
}
