package dev.rea.core.internal.io;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.text.JacksonReasons;
import dev.rea.core.text.Utf8;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;

/**
 * A forward-only cursor over untrusted JSON text (RFC 8259, UTF-8) that turns every problem into
 * one typed {@link ReaException} of a chosen constraint, naming the JSON path and the byte offset
 * in the input. Used for imported Evidence ({@code evidence_rejected}) and view objects ({@code
 * bad_view}).
 *
 * <p>Before any object is built, {@link #open} checks the whole input: its size against {@code
 * maxBytes}, strict UTF-8 (overlong forms and encoded surrogates are refused, which Jackson's
 * decoder would accept), no byte order mark and no NUL byte (so Jackson's encoding detection
 * cannot pick UTF-16/32), JSON syntax, duplicate object keys (compared after unescaping), the
 * container depth against {@code maxDepth} (the outermost container is depth 1), at most {@link
 * #MAX_PROPERTIES} properties in any object, and nothing
 * after the root value. Only then is a fresh parser positioned at the root for the caller.
 *
 * <p>The size check comes first, on the array's length, before any byte is examined. Every parser
 * is also bounded by Jackson's {@link StreamReadConstraints} ({@link #constraints}): document
 * length {@code maxBytes}, string and property-name length {@code maxBytes} (a string cannot be
 * longer than the document; this keeps Jackson's own ceiling from being the unbounded default),
 * nesting depth {@code maxDepth}, token count {@code maxBytes}, number length 64 characters. The
 * input's own checks fire first; the constraints are a second line that holds even if a check
 * here were removed. A caller whose names are all known may cap property names lower ({@link
 * #open(byte[], long, int, int, Constraint, String)}; Evidence: 256 characters), and a reader
 * that keeps no long string may cap strings lower ({@link #reopen(long)}).
 *
 * <p>Strings returned by {@link #string} are also checked to be well-formed UTF-16 (an escaped
 * lone surrogate such as {@code "\ud800"} is refused).
 *
 * <p>Not thread-safe; one cursor per input.
 */
public final class StrictJson implements AutoCloseable {
  private final byte[] input;
  private final Constraint constraint;
  private final String what;
  private final JsonParser parser;
  private final long maxBytes;
  private final int maxDepth;
  private final int maxNameChars;

  private StrictJson(
      byte[] input,
      Constraint constraint,
      String what,
      JsonParser parser,
      long maxBytes,
      int maxDepth,
      int maxNameChars) {
    this.input = input;
    this.constraint = constraint;
    this.what = what;
    this.parser = parser;
    this.maxBytes = maxBytes;
    this.maxDepth = maxDepth;
    this.maxNameChars = maxNameChars;
  }

  /**
   * Checks the whole input (see class comment) and returns a cursor before the root token.
   *
   * @param input UTF-8 JSON text
   * @param maxBytes largest accepted input, in bytes
   * @param maxDepth deepest accepted container nesting (root container = 1)
   * @param constraint the constraint every failure is reported under
   * @param what a short noun for messages, e.g. {@code "evidence"} or {@code "view"}
   * @throws ReaException of {@code constraint} for any problem
   */
  public static StrictJson open(
      byte[] input, long maxBytes, int maxDepth, Constraint constraint, String what)
      throws ReaException {
    int names = (int) Math.min(maxBytes, Integer.MAX_VALUE);
    return open(input, maxBytes, maxDepth, names, constraint, what);
  }

  /**
   * As {@link #open(byte[], long, int, Constraint, String)}, with property names of at most
   * {@code maxNameChars} UTF-16 units: for a schema whose names are all known and short (Evidence,
   * views), so that a forged name is refused by its length instead of being decoded whole (Jackson
   * decodes every name, even of a skipped object, to check duplicates).
   *
   * @param maxNameChars longest property name, in UTF-16 units
   */
  public static StrictJson open(
      byte[] input,
      long maxBytes,
      int maxDepth,
      int maxNameChars,
      Constraint constraint,
      String what)
      throws ReaException {
    return open(input, maxBytes, maxDepth, maxNameChars, MAX_PROPERTIES, constraint, what);
  }

