package dev.rea.core.internal.format.safetensors;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds safetensors files for tests: {@code u64le(N) + json + data}. Reusable from other modules
 * through the rea-core test-jar.
 *
 * <p>Two styles:
 *
 * <ul>
 *   <li>Raw: {@link #file(String, int)}, {@link #file(byte[], byte[])} and {@link #raw(long,
 *       byte[], byte[])} (a declared length that need not match) for hand-written headers.
 *   <li>Structured: {@link #builder()}, then {@link Builder#tensor} (ranges laid out contiguously
 *       in call order from the dtype's size, or given explicitly), {@link Builder#metadata},
 *       padding options, and {@link Builder#build()}.
 * </ul>
 *
 * <p>Data bytes are a deterministic pattern (byte {@code i} of the buffer is {@code i * 31 + 7}),
 * never zeros, so mutations of the data section are visible to hashes.
 */
public final class SafetensorsBuilder {
  private SafetensorsBuilder() {}

  /** @return the 8-byte little-endian encoding of {@code n} */
  public static byte[] u64le(long n) {
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(n).array();
  }

  /** @return {@code u64le(json.length) + json + dataBytes pattern bytes}; json as UTF-8 */
  public static byte[] file(String json, int dataBytes) {
    return file(json.getBytes(StandardCharsets.UTF_8), pattern(dataBytes));
  }

  /** @return {@code u64le(json.length) + json + data} */
  public static byte[] file(byte[] json, byte[] data) {
    return raw(json.length, json, data);
  }

  /** @return {@code u64le(declaredLength) + json + data}, whatever the declared length */
  public static byte[] raw(long declaredLength, byte[] json, byte[] data) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(8 + json.length + data.length);
    out.writeBytes(u64le(declaredLength));
    out.writeBytes(json);
    out.writeBytes(data);
    return out.toByteArray();
  }

  /** @return {@code n} bytes of the deterministic data pattern */
  public static byte[] pattern(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 31 + 7);
    }
    return b;
  }

  /**
   * Absolute file offset of the first occurrence of {@code needle} in the JSON of a file built by
   * {@link #file(String, int)}: {@code 8 +} the UTF-8 length of the text before it.
   *
   * @throws IllegalArgumentException when {@code needle} does not occur
   */
  public static long offsetOf(String json, String needle) {
    int i = json.indexOf(needle);
    if (i < 0) {
      throw new IllegalArgumentException("no " + needle + " in " + json);
    }
    return 8 + json.substring(0, i).getBytes(StandardCharsets.UTF_8).length;
  }

  /** @return the same, for the last occurrence of {@code needle} */
  public static long lastOffsetOf(String json, String needle) {
    int i = json.lastIndexOf(needle);
    if (i < 0) {
      throw new IllegalArgumentException("no " + needle + " in " + json);
    }
    return 8 + json.substring(0, i).getBytes(StandardCharsets.UTF_8).length;
  }

  /** @return a new structured builder */
  public static Builder builder() {
    return new Builder();
  }

  /** Writes {@code bytes} to {@code path}. */
  public static Path write(Path path, byte[] bytes) throws IOException {
    Files.write(path, bytes);
    return path;
  }

  /** A structured safetensors file. */
  public static final class Builder {
    private final Map<String, String> metadata = new LinkedHashMap<>();
    private boolean metadataNull;
    private boolean metadataLast;
    private final List<String> entries = new ArrayList<>();
    private long next;
    private String leading = "";
    private String trailing = "";
    private boolean padTo8;
    private long extraData;
    private long declaredAdjust;

    private Builder() {}

    /**
     * Adds a tensor of a known dtype at the next contiguous range.
     *
     * @param dims the shape (may be empty for a scalar)
     */
    public Builder tensor(String name, String dtype, long... dims) {
      SafetensorsDtype d = SafetensorsDtype.byName(dtype);
      if (d == null) {
        throw new IllegalArgumentException("unknown dtype " + dtype + ": give the byte length");
      }
      long elements = 1;
      for (long x : dims) {
        elements = Math.multiplyExact(elements, x);
      }
      long bits = Math.multiplyExact(elements, d.bits());
      if (bits % 8 != 0) {
        throw new IllegalArgumentException("not whole bytes: " + name);
      }
      return tensorBytes(name, dtype, bits / 8, dims);
    }

    /** Adds a tensor with {@code bytes} bytes at the next contiguous range (any dtype). */
    public Builder tensorBytes(String name, String dtype, long bytes, long... dims) {
      long begin = next;
      next = begin + bytes;
      return tensorAt(name, dtype, begin, next, dims);
    }

    /** Adds a tensor with an explicit range; does not move the contiguous cursor backwards. */
    public Builder tensorAt(String name, String dtype, long begin, long end, long... dims) {
      StringBuilder sb = new StringBuilder();
      sb.append(jsonString(name)).append(":{\"dtype\":").append(jsonString(dtype));
      sb.append(",\"shape\":[");
      for (int i = 0; i < dims.length; i++) {
        if (i > 0) {
          sb.append(',');
        }
        sb.append(Long.toUnsignedString(dims[i]));
      }
      sb.append("],\"data_offsets\":[").append(begin).append(',').append(end).append("]}");
      entries.add(sb.toString());
      next = Math.max(next, end);
      return this;
    }

    /** Adds a raw {@code "name": <entryJson>} member. */
    public Builder rawEntry(String name, String entryJson) {
      entries.add(jsonString(name) + ":" + entryJson);
      return this;
    }

    /** Adds a {@code __metadata__} entry. */
    public Builder metadata(String key, String value) {
      metadata.put(key, value);
      return this;
    }

    /** Writes {@code "__metadata__": null}. */
    public Builder metadataNull() {
      metadataNull = true;
      return this;
    }

    /** Writes {@code __metadata__} after the tensors instead of first. */
    public Builder metadataLast() {
      metadataLast = true;
      return this;
    }

    /** Whitespace (space, tab, CR, LF, or anything for negative tests) before the object. */
    public Builder leading(String text) {
      leading = text;
      return this;
    }

    /** Text after the object. */
    public Builder trailing(String text) {
      trailing = text;
      return this;
    }

    /** Pads the JSON with spaces to a multiple of 8 bytes, as the upstream writer does. */
    public Builder padTo8() {
      padTo8 = true;
      return this;
    }

    /** Appends {@code n} bytes after the indexed data (trailing unindexed bytes when positive). */
    public Builder extraData(long n) {
      extraData = n;
      return this;
    }

    /** Adds {@code delta} to the declared JSON length without changing the JSON. */
    public Builder declaredLengthDelta(long delta) {
      declaredAdjust = delta;
      return this;
    }

    /** @return the header JSON text (with leading and trailing text and padding) */
    public String json() {
      StringBuilder sb = new StringBuilder(leading).append('{');
      List<String> members = new ArrayList<>();
      String meta = null;
      if (metadataNull) {
        meta = "\"__metadata__\":null";
      } else if (!metadata.isEmpty()) {
        StringBuilder m = new StringBuilder("\"__metadata__\":{");
        boolean first = true;
        for (Map.Entry<String, String> e : metadata.entrySet()) {
          if (!first) {
            m.append(',');
          }
          first = false;
          m.append(jsonString(e.getKey())).append(':').append(jsonString(e.getValue()));
        }
        meta = m.append('}').toString();
      }
      if (meta != null && !metadataLast) {
        members.add(meta);
      }
      members.addAll(entries);
      if (meta != null && metadataLast) {
        members.add(meta);
      }
      sb.append(String.join(",", members)).append('}').append(trailing);
      if (padTo8) {
        int len = sb.toString().getBytes(StandardCharsets.UTF_8).length;
        while (len % 8 != 0) {
          sb.append(' ');
          len++;
        }
      }
      return sb.toString();
    }

    /** @return the bytes of the data section's indexed part */
    public long dataBytes() {
      return next;
    }

    /** @return the complete file */
    public byte[] build() {
      byte[] json = json().getBytes(StandardCharsets.UTF_8);
      long data = Math.addExact(next, extraData);
      if (data > Integer.MAX_VALUE - 64 - json.length) {
        throw new IllegalArgumentException("too much data for an in-memory file: " + data);
      }
      return raw(json.length + declaredAdjust, json, pattern((int) data));
    }
  }

  /** @return {@code s} as a JSON string literal (escapes quotes, backslashes, controls) */
  public static String jsonString(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.append('"').toString();
  }
}
