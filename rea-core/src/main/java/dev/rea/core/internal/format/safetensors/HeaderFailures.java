package dev.rea.core.internal.format.safetensors;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonToken;

/**
 * REA's failures for what the lexer ({@link HeaderLexer}) refuses in a safetensors header, and the
 * wording shared by the header walk's own refusals: every failure names the field path and the
 * absolute byte offset ({@code 8 + } the offset in the JSON) of the byte that broke the rule
 * (CONTRACT section 6).
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

  /** @return {@code file_format_rejected} for invalid JSON: the lexer's reason, at its offset */
  static ReaException invalidJson(String reason, String field, long at) {
    return ReaException.builder(
            Constraint.FILE_FORMAT_REJECTED,
            field
                + " at offset "
                + at
                + ": invalid JSON in the header: "
                + ReaException.truncateForMessage(reason))
        .field(field)
        .offset(at)
        .build();
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