  /**
   * As {@link #open(byte[], long, int, int, Constraint, String)}, with a chosen most properties
   * per object instead of {@link #MAX_PROPERTIES}: for a document one of whose objects is a map
   * of any size (a safetensors index's {@code weight_map}, bounded by the index's size limit).
   *
   * @param maxProperties most properties in any object
   */
  public static StrictJson open(
      byte[] input,
      long maxBytes,
      int maxDepth,
      int maxNameChars,
      int maxProperties,
      Constraint constraint,
      String what)
      throws ReaException {
    if (input.length > maxBytes) {
      throw ReaException.builder(
              constraint,
              what
                  + " rejected: "
                  + input.length
                  + " bytes exceed the limit of "
                  + maxBytes
                  + " bytes")
          .diagnostic("limit", what + "_input_bytes")
          .diagnostic("limit_bytes", Long.toString(maxBytes))
          .diagnostic("requested_bytes", Long.toString(input.length))
          .build();
    }
    if (input.length >= 3
        && (input[0] & 0xFF) == 0xEF
        && (input[1] & 0xFF) == 0xBB
        && (input[2] & 0xFF) == 0xBF) {
      throw failure(constraint, what, "a byte order mark is not allowed", null, 0);
    }
    for (int i = 0; i < input.length; i++) {
      if (input[i] == 0) {
        throw failure(constraint, what, "a NUL byte is not allowed in JSON text", null, i);
      }
    }
    int bad = Utf8.scan(input, 0, input.length);
    if (bad != Utf8.VALID) {
      int at = bad >= 0 ? bad : -(bad + 2);
      throw failure(constraint, what, "the text is not well-formed UTF-8", null, at);
    }
    long crowded = firstCrowdedObject(input, maxDepth, maxProperties);
    if (crowded >= 0) {
      throw failure(
          constraint,
          what,
          "an object has more than " + maxProperties + " properties",
          null,
          crowded);
    }
    JsonFactory factory = factory(maxBytes, maxDepth, maxBytes, maxNameChars);
    // Pass 1: syntax, duplicates, depth and trailing content, without building anything.
    try (JsonParser scan = factory.createParser(ObjectReadContext.empty(), input)) {
      JsonToken t = scan.nextToken();
      if (t == null) {
        throw failure(constraint, what, "the input is empty", null, 0);
      }
      if (t != JsonToken.START_OBJECT) {
        throw failure(
            constraint, what, "the top-level value must be an object", null, offsetOf(scan));
      }
      try {
        scan.skipChildren();
      } catch (tools.jackson.core.exc.StreamConstraintsException e) {
        // A limit carries no location of its own: where the parser stopped is the place.
        throw fromJackson(constraint, what, e, scan.currentLocation().getByteOffset());
      }
      JsonToken after = scan.nextToken();
      if (after != null) {
        throw failure(
            constraint, what, "content follows the top-level object", null, offsetOf(scan));
      }
    } catch (JacksonException e) {
      throw fromJackson(constraint, what, e);
    }
    JsonParser p = factory.createParser(ObjectReadContext.empty(), input);
    return new StrictJson(input, constraint, what, p, maxBytes, maxDepth, maxNameChars);
  }

  /**
   * Most properties one object may have: every input this cursor reads has a schema whose objects
   * have a few dozen properties at most (an Evidence record has 17). Checked before Jackson sees
   * the input, because Jackson's duplicate check and its table of names keep every distinct
   * property name of the document: a 63 MB bundle of 5.5 million made-up names in one object took
   * 2.6 GB of heap before its first unknown name was refused.
   */
  public static final int MAX_PROPERTIES = 1024;

  /**
   * Finds the first object with more than {@code maxProperties} properties, counting the colons
   * outside strings at each object's level. Bytes that are not JSON are skipped (the parse that
   * follows refuses them); containers deeper than {@code maxDepth} end the scan (the parse
   * refuses the depth), so the scan's own memory is bounded by {@code maxDepth}.
   *
   * @return the byte offset of that object's opening brace, or -1 when there is none
   */
  static long firstCrowdedObject(byte[] input, int maxDepth, int maxProperties) {
    if (maxProperties == Integer.MAX_VALUE) {
      return -1;
    }
    int[] count = new int[Math.max(1, Math.min(maxDepth, 4096)) + 1];
    long[] start = new long[count.length];
    int depth = 0;
    boolean inString = false;
    for (int i = 0; i < input.length; i++) {
      byte b = input[i];
      if (inString) {
        if (b == '\\') {
          i++;
        } else if (b == '"') {
          inString = false;
        }
        continue;
      }
      switch (b) {
        case '"' -> inString = true;
        case '{', '[' -> {
          if (++depth >= count.length) {
            return -1;
          }
          count[depth] = b == '{' ? 0 : -1;
          start[depth] = i;
        }
        case '}', ']' -> depth = Math.max(0, depth - 1);
        case ':' -> {
          if (depth > 0 && count[depth] >= 0 && ++count[depth] > maxProperties) {
            return start[depth];
          }
        }
        default -> {}
      }
    }
    return -1;
  }

