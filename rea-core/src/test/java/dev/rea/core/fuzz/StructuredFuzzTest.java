package dev.rea.core.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.format.gguf.GgufReader;
import dev.rea.core.internal.format.safetensors.SafetensorsBuilder;
import dev.rea.core.internal.format.safetensors.SafetensorsReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Structure-aware fuzzing (docs/fuzzing.md): the fuzzer's bytes choose the parts of a file
 * (versions, byte orders, keys, value types, nested arrays, tensor names, ggml types or dtypes,
 * dimensions and offsets drawn from boundary values, the alignment, what follows the directory,
 * truncation, one optional byte flip), which the test builders assemble. This reaches the
 * validation of well-formed headers (type table, products, ranges, overlaps, alignment, ordering)
 * that raw byte mutation rarely gets to. The oracle is {@link FuzzOracle#checkReader}.
 */
class StructuredFuzzTest {
  private static final long[] DIMS = {
    0, 1, 2, 3, 7, 8, 31, 32, 33, 63, 64, 255, 256, 1024, 65536, 1L << 31, 1L << 32, (1L << 32) + 1,
    1L << 40, Long.MAX_VALUE, -1L, -2L, 0x7FFFFFFFFFFFFFC0L
  };
  private static final long[] OFFSETS = {
    0, 1, 8, 16, 31, 32, 64, 96, 128, 256, 4096, 1L << 32, Long.MAX_VALUE - 31, -32L, -1L
  };
  private static final String[] KEYS = {
    "general.architecture", "general.alignment", "general.name", "tokenizer.ggml.tokens", "a",
    "a.b-c_d", "A", "", "bad key", "llama.block_count", "x"
  };
  private static final String[] NAMES = {"", "t", "t.weight", "blk.0", "é", "😀", "x".repeat(64), "x".repeat(65)};
  private static final String[] DTYPES = {
    "F32", "F16", "BF16", "U8", "I8", "BOOL", "F64", "I64", "U64", "C64", "F4", "F6_E2M3", "F6_E3M2",
    "F8_E4M3", "F8_E5M2", "F8_E8M0", "F8_E4M3FNUZ", "F128", "f32", "", "I32"
  };

  private static long pick(FuzzedDataProvider d, long[] values) {
    return d.consumeBoolean() ? values[d.consumeInt(0, values.length - 1)] : d.consumeLong();
  }

  private static GgufBuilder.Value ggufValue(FuzzedDataProvider d, int depth) {
    int type = d.consumeInt(0, 13);
    switch (type) {
      case GgufBuilder.UINT8: return GgufBuilder.u8(d.consumeInt(0, 255));
      case GgufBuilder.INT8: return GgufBuilder.i8(d.consumeByte());
      case GgufBuilder.UINT16: return GgufBuilder.u16(d.consumeInt(0, 65535));
      case GgufBuilder.INT16: return GgufBuilder.i16(d.consumeShort());
      case GgufBuilder.UINT32: return GgufBuilder.u32(pick(d, OFFSETS) & 0xFFFFFFFFL);
      case GgufBuilder.INT32: return GgufBuilder.i32(d.consumeInt());
      case GgufBuilder.FLOAT32: return GgufBuilder.f32Bits(d.consumeInt());
      case GgufBuilder.BOOL: return GgufBuilder.boolByte(d.consumeInt(0, 3));
      case GgufBuilder.STRING: return GgufBuilder.strBytes(d.consumeBytes(d.consumeInt(0, 24)));
      case GgufBuilder.ARRAY: {
        int element = d.consumeInt(0, 12);
        if (element == GgufBuilder.ARRAY && depth > 34) {
          element = GgufBuilder.UINT8;
        }
        int count = d.consumeInt(0, 12);
        List<GgufBuilder.Value> elements = new ArrayList<>();
        for (int i = 0; i < count; i++) {
          elements.add(elementOf(d, element, depth + 1));
        }
        if (d.consumeInt(0, 15) == 0) {
          return GgufBuilder.arrayDeclared(element, pick(d, DIMS), elements, new byte[0]);
        }
        return GgufBuilder.array(element, elements);
      }
      case GgufBuilder.UINT64: return GgufBuilder.u64(pick(d, DIMS));
      case GgufBuilder.INT64: return GgufBuilder.i64(d.consumeLong());
      case GgufBuilder.FLOAT64: return GgufBuilder.f64(Double.longBitsToDouble(d.consumeLong()));
      default: return GgufBuilder.raw(d.consumeInt(13, 20), d.consumeBytes(d.consumeInt(0, 8)));
    }
  }

  private static GgufBuilder.Value elementOf(FuzzedDataProvider d, int type, int depth) {
    for (int tries = 0; tries < 4; tries++) {
      GgufBuilder.Value v = ggufValue(d, depth);
      if (v.typeId() == type) {
        return v;
      }
    }
    return switch (type) {
      case GgufBuilder.STRING -> GgufBuilder.str("s");
      case GgufBuilder.ARRAY -> GgufBuilder.array(GgufBuilder.UINT8);
      case GgufBuilder.BOOL -> GgufBuilder.bool(false);
      case GgufBuilder.UINT8 -> GgufBuilder.u8(1);
      case GgufBuilder.INT8 -> GgufBuilder.i8(1);
      case GgufBuilder.UINT16 -> GgufBuilder.u16(1);
      case GgufBuilder.INT16 -> GgufBuilder.i16(1);
      case GgufBuilder.UINT32 -> GgufBuilder.u32(1);
      case GgufBuilder.INT32 -> GgufBuilder.i32(1);
      case GgufBuilder.FLOAT32 -> GgufBuilder.f32(1);
      case GgufBuilder.UINT64 -> GgufBuilder.u64(1);
      case GgufBuilder.INT64 -> GgufBuilder.i64(1);
      default -> GgufBuilder.f64(1);
    };
  }

  static byte[] gguf(FuzzedDataProvider d) {
    GgufBuilder b = d.consumeBoolean() ? GgufBuilder.v3() : GgufBuilder.v2();
    if (d.consumeInt(0, 7) == 0) {
      b.bigEndian();
    }
    if (d.consumeInt(0, 3) == 0) {
      long a = new long[] {8, 16, 32, 64, 1, 13, 0, 24, 4096}[d.consumeInt(0, 8)];
      b.alignment(a);
    }
    int kvs = d.consumeInt(0, 6);
    for (int i = 0; i < kvs; i++) {
      b.kv(KEYS[d.consumeInt(0, KEYS.length - 1)], ggufValue(d, 1));
    }
    int tensors = d.consumeInt(0, 6);
    // The builder writes every tensor's bytes when the data section is FULL: allow that only
    // while the data stays small (at most 1 MiB), so each input costs microseconds.
    boolean smallData = true;
    for (int i = 0; i < tensors; i++) {
      int n = d.consumeInt(0, 5);
      long[] dims = new long[n];
      long product = 1;
      for (int k = 0; k < n; k++) {
        dims[k] = d.consumeBoolean() ? d.consumeInt(1, 64) * (d.consumeBoolean() ? 32 : 1) : pick(d, DIMS);
        product = dims[k] < 0 || product > (1L << 20) ? Long.MAX_VALUE : product * Math.min(dims[k], 1L << 20);
      }
      smallData &= product <= (1 << 15);
      long type = d.consumeBoolean() ? d.consumeInt(0, 45) : pick(d, DIMS) & 0xFFFFFFFFL;
      String name = NAMES[d.consumeInt(0, NAMES.length - 1)] + (d.consumeBoolean() ? "" : Integer.toString(i));
      if (d.consumeBoolean()) {
        b.tensor(name, type, dims);
      } else {
        long offset = pick(d, OFFSETS);
        smallData &= offset >= 0 && offset < (1 << 20);
        b.tensorAt(name, type, offset, dims);
      }
    }
    GgufBuilder.Data data = GgufBuilder.Data.values()[d.consumeInt(0, GgufBuilder.Data.values().length - 1)];
    b.data(data == GgufBuilder.Data.FULL && !smallData ? GgufBuilder.Data.PADDING_ONLY : data);
    b.padAfterLastTensor(d.consumeBoolean());
    b.trailing(new byte[d.consumeInt(0, 2) * d.consumeInt(0, 40)]);
    byte[] bytes = b.bytes();
    int cut = d.consumeInt(0, 3) == 0 ? d.consumeInt(0, Math.min(40, bytes.length)) : 0;
    bytes = java.util.Arrays.copyOf(bytes, bytes.length - cut);
    if (bytes.length > 0 && d.consumeInt(0, 3) == 0) {
      bytes[d.consumeInt(0, bytes.length - 1)] ^= (byte) d.consumeInt(1, 255);
    }
    return bytes;
  }

  static byte[] safetensors(FuzzedDataProvider d) {
    StringBuilder json = new StringBuilder();
    json.append(d.consumeBoolean() ? "" : " \t\r\n".substring(d.consumeInt(0, 3)));
    json.append('{');
    List<String> members = new ArrayList<>();
    if (d.consumeInt(0, 2) == 0) {
      members.add(d.consumeInt(0, 5) == 0 ? "\"__metadata__\":null"
          : "\"__metadata__\":{" + (d.consumeBoolean() ? "\"k\":\"v\"" : "\"k\":" + d.consumeInt(0, 9)) + "}");
    }
    int tensors = d.consumeInt(0, 6);
    long next = 0;
    for (int i = 0; i < tensors; i++) {
      String dtype = DTYPES[d.consumeInt(0, DTYPES.length - 1)];
      int n = d.consumeInt(0, 4);
      StringBuilder shape = new StringBuilder();
      long elements = 1;
      for (int k = 0; k < n; k++) {
        long dim = d.consumeBoolean() ? d.consumeInt(0, 8) : pick(d, DIMS);
        shape.append(k == 0 ? "" : ",").append(Long.toUnsignedString(dim));
        elements = d.consumeBoolean() ? elements * Math.max(dim, 0) : elements;
      }
      long begin = d.consumeBoolean() ? next : pick(d, OFFSETS);
      long end = d.consumeBoolean() ? begin + Math.max(0, Math.min(elements, 64)) * (d.consumeInt(0, 8)) : pick(d, OFFSETS);
      next = Math.max(next, end);
      String name = NAMES[d.consumeInt(0, NAMES.length - 1)] + (d.consumeBoolean() ? "" : Integer.toString(i));
      StringBuilder entry = new StringBuilder(SafetensorsBuilder.jsonString(name)).append(":{");
      entry.append("\"dtype\":").append(SafetensorsBuilder.jsonString(dtype))
          .append(",\"shape\":[").append(shape).append("]")
          .append(",\"data_offsets\":[").append(Long.toUnsignedString(begin)).append(',').append(Long.toUnsignedString(end)).append(']');
      if (d.consumeInt(0, 4) == 0) {
        int depth = d.consumeInt(0, 34);
        entry.append(",\"x\":").append("[".repeat(depth)).append("]".repeat(depth).isEmpty() ? "0" : "").append("]".repeat(depth));
      }
      members.add(entry.append('}').toString());
    }
    json.append(String.join(",", members)).append('}');
    json.append(d.consumeBoolean() ? "" : " \n\u0000".substring(d.consumeInt(0, 2)));
    byte[] j = json.toString().getBytes(StandardCharsets.UTF_8);
    long declared = j.length + (d.consumeInt(0, 7) == 0 ? d.consumeInt(-3, 3) : 0);
    int data = (int) Math.min(Math.max(next, 0), 4096) + (d.consumeInt(0, 3) == 0 ? d.consumeInt(-2, 2) : 0);
    byte[] bytes = SafetensorsBuilder.raw(declared, j, new byte[Math.max(0, data)]);
    if (bytes.length > 0 && d.consumeInt(0, 3) == 0) {
      bytes[d.consumeInt(0, bytes.length - 1)] ^= (byte) d.consumeInt(1, 255);
    }
    return bytes;
  }

  @FuzzTest(maxDuration = "10m")
  void structuredGguf(FuzzedDataProvider data) {
    byte[] file;
    try {
      file = gguf(data);
    } catch (IllegalArgumentException | ArithmeticException | IndexOutOfBoundsException
        | NegativeArraySizeException | OutOfMemoryError builderLimit) {
      return; // the test builder cannot write this combination; not a finding about REA
    }
    FuzzOracle.checkReader(new GgufReader(), file);
  }

  @FuzzTest(maxDuration = "10m")
  void structuredSafetensors(FuzzedDataProvider data) {
    FuzzOracle.checkReader(new SafetensorsReader(), safetensors(data));
  }
}
