package dev.rea.core.internal.format.safetensors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.rea.core.error.ReaException;
import dev.rea.core.options.Limits;
import dev.rea.core.text.Utf8;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.TokenStreamFactory;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;

/**
 * {@link HeaderLexer} against Jackson's byte-level parser with the settings the header was parsed
 * with before ({@link JacksonHeaderOracle}): on random JSON documents, valid and mutated, that
 * pass the byte pre-pass ({@link HeaderPrescan}), both give the same tokens, decoded texts and
 * token offsets, and refuse the same documents at the same token and the same byte; and a
 * property name over the name limit is refused by both.
 */
class HeaderLexerOracleTest {
  private static JsonFactory jackson(Limits limits) {
    return JacksonHeaderOracle.builderFor(limits)
        .enable(TokenStreamFactory.Feature.CANONICALIZE_PROPERTY_NAMES)
        .build();
  }

  private static String text(HeaderLexer lx, JsonToken t) {
    switch (t) {
      case PROPERTY_NAME:
        return lx.currentName();
      case VALUE_STRING:
        {
          StringSizer s = new StringSizer(Long.MAX_VALUE);
          lx.readString(s);
          return s.keptText().toString();
        }
      case VALUE_NUMBER_INT:
        return new String(lx.bytes(), lx.tokenStart(), lx.numberLength(), StandardCharsets.US_ASCII)
            + (lx.integerFits() ? " = " + Long.toUnsignedString(lx.integer()) : " over 64 bits");
      case VALUE_NUMBER_FLOAT:
        return new String(lx.bytes(), lx.tokenStart(), lx.numberLength(), StandardCharsets.US_ASCII);
      case VALUE_TRUE:
        return "true";
      case VALUE_FALSE:
        return "false";
      case VALUE_NULL:
        return "null";
      default:
        return t.asString();
    }
  }

  /** Every token with its text and offset, then "end @" or "refused @" with the offset. */
  static List<String> lexer(byte[] json, Limits limits) {
    List<String> out = new ArrayList<>();
    HeaderLexer lx = new HeaderLexer(json, (int) limits.retainedBudgetBytes(), limits.nestingLimit() + 1);
    try {
      JsonToken t;
      while ((t = lx.nextToken()) != JsonToken.NOT_AVAILABLE) {
        String text = text(lx, t);
        if (t == JsonToken.PROPERTY_NAME && Utf8.findLoneSurrogate(text, 0, text.length()) >= 0) {
          // HeaderParse refuses such a name (its escaped length is -1); Jackson refuses it itself.
          out.add("lone surrogate in a name");
          return out;
        }
        out.add(t + " " + text + " @" + lx.tokenStart());
      }
      out.add("end @" + lx.offset());
    } catch (HeaderLexer.Syntax e) {
      out.add("refused @" + e.offset);
    } catch (HeaderLexer.NameTooLong e) {
      out.add("name too long");
    }
    return out;
  }

  static List<String> jackson(byte[] json, Limits limits) {
    List<String> out = new ArrayList<>();
    JsonParser p = jackson(limits).createParser(ObjectReadContext.empty(), json, 0, json.length);
    try (p) {
      JsonToken t;
      while ((t = p.nextToken()) != null) {
        String text = t == JsonToken.PROPERTY_NAME ? p.currentName() : p.getString();
        if (t == JsonToken.VALUE_NUMBER_INT) {
          // The magnitude, from the text, as an independent reading of the lexer's value.
          java.math.BigInteger m = new java.math.BigInteger(text).abs();
          text += m.bitLength() <= 64 ? " = " + m : " over 64 bits";
        }
        out.add(t + " " + text + " @" + p.currentTokenLocation().getByteOffset());
        if (p.streamReadContext().inRoot() && t.isStructEnd()) {
          // Jackson reads further root values; the header is one object, the lexer stops here.
          long at = p.currentLocation().getByteOffset();
          int i = (int) at;
          while (i < json.length && HeaderPrescan.isJsonSpace(json[i])) {
            i++;
          }
          out.add(i == json.length ? "end @" + at : "refused @" + i);
          return out;
        }
      }
      out.add("end @" + p.currentLocation().getByteOffset());
    } catch (StreamConstraintsException e) {
      out.add(e.getMessage().startsWith("Name length") ? "name too long" : "constraint " + e.getMessage());
    } catch (JacksonException e) {
      if (e.getOriginalMessage() != null && e.getOriginalMessage().contains("surrogate")) {
        out.add("lone surrogate in a name");
        return out;
      }
      out.add("refused @" + (JacksonHeaderOracle.errorOffset(e, p, json)));
    }
    return out;
  }

