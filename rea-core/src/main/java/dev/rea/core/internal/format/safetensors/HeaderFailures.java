package dev.rea.core.internal.format.safetensors;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.text.JacksonReasons;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;

/**
 * REA's failures for what Jackson refuses in a safetensors header, and the wording shared by the
 * header walk's own refusals: every failure names the field path and the absolute byte offset
 * ({@code 8 + } the offset in the JSON) of the character Jackson stopped at (CONTRACT section 6).
 */
final class HeaderFailures {
  private static final long PREFIX = SafetensorsReader.PREFIX_BYTES;

  private HeaderFailures() {}

  /** @return {@code file_format_rejected}: {@code field at offset at: why} */
  static ReaException reject(String field, long at, String why) {
    return HeaderRanges.rejectAt(field, at, why);
  }

  /** @return the refusal of a string, key or name holding a lone surrogate escape */
  static ReaException loneSurrogate(String field, long at, String what) {
    return reject(
        field,
        at,
        "the "
            + what
            + " contains a lone UTF-16 surrogate escape (\\uD800-\\uDFFF without its pair),"
            + " which is not Unicode text");
  }

  /** @return {@code file_format_rejected} for invalid JSON, in Jackson's words, at its offset */
  static ReaException invalidJson(JacksonException e, String field, long at) {
    return ReaException.builder(
            Constraint.FILE_FORMAT_REJECTED,
            field
                + " at offset "
                + at
                + ": invalid JSON in the header: "
                + ReaException.truncateForMessage(JacksonReasons.of(e)))
        .field(field)
        .offset(at)
        .cause(e)
        .build();
  }

  /**
   * @return {@code nesting_limit} for Jackson's own depth limit, a backstop only: REA's own check
   *     ({@code HeaderParse}) fires one level earlier
   */
  static ReaException nestedTooDeep(
      StreamConstraintsException e, String field, long at, int nestingLimit) {
    return ReaException.builder(
            Constraint.NESTING_LIMIT,
            "the header JSON nests deeper than the nesting limit of " + nestingLimit)
        .field(field)
        .offset(at)
        .diagnostic("limit", "nesting_limit")
        .diagnostic("limit_levels", nestingLimit)
        .cause(e)
        .build();
  }

  /** @return whether Jackson stopped for its nesting depth limit */
  static boolean isDepthLimit(StreamConstraintsException e) {
    String why = e.getOriginalMessage();
    return why != null && why.contains("nesting depth");
  }

  /**
   * The absolute offset of the character Jackson stopped at: where its exception says, else
   * where the parser is; stepped back to the start of a multi-byte character.
   */
  static long errorOffset(JacksonException e, JsonParser p, byte[] json) {
    TokenStreamLocation loc = e.getLocation();
    long b = loc == null ? -1 : loc.getByteOffset();
    if (b < 0) {
      b = p.currentLocation().getByteOffset();
    }
    int i = (int) Math.max(0, Math.min(b, json.length));
    // Jackson points at the last byte it read; step back to the start of that character.
    for (int k = 0; k < 3 && i > 0 && i < json.length && (json[i] & 0xC0) == 0x80; k++) {
      i--;
    }
    return PREFIX + i;
  }

  /**
   * The opening quote of a name Jackson stopped decoding at {@code maxNameLength} (the retained
   * budget, {@link SafetensorsReader#builderFor}). Jackson stops inside a long name when its name
   * buffer would grow past the limit, or, for a name of up to about twice the limit, just after
   * the name's closing quote; so that quote is stepped over, and then the nearest quote before it
   * that no backslash escapes is the opening one (a name holds no other).
   *
   * @param stoppedAt absolute offset where Jackson stopped
   * @return absolute offset of the opening quote
   */
  static long nameStart(byte[] json, long stoppedAt) {
    int i = (int) Math.min(stoppedAt - PREFIX, json.length) - 1;
    if (i >= 0 && isUnescapedQuote(json, i)) {
      i--;
    }
    while (i > 0 && !isUnescapedQuote(json, i)) {
      i--;
    }
    return PREFIX + i;
  }

  /** @return whether {@code json[i]} is a quote after an even number of backslashes */
  private static boolean isUnescapedQuote(byte[] json, int i) {
    if (json[i] != '"') {
      return false;
    }
    int slashes = 0;
    while (i - 1 - slashes >= 0 && json[i - 1 - slashes] == '\\') {
      slashes++;
    }
    return slashes % 2 == 0;
  }

  /** @return how a message names what was found instead: "an object", "a string", ... */
  static String describe(@Nullable JsonToken t) {
    if (t == null) {
      return "the end of the header";
    }
    switch (t) {
      case START_OBJECT:
        return "an object";
      case START_ARRAY:
        return "an array";
      case VALUE_STRING:
        return "a string";
      case VALUE_NUMBER_INT:
        return "an integer";
      case VALUE_NUMBER_FLOAT:
        return "a number with a fraction or exponent";
      case VALUE_TRUE:
      case VALUE_FALSE:
        return "a boolean";
      case VALUE_NULL:
        return "null";
      default:
        return t.name();
    }
  }
}
