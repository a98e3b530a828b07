package dev.rea.core.testing;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Rewrites JSON text into another text of the same meaning, at random: whitespace between
 * tokens, object members shuffled, numbers spelled otherwise ({@code 1} as {@code 1.0}, {@code
 * 1e0}, {@code 10E-1}, {@code 0.1e+1}; a double as the exact decimal of its binary value), and
 * string characters escaped otherwise ({@code \u0041} for {@code A}, {@code \/}, upper- or
 * lowercase hex, astral characters as escaped surrogate pairs). Every spelling reads back as the
 * same value: the same string, the same double.
 */
public final class JsonReformatter {
  private static final JsonFactory FACTORY = JsonFactory.builder().build();

  /** What may be rewritten. */
  public record Options(boolean integers, int maxNumberChars) {
    /** Everything; numbers of any length. */
    public static final Options ALL = new Options(true, Integer.MAX_VALUE);

    /**
     * What Evidence import reads back as the same record: integers stay integers (import wants
     * integer tokens for indices and counts), numbers at most 64 characters (its bound).
     */
    public static final Options IMPORTABLE = new Options(false, 64);
  }

  private final Random r;
  private final Options options;
  private final StringBuilder out = new StringBuilder();

  private JsonReformatter(Random r, Options options) {
    this.r = r;
    this.options = options;
  }

  /** @return a text of the same meaning as {@code json} */
  public static byte[] reformat(byte[] json, Random r, Options options) {
    JsonReformatter f = new JsonReformatter(r, options);
    try (JsonParser p = FACTORY.createParser(ObjectReadContext.empty(), json)) {
      p.nextToken();
      f.space();
      f.value(p);
      f.space();
    }
    return f.out.toString().getBytes(StandardCharsets.UTF_8);
  }

  private void space() {
    for (int n = r.nextInt(4) == 0 ? r.nextInt(3) + 1 : 0; n > 0; n--) {
      out.append(" \t\n\r".charAt(r.nextInt(4)));
    }
  }

  private void value(JsonParser p) {
    JsonToken t = p.currentToken();
    switch (t) {
      case START_OBJECT -> object(p);
      case START_ARRAY -> {
        out.append('[');
        boolean first = true;
        while (p.nextToken() != JsonToken.END_ARRAY) {
          if (!first) {
            out.append(',');
          }
          first = false;
          space();
          value(p);
          space();
        }
        out.append(']');
      }
      case VALUE_STRING -> string(p.getString());
      case VALUE_NUMBER_INT -> number(p.getString(), true);
      case VALUE_NUMBER_FLOAT -> number(p.getString(), false);
      case VALUE_TRUE -> out.append("true");
      case VALUE_FALSE -> out.append("false");
      case VALUE_NULL -> out.append("null");
      default -> throw new IllegalStateException("unexpected " + t);
    }
  }

  /** An object's members, each rendered on its own, then written in a shuffled order. */
  private void object(JsonParser p) {
    List<String> members = new ArrayList<>();
    while (p.nextToken() == JsonToken.PROPERTY_NAME) {
      String name = p.currentName();
      p.nextToken();
      int mark = out.length();
      space();
      string(name);
      space();
      out.append(':');
      space();
      value(p);
      space();
      members.add(out.substring(mark));
      out.setLength(mark);
    }
    Collections.shuffle(members, r);
    out.append('{').append(String.join(",", members)).append('}');
  }

  private void string(String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      int choice = r.nextInt(4);
      if (c == '"' || c == '\\') {
        out.append(choice == 0 ? unicode(c) : "\\" + c);
      } else if (c == '/' && choice == 0) {
        out.append("\\/");
      } else if (c < 0x20) {
        String shortForm = switch (c) {
          case '\b' -> "\\b";
          case '\t' -> "\\t";
          case '\n' -> "\\n";
          case '\f' -> "\\f";
          case '\r' -> "\\r";
          default -> null;
        };
        out.append(shortForm != null && choice < 2 ? shortForm : unicode(c));
      } else if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
        // An astral character: raw, or both units escaped.
        char low = s.charAt(++i);
        out.append(choice == 0 ? unicode(c) + unicode(low) : "" + c + low);
      } else {
        out.append(choice == 0 ? unicode(c) : String.valueOf(c));
      }
    }
    out.append('"');
  }

  private String unicode(char c) {
    String hex = String.format("%04x", (int) c);
    return "\\u" + (r.nextBoolean() ? hex : hex.toUpperCase());
  }

  /** A number spelled another way with the same value (and so the same double). */
  private void number(String text, boolean integer) {
    if (integer && !options.integers()) {
      out.append(text);
      return;
    }
    BigDecimal v = new BigDecimal(text);
    List<String> spellings = new ArrayList<>();
    spellings.add(text);
    spellings.add(v.toString());
    spellings.add(v.toPlainString());
    BigDecimal stripped = v.signum() == 0 ? BigDecimal.ZERO : v.stripTrailingZeros();
    spellings.add(stripped.unscaledValue() + "e" + (-stripped.scale()));
    spellings.add(stripped.unscaledValue() + "0E" + (-stripped.scale() - 1));
    String plain = stripped.toPlainString();
    spellings.add(plain.contains(".") ? plain + "00" : plain + ".0");
    spellings.add(scientific(stripped, r.nextInt(5) - 2));
    if (!integer) {
      double d = Double.parseDouble(text);
      if (!Double.isInfinite(d) && !(d == 0 && text.startsWith("-"))) {
        spellings.add(new BigDecimal(d).toString());
        spellings.add(Double.toString(d));
      }
    }
    List<String> usable = new ArrayList<>();
    for (String s : spellings) {
      String json = s.replace("E+", "e").replace("e+", "e").replace('E', 'e');
      if (r.nextBoolean()) {
        json = json.replace('e', 'E');
      }
      if (r.nextBoolean()) {
        json = json.replaceFirst("([eE])(?=[0-9])", "$1+");
      }
      if (json.length() <= options.maxNumberChars() && isJsonNumber(json)) {
        usable.add(json);
      }
    }
    out.append(usable.isEmpty() ? text : usable.get(r.nextInt(usable.size())));
  }

  /** @return {@code v} as {@code d.ddd e N} with the point moved {@code shift} places right */
  private static String scientific(BigDecimal v, int shift) {
    String digits = v.unscaledValue().abs().toString();
    int exponent = digits.length() - 1 - v.scale();
    String sign = v.signum() < 0 ? "-" : "";
    int lead = Math.max(1, Math.min(digits.length(), 1 + shift));
    String mantissa = digits.substring(0, lead)
        + (lead < digits.length() ? "." + digits.substring(lead) : "");
    return sign + mantissa + "e" + (exponent - (lead - 1));
  }

  private static boolean isJsonNumber(String s) {
    return s.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?");
  }
}