  /**
   * @return a new cursor over the same, already checked input, before the root token (no checks
   *     are repeated)
   */
  public StrictJson reopen() {
    return reopen(maxBytes);
  }

  /**
   * A new cursor over the same, already checked input whose parser also refuses any string value
   * or property name longer than {@code maxStringChars} UTF-16 code units while decoding it
   * (Jackson's {@link StreamReadConstraints#getMaxStringLength()} and {@link
   * StreamReadConstraints#getMaxNameLength()}, checked as its text buffer grows): a reader that
   * only needs shorter strings then never holds a longer one whole. The refusal is a {@link
   * tools.jackson.core.exc.StreamConstraintsException}, which the caller maps to its own error.
   *
   * @param maxStringChars longest string or name to decode, in UTF-16 code units (at most the
   *     input's own bound)
   * @return a cursor before the root token (no checks are repeated)
   */
  public StrictJson reopen(long maxStringChars) {
    long cap = Math.min(maxStringChars, maxBytes);
    int names = (int) Math.min(cap, maxNameChars);
    JsonParser p =
        factory(maxBytes, maxDepth, cap, names).createParser(ObjectReadContext.empty(), input);
    return new StrictJson(input, constraint, what, p, maxBytes, maxDepth, maxNameChars);
  }

  /**
   * A parser for a hint that chooses a reader, not for reading: nothing is checked before it (the
   * reader chosen checks everything), nesting stops at 64 and names at 256 characters, and the
   * caller must treat any {@link JacksonException} as "no answer".
   *
   * @param input UTF-8 JSON text
   * @return a parser before the root token
   */
  public static JsonParser hintParser(byte[] input) {
    return factory(Integer.MAX_VALUE, 64, Integer.MAX_VALUE, 256)
        .createParser(ObjectReadContext.empty(), input);
  }

  /** Key of a shared factory: the bounds its constraints are made of. */
  private record Bounds(long maxBytes, int maxDepth, long maxStringChars, int maxNameChars) {}

  private static final java.util.concurrent.ConcurrentHashMap<Bounds, JsonFactory> FACTORIES =
      new java.util.concurrent.ConcurrentHashMap<>();

  private static JsonFactory factory(
      long maxBytes, int maxDepth, long maxStringChars, int maxNameChars) {
    return FACTORIES.computeIfAbsent(
        new Bounds(maxBytes, maxDepth, maxStringChars, maxNameChars),
        b ->
            JsonFactory.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .streamReadConstraints(
                    constraints(
                        b.maxBytes(), b.maxDepth(), b.maxStringChars(), b.maxNameChars()))
                .build());
  }

  /**
   * The Jackson constraints every parser of an input of at most {@code maxBytes} bytes and {@code
   * maxDepth} nested containers gets (see the class comment).
   */
  public static StreamReadConstraints constraints(long maxBytes, int maxDepth) {
    return constraints(maxBytes, maxDepth, maxBytes, maxBytes);
  }

  private static StreamReadConstraints constraints(
      long maxBytes, int maxDepth, long maxStringChars, long maxNameChars) {
    int strings = (int) Math.min(Math.min(maxBytes, maxStringChars), Integer.MAX_VALUE);
    int names = (int) Math.min(Math.min(maxBytes, maxNameChars), Integer.MAX_VALUE);
    return StreamReadConstraints.builder()
        .maxNestingDepth(maxDepth)
        .maxDocumentLength(maxBytes)
        .maxTokenCount(maxBytes)
        .maxStringLength(strings)
        .maxNameLength(names)
        .maxNumberLength(64)
        .build();
  }

  /** @return the Jackson constraints of this cursor's parser */
  public StreamReadConstraints streamReadConstraints() {
    return parser.streamReadConstraints();
  }

  private static long offsetOf(JsonParser p) {
    return p.currentTokenLocation().getByteOffset();
  }

  private static ReaException fromJackson(Constraint constraint, String what, JacksonException e) {
    return fromJackson(constraint, what, e, -1);
  }

