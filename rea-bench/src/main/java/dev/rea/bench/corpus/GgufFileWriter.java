package dev.rea.bench.corpus;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a little-endian GGUF v3 file whose tensor data section is left as a hole: the header
 * (magic, version, counts, metadata, tensor directory) is written, then the file is extended with
 * {@link RandomAccessFile#setLength} to the size the directory declares, so on file systems with
 * sparse files the data costs no disk space and reads as zeros.
 *
 * <p>Layout (ggml {@code docs/gguf.md}): magic {@code GGUF}, u32 version 3, u64 tensor_count, u64
 * metadata_kv_count, the key/value pairs (u64-length-prefixed UTF-8 key, u32 value type, value),
 * the tensor entries (name, u32 n_dims, u64 dims fastest first, u32 ggml type, u64 offset relative
 * to the data section), padding to {@code general.alignment} (32 here), then the data. Tensors are
 * laid out in directory order, each at the next multiple of the alignment.
 *
 * <p>Not a REA component: a benchmark fixture generator. It trusts its caller.
 */
final class GgufFileWriter {
  /** GGUF value types (docs/gguf.md {@code gguf_metadata_value_type}). */
  static final int T_UINT16 = 2;

  static final int T_UINT32 = 4;

  static final int T_INT32 = 5;
  static final int T_FLOAT32 = 6;
  static final int T_BOOL = 7;
  static final int T_STRING = 8;
  static final int T_ARRAY = 9;

  /** ggml type IDs used by the corpus, with their block sizes (ggml-common.h). */
  static final int F32 = 0;

  static final int F16 = 1;
  static final int Q8_0 = 8;
  static final int Q4_K = 12;
  static final int Q5_K = 13;
  static final int Q6_K = 14;
  static final int BF16 = 30;

  static final long ALIGNMENT = 32;

  private final List<Kv> kvs = new ArrayList<>();
  private final List<Tensor> tensors = new ArrayList<>();

  private interface ValueWriter {
    void write(LeOut out) throws IOException;
  }

  private record Kv(String key, int type, ValueWriter value) {}

  /** One tensor entry: name, dims (fastest first), ggml type. */
  record Tensor(String name, long[] dims, int type) {}

  GgufFileWriter string(String key, String value) {
    byte[] b = value.getBytes(StandardCharsets.UTF_8);
    kvs.add(new Kv(key, T_STRING, out -> out.str(b)));
    return this;
  }

  GgufFileWriter u32(String key, long value) {
    kvs.add(new Kv(key, T_UINT32, out -> out.i32((int) value)));
    return this;
  }

  GgufFileWriter u16(String key, int value) {
    kvs.add(
        new Kv(
            key,
            T_UINT16,
            out -> {
              out.u8(value & 0xFF);
              out.u8((value >>> 8) & 0xFF);
            }));
    return this;
  }

  GgufFileWriter i32(String key, int value) {
    kvs.add(new Kv(key, T_INT32, out -> out.i32(value)));
    return this;
  }

  GgufFileWriter f32(String key, float value) {
    kvs.add(new Kv(key, T_FLOAT32, out -> out.i32(Float.floatToRawIntBits(value))));
    return this;
  }

  GgufFileWriter bool(String key, boolean value) {
    kvs.add(new Kv(key, T_BOOL, out -> out.u8(value ? 1 : 0)));
    return this;
  }

  GgufFileWriter strings(String key, byte[][] values) {
    kvs.add(
        new Kv(
            key,
            T_ARRAY,
            out -> {
              out.i32(T_STRING);
              out.i64(values.length);
              for (byte[] v : values) {
                out.str(v);
              }
            }));
    return this;
  }

  GgufFileWriter i32s(String key, int[] values) {
    kvs.add(
        new Kv(
            key,
            T_ARRAY,
            out -> {
              out.i32(T_INT32);
              out.i64(values.length);
              for (int v : values) {
                out.i32(v);
              }
            }));
    return this;
  }

  GgufFileWriter f32s(String key, float[] values) {
    kvs.add(
        new Kv(
            key,
            T_ARRAY,
            out -> {
              out.i32(T_FLOAT32);
              out.i64(values.length);
              for (float v : values) {
                out.i32(Float.floatToRawIntBits(v));
              }
            }));
    return this;
  }

  GgufFileWriter tensor(String name, int type, long... dims) {
    tensors.add(new Tensor(name, dims.clone(), type));
    return this;
  }

  int tensorCount() {
    return tensors.size();
  }

  /** @return bytes of one tensor of this type and shape (K types with 256-element blocks) */
  static long byteLength(int type, long[] dims) {
    long n = 1;
    for (long d : dims) {
      n = Math.multiplyExact(n, d);
    }
    switch (type) {
      case F32:
        return 4 * n;
      case F16:
      case BF16:
        return 2 * n;
      case Q8_0:
        return blocks(n, 32) * 34;
      case Q4_K:
        return blocks(n, 256) * 144;
      case Q5_K:
        return blocks(n, 256) * 176;
      case Q6_K:
        return blocks(n, 256) * 210;
      default:
        throw new IllegalArgumentException("type " + type);
    }
  }

  private static long blocks(long n, long per) {
    if (n % per != 0) {
      throw new IllegalArgumentException(n + " elements are not whole blocks of " + per);
    }
    return n / per;
  }

  /** Sizes of a written file. */
  record Written(Path path, long headerLength, long dataOffset, long fileSize, int tensors) {}

  /** Writes the file (replacing it) and sizes it to the end of the last tensor. */
  Written write(Path path) throws IOException {
    Files.deleteIfExists(path);
    long headerLength;
    long dataEnd = 0;
    try (LeOut out = new LeOut(Files.newOutputStream(path))) {
      out.raw(new byte[] {'G', 'G', 'U', 'F'});
      out.i32(3);
      out.i64(tensors.size());
      out.i64(kvs.size());
      for (Kv kv : kvs) {
        out.str(kv.key.getBytes(StandardCharsets.UTF_8));
        out.i32(kv.type);
        kv.value.write(out);
      }
      long offset = 0;
      for (Tensor t : tensors) {
        out.str(t.name.getBytes(StandardCharsets.UTF_8));
        out.i32(t.dims.length);
        for (long d : t.dims) {
          out.i64(d);
        }
        out.i32(t.type);
        out.i64(offset);
        dataEnd = offset + byteLength(t.type, t.dims);
        offset = align(dataEnd);
      }
      headerLength = out.count();
      long pad = align(headerLength) - headerLength;
      for (long i = 0; i < pad; i++) {
        out.u8(0);
      }
    }
    long dataOffset = align(headerLength);
    long size = dataOffset + dataEnd;
    try (RandomAccessFile f = new RandomAccessFile(path.toFile(), "rw")) {
      f.setLength(size);
    }
    return new Written(path, headerLength, dataOffset, size, tensors.size());
  }

  private static long align(long v) {
    return (v + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
  }

  /** Little-endian output that counts bytes. */
  static final class LeOut implements AutoCloseable {
    private final OutputStream out;
    private final byte[] b8 = new byte[8];
    private long count;

    LeOut(OutputStream out) {
      this.out = new BufferedOutputStream(out, 1 << 16);
    }

    long count() {
      return count;
    }

    void u8(int v) throws IOException {
      out.write(v);
      count++;
    }

    void i32(int v) throws IOException {
      b8[0] = (byte) v;
      b8[1] = (byte) (v >>> 8);
      b8[2] = (byte) (v >>> 16);
      b8[3] = (byte) (v >>> 24);
      out.write(b8, 0, 4);
      count += 4;
    }

    void i64(long v) throws IOException {
      for (int i = 0; i < 8; i++) {
        b8[i] = (byte) (v >>> (8 * i));
      }
      out.write(b8, 0, 8);
      count += 8;
    }

    void raw(byte[] b) throws IOException {
      out.write(b);
      count += b.length;
    }

    void str(byte[] utf8) throws IOException {
      i64(utf8.length);
      raw(utf8);
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }
}
