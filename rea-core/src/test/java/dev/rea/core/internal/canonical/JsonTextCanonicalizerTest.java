package dev.rea.core.internal.canonical;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.testing.JsonReformatter;
import dev.rea.core.testing.RandomRecords;
import dev.rea.core.testing.RandomText;
import dev.rea.core.testing.Rfc8785Oracle;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quicktheories.QuickTheory;
import org.quicktheories.generators.SourceDSL;

/** REA's RFC 8785 canonical form of JSON text, against the RFC's examples and the reference. */
class JsonTextCanonicalizerTest {
  private static String canon(String json) {
    return new String(
        JsonTextCanonicalizer.canonicalize(json.getBytes(StandardCharsets.UTF_8)),
        StandardCharsets.UTF_8);
  }

  /** RFC 8785 section 3.2.2: the example of primitive data types, input and output. */
  @Test
  void rfc8785Section322PrimitiveSerialization() {
    String input = "{\n  \"numbers\": [333333333.33333329, 1E30, 4.50,\n"
        + "              2e-3, 0.000000000000000000000000001],\n"
        + "  \"string\": \"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\",\n"
        + "  \"literals\": [null, true, false]\n}";
    String expected = "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,"
        + "0.002,1e-27],\"string\":\"\u20ac$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}";
    assertThat(canon(input)).isEqualTo(expected);
    // Section 3.2.4 gives the same output as UTF-8 bytes; the euro sign is E2 82 AC.
    byte[] bytes = JsonTextCanonicalizer.canonicalize(input.getBytes(StandardCharsets.UTF_8));
    assertThat(bytes).hasSize(expected.getBytes(StandardCharsets.UTF_8).length);
    assertThat(new String(bytes, StandardCharsets.UTF_8)).contains("\"\u20ac$");
  }

  /** RFC 8785 section 3.2.3: members sorted by UTF-16 code units (U+1F600 before U+FB33). */
  @Test
  void rfc8785Section323SortingByUtf16CodeUnits() {
    String input = "{\n  \"\\u20ac\": \"Euro Sign\",\n  \"\\r\": \"Carriage Return\",\n"
        + "  \"\\ufb33\": \"Hebrew Letter Dalet With Dagesh\",\n  \"1\": \"One\",\n"
        + "  \"\\ud83d\\ude00\": \"Emoji: Grinning Face\",\n  \"\\u0080\": \"Control\",\n"
        + "  \"\\u00f6\": \"Latin Small Letter O With Diaeresis\"\n}";
    assertThat(canon(input)).isEqualTo(
        "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\","
            + "\"\u00f6\":\"Latin Small Letter O With Diaeresis\",\"\u20ac\":\"Euro Sign\","
            + "\"\ud83d\ude00\":\"Emoji: Grinning Face\","
            + "\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}");
  }

  @Test
  void nestedObjectsAreSortedAtEveryLevelAndArraysKeepTheirOrder() {
    assertThat(canon("{\"b\":{\"z\":1,\"a\":[{\"y\":2,\"x\":1},3,2]},\"a\":0}"))
        .isEqualTo("{\"a\":0,\"b\":{\"a\":[{\"x\":1,\"y\":2},3,2],\"z\":1}}");
    assertThat(canon(" [ ] ")).isEqualTo("[]");
    assertThat(canon("{ }")).isEqualTo("{}");
    assertThat(canon("\"\\u2028\\u007f\\uFFFF\"")).isEqualTo("\"\u2028\u007f\uffff\"");
    assertThat(canon("-0")).isEqualTo("0");
    assertThat(canon("[1e0,1.0,10E-1,0.1e+1,-0.0,100E-2,-0,1E21,123456789012345678]"))
        .isEqualTo("[1,1,1,1,0,1,0,1e+21,123456789012345680]");
  }

