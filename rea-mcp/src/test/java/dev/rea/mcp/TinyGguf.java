package dev.rea.mcp;

import dev.rea.core.detect.DetectedFormat;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.inspect.FormatReader;
import dev.rea.core.inspect.ParsedHeader;
import dev.rea.core.inspect.ReadContext;
import dev.rea.core.io.HeaderInput;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.nio.ByteOrder;

/**
 * Writes small, valid little-endian GGUF v3 files (string metadata, 2-D F32 tensors, default
 * 32-byte alignment) and, for the MCP tests, reads exactly that subset back ({@link Reader}).
 * The reader stands in for the real GGUF reader in the server process started by the tests (see
 * {@link TestServerMain}); the files are real GGUF, so the same tests can run on the real reader.
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

  /** Reads the subset {@link #write} produces; anything else is a test bug. */
  static final class Reader implements FormatReader {
    @Override
    public ParsedHeader read(HeaderInput in, ReadContext ctx) throws ReaException {
      in.order(ByteOrder.LITTLE_ENDIAN);
      in.skip(4);
      long version = in.u32();
      long tensorCount = in.i64();
      long kvCount = in.i64();
      List<MetadataRow> metadata = new ArrayList<>();
      for (int i = 0; i < kvCount; i++) {
        String key = in.utf8(in.i64(), true, ctx.budget());
        long type = in.u32();
        if (type != 8) {
          throw ReaException.rejected("metadata[" + i + "]", in.position(), "stub: STRING only");
        }
        String value = in.utf8(in.i64(), true, ctx.budget());
        metadata.add(
            new MetadataRow(i, key, ValueType.STRING, new MetadataValue.StringValue(value)));
      }
      List<long[]> raw = new ArrayList<>();
      List<String> names = new ArrayList<>();
      for (int i = 0; i < tensorCount; i++) {
        names.add(in.utf8(in.i64(), true, ctx.budget()));
        long dims = in.u32();
        long d0 = in.i64();
        long d1 = dims > 1 ? in.i64() : 1;
        in.u32();
        long off = in.i64();
        raw.add(new long[] {d0, d1, off});
      }
      long headerLength = in.position();
      long dataStart = (headerLength + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
      List<TensorRow> tensors = new ArrayList<>();
      for (int i = 0; i < raw.size(); i++) {
        long[] r = raw.get(i);
        long params = r[0] * r[1];
        tensors.add(
            new TensorRow(
                i,
                names.get(i),
                "F32",
                0L,
                List.of(r[0], r[1]),
                params,
                r[2],
                dataStart + r[2],
                params * 4,
                StorageValidation.CONSISTENT));
      }
      return new ParsedHeader(
          DetectedFormat.GGUF,
          headerLength,
          new FormatFacts.Gguf((int) version, "little", (long) ALIGNMENT, "default", dataStart),
          metadata,
          tensors,
          List.of(),
          List.of());
    }
  }
}
