package dev.rea.core.evidence;

import java.util.Objects;

/**
 * One metadata row (CONTRACT section 3): a GGUF key/value pair in file order, or one safetensors
 * {@code __metadata__} entry in key order.
 *
 * @param index position in the record's {@code metadata} collection (0-based)
 * @param key the key as declared (UTF-8 decoded)
 * @param type the declared value type ({@link ValueType#STRING} for safetensors)
 * @param value the value; an {@link MetadataValue.ArrayValue} exactly when {@code type} is ARRAY
 */
public record MetadataRow(int index, String key, ValueType type, MetadataValue value) {
  public MetadataRow {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(value, "value");
    if ((type == ValueType.ARRAY) != (value instanceof MetadataValue.ArrayValue)) {
      throw new IllegalArgumentException("type " + type + " does not match value " + value);
    }
  }
}
