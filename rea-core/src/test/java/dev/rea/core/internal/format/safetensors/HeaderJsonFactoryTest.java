package dev.rea.core.internal.format.safetensors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.rea.core.options.Limits;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.TokenStreamFactory;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.UTF8StreamJsonParser;

/**
 * {@link HeaderJsonFactory} against Jackson's own factory built from the same settings with
 * property-name canonicalization on (which gives the same byte-level parser with a name table):
 * on random JSON documents, valid and mutated, both must give the same tokens, texts and token
 * locations (byte offset, line, column), and fail with the same message at the same place. And
 * the table is really gone: a repeated name comes back as a new string, where Jackson's own
 * factory returns the one it stored.
 */
class HeaderJsonFactoryTest {
  private static final String NAME_CHARS = "abz09._-/ éĠ日本😀";
  private static final String[] ESCAPES = {"\\\"", "\\\\", "\\u0000", "\\n", "\\u00e9", "\\ud83d\\ude00"};
  private static final byte[] MUTANTS = "{}[],:\"\\x0-e.\u0001 ".getBytes(StandardCharsets.UTF_8);

  private static JsonFactory ours() {
    return JacksonHeaderOracle.factoryFor(Limits.defaults());
  }

  private static JsonFactory jacksons() {
    return JacksonHeaderOracle.builderFor(Limits.defaults())
        .enable(TokenStreamFactory.Feature.CANONICALIZE_PROPERTY_NAMES)
        .build();
  }

  /** Every token with its text and location, then how the parse ended. */
  private static List<String> walk(JsonFactory factory, byte[] json) {
    List<String> out = new ArrayList<>();
    try (JsonParser p = factory.createParser(ObjectReadContext.empty(), json, 0, json.length)) {
      // Ours is a subclass of the byte-level parser that only adds tokenByteOffset().
      out.add(p instanceof UTF8StreamJsonParser ? "UTF8StreamJsonParser" : p.getClass().getSimpleName());
      JsonToken t;
      while ((t = p.nextToken()) != null) {
        TokenStreamLocation at = p.currentTokenLocation();
        if (p instanceof HeaderJsonParser ours) {
          assertThat(ours.tokenByteOffset()).as("%s", t).isEqualTo(at.getByteOffset());
        }
        String text = t == JsonToken.PROPERTY_NAME ? p.currentName() : p.getString();
        out.add(t + " " + text + " @" + at.getByteOffset() + ":" + at.getLineNr() + ":" + at.getColumnNr());
      }
      out.add("end @" + p.currentLocation().getByteOffset());
    } catch (JacksonException e) {
      out.add(e.getClass().getSimpleName() + ": " + e.getMessage());
    }
    return out;
  }

  private static void name(Random r, StringBuilder sb, List<String> pool) {
    if (!pool.isEmpty() && r.nextInt(3) == 0) {
      sb.append(pool.get(r.nextInt(pool.size())));
      return;
    }
    StringBuilder n = new StringBuilder("\"");
    int len = r.nextInt(r.nextBoolean() ? 8 : 60);
    for (int i = 0; i < len; i++) {
      if (r.nextInt(12) == 0) {
        n.append(ESCAPES[r.nextInt(ESCAPES.length)]);
      } else {
        int at = NAME_CHARS.offsetByCodePoints(0, r.nextInt(NAME_CHARS.codePointCount(0, NAME_CHARS.length())));
        n.appendCodePoint(NAME_CHARS.codePointAt(at));
      }
    }
    n.append('"');
    pool.add(n.toString());
    sb.append(n);
  }

  private static void value(Random r, StringBuilder sb, List<String> pool, int depth) {
    int kind = depth > 3 ? 3 + r.nextInt(3) : r.nextInt(6);
    switch (kind) {
      case 0, 1 -> {
        sb.append('{');
        int n = r.nextInt(6);
        for (int i = 0; i < n; i++) {
          if (i > 0) {
            sb.append(r.nextBoolean() ? "," : " ,\n ");
          }
          name(r, sb, pool);
          sb.append(':');
          value(r, sb, pool, depth + 1);
        }
        sb.append('}');
      }
      case 2 -> {
        sb.append('[');
        int n = r.nextInt(5);
        for (int i = 0; i < n; i++) {
          if (i > 0) {
            sb.append(',');
          }
          value(r, sb, pool, depth + 1);
        }
        sb.append(']');
      }
      case 3 -> sb.append(
          switch (r.nextInt(6)) {
            case 0 -> Long.toString(r.nextLong());
            // Around 2^64: the largest unsigned 64-bit values and the first that do not fit.
            case 1 -> new java.math.BigInteger("18446744073709551600").add(java.math.BigInteger.valueOf(r.nextInt(40))).toString();
            case 2 -> "1" + Long.toUnsignedString(r.nextLong()) + r.nextInt(10);
            default -> Integer.toString(r.nextInt(5000));
          });
      case 4 -> name(r, sb, pool);
      default -> sb.append(r.nextBoolean() ? "true" : r.nextBoolean() ? "null" : "-1.5e3");
    }
  }