  /**
   * Equal lists, or a failure naming the first line that differs and the bytes around it. Jackson
   * reads a property name's colon and the start of its value with the name, so where that value
   * is broken Jackson refuses at the name and the lexer one token later: a name just before a
   * refusal is left out of both lists.
   */
  static void assertSame(long seed, byte[] json, List<String> ours, List<String> theirs) {
    ours = withoutNameBeforeRefusal(ours);
    theirs = withoutNameBeforeRefusal(theirs);
    // A number cut by the end of the JSON ("-1."): the lexer names the end, where the digit is
    // missing; Jackson the last byte it read. The one place the two offsets differ.
    String cut = "refused @" + json.length;
    if (ours.size() == theirs.size()
        && ours.get(ours.size() - 1).equals(cut)
        && theirs.get(theirs.size() - 1).equals("refused @" + (json.length - 1))) {
      theirs = new ArrayList<>(theirs);
      theirs.set(theirs.size() - 1, cut);
    }
    int i = 0;
    while (i < ours.size() && i < theirs.size() && ours.get(i).equals(theirs.get(i))) {
      i++;
    }
    if (i == ours.size() && i == theirs.size()) {
      return;
    }
    String line = i < ours.size() ? ours.get(i) : "(none)";
    String other = i < theirs.size() ? theirs.get(i) : "(none)";
    String shown = other.startsWith("refused") ? other : line;
    String at = shown.substring(shown.lastIndexOf('@') + 1);
    int from = 0;
    try {
      from = Math.max(0, Integer.parseInt(at.trim()) - 30);
    } catch (NumberFormatException e) {
      // no offset on this line
    }
    String around =
        new String(json, from, Math.min(60, json.length - from), StandardCharsets.UTF_8);
    assertThat(line)
        .as("seed %d, line %d, bytes from %d: [%s]", seed, i, from, around)
        .isEqualTo(i < theirs.size() ? theirs.get(i) : "(none)");
  }

  private static List<String> withoutNameBeforeRefusal(List<String> lines) {
    int n = lines.size();
    if (n >= 2
        && lines.get(n - 1).startsWith("refused")
        && lines.get(n - 2).startsWith("PROPERTY_NAME")) {
      List<String> out = new ArrayList<>(lines.subList(0, n - 2));
      out.add(lines.get(n - 1));
      return out;
    }
    return lines;
  }

  @Test
  void randomDocumentsTokenizeAsJacksonDoes() {
    AtomicInteger refused = new AtomicInteger();
    AtomicInteger compared = new AtomicInteger();
    AtomicInteger prescanned = new AtomicInteger();
    qt().withExamples(4000)
        .forAll(longs().all())
        .checkAssert(
            seed -> {
              byte[] json = HeaderJsonFactoryTest.document(seed);
              try {
                HeaderPrescan.check(json);
              } catch (ReaException e) {
                prescanned.incrementAndGet();
                return;
              }
              List<String> ours = lexer(json, Limits.defaults());
              assertSame(seed, json, ours, jackson(json, Limits.defaults()));
              compared.incrementAndGet();
              if (ours.get(ours.size() - 1).startsWith("refused")) {
                refused.incrementAndGet();
              }
            });
    // Both outcomes are compared often: documents read to the end and documents refused.
    assertThat(compared.get()).isGreaterThan(2000);
    assertThat(refused.get()).isBetween(compared.get() / 10, compared.get() * 9 / 10);
  }
}
