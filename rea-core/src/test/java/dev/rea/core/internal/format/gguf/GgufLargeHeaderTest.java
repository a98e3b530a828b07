package dev.rea.core.internal.format.gguf;

import static dev.rea.core.internal.format.gguf.GgufBuilder.INT32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.STRING;
import static dev.rea.core.internal.format.gguf.GgufBuilder.arrayDeclared;
import static dev.rea.core.internal.format.gguf.GgufBuilder.str;
import static dev.rea.core.internal.format.gguf.GgufBuilder.u32;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.options.Limits;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A Llama-3-sized tokenizer header (128,256 tokens, 280,147 merges, most of them with the
 * byte-level BPE marker U+0120, ~7 MB) is read with previews only, every skipped string still
 * validated. The time bound is loose (shared CI machines); it guards against per-element
 * allocation or quadratic behaviour, and the measured time is printed.
 */
class GgufLargeHeaderTest {

  private static byte[] strings(Random r, int count, boolean merges) {
    String alpha = "abcdefghijklmnopqrstuvwxyzĠĠĠĠĠĊ0123456789ABCDEFGHIJ";
    ByteArrayOutputStream out = new ByteArrayOutputStream(count * 16);
    for (int i = 0; i < count; i++) {
      StringBuilder sb = new StringBuilder();
      if (r.nextInt(3) > 0) {
        sb.append('Ġ');
      }
      int n = 1 + r.nextInt(7);
      for (int k = 0; k < n; k++) {
        sb.append(alpha.charAt(r.nextInt(alpha.length())));
      }
      if (merges) {
        sb.append(' ');
        int m = 1 + r.nextInt(5);
        for (int k = 0; k < m; k++) {
          sb.append(alpha.charAt(r.nextInt(alpha.length())));
        }
      }
      byte[] b = sb.toString().getBytes(StandardCharsets.UTF_8);
      for (int k = 0; k < 8; k++) {
        out.write((int) ((long) b.length >>> (8 * k)) & 0xFF);
      }
      out.write(b, 0, b.length);
    }
    return out.toByteArray();
  }

  @Test
  @Timeout(60)
  void llama3SizedVocabularyIsReadQuickly() throws Exception {
    Random r = new Random(3);
    int tokens = 128_256;
    int merges = 280_147;
    byte[] tokenTypes = new byte[tokens * 4];
    for (int i = 0; i < tokens; i++) {
      tokenTypes[4 * i] = 1;
    }
    byte[] file =
        GgufBuilder.v3()
            .kv("general.architecture", str("llama"))
            .kv("llama.context_length", u32(8192))
            .kv("tokenizer.ggml.model", str("gpt2"))
            .kv("tokenizer.ggml.tokens", arrayDeclared(STRING, tokens, List.of(), strings(r, tokens, false)))
            .kv("tokenizer.ggml.token_type", arrayDeclared(INT32, tokens, List.of(), tokenTypes))
            .kv("tokenizer.ggml.merges", arrayDeclared(STRING, merges, List.of(), strings(r, merges, true)))
            .tensor("token_embd.weight", 0, 64, 4)
            .bytes();
    assertThat(file.length).isGreaterThan(5_000_000);
    long best = Long.MAX_VALUE;
    ParsedHeader h = null;
    for (int run = 0; run < 8; run++) {
      long t0 = System.nanoTime();
      h = GgufTesting.readWith(file, Limits.defaults()).header();
      best = Math.min(best, System.nanoTime() - t0);
    }
    System.out.printf(
        "GGUF large header: %,d bytes read, parsed, validated and hashed in %.1f ms (best of 8)%n",
        h.headerLength(), best / 1e6);
    MetadataValue.ArrayValue t = (MetadataValue.ArrayValue) h.metadata().get(3).value();
    assertThat(t.count()).isEqualTo(tokens);
    assertThat(t.preview()).hasSize(8);
    assertThat(t.previewComplete()).isFalse();
    MetadataValue.ArrayValue m = (MetadataValue.ArrayValue) h.metadata().get(5).value();
    assertThat(m.count()).isEqualTo(merges);
  }
}
