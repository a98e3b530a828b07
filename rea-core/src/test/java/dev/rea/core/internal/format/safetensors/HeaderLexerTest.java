package dev.rea.core.internal.format.safetensors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rea.core.error.ReaException;
import dev.rea.core.options.Limits;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.core.JsonToken;

/**
 * {@link HeaderLexer}'s own wording and offsets for what it refuses, its name limit in UTF-16
 * units, and the reader's message for a header cut short (the Jackson comparison is {@code
 * HeaderLexerOracleTest}).
 */
class HeaderLexerTest {
  private static HeaderLexer.Syntax refusal(String json) {
    HeaderLexer lx = new HeaderLexer(json.getBytes(StandardCharsets.UTF_8), 1000, 33);
    return catchThrowableOfType(
        HeaderLexer.Syntax.class,
        () -> {
          while (lx.nextToken() != JsonToken.NOT_AVAILABLE) {
            // to the end or the refusal
          }
        });
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"a\":[1,2|9|the header JSON ends inside an array (expected ',' or ']' after an array element)",
        "{\"a\":1,}|7|expected a property name after ',', found '}'",
        "{\"a\":[1,]}|8|expected a value, found ']'",
        "{\"a\":01}|6|a number must not have a leading zero",
        "{\"a\":-x}|6|a minus sign must be followed by a digit",
        "{\"a\":1.}|7|a decimal point must be followed by a digit",
        "{\"a\":1e+}|8|an exponent must have a digit",
        "{\"a\":true0}|5|unrecognized token (expected 'true')",
        "{\"a\":nul}|5|unrecognized token (expected 'null')",
        "{\"a\":\"x\\qy\"}|8|invalid escape (only \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u are JSON)",
        "{\"a\":\"\\u12g4\"}|10|a \\u escape needs four hexadecimal digits",
        "{\"a\" 1}|5|expected ':' after a property name, found '1'",
        "{\"a\":1 \"b\":2}|7|expected ',' or '}' after an object member, found '\"'",
        "{a:1}|1|expected a property name or '}', found 'a'",
        "{\"a\":1} x|8|content after the top-level value: 'x'",
        "{\"a\":\"x|7|the header ends inside a string",
      })
  void refusalsNameTheByteAndTheRule(String json, int offset, String reason) {
    HeaderLexer.Syntax e = refusal(json);
    assertThat(e.reason).isEqualTo(reason);
    assertThat(e.offset).isEqualTo(offset);
  }

  @Test
  void aRawTabInAStringIsRefusedWhereItIs() {
    HeaderLexer.Syntax e = refusal("{\"a\":\"x\ty\"}");
    assertThat(e.reason).isEqualTo("a control character (0x09) must be escaped in a string");
    assertThat(e.offset).isEqualTo(7);
  }

  @Test
  void theNameLimitCountsUtf8BytesAsWritten() {
    // "a€€" is 7 bytes of UTF-8 (3 characters); "\u0041bc" counts 3 (an escape counts one).
    String[][] cases = {{"a€€", "7"}, {"\\u0041bc", "3"}, {"😀", "4"}};
    for (String[] c : cases) {
      byte[] json = ("{\"" + c[0] + "\":1}").getBytes(StandardCharsets.UTF_8);
      int length = Integer.parseInt(c[1]);
      HeaderLexer fits = new HeaderLexer(json, length, 33);
      fits.nextToken();
      assertThat(fits.nextToken()).as(c[0]).isEqualTo(JsonToken.PROPERTY_NAME);
      HeaderLexer over = new HeaderLexer(json, length - 1, 33);
      over.nextToken();
      HeaderLexer.NameTooLong e = catchThrowableOfType(HeaderLexer.NameTooLong.class, over::nextToken);
      assertThat(e).as(c[0]).isNotNull();
      assertThat(e.offset).as(c[0]).isEqualTo(1);
    }
  }

  @Test
  void aNameOfThreeByteCharactersOverTheBudgetIsRefusedBeforeItIsBuilt() {
    // 400 characters of 3 bytes: 1,200 bytes, over a budget of 1,000 bytes that the character
    // count (400) is under. Refused as the budget's name refusal, at the name's quote, with the
    // field naming the object the name is in.
    String name = "€".repeat(400);
    String json = "{\"" + name + "\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}";
    Limits small = Limits.builder().retainedBudgetBytes(1_000).build();
    ReaException e = SafetensorsReads.reject(SafetensorsBuilder.file(json, 1), small);
    assertThat(e.constraint()).isEqualTo(dev.rea.core.error.Constraint.RETAINED_BUDGET);
    assertThat(e.field()).isEqualTo("tensors");
    assertThat(e.offset()).isEqualTo(9L);
  }

  @Test
  void decodedTextsKeepEscapesAndFourByteCharacters() {
    byte[] json = "{\"a\\\"\\u00e9😀\":\"x\\n\\/\\ud83d\\ude00\"}".getBytes(StandardCharsets.UTF_8);
    HeaderLexer lx = new HeaderLexer(json, 100, 33);
    lx.nextToken();
    lx.nextToken();
    assertThat(lx.currentName()).isEqualTo("a\"é😀");
    assertThat(lx.nextToken()).isEqualTo(JsonToken.VALUE_STRING);
    StringSizer s = new StringSizer(100);
    lx.readString(s);
    assertThat(s.text()).isEqualTo("x\n/😀");
    assertThat(s.sawPair()).isTrue();
  }

  @Test
  void aHeaderCutShortIsRefusedAtItsEndInREAsWords() {
    String json = "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}";
    ReaException e = SafetensorsReads.reject(SafetensorsBuilder.file(json, 4), Limits.defaults());
    assertThat(e.getMessage())
        .isEqualTo(
            "header at offset 61: invalid JSON in the header: the header JSON ends inside an"
                + " object (expected ',' or '}' after an object member)");
    assertThat(e.offset()).isEqualTo(61L);
  }

  @Test
  void theWordTestFindsEveryByteThatEndsAFastRun() {
    // Each special byte at each of the eight places of a word of plain ASCII letters, and a
    // second one after it, which must not hide the first.
    byte[] specials = {'"', '\\', 0x00, 0x1F, (byte) 0x80, (byte) 0xFF};
    for (byte x : specials) {
      for (int at = 0; at < 8; at++) {
        byte[] w = "abcdefgh".getBytes(StandardCharsets.US_ASCII);
        w[at] = x;
        if (at < 7) {
          w[7] = '"';
        }
        long word = java.nio.ByteBuffer.wrap(w).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
        // The lowest flagged byte is the special one: the plain bytes before it are skipped.
        assertThat(Long.numberOfTrailingZeros(HeaderLexer.special(word)) >>> 3)
            .as("0x%02x at %d", x & 0xFF, at)
            .isEqualTo(at);
      }
    }
    // Nothing else ends it: every printable ASCII byte other than '"' and '\\'.
    for (int c = 0x20; c < 0x80; c++) {
      if (c == '"' || c == '\\') {
        continue;
      }
      long word = 0x0101010101010101L * c;
      assertThat(HeaderLexer.special(word)).as("0x%02x", c).isZero();
    }
  }

  @Test
  void integersAreReadWithTheirSignAndWhetherTheyFit64Bits() {
    String[] texts = {"0", "-0", "42", "18446744073709551615", "18446744073709551616", "99999999999999999999", "-7"};
    for (String text : texts) {
      HeaderLexer lx = new HeaderLexer(("[" + text + "]").getBytes(StandardCharsets.UTF_8), 10, 33);
      lx.nextToken();
      assertThat(lx.nextToken()).isEqualTo(JsonToken.VALUE_NUMBER_INT);
      java.math.BigInteger m = new java.math.BigInteger(text).abs();
      assertThat(lx.negative()).as(text).isEqualTo(text.startsWith("-"));
      assertThat(lx.integerFits()).as(text).isEqualTo(m.bitLength() <= 64);
      if (lx.integerFits()) {
        assertThat(Long.toUnsignedString(lx.integer())).isEqualTo(m.toString());
      }
    }
  }
}
