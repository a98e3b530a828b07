package dev.rea.core.internal.format.safetensors;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import tools.jackson.core.JsonToken;

/**
 * The JSON tokenizer under {@link HeaderParse}: a pull parser over a safetensors header held in
 * memory, giving the tokens of RFC 8259 JSON one at a time with the byte offset where each
 * starts. It replaces Jackson's byte-level parser for this one job (a header of a sharded
 * checkpoint has one distinct property name per tensor, and Jackson's name decoding was a quarter
 * of an inspection's time); Jackson stays the test oracle ({@code HeaderLexerOracleTest} compares
 * tokens, texts, offsets and refusals on random and mutated documents).
 *
 * <p>What it relies on: {@link HeaderPrescan} has checked the bytes first (strict UTF-8, no raw
 * control byte but tab, LF and CR, an object at the top), so a string's bytes are well-formed
 * UTF-8 here. What it checks: the grammar (commas, colons, brackets, no trailing comma, nothing
 * but whitespace after the top-level value), string escapes ({@code \" \\ \/ \b \f \n \r \t} and
 * {@code \}{@code uXXXX}), no unescaped tab, LF or CR inside a string, number syntax (no leading
 * zero, no lone sign, digits after a point and an exponent), the literals {@code true}, {@code
 * false} and {@code null}, and property names no longer than {@code nameLimit} bytes of UTF-8 (the
 * retained budget: a longer name is refused before it is decoded). What it leaves to the caller:
 * nesting depth (the caller counts containers and refuses first; {@code nestingLimit + 1} levels
 * is a backstop here), duplicate names, lone surrogate escapes (found when text is decoded, by
 * {@link StringSizer} or the caller's length check).
 *
 * <p>Strings are scanned when their token is read, and decoded only when asked: {@link
 * #currentName()} decodes a name whole (it is bounded by {@code nameLimit}); {@link
 * #readString(StringSizer)} decodes a value in chunks of {@value #CHUNK_CHARS} characters, so a value
 * is never held whole by the lexer.
 *
 * <p>Failures are {@link Syntax} (an unchecked exception with the reason and the offset in the
 * JSON of the byte that broke the grammar) and {@link NameTooLong}; the caller names the field.
 * Not thread-safe: one lexer per read.
 */
final class HeaderLexer {
  /** Characters handed to a sizer at a time by {@link #readString(StringSizer)}. */
  static final int CHUNK_CHARS = 4096;

  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private static final int ROOT = 0;
  private static final int FIRST = 1;
  private static final int AFTER_VALUE = 2;
  private static final int AFTER_NAME = 3;

  private final byte[] b;
  private final int end;
  private final int nameLimit;
  private final int depthLimit;

  private int pos;
  private int state = ROOT;
  private int depth;
  /** Bit {@code d} of word {@code d >>> 6}: whether container level {@code d + 1} is an object. */
  private long[] objects = new long[1];

  private int tokenStart;
  /** For a string or name: its first byte after the quote, its closing quote, its shape. */
  private int textStart;
  private int textEnd;
  private boolean textEscaped;
  private boolean textAscii;
  /** Whether the string's raw bytes hold a four-byte UTF-8 sequence (a surrogate pair). */
  private boolean textFourByte;
  /** For an integer token: its magnitude (unsigned bits), whether it fits 64 bits, its sign. */
  private long integer;
  private boolean integerFits;
  private boolean negative;

  private char[] chunk = new char[0];

  /**
   * @param json the header JSON, whole
   * @param nameLimit the longest property name in bytes of UTF-8, counted as written (a raw byte
   *     is one, an escape at least one: a lower bound of the decoded length)
   * @param depthLimit the deepest container nesting (the top-level object is level 1)
   */
  HeaderLexer(byte[] json, int nameLimit, int depthLimit) {
    this.b = json;
    this.end = json.length;
    this.nameLimit = nameLimit;
    this.depthLimit = depthLimit;
  }

  /** A refusal of the JSON grammar at {@link #offset} (in the JSON, not the file). */
  static final class Syntax extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final String reason;
    final int offset;

