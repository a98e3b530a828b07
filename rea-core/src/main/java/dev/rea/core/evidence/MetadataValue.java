package dev.rea.core.evidence;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A metadata value as retained in Evidence. The declared {@link ValueType} is kept beside the
 * value (in {@link MetadataRow#type()} or {@link ArrayValue#elementType()}), which decides how the
 * value is written (CONTRACT section 2).
 */
public sealed interface MetadataValue
    permits MetadataValue.IntegerValue,
        MetadataValue.FloatValue,
        MetadataValue.BoolValue,
        MetadataValue.StringValue,
        MetadataValue.ArrayValue {

  /**
   * @return whether this value, or an element of an array's preview at any depth, satisfies
   *     {@code test} (the value itself first, then each preview element in order)
   */
  default boolean anyNested(java.util.function.Predicate<MetadataValue> test) {
    if (test.test(this)) {
      return true;
    }
    if (this instanceof ArrayValue a) {
      for (MetadataValue e : a.preview()) {
        if (e.anyNested(test)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Any integer value. {@code bits} holds the value sign-extended for signed types and
   * zero-extended for unsigned ones; for UINT64 it is the raw 64 bits, read as unsigned.
   */
  record IntegerValue(long bits) implements MetadataValue {}

  /**
   * A FLOAT32 or FLOAT64 value. FLOAT32 values are held exactly as the widened double and written
   * with float precision. NaN payloads are not retained.
   */
  record FloatValue(double value) implements MetadataValue {
    /**
     * How CONTRACT section 2 spells a float that JSON numbers cannot carry.
     *
     * @param d a FLOAT32 (widened) or FLOAT64 value
     * @return {@code "NaN"}, {@code "+Infinity"}, {@code "-Infinity"} or {@code "-0"}; null for a
     *     finite value other than negative zero (written as a JSON number)
     */
    public static @Nullable String specialText(double d) {
      if (Double.isNaN(d)) {
        return "NaN";
      }
      if (d == Double.POSITIVE_INFINITY) {
        return "+Infinity";
      }
      if (d == Double.NEGATIVE_INFINITY) {
        return "-Infinity";
      }
      if (d == 0.0 && Double.doubleToRawLongBits(d) != 0L) {
        return "-0";
      }
      return null;
    }
  }

  /** A BOOL value (the file's byte was 0 or 1). */
  record BoolValue(boolean value) implements MetadataValue {}

  /** A STRING value: the declared UTF-8 bytes, decoded. */
  record StringValue(String value) implements MetadataValue {
    public StringValue {
      Objects.requireNonNull(value, "value");
    }
  }

  /**
   * An array: its declared element type and element count, and at most the first N elements
   * ({@code preview}, N = {@code Limits.previewElements()}, 8 by default).
   *
   * @param elementType the declared element type (may be ARRAY for nested arrays)
   * @param count the declared element count, an unsigned 64-bit value
   * @param preview the first elements, in file order; nested arrays are {@code ArrayValue}s
   * @param previewComplete true exactly when {@code preview} holds every element
   */
  record ArrayValue(
      ValueType elementType, long count, List<MetadataValue> preview, boolean previewComplete)
      implements MetadataValue {
    public ArrayValue {
      Objects.requireNonNull(elementType, "elementType");
      preview = List.copyOf(preview);
    }
  }
}
