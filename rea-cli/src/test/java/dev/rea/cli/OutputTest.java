package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Documents written as bytes keep their place among the characters printed around them. */
class OutputTest {
  private static final byte[] DOC = "{\"name\":\"é😀\"}".getBytes(StandardCharsets.UTF_8);

  @Test
  void stdoutTakesBytesInOrderWithText() throws Exception {
    ByteArrayOutputStream raw = new ByteArrayOutputStream();
    Output.Stdout out = new Output.Stdout(raw);
    out.print("before ");
    OutputStream bytes = Output.bytes(out);
    bytes.write(DOC);
    bytes.flush();
    out.print(" after");
    out.flush();
    assertThat(raw.toString(StandardCharsets.UTF_8)).isEqualTo("before {\"name\":\"é😀\"} after");
    raw.reset();
    Output.printJson(out, DOC);
    assertThat(raw.toByteArray()).isEqualTo((new String(DOC, StandardCharsets.UTF_8) + "\n")
        .getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void anotherWriterGetsTheBytesDecodedAcrossBufferBoundaries() throws Exception {
    StringWriter text = new StringWriter();
    PrintWriter out = new PrintWriter(text);
    OutputStream bytes = Output.bytes(out);
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < 3000; i++) {
      bytes.write(DOC, 0, 5);
      // The 8 KiB buffer behind the stream fills mid-sequence somewhere in these 60 KB.
      bytes.write(DOC, 5, DOC.length - 5);
      expected.append(new String(DOC, StandardCharsets.UTF_8));
    }
    bytes.flush();
    assertThat(text.toString()).isEqualTo(expected.toString());
  }
}