  /** @param fallbackOffset the offset to report when the exception has no location (or -1) */
  private static ReaException fromJackson(
      Constraint constraint, String what, JacksonException e, long fallbackOffset) {
    long offset = e.getLocation() == null ? -1 : e.getLocation().getByteOffset();
    if (offset < 0) {
      offset = fallbackOffset;
    }
    long nameLimit = JacksonReasons.nameLengthLimit(e);
    if (nameLimit >= 0) {
      // Well-formed JSON, refused for a limit: no "malformed", no Jackson method names.
      return failure(
          constraint,
          what,
          "a property name is longer than "
              + nameLimit
              + " characters, longer than any this format has",
          null,
          offset);
    }
    String reason = ReaException.truncateForMessage(JacksonReasons.of(e));
    return failure(constraint, what, "malformed JSON: " + reason, null, offset);
  }

  /**
   * A refusal worded as every reader of this cursor's family words it: {@code "<what> rejected:
   * <reason> at <field> (byte <offset>)"}, with the reason as the diagnostic {@code reason}.
   *
   * @param field the JSON path, or null when none applies
   * @param offset the byte offset in the input, or -1 when none applies
   */
  public static ReaException rejection(
      Constraint constraint, String what, String reason, @Nullable String field, long offset) {
    return failure(constraint, what, reason, field, offset);
  }

  private static ReaException failure(
      Constraint constraint, String what, String reason, @Nullable String field, long offset) {
    StringBuilder m = new StringBuilder(what).append(" rejected: ").append(reason);
    if (field != null) {
      m.append(" at ").append(ReaException.truncateForMessage(field));
    }
    if (offset >= 0) {
      m.append(" (byte ").append(offset).append(')');
    }
    ReaException.Builder b = ReaException.builder(constraint, m.toString()).field(field);
    if (offset >= 0) {
      b.offset(offset);
    }
    b.diagnostic("reason", reason);
    return b.build();
  }

  /** @return the input this cursor reads */
  public byte[] input() {
    return input;
  }

  /** @return the raw parser (for copying tokens); errors it throws must go through {@link #wrap} */
  public JsonParser parser() {
    return parser;
  }

  /** @return a failure at the current token, for the given field path */
  public ReaException error(Supplier<String> field, String reason) {
    return failure(constraint, what, reason, field.get(), offsetOf(parser));
  }

  /** @return a failure at the current token, for the given field path (null when none) */
  public ReaException error(@Nullable String field, String reason) {
    return failure(constraint, what, reason, field, offsetOf(parser));
  }

  /** @return a failure from a Jackson exception raised while reading */
  public ReaException wrap(JacksonException e) {
    return fromJackson(constraint, what, e);
  }

  /** @return the byte offset of the current token */
  public long offset() {
    return offsetOf(parser);
  }

  /** Advances to the next token (never null inside a checked document before the end). */
  public JsonToken next() throws ReaException {
    try {
      JsonToken t = parser.nextToken();
      if (t == null) {
        throw failure(constraint, what, "unexpected end of input", null, input.length);
      }
      return t;
    } catch (JacksonException e) {
      throw wrap(e);
    }
  }

  /** @return the current token */
  public @Nullable JsonToken current() {
    return parser.currentToken();
  }

  /** Advances and requires the start of an object. */
  public void startObject(Supplier<String> field) throws ReaException {
    if (next() != JsonToken.START_OBJECT) {
      throw error(field, "expected an object, found " + describe(current()));
    }
  }

  /** Requires the current token to be the start of an object. */
  public void requireObject(Supplier<String> field) throws ReaException {
    if (current() != JsonToken.START_OBJECT) {
      throw error(field, "expected an object, found " + describe(current()));
    }
  }

  /**
   * Advances inside an object.
   *
   * @return the next property name, with the parser on it, or null at the object's end
   */
  public @Nullable String nextName() throws ReaException {
    JsonToken t = next();
    if (t == JsonToken.END_OBJECT) {
      return null;
    }
    if (t != JsonToken.PROPERTY_NAME) {
      throw error((String) null, "expected a property name, found " + describe(t));
    }
    try {
      String name = parser.currentName();
      checkUtf16(name, () -> "property name");
      return name;
    } catch (JacksonException e) {
      throw wrap(e);
    }
  }

  /** Advances and requires the start of an array. */
  public void startArray(Supplier<String> field) throws ReaException {
    if (next() != JsonToken.START_ARRAY) {
      throw error(field, "expected an array, found " + describe(current()));
    }
  }

