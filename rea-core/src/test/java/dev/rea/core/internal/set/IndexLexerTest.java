package dev.rea.core.internal.set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rea.core.error.ReaException;
import dev.rea.core.options.Limits;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * What {@link IndexLexer#skipValue} costs: a skipped string is checked (escapes, UTF-8, control
 * bytes) but not kept, so an index holding one ignored string as long as itself needs no buffer
 * of that size (a hostile trial ran {@code rea scan} out of heap with a 95 MB one).
 */
class IndexLexerTest {
  private static IndexLexer lexer(String json) {
    return new IndexLexer(
        new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), Limits.defaults(), null);
  }

  @Test
  void aSkippedStringIsCheckedButNotKept() throws Exception {
    String big = "é\\u00e9\\n".repeat(1 << 20); // 8 MiB of JSON text, escapes and UTF-8
    IndexLexer x = lexer("{\"ignored\": [\"" + big + "\", {\"k\": \"" + big + "\"}]}");
    x.skipValue();
    assertThat(x.bytesRead()).isGreaterThan(16L << 20);
    assertThat(x.str.length).as("the string buffer did not grow to the skipped strings").isLessThan(4096);

    // Still checked: a bad escape and a bad UTF-8 byte in a skipped string are refused.
    ReaException escape =
        catchThrowableOfType(ReaException.class, () -> lexer("[\"ab\\q\"]").skipValue());
    assertThat(escape.getMessage()).contains("is not a JSON escape");
    byte[] bad = {'[', '"', 'a', (byte) 0xC0, (byte) 0x80, '"', ']'};
    IndexLexer utf8 = new IndexLexer(new ByteArrayInputStream(bad), Limits.defaults(), null);
    assertThat(catchThrowableOfType(ReaException.class, utf8::skipValue).getMessage())
        .contains("not well-formed UTF-8");
  }

  @Test
  void aStringReadAfterASkippedOneIsKeptWhole() throws Exception {
    IndexLexer x = lexer("[\"" + "x".repeat(1000) + "\"] \"kept\"");
    x.skipValue();
    x.skipWhitespace();
    x.readString();
    assertThat(new String(x.str, 0, x.strLength, StandardCharsets.UTF_8)).isEqualTo("kept");
  }
}
