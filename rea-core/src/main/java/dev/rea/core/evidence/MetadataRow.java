package dev.rea.core.evidence;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One metadata row (CONTRACT section 3): a GGUF key/value pair in file order, or one safetensors
 * {@code __metadata__} entry in key order.
 *
 * <p>{@code valueSha256} (CONTRACT section 11, wire {@code value_sha256}) is the lowercase hex
 * SHA-256 of a GGUF array value's bytes exactly as the file stores them: from the array's element
 * type field (u32), through its count (u64), to the end of its last element, in the file's byte
 * order; a nested array's bytes are part of its outer value's. It lets two records compare
 * arrays beyond their preview. It is null for scalars, for safetensors rows, and for array rows
 * of records saved before the field existed.
 *
 * @param index position in the record's {@code metadata} collection (0-based)
 * @param key the key as declared (UTF-8 decoded)
 * @param type the declared value type ({@link ValueType#STRING} for safetensors)
 * @param value the value; an {@link MetadataValue.ArrayValue} exactly when {@code type} is ARRAY
 * @param valueSha256 64 lowercase hex digits, only on ARRAY rows; or null
 */
public record MetadataRow(
    int index, String key, ValueType type, MetadataValue value, @Nullable String valueSha256) {
  public MetadataRow {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(value, "value");
    if ((type == ValueType.ARRAY) != (value instanceof MetadataValue.ArrayValue)) {
      throw new IllegalArgumentException("type " + type + " does not match value " + value);
    }
    if (valueSha256 != null) {
      if (type != ValueType.ARRAY) {
        throw new IllegalArgumentException("value_sha256 on a " + type + " row");
      }
      if (!isSha256Hex(valueSha256)) {
        throw new IllegalArgumentException("value_sha256 is not 64 lowercase hex digits");
      }
    }
  }

  /** A row without {@code value_sha256} (scalars, safetensors, arrays of older records). */
  public MetadataRow(int index, String key, ValueType type, MetadataValue value) {
    this(index, key, type, value, null);
  }

  /** @return this row at another index (the digest kept) */
  public MetadataRow withIndex(int newIndex) {
    return new MetadataRow(newIndex, key, type, value, valueSha256);
  }

  /** @return whether {@code s} is 64 lowercase hex digits (the spelling of every REA digest) */
  public static boolean isSha256Hex(String s) {
    if (s.length() != 64) {
      return false;
    }
    for (int i = 0; i < 64; i++) {
      char c = s.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return false;
      }
    }
    return true;
  }
}
