package dev.rea.mcp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Writes small, valid little-endian GGUF v3 files for the MCP tests: string metadata, 2-D F32
 * tensors, default 32-byte alignment, and optional zero padding (a sparse extension) so that a
 * full hash takes a while.
 */
final class TinyGguf {
  static final int ALIGNMENT = 32;

  private TinyGguf() {}

  /**
   * Writes a GGUF v3 file with {@code kv} string metadata entries ({@code test.key.<i>} =
   * {@code value-<i>}) and {@code tensors} 4x4 F32 tensors ({@code blk.<i>.weight}), then pads the
   * file with zero bytes (a sparse extension) up to at least {@code minSize} bytes of tensor data.
   */
  static Path write(Path file, int kv, int tensors, long minSize) throws IOException {
    ByteArrayOutputStream h = new ByteArrayOutputStream();
    ByteBuffer b = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
    b.put("GGUF".getBytes(StandardCharsets.US_ASCII));
    b.putInt(3);
    b.putLong(tensors);
    b.putLong(kv);
    for (int i = 0; i < kv; i++) {
      str(b, "test.key." + i);
      b.putInt(8);
      str(b, "value-" + i);
    }
    long offset = 0;
    for (int i = 0; i < tensors; i++) {
      str(b, "blk." + i + ".weight");
      b.putInt(2);
      b.putLong(4);
      b.putLong(4);
      b.putInt(0);
      b.putLong(offset);
      offset += 64;
    }
    h.write(b.array(), 0, b.position());
    long headerLength = b.position();
    long dataStart = (headerLength + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
    long size = Math.max(dataStart + offset, minSize);
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(0);
      f.write(h.toByteArray());
      f.setLength(size);
    }
    return file;
  }

  private static void str(ByteBuffer b, String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    b.putLong(bytes.length);
    b.put(bytes);
  }
}