    Syntax(String reason, int offset) {
      super(reason, null, false, false);
      this.reason = reason;
      this.offset = offset;
    }
  }

  /** A property name of more than the name limit, starting (its quote) at {@link #offset}. */
  static final class NameTooLong extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int offset;

    NameTooLong(int offset) {
      super("a property name longer than the limit", null, false, false);
      this.offset = offset;
    }
  }

  /**
   * @return where the current token starts in the JSON: a string's or name's opening quote, a
   *     number's first character, a bracket
   */
  int tokenStart() {
    return tokenStart;
  }

  /** @return the offset in the JSON just past the last token read */
  int offset() {
    return pos;
  }

  /** @return the JSON, for the characters of a number token ({@link #tokenStart}, length) */
  byte[] bytes() {
    return b;
  }

  /** @return whether the current number token starts with a minus sign */
  boolean negative() {
    return negative;
  }

  /** @return whether the current integer token's magnitude fits 64 unsigned bits */
  boolean integerFits() {
    return integerFits;
  }

  /** @return the current integer token's magnitude as unsigned bits (when it {@link #integerFits}) */
  long integer() {
    return integer;
  }

  /**
   * @return whether the current name or string is written without escapes: its decoded UTF-8 is
   *     its raw bytes, and its length in the Evidence JSON is {@link #textBytes} (nothing in it
   *     needs escaping there: raw quotes, backslashes and control bytes cannot occur)
   */
  boolean textPlain() {
    return !textEscaped;
  }

  /** @return the raw length in bytes of the current name or string, without its quotes */
  int textBytes() {
    return textEnd - textStart;
  }

  /** @return whether the current name or string's raw bytes hold a four-byte UTF-8 sequence */
  boolean textFourByte() {
    return textFourByte;
  }

  /**
   * @return whether the current name is exactly the ASCII {@code word} as written (no escapes):
   *     a comparison of bytes that decodes nothing
   */
  boolean nameIs(String word) {
    int n = word.length();
    if (textEscaped || textEnd - textStart != n) {
      return false;
    }
    for (int k = 0; k < n; k++) {
      if (b[textStart + k] != word.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  /** @return the length in bytes of the current number token */
  int numberLength() {
    return textEnd - tokenStart;
  }

  /**
   * Reads the next token.
   *
   * @return the token; {@code NOT_AVAILABLE} after the top-level value when only whitespace
   *     follows (where Jackson's parsers return null)
   * @throws Syntax where the grammar is broken
   * @throws NameTooLong for a property name over the limit
   */
  JsonToken nextToken() {
    int c = skipSpace();
    switch (state) {
      case AFTER_NAME:
        if (c != ':') {
          throw unexpected(c, "':' after a property name");
        }
        pos++;
        return value(skipSpace());
      case FIRST:
        if (inObject()) {
          return c == '}' ? close(JsonToken.END_OBJECT) : name(c, "a property name or '}'");
        }
        return c == ']' ? close(JsonToken.END_ARRAY) : value(c);
      case AFTER_VALUE:
        if (depth == 0) {
          if (c < 0) {
            return JsonToken.NOT_AVAILABLE;
          }
          throw new Syntax("content after the top-level value: " + describe(c), pos);
        }
        if (c == ',') {
          pos++;
          c = skipSpace();
          return inObject() ? name(c, "a property name after ','") : value(c);
        }
        if (inObject()) {
          if (c == '}') {
            return close(JsonToken.END_OBJECT);
          }
          throw unexpected(c, "',' or '}' after an object member");
        }
        if (c == ']') {
          return close(JsonToken.END_ARRAY);
        }
        throw unexpected(c, "',' or ']' after an array element");
      default:
        return value(c);
    }
  }

  private int skipSpace() {
    int i = pos;
    while (i < end) {
      byte x = b[i];
      if (x == ' ' || x == '\n' || x == '\r' || x == '\t') {
        i++;
      } else {
        pos = i;
        return x & 0xFF;
      }
    }
    pos = i;
    return -1;
  }

  private boolean inObject() {
    int d = depth - 1;
    return (objects[d >>> 6] & (1L << d)) != 0;
  }

  private JsonToken value(int c) {
    tokenStart = pos;
    state = AFTER_VALUE;
    switch (c) {
      case '{':
        return open(true, JsonToken.START_OBJECT);
      case '[':
        return open(false, JsonToken.START_ARRAY);
      case '"':
        scanString(false);
        return JsonToken.VALUE_STRING;
      case 't':
        return literal("true", JsonToken.VALUE_TRUE);
      case 'f':
        return literal("false", JsonToken.VALUE_FALSE);
      case 'n':
        return literal("null", JsonToken.VALUE_NULL);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return number();
        }
        throw unexpected(c, "a value");
    }
  }

  private JsonToken name(int c, String expected) {
    if (c != '"') {
      throw unexpected(c, expected);
    }
    tokenStart = pos;
    state = AFTER_NAME;
    scanString(true);
    return JsonToken.PROPERTY_NAME;
  }

  private JsonToken open(boolean object, JsonToken t) {
    if (depth == depthLimit) {
      throw new Syntax("containers nest deeper than " + depthLimit + " levels", pos);
    }
    int d = depth++;
    if ((d >>> 6) == objects.length) {
      objects = java.util.Arrays.copyOf(objects, objects.length * 2);
    }
    if (object) {
      objects[d >>> 6] |= 1L << d;
    } else {
      objects[d >>> 6] &= ~(1L << d);
    }
    pos++;
    state = FIRST;
    return t;
  }

  private JsonToken close(JsonToken t) {
    tokenStart = pos;
    pos++;
    depth--;
    state = AFTER_VALUE;
    return t;
  }

  private JsonToken literal(String word, JsonToken t) {
    int n = word.length();
    for (int k = 0; k < n; k++) {
      if (pos + k >= end || b[pos + k] != word.charAt(k)) {
        throw new Syntax("unrecognized token (expected '" + word + "')", pos);
      }
    }
    // A letter, digit or non-ASCII byte right after ("truex", "null0") makes another token.
    if (pos + n < end) {
      byte x = b[pos + n];
      if (x < 0 || x == '_' || x == '$' || isDigit(x) || ((x | 0x20) >= 'a' && (x | 0x20) <= 'z')) {
        throw new Syntax("unrecognized token (expected '" + word + "')", pos);
      }
    }
    pos += n;
    return t;
  }

  /** Scans a number's characters (RFC 8259 section 6) from {@link #pos}; textEnd is its end. */
  private JsonToken number() {
    int i = pos;
    boolean isInteger = true;
    negative = b[i] == '-';
    if (negative) {
      i++;
    }
    if (i >= end || !isDigit(b[i])) {
      throw new Syntax("a minus sign must be followed by a digit", Math.min(i, end));
    }
    long v = 0;
    boolean fits = true;
    if (b[i] == '0') {
      i++;
      if (i < end && isDigit(b[i])) {
        throw new Syntax("a number must not have a leading zero", i);
      }
    } else {
      // The magnitude as the digits go by: 19 digits always fit 64 unsigned bits; from the 20th
      // on, a digit fits only while the value stays at most 2^64-1 = 18446744073709551615.
      int digits = 0;
      while (i < end) {
        int d = b[i] - '0';
        if (d < 0 || d > 9) {
          break;
        }
        if (digits >= 19
            && (Long.compareUnsigned(v, 1844674407370955161L) > 0
                || (v == 1844674407370955161L && d > 5))) {
          fits = false;
        }
        v = v * 10 + d;
        digits++;
        i++;
      }
    }
    integer = v;
    integerFits = fits;
    if (i < end && b[i] == '.') {
      isInteger = false;
      i = digits(i + 1, "a decimal point must be followed by a digit");
    }
    if (i < end && (b[i] == 'e' || b[i] == 'E')) {
      isInteger = false;
      i++;
      if (i < end && (b[i] == '+' || b[i] == '-')) {
        i++;
      }
      i = digits(i, "an exponent must have a digit");
    }
    pos = i;
    textEnd = i;
    return isInteger ? JsonToken.VALUE_NUMBER_INT : JsonToken.VALUE_NUMBER_FLOAT;
  }

  private int digits(int i, String reason) {
    if (i >= end || !isDigit(b[i])) {
      throw new Syntax(reason, Math.min(i, end));
    }
    while (i < end && isDigit(b[i])) {
      i++;
    }
    return i;
  }

  private static boolean isDigit(byte x) {
    return x >= '0' && x <= '9';
  }

  /**
   * Scans a string from its opening quote at {@link #pos} to its closing quote: escapes checked,
   * no raw tab, LF or CR; for a name, its length (bytes of UTF-8, at least) against the name limit.
   */
  private void scanString(boolean isName) {
    int i = pos + 1;
    textStart = i;
    boolean escaped = false;
    boolean ascii = true;
    boolean fourByte = false;
    // The name's length as decoded UTF-8, at least: a raw byte is one byte of it, an escape at
    // least one.
    long units = 0;
    while (true) {
      // Eight bytes at a time while none is a quote, a backslash, a control byte or non-ASCII.
      // The lowest flagged byte is the first special one (a borrow only flags bytes above a
      // match), so the plain bytes before it are taken at once.
      while (i + 8 <= end) {
        long m = special((long) LONG_LE.get(b, i));
        int plain = m == 0 ? 8 : Long.numberOfTrailingZeros(m) >>> 3;
        i += plain;
        units += plain;
        if (isName && units > nameLimit) {
          throw new NameTooLong(pos);
        }
        if (m != 0) {
          break;
        }
      }
      if (i >= end) {
        throw new Syntax(
            "the header ends inside a " + (isName ? "property name" : "string"), end);
      }
      byte x = b[i];
      if (x == '"') {
        break;
      }
      if (x == '\\') {
        escaped = true;
        i = escape(i);
        units++;
      } else if (x >= 0 && x < 0x20) {
        throw new Syntax(
            "a control character (0x" + hex2(x) + ") must be escaped in a string",
            i);
      } else {
        if (x < 0) {
          ascii = false;
          fourByte |= (x & 0xF8) == 0xF0;
        }
        units++;
        i++;
      }
      if (isName && units > nameLimit) {
        throw new NameTooLong(pos);
      }
    }
    textEnd = i;
    textEscaped = escaped;
    textAscii = ascii;
    textFourByte = fourByte;
    pos = i + 1;
  }

  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  /**
   * @return nonzero when a byte of the little-endian word {@code w} is a quote, a backslash, below
   *     0x20 or 0x80 and above (a zero-byte test, exact as to whether any byte matches)
   */
  static long special(long w) {
    long quote = w ^ (ONES * '"');
    long slash = w ^ (ONES * '\\');
    return (((quote - ONES) & ~quote) | ((slash - ONES) & ~slash) | ((w - ONES * 0x20) & ~w) | w)
        & HIGHS;
  }

  /** Checks the escape whose backslash is at {@code i}; @return the offset after it */
  private int escape(int i) {
    if (i + 1 >= end) {
      throw new Syntax("the header ends inside an escape", end);
    }
    switch (b[i + 1]) {
      case '"':
      case '\\':
      case '/':
      case 'b':
      case 'f':
      case 'n':
      case 'r':
      case 't':
        return i + 2;
      case 'u':
        for (int k = i + 2; k < i + 6; k++) {
          if (k >= end) {
            throw new Syntax("the header ends inside a \\u escape", end);
          }
          if (hex(b[k]) < 0) {
            throw new Syntax("a \\u escape needs four hexadecimal digits", k);
          }
        }
        return i + 6;
      default:
        throw new Syntax("invalid escape (only \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u are JSON)", i + 1);
    }
  }

  private static String hex2(int x) {
    return Character.forDigit((x >> 4) & 0xF, 16) + "" + Character.forDigit(x & 0xF, 16);
  }

  private static int hex(byte x) {
    if (x >= '0' && x <= '9') {
      return x - '0';
    }
    if (x >= 'a' && x <= 'f') {
      return x - 'a' + 10;
    }
    if (x >= 'A' && x <= 'F') {
      return x - 'A' + 10;
    }
    return -1;
  }

  /** @return the current property name (or string), decoded */
  String currentName() {
    int n = textEnd - textStart;
    if (!textEscaped) {
      return new String(b, textStart, n, textAscii ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
    }
    StringBuilder sb = new StringBuilder(n);
    int i = textStart;
    char[] one = new char[2];
    while (i < textEnd) {
      int used = decode(i, one, 0);
      sb.append(one, 0, used >>> 28);
      i += used & 0x0FFFFFFF;
    }
    return sb.toString();
  }

  /**
   * Hands the current string value to the sizer {@code w} in chunks of at most {@value #CHUNK_CHARS}
   * characters (a surrogate pair may be split between two chunks).
   */
  void readString(StringSizer w) {
    if (chunk.length == 0) {
      chunk = new char[CHUNK_CHARS + 1];
    }
    int i = textStart;
    int filled = 0;
    if (textAscii && !textEscaped) {
      while (i < textEnd) {
        int n = Math.min(CHUNK_CHARS, textEnd - i);
        for (int k = 0; k < n; k++) {
          chunk[k] = (char) b[i + k];
        }
        w.write(chunk, 0, n);
        i += n;
      }
      return;
    }
    while (i < textEnd) {
      int used = decode(i, chunk, filled);
      filled += used >>> 28;
      i += used & 0x0FFFFFFF;
      if (filled >= CHUNK_CHARS) {
        w.write(chunk, 0, filled);
        filled = 0;
      }
    }
    if (filled > 0) {
      w.write(chunk, 0, filled);
    }
  }

  /**
   * Decodes one character or escape at {@code i} into {@code out[at]} (two units for a code point
   * above U+FFFF). The bytes were checked when scanned: UTF-8 by the pre-pass, escapes here.
   *
   * @return the units written in the top four bits, the bytes consumed in the rest
   */
  private int decode(int i, char[] out, int at) {
    int x = b[i] & 0xFF;
    if (x == '\\') {
      int e = b[i + 1];
      char c;
      switch (e) {
        case 'b':
          c = '\b';
          break;
        case 'f':
          c = '\f';
          break;
        case 'n':
          c = '\n';
          break;
        case 'r':
          c = '\r';
          break;
        case 't':
          c = '\t';
          break;
        case 'u':
          c =
              (char)
                  ((hex(b[i + 2]) << 12)
                      | (hex(b[i + 3]) << 8)
                      | (hex(b[i + 4]) << 4)
                      | hex(b[i + 5]));
          out[at] = c;
          return (1 << 28) | 6;
        default:
          c = (char) e; // '"', '\\' or '/'
      }
      out[at] = c;
      return (1 << 28) | 2;
    }
    if (x < 0x80) {
      out[at] = (char) x;
      return (1 << 28) | 1;
    }
    if (x < 0xE0) {
      out[at] = (char) (((x & 0x1F) << 6) | (b[i + 1] & 0x3F));
      return (1 << 28) | 2;
    }
    if (x < 0xF0) {
      out[at] = (char) (((x & 0x0F) << 12) | ((b[i + 1] & 0x3F) << 6) | (b[i + 2] & 0x3F));
      return (1 << 28) | 3;
    }
    int cp =
        ((x & 0x07) << 18)
            | ((b[i + 1] & 0x3F) << 12)
            | ((b[i + 2] & 0x3F) << 6)
            | (b[i + 3] & 0x3F);
    out[at] = Character.highSurrogate(cp);
    out[at + 1] = Character.lowSurrogate(cp);
    return (2 << 28) | 4;
  }

  private Syntax unexpected(int c, String expected) {
    if (c < 0) {
      String open = depth == 0 ? "before its value" : inObject() ? "inside an object" : "inside an array";
      return new Syntax("the header JSON ends " + open + " (expected " + expected + ")", end);
    }
    return new Syntax("expected " + expected + ", found " + describe(c), pos);
  }

  /** @return how a message names the byte {@code c}: {@code 'x'}, a byte in hex, or the end */
  private static String describe(int c) {
    if (c < 0) {
      return "the end of the header";
    }
    if (c >= 0x20 && c < 0x7F) {
      return "'" + (char) c + "'";
    }
    return "byte 0x" + hex2(c);
  }
}
