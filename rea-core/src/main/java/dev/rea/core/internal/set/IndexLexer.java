package dev.rea.core.internal.set;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.io.RetainedBudget;
import dev.rea.core.internal.io.StrictJson;
import dev.rea.core.options.Limits;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The strict JSON lexer under {@link SafetensorsIndexReader}: one forward pass over a stream, in
 * chunks of {@value #CHUNK} bytes, with every rule of CONTRACT section 8 checked where its byte is
 * read, so that nothing of the input is kept but the value being read. Each chunk also goes to an
 * optional digest (the set record's {@code set.index.sha256}), so the index is read once.
 *
 * <p>Rules: RFC 8259 syntax (whitespace is space, tab, LF, CR; no byte order mark; nothing after
 * the top-level value); strings in strict UTF-8 (no overlong form, no encoded surrogate, nothing
 * over U+10FFFF, found at the sequence's first byte), no unescaped control character, no escaped
 * lone surrogate; numbers of at most {@value #MAX_NUMBER_CHARS} characters; container nesting at
 * most the nesting limit (the top-level object is level 1; {@code resource_exhausted} / {@code
 * nesting_limit}); at most the header ceiling in bytes ({@code header_ceiling}). Duplicate names
 * are the caller's to detect, except in values it skips ({@link #skipValue}). Every other
 * failure is {@code target_unavailable} / {@code file_format_rejected} naming the byte offset.
 *
 * <p>Not thread-safe: one lexer per read.
 */
final class IndexLexer {
  static final String WHAT = "safetensors index";
  /** Bytes read from the stream at a time. */
  static final int CHUNK = 64 * 1024;
  /** Longest number accepted, in characters (as Jackson's default number-length constraint). */
  static final int MAX_NUMBER_CHARS = 64;

  private final InputStream in;
  private final Limits limits;
  private final @Nullable MessageDigest digest;
  private final byte[] buf = new byte[CHUNK];
  private int pos;
  private int lim;
  /** Offset in the input of {@code buf[0]}. */
  private long base;
  private boolean eof;
  private int depth;
  /** The last string read, as UTF-8 (escapes resolved). */
  byte[] str = new byte[256];
  int strLength;
  /** Offset of the last string's opening quote. */
  long stringOffset;
  /** Longest string {@link #readString} reads, in UTF-8 bytes; the caller sets it per value. */
  int stringLimit = Integer.MAX_VALUE;
  /**
   * The refusal of a name longer than {@link #stringLimit}, while {@link #nextName} reads one;
   * null: a string past the limit is a {@code file_format_rejected} refusal.
   */
  private @Nullable LongStringRefusal longStringRefusal;

  /** Builds the refusal of a string cut off at the limit. */
  @FunctionalInterface
  interface LongStringRefusal {
    /**
     * @param limit the limit the string went past, in UTF-8 bytes
     * @param offset the offset of the string's opening quote
     */
    ReaException refuse(int limit, long offset);
  }
  /**
   * Whether {@link #readString} checks a string without keeping it (a value {@link #skipValue}
   * skips): an ignored string as long as the index costs no buffer of its size.
   */
  private boolean discarding;
  private final StringBuilder number = new StringBuilder();
  /**
   * Longest property name read, in UTF-8 bytes: the retained budget. An ignored member's name is
   * held while its object is checked for duplicates, and a 95 MB one took three times its size.
   */
  private final int nameLimit;
  /** The refusal of a name past {@link #nameLimit}. */
  private final LongStringRefusal longName;

  IndexLexer(InputStream in, Limits limits, @Nullable MessageDigest digest) {
    this.in = in;
    this.limits = limits;
    this.digest = digest;
    long budget = limits.retainedBudgetBytes();
    this.nameLimit = (int) Math.min(budget, Integer.MAX_VALUE - 8);
    this.longName = (cut, offset) -> new RetainedBudget(budget).refusalOfAtLeast(
        cut + 1L, "a property name of more than " + cut + " bytes", null, offset);
  }

  /** @return the longest property name read, in UTF-8 bytes (the retained budget) */
  int nameLimit() {
    return nameLimit;
  }

  /** @return the limits this lexer reads under */
  Limits limits() {
    return limits;
  }

  /** @return the bytes read from the stream so far */
  long bytesRead() {
    return base + lim;
  }

  /** @return the offset of the next byte */
  long offset() {
    return base + pos;
  }

  private boolean fill() throws ReaException, IOException {
    if (eof) {
      return false;
    }
    base += lim;
    pos = 0;
    lim = 0;
    // A read of no bytes is the end too: InputStream promises at least one byte or -1, but a
    // channel's stream passes on a channel's 0, which some sources give at their end.
    int n = in.read(buf, 0, buf.length);
    if (n <= 0) {
      eof = true;
      return false;
    }
    lim = n;
    SafetensorsIndexReader.checkSize(base + lim, limits);
    if (digest != null) {
      digest.update(buf, 0, n);
    }
    return true;
  }

  /** @return the next byte (0-255) without consuming it, or -1 at the end */
  int peek() throws ReaException, IOException {
    if (pos == lim && !fill()) {
      return -1;
    }
    return buf[pos] & 0xFF;
  }

  /** Consumes the byte {@link #peek} returned. */
  void take() {
    pos++;
  }

  /** Reads to the end of the stream (so that the digest covers it all). */
  void drain() throws ReaException, IOException {
    while (fill()) {
      pos = lim;
    }
  }

  /** @return the next byte that is not JSON whitespace, not consumed, or -1 at the end */
  int skipWhitespace() throws ReaException, IOException {
    while (true) {
      int c = peek();
      if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
        pos++;
      } else {
        return c;
      }
    }
  }

  /** Consumes whitespace and then the byte {@code c}. */
  void expect(char c) throws ReaException, IOException {
    int got = skipWhitespace();
    if (got != c) {
      throw unexpected(got, "'" + c + "'");
    }
    pos++;
  }

  /** Consumes the opening byte of a container ({@code {} or {@code [}) at the nesting limit. */
  void enter() throws ReaException, IOException {
    long at = offset();
    pos++;
    depth++;
    int limit = limits.nestingLimit();
    if (depth > limit) {
      throw ReaException.builder(
              Constraint.NESTING_LIMIT,
              "the safetensors index nests "
                  + depth
                  + " containers deep at byte "
                  + at
                  + ", over the nesting limit of "
                  + limit
                  + " (the top-level object is level 1)")
          .field("index")
          .offset(at)
          .diagnostic("limit", "nesting_limit")
          .diagnostic("limit_levels", limit)
          .diagnostic("requested_levels", depth)
          .build();
    }
  }

  /**
   * Moves to an object's next property name, reading it into {@link #str}, and consumes the colon.
   *
   * @param first whether this is the first call since the object's {@code {} was consumed
   * @return false (the {@code }} consumed) when the object ends
   */
  boolean nextName(boolean first) throws ReaException, IOException {
    return nextName(first, nameLimit, longName);
  }

  /**
   * {@link #nextName(boolean)} with the name cut off past {@code limit} bytes and refused with
   * {@code refusal}: a name that is kept (a {@code weight_map} tensor name, a metadata key) is
   * bounded by what its caller may keep.
   */
  boolean nextName(boolean first, int limit, LongStringRefusal refusal)
      throws ReaException, IOException {
    int c = skipWhitespace();
    if (c == '}') {
      pos++;
      depth--;
      return false;
    }
    if (!first) {
      if (c != ',') {
        throw unexpected(c, "',' or '}'");
      }
      pos++;
      c = skipWhitespace();
    }
    if (c != '"') {
      throw unexpected(c, first ? "a property name or '}'" : "a property name");
    }
    stringLimit = limit;
    longStringRefusal = refusal;
    try {
      readString();
    } finally {
      stringLimit = Integer.MAX_VALUE;
      longStringRefusal = null;
    }
    expect(':');
    return true;
  }

  /**
   * Moves to an array's next element.
   *
   * @return false (the {@code ]} consumed) when the array ends
   */
  boolean nextElement(boolean first) throws ReaException, IOException {
    int c = skipWhitespace();
    if (c == ']') {
      // After a comma the caller reads a value, which refuses a ']' there ("[1,]").
      pos++;
      depth--;
      return false;
    }
    if (!first) {
      if (c != ',') {
        throw unexpected(c, "',' or ']'");
      }
      pos++;
    }
    return true;
  }

  /** @return the last string read, decoded */
  String string() {
    return new String(str, 0, strLength, StandardCharsets.UTF_8);
  }

  /**
   * Reads a string whose opening quote is the next byte into {@link #str} (UTF-8, escapes
   * resolved).
   */
  void readString() throws ReaException, IOException {
    stringOffset = offset();
    pos++;
    strLength = 0;
    while (true) {
      byte[] b = buf;
      int p = pos;
      int start = p;
      int l = lim;
      while (p < l) {
        byte x = b[p];
        if (x < 0x20 || x == '"' || x == '\\') {
          break; // also every byte over 0x7F, which is negative
        }
        p++;
      }
      if (p > start) {
        append(b, start, p - start);
      }
      pos = p;
      if (p == l) {
        if (!fill()) {
          throw fail("a string is not closed before the end of the input", stringOffset);
        }
        continue;
      }
      int c = b[p] & 0xFF;
      long at = base + p;
      pos++;
      if (c == '"') {
        return;
      } else if (c == '\\') {
        escape(at);
      } else if (c < 0x20) {
        throw fail(
            c == 0
                ? "a NUL byte is not allowed in JSON text"
                : String.format("a control character (U+%04X) must be escaped in a string", c),
            at);
      } else {
        multiByte(c, at);
      }
    }
  }

  private void escape(long at) throws ReaException, IOException {
    int e = next(at, "an escape");
    switch (e) {
      case '"': appendByte('"'); return;
      case '\\': appendByte('\\'); return;
      case '/': appendByte('/'); return;
      case 'b': appendByte('\b'); return;
      case 'f': appendByte('\f'); return;
      case 'n': appendByte('\n'); return;
      case 'r': appendByte('\r'); return;
      case 't': appendByte('\t'); return;
      case 'u': break;
      default: throw fail("\\" + printable(e) + " is not a JSON escape", at);
    }
    int u = hex4(at);
    if (u >= 0xDC00 && u <= 0xDFFF) {
      throw fail("a string holds an unpaired surrogate escape", at);
    }
    if (u >= 0xD800 && u <= 0xDBFF) {
      long low = offset();
      if (next(at, "an escape") != '\\' || next(at, "an escape") != 'u') {
        throw fail("a string holds an unpaired surrogate escape", at);
      }
      int v = hex4(low);
      if (v < 0xDC00 || v > 0xDFFF) {
        throw fail("a string holds an unpaired surrogate escape", at);
      }
      u = 0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00);
    }
    appendCodePoint(u);
  }

  private int hex4(long at) throws ReaException, IOException {
    int v = 0;
    for (int i = 0; i < 4; i++) {
      int h = next(at, "a \\u escape");
      int d = Character.digit(h, 16);
      if (d < 0 || h > 0x7F) {
        throw fail("a \\u escape needs four hexadecimal digits", at);
      }
      v = (v << 4) | d;
    }
    return v;
  }

  /** Validates and copies one UTF-8 sequence whose first byte {@code c} was consumed. */
  private void multiByte(int c, long at) throws ReaException, IOException {
    int more;
    int lo = 0x80;
    int hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      more = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      more = 2;
      lo = c == 0xE0 ? 0xA0 : 0x80;
      hi = c == 0xED ? 0x9F : 0xBF;
    } else if (c >= 0xF0 && c <= 0xF4) {
      more = 3;
      lo = c == 0xF0 ? 0x90 : 0x80;
      hi = c == 0xF4 ? 0x8F : 0xBF;
    } else {
      throw fail("the text is not well-formed UTF-8", at);
    }
    appendByte(c);
    for (int i = 0; i < more; i++) {
      int d = peek();
      if (d < lo || d > hi) {
        throw fail("the text is not well-formed UTF-8", at);
      }
      pos++;
      appendByte(d);
      lo = 0x80;
      hi = 0xBF;
    }
  }

  private int next(long at, String what) throws ReaException, IOException {
    int c = peek();
    if (c < 0) {
      throw fail(what + " is cut off by the end of the input", at);
    }
    pos++;
    return c;
  }

  /**
   * Reads a number (RFC 8259 grammar) starting at the next byte.
   *
   * @return its exact text
   */
  String readNumber() throws ReaException, IOException {
    long at = offset();
    number.setLength(0);
    int c = peek();
    if (c == '-') {
      numberChar(c, at);
      c = peek();
    }
    if (c == '0') {
      numberChar(c, at);
    } else if (c >= '1' && c <= '9') {
      digits(at);
    } else {
      throw fail("a number needs a digit after '-'", at);
    }
    if (peek() == '.') {
      numberChar('.', at);
      if (!isDigit(peek())) {
        throw fail("a number needs a digit after '.'", at);
      }
      digits(at);
    }
    c = peek();
    if (c == 'e' || c == 'E') {
      numberChar(c, at);
      c = peek();
      if (c == '+' || c == '-') {
        numberChar(c, at);
      }
      if (!isDigit(peek())) {
        throw fail("a number needs a digit in its exponent", at);
      }
      digits(at);
    }
    c = peek();
    if (isDigit(c) || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E') {
      throw fail("a number has a leading zero or is malformed", at);
    }
    return number.toString();
  }

  private void digits(long at) throws ReaException, IOException {
    int c;
    while (isDigit(c = peek())) {
      numberChar(c, at);
    }
  }

  private void numberChar(int c, long at) throws ReaException {
    if (number.length() == MAX_NUMBER_CHARS) {
      throw fail("a number is longer than " + MAX_NUMBER_CHARS + " characters", at);
    }
    number.append((char) c);
    pos++;
  }

  private static boolean isDigit(int c) {
    return c >= '0' && c <= '9';
  }

  /** Reads {@code true}, {@code false} or {@code null} starting at the next byte. */
  void readLiteral(String word) throws ReaException, IOException {
    long at = offset();
    for (int i = 0; i < word.length(); i++) {
      if (peek() != word.charAt(i)) {
        throw fail("malformed literal: expected " + word, at);
      }
      pos++;
    }
    int c = peek();
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c)) {
      throw fail("malformed literal: expected " + word, at);
    }
  }

  /**
   * Reads and discards one value of any kind, checking it as JSON (duplicate names in its
   * objects included, compared after unescaping).
   */
  void skipValue() throws ReaException, IOException {
    int c = skipWhitespace();
    switch (c) {
      case '{': {
        enter();
        Set<String> names = new HashSet<>();
        boolean first = true;
        while (nextName(first)) {
          first = false;
          String n = string();
          long at = stringOffset;
          if (!names.add(n)) {
            throw duplicate(n, null, at);
          }
          if (names.size() > StrictJson.MAX_PROPERTIES) {
            throw fail("an object has more than " + StrictJson.MAX_PROPERTIES + " properties",
                at);
          }
          skipValue();
        }
        return;
      }
      case '[': {
        enter();
        boolean first = true;
        while (nextElement(first)) {
          first = false;
          skipValue();
        }
        return;
      }
      case '"':
        discarding = true;
        try {
          readString();
        } finally {
          discarding = false;
        }
        return;
      case 't':
        readLiteral("true");
        return;
      case 'f':
        readLiteral("false");
        return;
      case 'n':
        readLiteral("null");
        return;
      default:
        if (c == '-' || isDigit(c)) {
          readNumber();
          return;
        }
        throw unexpected(c, "a value");
    }
  }

  /** @return a short description of the value starting with byte {@code c} */
  static String describe(int c) {
    switch (c) {
      case '{': return "an object";
      case '[': return "an array";
      case '"': return "a string";
      case 't':
      case 'f': return "a boolean";
      case 'n': return "null";
      default: return c == '-' || isDigit(c) ? "a number" : "a malformed value";
    }
  }

  /** @return whether {@code c} can start a JSON value */
  static boolean startsValue(int c) {
    return "{[\"tfn-0123456789".indexOf(c) >= 0 && c >= 0;
  }

  ReaException duplicate(String name, @Nullable String field, long at) {
    return StrictJson.rejection(
        Constraint.FILE_FORMAT_REJECTED,
        WHAT,
        "malformed JSON: duplicate property name \"" + ReaException.truncateForMessage(name) + "\"",
        field,
        at);
  }

  /** @return a syntax refusal at the next byte, which is {@code c} */
  ReaException unexpected(int c, String expected) {
    long at = offset();
    if (c < 0) {
      return fail("unexpected end of input; expected " + expected, at);
    }
    if (c == 0) {
      return fail("a NUL byte is not allowed in JSON text", at);
    }
    return fail("malformed JSON: unexpected " + printable(c) + "; expected " + expected, at);
  }

  private static String printable(int c) {
    return c >= 0x21 && c < 0x7F ? "'" + (char) c + "'" : String.format("byte 0x%02X", c);
  }

  ReaException fail(String reason, long at) {
    return StrictJson.rejection(Constraint.FILE_FORMAT_REJECTED, WHAT, reason, null, at);
  }

  ReaException fail(String reason, @Nullable String field, long at) {
    return StrictJson.rejection(Constraint.FILE_FORMAT_REJECTED, WHAT, reason, field, at);
  }

  private void append(byte[] b, int off, int n) throws ReaException {
    if (discarding) {
      return;
    }
    if (n > stringLimit - strLength) {
      throw longString();
    }
    if (strLength + n > str.length) {
      str = Arrays.copyOf(str, Math.max(strLength + n, str.length * 2));
    }
    System.arraycopy(b, off, str, strLength, n);
    strLength += n;
  }

  private void appendByte(int b) throws ReaException {
    if (discarding) {
      return;
    }
    if (strLength == stringLimit) {
      throw longString();
    }
    if (strLength == str.length) {
      str = Arrays.copyOf(str, str.length * 2);
    }
    str[strLength++] = (byte) b;
  }

  private ReaException longString() {
    if (longStringRefusal != null) {
      return longStringRefusal.refuse(stringLimit, stringOffset);
    }
    return fail("a string is longer than " + stringLimit + " bytes, longer than this value may be",
        stringOffset);
  }

  private void appendCodePoint(int u) throws ReaException {
    if (u < 0x80) {
      appendByte(u);
    } else if (u < 0x800) {
      appendByte(0xC0 | (u >> 6));
      appendByte(0x80 | (u & 0x3F));
    } else if (u < 0x10000) {
      appendByte(0xE0 | (u >> 12));
      appendByte(0x80 | ((u >> 6) & 0x3F));
      appendByte(0x80 | (u & 0x3F));
    } else {
      appendByte(0xF0 | (u >> 18));
      appendByte(0x80 | ((u >> 12) & 0x3F));
      appendByte(0x80 | ((u >> 6) & 0x3F));
      appendByte(0x80 | (u & 0x3F));
    }
  }
}