  /**
   * Advances inside an array.
   *
   * @return true when a value follows (the parser is on it), false at the array's end
   */
  public boolean nextElement() throws ReaException {
    return next() != JsonToken.END_ARRAY;
  }

  /** Advances and reads a string value. */
  public String string(Supplier<String> field) throws ReaException {
    next();
    return currentString(field);
  }

  /** Reads the current token as a string value. */
  public String currentString(Supplier<String> field) throws ReaException {
    if (current() != JsonToken.VALUE_STRING) {
      throw error(field, "expected a string, found " + describe(current()));
    }
    try {
      String s = parser.getString();
      checkUtf16(s, field);
      return s;
    } catch (JacksonException e) {
      throw wrap(e);
    }
  }

  /** Advances and reads a string or null. */
  public @Nullable String nullableString(Supplier<String> field) throws ReaException {
    if (next() == JsonToken.VALUE_NULL) {
      return null;
    }
    return currentString(field);
  }

  /** Advances and reads a boolean. */
  public boolean bool(Supplier<String> field) throws ReaException {
    JsonToken t = next();
    if (t == JsonToken.VALUE_TRUE) {
      return true;
    }
    if (t == JsonToken.VALUE_FALSE) {
      return false;
    }
    throw error(field, "expected true or false, found " + describe(t));
  }

  /**
   * Advances and reads a JSON integer number (no fraction, no exponent) in {@code [min, max]}.
   */
  public long integer(Supplier<String> field, long min, long max) throws ReaException {
    next();
    return currentInteger(field, min, max);
  }

  /** Reads the current token as a JSON integer in {@code [min, max]}. */
  public long currentInteger(Supplier<String> field, long min, long max) throws ReaException {
    if (current() == JsonToken.VALUE_NUMBER_FLOAT) {
      // "found a number" alone puzzles the reader of "limit": 5.0; the text says why.
      throw error(
          field,
          "expected an integer number, found "
              + ReaException.truncateForMessage(numberText())
              + " (JSON integers have no fraction or exponent)");
    }
    if (current() != JsonToken.VALUE_NUMBER_INT) {
      throw error(field, "expected an integer number, found " + describe(current()));
    }
    String text = numberText();
    long v;
    try {
      v = Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw error(field, "integer " + text + " is out of range [" + min + ", " + max + "]");
    }
    if (v < min || v > max) {
      throw error(field, "integer " + text + " is out of range [" + min + ", " + max + "]");
    }
    if (v == 0 && text.startsWith("-")) {
      throw error(field, "negative zero is not an integer index or count");
    }
    return v;
  }

  /** @return the exact text of the current number token */
  public String numberText() throws ReaException {
    try {
      return parser.getText();
    } catch (JacksonException e) {
      throw wrap(e);
    }
  }

  /**
   * Advances and reads an unsigned 64-bit decimal string: {@code 0} or digits without a leading
   * zero, at most 18446744073709551615 (CONTRACT section 2).
   *
   * @return the value as the raw 64 bits (compare with {@link Long#compareUnsigned})
   */
  public long u64(Supplier<String> field) throws ReaException {
    return parseU64(string(field), field);
  }

  /** Advances and reads an unsigned decimal string or null. */
  public @Nullable Long nullableU64(Supplier<String> field) throws ReaException {
    String s = nullableString(field);
    return s == null ? null : parseU64(s, field);
  }

  /** Parses an unsigned 64-bit decimal string (see {@link #u64}). */
  public long parseU64(String s, Supplier<String> field) throws ReaException {
    if (!isCanonicalDecimal(s, false)) {
      throw error(
          field,
          "expected an unsigned decimal string, found \""
              + ReaException.truncateForMessage(s)
              + "\"");
    }
    try {
      return Long.parseUnsignedLong(s);
    } catch (NumberFormatException e) {
      throw error(field, "decimal " + ReaException.truncateForMessage(s) + " exceeds 2^64-1");
    }
  }

  /**
   * Advances and reads a non-negative decimal string that fits a signed 64-bit value (file sizes
   * and offsets held in {@code long}).
   */
  public long nonNegativeLong(Supplier<String> field) throws ReaException {
    long v = u64(field);
    if (v < 0) {
      throw error(field, "value exceeds 2^63-1");
    }
    return v;
  }

