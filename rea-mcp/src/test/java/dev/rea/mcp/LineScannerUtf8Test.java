package dev.rea.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * {@link LineScanner} refuses a line that is not well-formed UTF-8 (RFC 3629) as malformed
 * (-32700), however its bytes are split into fed chunks: Jackson's parser alone decodes overlong
 * forms ({@code C0 AF} as {@code /}, {@code E0 81 A6} as {@code f}), which a hostile-input trial
 * used to spell {@code ..} in a path and {@code full} as a hash mode.
 */
class LineScannerUtf8Test {
  private static final String HEAD = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\",\"params\":{\"x\":\"";
  private static final String TAIL = "\"}}";

  /** @return the ping line with {@code inside} as the bytes of params.x */
  private static byte[] line(int... inside) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(HEAD.getBytes(StandardCharsets.US_ASCII));
    for (int b : inside) {
      out.write(b);
    }
    out.writeBytes(TAIL.getBytes(StandardCharsets.US_ASCII));
    return out.toByteArray();
  }

  /** Scans {@code line} fed in chunks of {@code chunk} bytes. */
  private static LineScanner scan(byte[] line, int chunk) {
    LineScanner s = new LineScanner();
    for (int i = 0; i < line.length; i += chunk) {
      s.feed(line, i, Math.min(chunk, line.length - i));
    }
    s.finish();
    return s;
  }

  @Test
  void illFormedSequencesAreMalformedInEveryChunking() {
    int[][] bad = {
      {0xC0, 0xAF}, // overlong '/'
      {0xC1, 0xBF}, // overlong
      {0xE0, 0x81, 0xA6}, // overlong 'f'
      {0xE0, 0x80, 0xAE}, // overlong '.'
      {0xF0, 0x80, 0x80, 0xAF}, // overlong '/'
      {0xED, 0xA0, 0x80}, // surrogate U+D800
      {0xF4, 0x90, 0x80, 0x80}, // above U+10FFFF
      {0xFF},
      {0x80}, // stray continuation
      {0xE2, 0x82}, // sequence cut short by the closing quote
      {0xC3, 0x41}, // lead byte followed by ASCII
    };
    for (int[] b : bad) {
      for (int chunk : new int[] {1, 2, 3, 5, 1 << 16}) {
        LineScanner s = scan(line(b), chunk);
        assertThat(s.kind()).as("%s in chunks of %d", java.util.Arrays.toString(b), chunk)
            .isEqualTo(LineScanner.Kind.MALFORMED);
        assertThat(s.problem()).startsWith("the line is not well-formed UTF-8");
      }
    }
  }

  @Test
  void aLineEndingInsideASequenceIsMalformed() {
    // After the object, so the JSON parser may name it first; either way the line is refused.
    byte[] cut = java.util.Arrays.copyOf(line(), line().length + 2);
    cut[cut.length - 2] = (byte) 0xE2;
    cut[cut.length - 1] = (byte) 0x82;
    for (int chunk : new int[] {1, 2, 1 << 16}) {
      assertThat(scan(cut, chunk).kind()).isEqualTo(LineScanner.Kind.MALFORMED);
    }
  }

  @Test
  void wellFormedTextIsARequestInEveryChunking() {
    // é, €, U+FFFD itself, an emoji (4 bytes), U+10FFFF, and ASCII between them.
    byte[] good = line(
        0xC3, 0xA9, 'a', 0xE2, 0x82, 0xAC, 0xEF, 0xBF, 0xBD, 0xF0, 0x9F, 0x98, 0x80, 'b',
        0xF4, 0x8F, 0xBF, 0xBF);
    for (int chunk : new int[] {1, 2, 3, 4, 5, 7, 1 << 16}) {
      LineScanner s = scan(good, chunk);
      assertThat(s.kind()).as("chunks of %d: %s", chunk, s.problem()).isEqualTo(LineScanner.Kind.REQUEST);
    }
  }
}
