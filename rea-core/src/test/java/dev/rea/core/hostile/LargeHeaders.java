package dev.rea.core.hostile;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Streams files with very large headers to disk without building them in memory: a GGUF whose
 * header is mostly one STRING array, and a safetensors file whose JSON is mostly unknown
 * per-tensor fields. Both stay within the retained budget (arrays keep 8 preview elements;
 * unknown fields are validated and dropped).
 */
final class LargeHeaders {
  private LargeHeaders() {}

  private static void u32(OutputStream o, long v) throws IOException {
    for (int k = 0; k < 4; k++) {
      o.write((int) (v >>> (8 * k)) & 0xFF);
    }
  }

  private static void u64(OutputStream o, long v) throws IOException {
    for (int k = 0; k < 8; k++) {
      o.write((int) (v >>> (8 * k)) & 0xFF);
    }
  }

  private static void gstr(OutputStream o, byte[] s) throws IOException {
    u64(o, s.length);
    o.write(s);
  }

  /**
   * Writes a GGUF v3 whose header is about {@code 30 * strings} bytes: one key {@code
   * tokenizer.ggml.tokens} holding {@code strings} 22-byte STRINGs, and one F32 tensor of 8
   * elements, followed by padding and data.
   *
   * @return the header length (directory end) in bytes
   */
  static long gguf(Path file, int strings) throws IOException {
    long headerLength;
    try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
      o.write(new byte[] {'G', 'G', 'U', 'F'});
      u32(o, 3);
      u64(o, 1); // tensor_count
      u64(o, 1); // metadata_kv_count
      gstr(o, "tokenizer.ggml.tokens".getBytes(StandardCharsets.US_ASCII));
      u32(o, 9); // ARRAY
      u32(o, 8); // of STRING
      u64(o, strings);
      byte[] s = "token-0000000000000000".getBytes(StandardCharsets.US_ASCII);
      for (int i = 0; i < strings; i++) {
        int v = i;
        for (int k = s.length - 1; k >= 6 && v > 0; k--) {
          s[k] = (byte) ('0' + v % 10);
          v /= 10;
        }
        gstr(o, s);
      }
      gstr(o, "output.weight".getBytes(StandardCharsets.US_ASCII));
      u32(o, 1); // n_dims
      u64(o, 8);
      u32(o, 0); // F32
      u64(o, 0); // offset
      headerLength = 4 + 4 + 8 + 8 + (8 + 21) + 4 + 4 + 8 + (long) strings * 30 + (8 + 13) + 4 + 8 + 4 + 8;
      long pad = (32 - headerLength % 32) % 32;
      o.write(new byte[(int) pad]);
      o.write(new byte[32]);
    }
    return headerLength;
  }

  /**
   * Writes a safetensors file of {@code tensors} U8 tensors of one element each; every entry
   * carries an unknown field {@code "pad"} with a {@code padChars}-character string.
   *
   * @return the JSON length N in bytes
   */
  static long safetensors(Path file, int tensors, int padChars) throws IOException {
    char[] pad = new char[padChars];
    Arrays.fill(pad, 'p');
    String padText = new String(pad);
    // First pass: the JSON length.
    long n = 0;
    for (int i = 0; i < tensors; i++) {
      n += entry(i, padText).length;
    }
    n += 2; // braces
    try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
      u64(o, n);
      o.write('{');
      for (int i = 0; i < tensors; i++) {
        o.write(entry(i, padText));
      }
      o.write('}');
      o.write(new byte[tensors]);
    }
    return n;
  }

  private static byte[] entry(int i, String pad) {
    String name = String.format("t%07d", i);
    String text =
        (i == 0 ? "" : ",")
            + "\""
            + name
            + "\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":["
            + i
            + ","
            + (i + 1)
            + "],\"pad\":\""
            + pad
            + "\"}";
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