  /**
   * Advances and reads a signed 64-bit decimal string: optional {@code -}, no leading zero, no
   * {@code -0}.
   */
  public long i64(Supplier<String> field) throws ReaException {
    String s = string(field);
    if (!isCanonicalDecimal(s, true)) {
      throw error(
          field,
          "expected a signed decimal string, found \""
              + ReaException.truncateForMessage(s)
              + "\"");
    }
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      throw error(field, "decimal " + ReaException.truncateForMessage(s) + " is out of INT64 range");
    }
  }

  /** @return true for {@code 0} or {@code [1-9][0-9]*}, with an optional {@code -} if allowed */
  public static boolean isCanonicalDecimal(String s, boolean signed) {
    int i = 0;
    if (signed && s.startsWith("-")) {
      i = 1;
      if (s.equals("-0")) {
        return false;
      }
    }
    int n = s.length() - i;
    if (n <= 0 || n > 20) {
      return false;
    }
    if (s.charAt(i) == '0' && n > 1) {
      return false;
    }
    for (int j = i; j < s.length(); j++) {
      char c = s.charAt(j);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  /** Skips the current value (and its children). */
  public void skipValue() throws ReaException {
    try {
      parser.skipChildren();
    } catch (JacksonException e) {
      throw wrap(e);
    }
  }

  /**
   * A JSON value read whole, keeping each scalar's exact text and every value's byte offset (used
   * where a value's meaning depends on a sibling that may come later, e.g. a metadata row's
   * {@code value} and {@code type}).
   */
  public sealed interface Value permits ObjectValue, ArrayValue, ScalarValue {
    /** @return the byte offset of the value's first token */
    long offset();
  }

  /** An object; property order as in the input (names are unique, checked by {@link #open}). */
  public record ObjectValue(java.util.Map<String, Value> properties, long offset)
      implements Value {}

  /** An array. */
  public record ArrayValue(java.util.List<Value> items, long offset) implements Value {}

  /**
   * A scalar: string (decoded), number (exact text), true, false or null.
   *
   * @param token the token kind
   * @param text the decoded string, the number text, or {@code true}/{@code false}/{@code null}
   */
  public record ScalarValue(JsonToken token, String text, long offset) implements Value {}

  /** Reads the current value (the parser is on its first token) as a {@link Value}. */
  public Value readValue(Supplier<String> field) throws ReaException {
    JsonToken t = current();
    long at = offset();
    if (t == JsonToken.START_OBJECT) {
      java.util.Map<String, Value> props = new java.util.LinkedHashMap<>();
      String name;
      while ((name = nextName()) != null) {
        String n = name;
        next();
        props.put(n, readValue(() -> field.get() + "." + n));
      }
      return new ObjectValue(props, at);
    }
    if (t == JsonToken.START_ARRAY) {
      java.util.List<Value> items = new java.util.ArrayList<>();
      while (nextElement()) {
        int i = items.size();
        items.add(readValue(() -> field.get() + "[" + i + "]"));
      }
      return new ArrayValue(items, at);
    }
    if (t == JsonToken.VALUE_STRING) {
      return new ScalarValue(t, currentString(field), at);
    }
    if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
      return new ScalarValue(t, numberText(), at);
    }
    if (t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE || t == JsonToken.VALUE_NULL) {
      return new ScalarValue(t, t == JsonToken.VALUE_NULL ? "null" : t == JsonToken.VALUE_TRUE ? "true" : "false", at);
    }
    throw error(field, "unexpected " + describe(t));
  }

  /** @return a failure at a given byte offset, for the given field path */
  public ReaException errorAt(long offset, String field, String reason) {
    return failure(constraint, what, reason, field, offset);
  }

  private void checkUtf16(String s, Supplier<String> field) throws ReaException {
    if (Utf8.findLoneSurrogate(s, 0, s.length()) >= 0) {
      throw error(field, "string holds an unpaired surrogate escape");
    }
  }

  /** @return a short description of a token for messages */
  public static String describe(@Nullable JsonToken t) {
    if (t == null) {
      return "end of input";
    }
    switch (t) {
      case START_OBJECT:
        return "an object";
      case START_ARRAY:
        return "an array";
      case VALUE_STRING:
        return "a string";
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        return "a number";
      case VALUE_TRUE:
      case VALUE_FALSE:
        return "a boolean";
      case VALUE_NULL:
        return "null";
      case END_OBJECT:
        return "the end of an object";
      case END_ARRAY:
        return "the end of an array";
      case PROPERTY_NAME:
        return "a property name";
      default:
        return t.name();
    }
  }

  @Override
  public void close() {
    parser.close();
  }
}