  /** Texts that are not one JSON value, or that RFC 8785 cannot canonicalize. */
  @ParameterizedTest
  @ValueSource(strings = {
    "", "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "[01]", "[1.]", "[.5]", "[1e]", "[+1]", "[-]",
    "[tru]", "[nul]", "[\"\\x\"]", "[\"\\u12G4\"]", "[\"\\ud800\"]", "[\"\\udc00\\ud800\"]",
    "{\"a\":1,\"a\":2}", "{\"\\u0061\":1,\"a\":2}", "[1e400]", "[-1e400]", "[1] [2]", "[1]x",
    "[\"\u0001\"]", "{\"a\":1x}", "{1:2}", "[NaN]", "[Infinity]", "[\"a\"", "\"\\ud83d\\u0041\"",
  })
  void malformedOrUncanonicalizableTextIsRefused(String text) {
    assertThatThrownBy(() -> canon(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at byte");
  }

  @Test
  void invalidUtf8IsRefused() {
    byte[][] texts = {
      {'"', (byte) 0xC0, (byte) 0xAF, '"'}, // overlong '/'
      {'"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"'}, // an encoded surrogate
      {'"', (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80, '"'}, // above U+10FFFF
      {'"', (byte) 0xE2, (byte) 0x82, '"'}, // cut sequence
      {'"', (byte) 0xFF, '"'},
    };
    for (byte[] t : texts) {
      assertThatThrownBy(() -> JsonTextCanonicalizer.canonicalize(t))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("invalid UTF-8");
    }
  }

  @Test
  void nestingDeeperThanTheBoundIsRefused() {
    String ok = "[".repeat(JsonTextCanonicalizer.MAX_DEPTH) + "]".repeat(JsonTextCanonicalizer.MAX_DEPTH);
    assertThat(canon(ok)).isEqualTo(ok);
    String deep = "[" + ok + "]";
    assertThatThrownBy(() -> canon(deep)).hasMessageContaining("nesting deeper than 512");
  }

  /**
   * Random records' JSON texts, rewritten with the same meaning (whitespace, member order, number
   * spellings such as 1e0 / 1.0 / 10E-1 and the exact decimal of a double, escapes): the
   * canonical form is the oracle's, and the same as that of the record's own text.
   */
  @Test
  void reformattedRecordTextsCanonicalizeAsTheOracleDoes() {
    QuickTheory.qt()
        .withExamples(400)
        .forAll(SourceDSL.longs().all())
        .checkAssert(
            seed -> {
              EvidenceRecord r = RandomRecords.of(seed);
              byte[] text = EvidenceJson.recordBytes(r, false);
              byte[] expected = Rfc8785Oracle.canonicalize(text);
              assertThat(JsonTextCanonicalizer.canonicalize(text)).as("seed %d", seed)
                  .isEqualTo(expected);
              byte[] rewritten =
                  JsonReformatter.reformat(text, new Random(seed), JsonReformatter.Options.ALL);
              assertThat(rewritten).isNotEqualTo(text);
              assertThat(Rfc8785Oracle.canonicalize(rewritten)).as("seed %d", seed)
                  .isEqualTo(expected);
              assertThat(JsonTextCanonicalizer.canonicalize(rewritten))
                  .as("seed %d: %s", seed, new String(rewritten, StandardCharsets.UTF_8))
                  .isEqualTo(expected);
            });
  }

  /**
   * Random JSON trees whose property names are data (astral characters, controls, prefixes of
   * each other), so member order is decided by UTF-16 code units; same bytes as the oracle.
   */
  @Test
  void randomTreesCanonicalizeAsTheOracleDoes() {
    QuickTheory.qt()
        .withExamples(500)
        .forAll(SourceDSL.longs().all())
        .checkAssert(
            seed -> {
              Random r = new Random(seed);
              StringBuilder json = new StringBuilder();
              tree(r, json, 0);
              byte[] text = json.toString().getBytes(StandardCharsets.UTF_8);
              byte[] rewritten = JsonReformatter.reformat(text, r, JsonReformatter.Options.ALL);
              assertThat(JsonTextCanonicalizer.canonicalize(rewritten))
                  .as("seed %d: %s", seed, json)
                  .isEqualTo(Rfc8785Oracle.canonicalize(text));
            });
  }

  /** Appends a random object or array (the library's root must be one) of depth at most 4. */
  private static void tree(Random r, StringBuilder out, int depth) {
    if (r.nextBoolean()) {
      out.append('{');
      java.util.Set<String> names = new java.util.HashSet<>();
      for (int i = r.nextInt(depth == 0 ? 12 : 5); i > 0; i--) {
        String name = RandomText.of(r, "a\u00e9\u20ac\ufb33\ud83d\ude00\u0001\r1", 3);
        if (!names.add(name)) {
          continue;
        }
        if (names.size() > 1) {
          out.append(',');
        }
        out.append(quoted(name)).append(':');
        element(r, out, depth + 1);
      }
      out.append('}');
    } else {
      out.append('[');
      for (int i = r.nextInt(5); i > 0; i--) {
        element(r, out, depth + 1);
        if (i > 1) {
          out.append(',');
        }
      }
      out.append(']');
    }
  }

  private static void element(Random r, StringBuilder out, int depth) {
    switch (depth >= 4 ? 2 + r.nextInt(4) : r.nextInt(6)) {
      case 0, 1 -> tree(r, out, depth);
      case 2 -> out.append(quoted(RandomRecords.text(r)));
      case 3 -> {
        double d = RandomRecords.doubleValue(r);
        out.append(Double.isNaN(d) || Double.isInfinite(d) ? "null" : Double.toString(d));
      }
      case 4 -> out.append(RandomRecords.longValue(r));
      default -> out.append(r.nextBoolean() ? "true" : r.nextBoolean() ? "false" : "null");
    }
  }

  /** @return {@code s} as a JSON string, every non-ASCII or special character escaped */
  private static String quoted(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == '"' || c == '\\' || c > 0x7e) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.append('"').toString();
  }

  /** A long string with escapes and multi-byte characters crosses the sink's chunks intact. */
  @Test
  void longStringsCrossChunkBoundariesIntact() {
    StringBuilder s = new StringBuilder();
    Random r = new Random(5);
    while (s.length() < 3 * CanonicalSink.CHUNK) {
      s.append(RandomRecords.text(r));
    }
    byte[] text = ("[" + quoted(s.toString()) + "]").getBytes(StandardCharsets.UTF_8);
    byte[] expected = Rfc8785Oracle.canonicalize(text);
    assertThat(JsonTextCanonicalizer.canonicalize(text)).isEqualTo(expected);
    CanonicalSink same = CanonicalSink.comparingWith(expected);
    JsonTextCanonicalizer.canonicalize(text, same);
    same.finish();
    assertThat(same.mismatch()).isEqualTo(-1);
    byte[] changed = expected.clone();
    changed[CanonicalSink.CHUNK + 7] ^= 1;
    CanonicalSink differs = CanonicalSink.comparingWith(changed);
    JsonTextCanonicalizer.canonicalize(text, differs);
    differs.finish();
    assertThat(differs.mismatch()).isEqualTo(CanonicalSink.CHUNK + 7);
  }
}
