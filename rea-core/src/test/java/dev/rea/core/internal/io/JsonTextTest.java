package dev.rea.core.internal.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.evidence.EvidenceJson;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JsonGenerator;

/**
 * {@link JsonText} predicts, for every code point, exactly the bytes the Evidence writer ({@link
 * EvidenceJson}'s generator) and the RFC 8785 canonicalizer ({@link EvidenceIds#canonicalize})
 * write for it inside a string literal, from the string and from its UTF-8 bytes.
 */
class JsonTextTest {

  private static byte[] written(String s) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = EvidenceJson.generator(out)) {
      g.writeString(s);
    }
    return out.toByteArray();
  }

  @Test
  void everyCodePointCostsWhatTheWriterAndTheCanonicalizerWrite() {
    int escapedSix = 0;
    int escapedTwo = 0;
    for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
      if (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE) {
        continue;
      }
      String s = new String(Character.toChars(cp));
      byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
      byte[] json = written(s);
      long predicted = JsonText.escapedLength(s);
      assertThat(predicted).as("U+%04X", cp).isEqualTo(json.length - 2);
      assertThat(JsonText.quotedLength(s)).isEqualTo(json.length);
      assertThat(utf8.length + JsonText.escapeExtra(utf8, 0, utf8.length))
          .as("U+%04X from its bytes", cp)
          .isEqualTo(predicted);
      if (cp < 0x80 || cp % 97 == 0) {
        // RFC 8785 writes the same escapes (checked on a sample above ASCII: it is slow).
        byte[] canonical = EvidenceIds.canonicalize(("[" + new String(json, StandardCharsets.UTF_8) + "]")
            .getBytes(StandardCharsets.UTF_8));
        assertThat(canonical.length - 4L).as("U+%04X canonical", cp).isEqualTo(predicted);
      }
      if (predicted == 6) {
        escapedSix++;
      } else if (predicted == 2 && cp < 0x80) {
        escapedTwo++;
      }
    }
    // 27 controls without a short escape; \b \t \n \f \r, quote and backslash.
    assertThat(escapedSix).isEqualTo(27);
    assertThat(escapedTwo).isEqualTo(7);
  }

  @Test
  void mixedTextIsCountedPerCharacter() {
    String s = "a\u0001\"\\/\n\u007f\u00e9\u65e5\ud83d\ude00";
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    // a=1, U+0001=6, "=2, \=2, /=1, LF=2, DEL=1, é=2, 日=3, 😀=4
    assertThat(JsonText.escapedLength(s)).isEqualTo(24);
    assertThat(JsonText.escapeExtra(utf8, 0, utf8.length)).isEqualTo(24 - utf8.length);
    assertThat(JsonText.quotedLength(s)).isEqualTo(written(s).length).isEqualTo(26);
    assertThat(JsonText.escapeExtra('\u0001')).isEqualTo(5);
    assertThat(JsonText.escapeExtra('\t')).isEqualTo(1);
    assertThat(JsonText.escapeExtra('x')).isZero();
  }
}
