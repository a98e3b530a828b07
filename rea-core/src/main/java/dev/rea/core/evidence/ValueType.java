package dev.rea.core.evidence;

import org.jspecify.annotations.Nullable;

/**
 * GGUF metadata value types ({@code gguf_type} in ggml {@code include/gguf.h}, d99724f; the
 * "GGUF value types" table of {@code docs/gguf.md}). Safetensors {@code __metadata__} values are
 * reported as {@link #STRING}.
 */
public enum ValueType {
  UINT8(0, 1),
  INT8(1, 1),
  UINT16(2, 2),
  INT16(3, 2),
  UINT32(4, 4),
  INT32(5, 4),
  FLOAT32(6, 4),
  BOOL(7, 1),
  /** u64 length followed by that many UTF-8 bytes. */
  STRING(8, -1),
  /** u32 element type, u64 count, then the elements. */
  ARRAY(9, -1),
  UINT64(10, 8),
  INT64(11, 8),
  FLOAT64(12, 8);

  private static final ValueType[] BY_ID = new ValueType[13];

  static {
    for (ValueType t : values()) {
      BY_ID[t.id] = t;
    }
  }

  private final int id;
  private final int fixedSize;

  ValueType(int id, int fixedSize) {
    this.id = id;
    this.fixedSize = fixedSize;
  }

  /** @return the numeric GGUF value type ID (0 to 12) */
  public int id() {
    return id;
  }

  /** @return the encoded size in bytes for fixed-size types, or -1 for STRING and ARRAY */
  public int fixedSize() {
    return fixedSize;
  }

  /** @return true for the integer types of at most 32 bits (written as JSON numbers) */
  public boolean isSmallInteger() {
    return this == UINT8
        || this == INT8
        || this == UINT16
        || this == INT16
        || this == UINT32
        || this == INT32;
  }

  /** @return true for UINT64 and INT64 (written as decimal strings) */
  public boolean isWideInteger() {
    return this == UINT64 || this == INT64;
  }

  /** @return true for FLOAT32 and FLOAT64 */
  public boolean isFloat() {
    return this == FLOAT32 || this == FLOAT64;
  }

  /**
   * Looks up a value type by its numeric ID.
   *
   * @param id the raw ID read from the file (any u32 value, as a signed int)
   * @return the type, or null when the ID is not one of the 13 GGUF value types
   */
  public static @Nullable ValueType byId(long id) {
    if (id < 0 || id >= BY_ID.length) {
      return null;
    }
    return BY_ID[(int) id];
  }

  /**
   * Looks up a value type by its name as written in Evidence ({@code "UINT8"} ... {@code
   * "FLOAT64"}).
   *
   * @return the type, or null for any other text
   */
  public static @Nullable ValueType byName(String name) {
    for (ValueType t : values()) {
      if (t.name().equals(name)) {
        return t;
      }
    }
    return null;
  }
}
