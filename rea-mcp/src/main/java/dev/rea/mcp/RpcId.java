package dev.rea.mcp;

import java.math.BigDecimal;
import java.util.Objects;
import tools.jackson.core.JsonGenerator;

/**
 * A JSON-RPC request id as it appeared on the wire: a string or a number (JSON-RPC 2.0, section
 * 4). {@link #key()} gives one spelling per id so that ids seen by the inbound filter, echoed in
 * {@code notifications/cancelled} and sent back in responses compare equal.
 *
 * @param string true for a JSON string id, false for a number
 * @param text the string's value, or the number's JSON text
 */
record RpcId(boolean string, String text) {
  RpcId {
    Objects.requireNonNull(text, "text");
  }

  /** @return {@code "s:<value>"} for strings, {@code "n:<normalised decimal>"} for numbers */
  String key() {
    return string ? "s:" + text : "n:" + normaliseNumber(text);
  }

  /** @return the key of an id object as the SDK deserialised it (String or Number) */
  static String keyOf(Object id) {
    if (id instanceof String s) {
      return "s:" + s;
    }
    return "n:" + normaliseNumber(String.valueOf(id));
  }

  /** Writes the id as a JSON value. */
  void write(JsonGenerator g) {
    if (string) {
      g.writeString(text);
    } else {
      g.writeNumber(text);
    }
  }

  private static String normaliseNumber(String text) {
    try {
      BigDecimal d = new BigDecimal(text).stripTrailingZeros();
      return d.signum() == 0 ? "0" : d.toPlainString();
    } catch (NumberFormatException e) {
      return text;
    }
  }
}