  static byte[] document(long seed) {
    Random r = new Random(seed);
    StringBuilder sb = new StringBuilder(r.nextBoolean() ? "" : " \n");
    sb.append('{');
    List<String> pool = new ArrayList<>();
    int entries = r.nextInt(30);
    for (int i = 0; i < entries; i++) {
      if (i > 0) {
        sb.append(',');
      }
      name(r, sb, pool);
      sb.append(':');
      value(r, sb, pool, 1);
    }
    sb.append('}');
    byte[] json = sb.toString().getBytes(StandardCharsets.UTF_8);
    switch (r.nextInt(4)) {
      case 0 -> json[r.nextInt(json.length)] = MUTANTS[r.nextInt(MUTANTS.length)];
      case 1 -> json = java.util.Arrays.copyOf(json, r.nextInt(json.length));
      default -> {
        // unchanged
      }
    }
    return json;
  }

  @Test
  void randomDocumentsParseExactlyAsWithJacksonsOwnFactory() {
    AtomicInteger failed = new AtomicInteger();
    AtomicInteger total = new AtomicInteger();
    qt().withExamples(1500)
        .forAll(longs().all())
        .checkAssert(
            seed -> {
              byte[] json = document(seed);
              List<String> tokens = walk(ours(), json);
              assertThat(tokens).as("seed %d", seed).isEqualTo(walk(jacksons(), json));
              total.incrementAndGet();
              if (!tokens.get(tokens.size() - 1).startsWith("end @")) {
                failed.incrementAndGet();
              }
            });
    // Both outcomes are compared often: parses that end and parses that fail.
    assertThat(failed.get()).isBetween(total.get() / 5, total.get() * 4 / 5);
  }

  @Test
  void manyDistinctLongNamesParseAsWithJacksonsOwnFactory() {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < 5000; i++) {
      sb.append(i == 0 ? "" : ",")
          .append("\"model.layers.")
          .append(i)
          .append(".self_attn.q_proj.weight\":{\"dtype\":\"F16\",\"shape\":[4096,4096],\"data_offsets\":[0,2]}");
    }
    byte[] json = sb.append('}').toString().getBytes(StandardCharsets.UTF_8);
    List<String> tokens = walk(ours(), json);
    assertThat(tokens).hasSize(1 + 5000 * 15 + 2 + 1).isEqualTo(walk(jacksons(), json));
    assertThat(tokens.get(2)).startsWith("PROPERTY_NAME model.layers.0.self_attn.q_proj.weight @1:1:2");
  }

  @Test
  void theParserIsTheByteLevelOneWithoutANameTable() throws Exception {
    byte[] json =
        "{\"model.embed_tokens.weight\":{\"model.embed_tokens.weight\":1}}".getBytes(StandardCharsets.UTF_8);
    for (boolean table : new boolean[] {false, true}) {
      try (JsonParser p = (table ? jacksons() : ours()).createParser(ObjectReadContext.empty(), json, 0, json.length)) {
        assertThat(p).isInstanceOf(UTF8StreamJsonParser.class);
        p.nextToken();
        p.nextToken();
        String first = p.currentName();
        p.nextToken();
        p.nextToken();
        String second = p.currentName();
        assertThat(second).isEqualTo(first).isEqualTo("model.embed_tokens.weight");
        if (table) {
          assertThat(second).isSameAs(first);
        } else {
          assertThat(second).isNotSameAs(first);
        }
      }
    }
  }

  @Test
  void aBuilderWithCanonicalizationOnIsRefused() {
    assertThatThrownBy(
            () ->
                new HeaderJsonFactory(
                    JacksonHeaderOracle.builderFor(Limits.defaults())
                        .enable(TokenStreamFactory.Feature.CANONICALIZE_PROPERTY_NAMES)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CANONICALIZE_PROPERTY_NAMES");
  }
}
