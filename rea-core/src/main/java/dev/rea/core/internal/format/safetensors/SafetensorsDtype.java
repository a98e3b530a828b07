package dev.rea.core.internal.format.safetensors;

import dev.rea.core.internal.evidence.TensorType;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The dtypes of the upstream safetensors crate, with their storage size in bits per element
 * (huggingface/safetensors {@code safetensors/src/tensor.rs}, {@code enum Dtype} and {@code
 * Dtype::bitsize}, commit 24b0b2857fef49be734b9ab72ce97c09bb25f5b9, crate 0.8.0-dev.0; see
 * {@code shared/notes/safetensors-readers.md} section 2). Declaration order is upstream's.
 *
 * <p>Names are matched exactly and case-sensitively against the decoded JSON string, as serde
 * does: {@code "F\u00332"} is {@link #F32}; {@code "f32"} and {@code "F128"} are not dtypes of
 * this table (REA keeps such tensors with {@code storage_validation: "unknown"}).
 *
 * <p>Sub-byte types (F4: 4 bits, F6_*: 6 bits) are packed: a tensor's storage is {@code
 * elements x bits} bits, which must be a whole number of bytes.
 */
public enum SafetensorsDtype implements TensorType {
  /** Boolean, one byte per element. */
  BOOL(8),
  /** 4-bit float (MXFP4 element type), packed two per byte. */
  F4(4),
  /** 6-bit float, E2M3 (MXFP6), packed. */
  F6_E2M3(6),
  /** 6-bit float, E3M2 (MXFP6), packed. */
  F6_E3M2(6),
  /** Unsigned 8-bit integer. */
  U8(8),
  /** Signed 8-bit integer. */
  I8(8),
  /** 8-bit float, E5M2. */
  F8_E5M2(8),
  /** 8-bit float, E4M3. */
  F8_E4M3(8),
  /** 8-bit exponent-only scale (E8M0). */
  F8_E8M0(8),
  /** 8-bit float, E4M3 finite, no negative zero. */
  F8_E4M3FNUZ(8),
  /** 8-bit float, E5M2 finite, no negative zero. */
  F8_E5M2FNUZ(8),
  /** Signed 16-bit integer. */
  I16(16),
  /** Unsigned 16-bit integer. */
  U16(16),
  /** IEEE 754 binary16. */
  F16(16),
  /** bfloat16. */
  BF16(16),
  /** Signed 32-bit integer. */
  I32(32),
  /** Unsigned 32-bit integer. */
  U32(32),
  /** IEEE 754 binary32. */
  F32(32),
  /** Complex of two binary32 values. */
  C64(64),
  /** IEEE 754 binary64. */
  F64(64),
  /** Signed 64-bit integer. */
  I64(64),
  /** Unsigned 64-bit integer. */
  U64(64);

  private static final SafetensorsDtype[] VALUES = values();

  private final int bits;
  /** Bytes per {@link #elementsPerUnit} elements: bits / 8 reduced (F4: 1/2, F6: 3/4). */
  private final int bytesPerUnit;

  private final int elementsPerUnit;

  SafetensorsDtype(int bits) {
    this.bits = bits;
    int g = gcd(bits, 8);
    this.bytesPerUnit = bits / g;
    this.elementsPerUnit = 8 / g;
  }

  private static int gcd(int a, int b) {
    return b == 0 ? a : gcd(b, a % b);
  }

  /** @return the dtype's name, the row's {@code type} */
  @Override
  public String label() {
    return name();
  }

  /** @return -1: safetensors rows have no type ID */
  @Override
  public long typeId() {
    return -1;
  }

  /** @return {@link Note#NONE}: a known dtype's storage is checked, nothing is left to note */
  @Override
  public Note note(long elements) {
    return Note.NONE;
  }

  /** @return storage bits per element (4, 6, 8, 16, 32 or 64) */
  public int bits() {
    return bits;
  }

  /**
   * @return the smallest element count whose storage is a whole number of bytes (1 for types of
   *     8 bits or more, 2 for F4, 4 for F6)
   */
  public int elementsPerUnit() {
    return elementsPerUnit;
  }

  /** @return the bytes taken by {@link #elementsPerUnit()} elements (bits / 8 when whole) */
  public int bytesPerUnit() {
    return bytesPerUnit;
  }

  /** Characters (all ASCII) in the longest dtype name. */
  static final int LONGEST_NAME =
      Arrays.stream(values()).mapToInt(d -> d.name().length()).max().orElse(0);

  /**
   * Looks a dtype up by its exact, case-sensitive name.
   *
   * @param name the decoded JSON string
   * @return the dtype, or null when {@code name} is not an upstream dtype
   */
  public static @Nullable SafetensorsDtype byName(String name) {
    for (SafetensorsDtype d : VALUES) {
      if (d.name().equals(name)) {
        return d;
      }
    }
    return null;
  }

  /**
   * Looks a dtype up by its exact name held in {@code text} (the parser's streamed value), without
   * making a String of it.
   *
   * @return the dtype, or null
   */
  static @Nullable SafetensorsDtype byName(CharSequence text) {
    for (SafetensorsDtype d : VALUES) {
      if (d.spelledBy(text)) {
        return d;
      }
    }
    return null;
  }

  /** @return true when {@code text} is exactly this dtype's name */
  boolean spelledBy(CharSequence text) {
    return name().contentEquals(text);
  }
}
