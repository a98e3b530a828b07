package dev.rea.core.internal.format.gguf;

import java.io.ByteArrayOutputStream;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Writes GGUF files byte by byte for tests, valid or deliberately broken, in either byte order.
 * Test code only; other modules reuse it through the core test-jar.
 *
 * <p>Layout written (docs/gguf.md; every multi-byte value in the chosen byte order, the magic
 * always the bytes {@code G G U F}):
 *
 * <pre>
 *   offset 0   magic              47 47 55 46                       ("GGUF")
 *   offset 4   version            u32 (3 -&gt; LE 03 00 00 00, BE 00 00 00 03), or raw bytes
 *   offset 8   tensor_count       u64 (number of tensors added, or an override)
 *   offset 16  metadata_kv_count  u64 (number of KVs added, or an override)
 *   offset 24  per KV:     key     u64 byte length + key bytes (no terminator)
 *                          type    u32 value type (0..12, or anything raw)
 *                          value   scalar: 1/2/4/8 bytes; STRING: u64 length + bytes;
 *                                  ARRAY: u32 element type, u64 count, elements back to back
 *              per tensor: name    u64 byte length + name bytes
 *                          n_dims  u32
 *                          dims    n_dims x u64, fastest-varying first
 *                          type    u32 ggml type ID
 *                          offset  u64, relative to the data section
 *   directory end = header_length
 *   padding    zero bytes up to the next multiple of the layout alignment (unless {@link Data#NONE})
 *   data       tensor bytes at data_offset + offset (pattern {@code (offset + i) % 251}), gaps zero
 *   trailing   extra bytes, if any; then {@link #truncate(int)} cuts bytes off the end
 * </pre>
 *
 * <p>Tensors without an explicit offset are placed after the previous tensor's end, padded to the
 * layout alignment, as llama.cpp writes them. Storage sizes for placement come from {@link
 * #storageBytes(long, long)} (modern ggml sizes; Q8_1 36 bytes, K types 256-element blocks) or
 * an explicit {@link Tensor#dataBytes(long)}.
 *
 * <p>{@link #build()} returns the bytes and the absolute offset of every field it wrote, keyed
 * by the reader's field paths ({@code metadata[2].value[7]}, {@code tensor[1].dims[0]}, ...), so
 * tests can assert exact rejection offsets without counting bytes by hand.
 */
public final class GgufBuilder {
  /** GGUF value type IDs (docs/gguf.md {@code gguf_metadata_value_type}). */
  public static final int UINT8 = 0;

  public static final int INT8 = 1;
  public static final int UINT16 = 2;
  public static final int INT16 = 3;
  public static final int UINT32 = 4;
  public static final int INT32 = 5;
  public static final int FLOAT32 = 6;
  public static final int BOOL = 7;
  public static final int STRING = 8;
  public static final int ARRAY = 9;
  public static final int UINT64 = 10;
  public static final int INT64 = 11;
  public static final int FLOAT64 = 12;

  /** What follows the tensor directory. */
  public enum Data {
    /** The file ends at the directory end. */
    NONE,
    /** Zero padding up to the alignment, and nothing else. */
    PADDING_ONLY,
    /** Padding, then the bytes of every tensor range (the default). */
    FULL
  }

  private ByteOrder order = ByteOrder.LITTLE_ENDIAN;
  private long version = 3;
  private byte[] versionBytes;
  private Long tensorCountOverride;
  private Long kvCountOverride;
  private long alignment = 32;
  private Data data = Data.FULL;
  private boolean padAfterLastTensor;
  private byte[] trailing = new byte[0];
  private int truncate;
  private boolean recordElementOffsets = true;
  private final List<Kv> kvs = new ArrayList<>();
  private final List<Tensor> tensors = new ArrayList<>();

  private GgufBuilder() {}

  /** @return a little-endian v3 builder with no KVs and no tensors */
  public static GgufBuilder v3() {
    return new GgufBuilder();
  }

  /** @return a little-endian v2 builder */
  public static GgufBuilder v2() {
    return new GgufBuilder().version(2);
  }

  /** Sets the version written as a u32 in the chosen byte order. */
  public GgufBuilder version(long v) {
    this.version = v;
    return this;
  }

  /** Writes these four bytes at offset 4 instead of the version u32. */
  public GgufBuilder versionBytes(int b0, int b1, int b2, int b3) {
    this.versionBytes = new byte[] {(byte) b0, (byte) b1, (byte) b2, (byte) b3};
    return this;
  }

  /** Sets the byte order of every multi-byte value (the version included). */
  public GgufBuilder order(ByteOrder o) {
    this.order = o;
    return this;
  }

  /** Shorthand for {@code order(BIG_ENDIAN)}. */
  public GgufBuilder bigEndian() {
    return order(ByteOrder.BIG_ENDIAN);
  }

  /** Writes this tensor_count instead of the number of tensors added. */
  public GgufBuilder tensorCount(long n) {
    this.tensorCountOverride = n;
    return this;
  }

  /** Writes this metadata_kv_count instead of the number of KVs added. */
  public GgufBuilder kvCount(long n) {
    this.kvCountOverride = n;
    return this;
  }

  /**
   * Sets the alignment used for padding and automatic offsets (default 32) without writing a
   * {@code general.alignment} KV.
   */
  public GgufBuilder layoutAlignment(long a) {
    this.alignment = a;
    return this;
  }

  /** Adds {@code general.alignment} as UINT32 and uses it for the layout. */
  public GgufBuilder alignment(long a) {
    kv("general.alignment", u32(a));
    return layoutAlignment(a);
  }

  /** Chooses what follows the directory (default {@link Data#FULL}). */
  public GgufBuilder data(Data d) {
    this.data = d;
    return this;
  }

  /** Pads the data section after the last tensor to the alignment (default: no). */
  public GgufBuilder padAfterLastTensor(boolean pad) {
    this.padAfterLastTensor = pad;
    return this;
  }

  /** Appends bytes after everything else. */
  public GgufBuilder trailing(byte[] bytes) {
    this.trailing = bytes.clone();
    return this;
  }

  /** Cuts this many bytes off the end of the finished file. */
  public GgufBuilder truncate(int bytes) {
    this.truncate = bytes;
    return this;
  }

  /** Whether {@link Built#offsets()} records every array element (default true). */
  public GgufBuilder recordElementOffsets(boolean record) {
    this.recordElementOffsets = record;
    return this;
  }

  /** Adds a KV pair with a UTF-8 key. */
  public GgufBuilder kv(String key, Value value) {
    return kv(key.getBytes(StandardCharsets.UTF_8), value);
  }

  /** Adds a KV pair whose key is these raw bytes (possibly invalid UTF-8). */
  public GgufBuilder kv(byte[] key, Value value) {
    kvs.add(new Kv(key.clone(), value));
    return this;
  }

  /** Adds a tensor with an automatic offset. */
  public GgufBuilder tensor(String name, long typeId, long... dims) {
    return tensor(new Tensor(name, typeId, dims));
  }

  /** Adds a tensor at an explicit relative offset. */
  public GgufBuilder tensorAt(String name, long typeId, long offset, long... dims) {
    return tensor(new Tensor(name, typeId, dims).offset(offset));
  }

  /** Adds a fully specified tensor. */
  public GgufBuilder tensor(Tensor t) {
    tensors.add(Objects.requireNonNull(t));
    return this;
  }

  /** @return the tensors added so far (mutable specs; changes apply to the next build) */
  public List<Tensor> tensors() {
    return Collections.unmodifiableList(tensors);
  }

  // ---------------------------------------------------------------------------------------------
  // Values

  /** A metadata value: its type ID and how its bytes are written. */
  public abstract static class Value {
    private Value() {}

    /** @return the value type ID written before a top-level value */
    public abstract long typeId();

    abstract void write(Out o, String path, Map<String, Long> offsets, boolean recordElements);
  }

  private static final class Fixed extends Value {
    private final long type;
    private final int size;
    private final long bits;

    Fixed(long type, int size, long bits) {
      this.type = type;
      this.size = size;
      this.bits = bits;
    }

    @Override
    public long typeId() {
      return type;
    }

    @Override
    void write(Out o, String path, Map<String, Long> offsets, boolean rec) {
      offsets.put(path, (long) o.size());
      o.uint(bits, size);
    }
  }

  private static final class Str extends Value {
    private final byte[] bytes;
    private final Long declaredLength;

    Str(byte[] bytes, Long declaredLength) {
      this.bytes = bytes;
      this.declaredLength = declaredLength;
    }

    @Override
    public long typeId() {
      return STRING;
    }

    @Override
    void write(Out o, String path, Map<String, Long> offsets, boolean rec) {
      offsets.put(path, (long) o.size());
      o.uint(declaredLength == null ? bytes.length : declaredLength, 8);
      o.bytes(bytes);
    }
  }

  private static final class Arr extends Value {
    private final long elementType;
    private final Long declaredCount;
    private final List<Value> elements;
    private final byte[] tail;

    Arr(long elementType, Long declaredCount, List<Value> elements, byte[] tail) {
      this.elementType = elementType;
      this.declaredCount = declaredCount;
      this.elements = elements;
      this.tail = tail;
    }

    @Override
    public long typeId() {
      return ARRAY;
    }

    @Override
    void write(Out o, String path, Map<String, Long> offsets, boolean rec) {
      offsets.put(path, (long) o.size());
      offsets.put(path + ".element_type", (long) o.size());
      o.uint(elementType, 4);
      offsets.put(path + ".count", (long) o.size());
      o.uint(declaredCount == null ? elements.size() : declaredCount, 8);
      Map<String, Long> sink = rec ? offsets : new LinkedHashMap<>();
      for (int j = 0; j < elements.size(); j++) {
        elements.get(j).write(o, path + "[" + j + "]", sink, rec);
        if (!rec) {
          sink.clear();
        }
      }
      o.bytes(tail);
    }
  }

  private static final class Raw extends Value {
    private final long type;
    private final byte[] bytes;

    Raw(long type, byte[] bytes) {
      this.type = type;
      this.bytes = bytes;
    }

    @Override
    public long typeId() {
      return type;
    }

    @Override
    void write(Out o, String path, Map<String, Long> offsets, boolean rec) {
      offsets.put(path, (long) o.size());
      o.bytes(bytes);
    }
  }

  public static Value u8(int v) {
    return new Fixed(UINT8, 1, v);
  }

  public static Value i8(int v) {
    return new Fixed(INT8, 1, v);
  }

  public static Value u16(int v) {
    return new Fixed(UINT16, 2, v);
  }

  public static Value i16(int v) {
    return new Fixed(INT16, 2, v);
  }

  public static Value u32(long v) {
    return new Fixed(UINT32, 4, v);
  }

  public static Value i32(int v) {
    return new Fixed(INT32, 4, v);
  }

  public static Value f32(float v) {
    return new Fixed(FLOAT32, 4, Float.floatToRawIntBits(v));
  }

  /** A FLOAT32 with these exact bits (e.g. a NaN payload). */
  public static Value f32Bits(int bits) {
    return new Fixed(FLOAT32, 4, bits);
  }

  public static Value bool(boolean v) {
    return new Fixed(BOOL, 1, v ? 1 : 0);
  }

  /** A BOOL whose byte is {@code b} (anything, e.g. 2). */
  public static Value boolByte(int b) {
    return new Fixed(BOOL, 1, b);
  }

  public static Value u64(long v) {
    return new Fixed(UINT64, 8, v);
  }

  public static Value i64(long v) {
    return new Fixed(INT64, 8, v);
  }

  public static Value f64(double v) {
    return new Fixed(FLOAT64, 8, Double.doubleToRawLongBits(v));
  }

  /** A STRING with the UTF-8 bytes of {@code s}. */
  public static Value str(String s) {
    return new Str(s.getBytes(StandardCharsets.UTF_8), null);
  }

  /** A STRING with these raw bytes (possibly invalid UTF-8). */
  public static Value strBytes(byte[] b) {
    return new Str(b.clone(), null);
  }

  /** A STRING declaring {@code declaredLength} bytes but followed by {@code b} only. */
  public static Value strDeclared(long declaredLength, byte[] b) {
    return new Str(b.clone(), declaredLength);
  }

  /** An ARRAY of the given element type and elements (count = number of elements). */
  public static Value array(long elementType, Value... elements) {
    return new Arr(elementType, null, List.of(elements), new byte[0]);
  }

  /** An ARRAY of the given element type and elements (count = number of elements). */
  public static Value array(long elementType, List<Value> elements) {
    return new Arr(elementType, null, List.copyOf(elements), new byte[0]);
  }

  /**
   * An ARRAY declaring {@code count} elements, followed by {@code elements} and then {@code tail}
   * raw bytes (for counts that disagree with the body, or bulk element bytes).
   */
  public static Value arrayDeclared(long elementType, long count, List<Value> elements, byte[] tail) {
    return new Arr(elementType, count, List.copyOf(elements), tail.clone());
  }

  /** A value of any type ID whose bytes are exactly {@code bytes}. */
  public static Value raw(long typeId, byte[] bytes) {
    return new Raw(typeId, bytes.clone());
  }

  /** An ARRAY of {@code n} STRING elements {@code prefix + i}. */
  public static Value stringArray(String prefix, int n) {
    List<Value> v = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      v.add(str(prefix + i));
    }
    return array(STRING, v);
  }

  /** {@code levels} nested ARRAYs (outermost level 1), the innermost holding one UINT8 7. */
  public static Value nested(int levels) {
    Value v = array(UINT8, u8(7));
    for (int l = 1; l < levels; l++) {
      v = array(ARRAY, v);
    }
    return v;
  }

  // ---------------------------------------------------------------------------------------------
  // Tensors

  /** One tensor entry. Fields are written as given; nothing is validated. */
  public static final class Tensor {
    private byte[] name;
    private final long typeId;
    private final long[] dims;
    private Long nDims;
    private Long offset;
    private Long dataBytes;

    public Tensor(String name, long typeId, long... dims) {
      this.name = name.getBytes(StandardCharsets.UTF_8);
      this.typeId = typeId;
      this.dims = dims.clone();
    }

    /** Uses these raw name bytes. */
    public Tensor nameBytes(byte[] b) {
      this.name = b.clone();
      return this;
    }

    /** Writes this n_dims instead of the number of dims. */
    public Tensor nDims(long n) {
      this.nDims = n;
      return this;
    }

    /** Places the tensor at this relative offset. */
    public Tensor offset(long o) {
      this.offset = o;
      return this;
    }

    /** Uses this storage size for placement and data instead of {@link #storageBytes}. */
    public Tensor dataBytes(long n) {
      this.dataBytes = n;
      return this;
    }

    /** @return the name bytes */
    public byte[] name() {
      return name.clone();
    }

    /** @return the type ID */
    public long typeId() {
      return typeId;
    }

    /** @return the dims */
    public long[] dims() {
      return dims.clone();
    }

    long size() {
      if (dataBytes != null) {
        return dataBytes;
      }
      long n = 1;
      for (long d : dims) {
        n *= d;
      }
      return storageBytes(typeId, n);
    }
  }

  /**
   * Storage bytes the builder lays out for a tensor: modern ggml block sizes (notes section 4),
   * Q8_1 as 36 bytes per 32, K types as 256-element blocks, IDs 16-25 with their modern meaning,
   * removed IDs 31-33/36-38 as 18 bytes per 32, unknown IDs 0 bytes. Partial blocks round up.
   */
  public static long storageBytes(long typeId, long elements) {
    long[] bb = blockOf(typeId);
    if (bb == null) {
      return 0;
    }
    return (elements + bb[0] - 1) / bb[0] * bb[1];
  }

  private static long[] blockOf(long id) {
    switch ((int) Math.min(id, 1000)) {
      case 0:
        return new long[] {1, 4};
      case 1:
      case 30:
      case 25:
        return new long[] {1, 2};
      case 2:
        return new long[] {32, 18};
      case 3:
        return new long[] {32, 20};
      case 6:
        return new long[] {32, 22};
      case 7:
        return new long[] {32, 24};
      case 8:
        return new long[] {32, 34};
      case 9:
        return new long[] {32, 36};
      case 10:
        return new long[] {256, 84};
      case 11:
        return new long[] {256, 110};
      case 12:
        return new long[] {256, 144};
      case 13:
        return new long[] {256, 176};
      case 14:
        return new long[] {256, 210};
      case 15:
        return new long[] {256, 292};
      case 16:
        return new long[] {256, 66};
      case 17:
        return new long[] {256, 74};
      case 18:
        return new long[] {256, 98};
      case 19:
        return new long[] {256, 50};
      case 20:
        return new long[] {32, 18};
      case 21:
        return new long[] {256, 110};
      case 22:
        return new long[] {256, 82};
      case 23:
        return new long[] {256, 136};
      case 24:
        return new long[] {1, 1};
      case 26:
        return new long[] {1, 4};
      case 27:
      case 28:
        return new long[] {1, 8};
      case 29:
        return new long[] {256, 56};
      case 31:
      case 32:
      case 33:
      case 36:
      case 37:
      case 38:
        return new long[] {32, 18};
      case 34:
        return new long[] {256, 54};
      case 35:
        return new long[] {256, 66};
      case 39:
        return new long[] {32, 17};
      case 40:
        return new long[] {64, 36};
      case 41:
        return new long[] {128, 18};
      case 42:
        return new long[] {64, 18};
      default:
        return null;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Build

  /**
   * The built file.
   *
   * @param bytes the file
   * @param headerLength the directory end (REA's {@code header_length})
   * @param dataOffset the directory end padded to the layout alignment
   * @param offsets absolute offset of every field written, keyed by field path
   * @param tensorOffsets the relative offset of each tensor as written
   */
  public record Built(
      byte[] bytes,
      long headerLength,
      long dataOffset,
      Map<String, Long> offsets,
      List<Long> tensorOffsets) {
    /** @return the offset of a field path written by the builder */
    public long at(String field) {
      Long v = offsets.get(field);
      if (v == null) {
        throw new IllegalArgumentException("the builder wrote no field " + field);
      }
      return v;
    }
  }

  /** @return the file */
  public Built build() {
    Out o = new Out(order);
    Map<String, Long> offsets = new LinkedHashMap<>();
    // magic "GGUF"
    offsets.put("magic", 0L);
    o.bytes(new byte[] {'G', 'G', 'U', 'F'});
    // version: u32 in the file's byte order, or raw bytes
    offsets.put("version", (long) o.size());
    if (versionBytes != null) {
      o.bytes(versionBytes);
    } else {
      o.uint(version, 4);
    }
    // tensor_count u64, metadata_kv_count u64
    offsets.put("tensor_count", (long) o.size());
    o.uint(tensorCountOverride != null ? tensorCountOverride : tensors.size(), 8);
    offsets.put("metadata_kv_count", (long) o.size());
    o.uint(kvCountOverride != null ? kvCountOverride : kvs.size(), 8);
    // KV pairs: key (u64 length + bytes), type u32, value
    for (int i = 0; i < kvs.size(); i++) {
      Kv kv = kvs.get(i);
      String p = "metadata[" + i + "]";
      offsets.put(p + ".key", (long) o.size());
      o.uint(kv.key.length, 8);
      o.bytes(kv.key);
      offsets.put(p + ".type", (long) o.size());
      o.uint(kv.value.typeId(), 4);
      kv.value.write(o, p + ".value", offsets, recordElementOffsets);
    }
    // Tensor entries: name, n_dims u32, dims u64..., type u32, offset u64
    List<Long> placed = new ArrayList<>();
    long next = 0;
    for (Tensor t : tensors) {
      long off = t.offset != null ? t.offset : next;
      placed.add(off);
      next = pad(off + t.size(), alignment);
    }
    for (int i = 0; i < tensors.size(); i++) {
      Tensor t = tensors.get(i);
      String p = "tensor[" + i + "]";
      offsets.put(p + ".name", (long) o.size());
      o.uint(t.name.length, 8);
      o.bytes(t.name);
      offsets.put(p + ".n_dims", (long) o.size());
      o.uint(t.nDims != null ? t.nDims : t.dims.length, 4);
      offsets.put(p + ".dims", (long) o.size());
      for (int j = 0; j < t.dims.length; j++) {
        offsets.put(p + ".dims[" + j + "]", (long) o.size());
        o.uint(t.dims[j], 8);
      }
      offsets.put(p + ".type", (long) o.size());
      o.uint(t.typeId, 4);
      offsets.put(p + ".offset", (long) o.size());
      o.uint(placed.get(i), 8);
    }
    long headerLength = o.size();
    long dataOffset = pad(headerLength, alignment);
    if (data != Data.NONE) {
      o.zeros(dataOffset - headerLength);
    }
    if (data == Data.FULL) {
      // Ranges outside [0, 1 GiB) (e.g. offsets near 2^64) get no data bytes.
      long end = 0;
      for (int i = 0; i < tensors.size(); i++) {
        if (writable(placed.get(i), tensors.get(i).size())) {
          end = Math.max(end, placed.get(i) + tensors.get(i).size());
        }
      }
      if (padAfterLastTensor) {
        end = pad(end, alignment);
      }
      byte[] section = new byte[Math.toIntExact(end)];
      for (int i = 0; i < tensors.size(); i++) {
        long start = placed.get(i);
        long size = tensors.get(i).size();
        if (!writable(start, size)) {
          continue;
        }
        for (long k = 0; k < size; k++) {
          section[(int) (start + k)] = (byte) ((start + k) % 251);
        }
      }
      o.bytes(section);
    }
    o.bytes(trailing);
    byte[] bytes = o.toByteArray();
    if (truncate > 0) {
      bytes = Arrays.copyOf(bytes, bytes.length - truncate);
    }
    return new Built(bytes, headerLength, dataOffset, offsets, placed);
  }

  /** @return the bytes of {@link #build()} */
  public byte[] bytes() {
    return build().bytes();
  }

  private static boolean writable(long start, long size) {
    return start >= 0 && size >= 0 && start < (1L << 30) && size < (1L << 30);
  }

  static long pad(long x, long a) {
    return a <= 0 ? x : x + (a - x % a) % a;
  }

  private record Kv(byte[] key, Value value) {}

  /** A growable byte sink writing unsigned values in one byte order. */
  static final class Out {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final boolean big;

    Out(ByteOrder order) {
      this.big = order == ByteOrder.BIG_ENDIAN;
    }

    int size() {
      return bytes.size();
    }

    /** Writes the low {@code size} bytes of {@code v}. */
    void uint(long v, int size) {
      for (int k = 0; k < size; k++) {
        int shift = big ? 8 * (size - 1 - k) : 8 * k;
        bytes.write((int) (v >>> shift) & 0xFF);
      }
    }

    void bytes(byte[] b) {
      bytes.write(b, 0, b.length);
    }

    void zeros(long n) {
      for (long k = 0; k < n; k++) {
        bytes.write(0);
      }
    }

    byte[] toByteArray() {
      return bytes.toByteArray();
    }
  }
}
