package dev.rea.core.internal.evidence;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.internal.io.StrictJson;
import dev.rea.core.internal.io.StrictJson.ScalarValue;
import dev.rea.core.internal.io.StrictJson.Value;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonToken;

/**
 * Reads a metadata value of a {@link WireFormat.Kind#TYPED} property by the row's declared value
 * type, as CONTRACT section 2 spells it: integers up to 32 bits as JSON numbers in the type's
 * range, 64-bit integers as canonical decimal strings, floats as numbers or the strings {@code
 * "NaN"}, {@code "+Infinity"}, {@code "-Infinity"}, {@code "-0"} ({@link
 * MetadataValue.FloatValue#specialText}), booleans and strings as themselves. The inverse of
 * {@link EvidenceJson#writeScalar}.
 */
final class TypedValues {
  private final StrictJson j;

  TypedValues(StrictJson j) {
    this.j = j;
  }

  /**
   * @param t the declared (scalar) type
   * @param v the value as read
   * @param field its field path, for refusals
   * @throws ReaException {@code evidence_rejected} when {@code v} is not a value of {@code t}
   */
  MetadataValue scalar(ValueType t, Value v, String field) throws ReaException {
    ScalarValue s = v instanceof ScalarValue x ? x : null;
    switch (t) {
      case UINT8:
        return small(s, v, field, 0, 0xFF);
      case INT8:
        return small(s, v, field, -128, 127);
      case UINT16:
        return small(s, v, field, 0, 0xFFFF);
      case INT16:
        return small(s, v, field, Short.MIN_VALUE, Short.MAX_VALUE);
      case UINT32:
        return small(s, v, field, 0, 0xFFFF_FFFFL);
      case INT32:
        return small(s, v, field, Integer.MIN_VALUE, Integer.MAX_VALUE);
      case UINT64:
        if (s != null && s.token() == JsonToken.VALUE_STRING
            && StrictJson.isCanonicalDecimal(s.text(), false)) {
          try {
            return new MetadataValue.IntegerValue(Long.parseUnsignedLong(s.text()));
          } catch (NumberFormatException e) {
            // fall through
          }
        }
        throw j.errorAt(v.offset(), field, "UINT64 values are unsigned decimal strings");
      case INT64:
        if (s != null && s.token() == JsonToken.VALUE_STRING
            && StrictJson.isCanonicalDecimal(s.text(), true)) {
          try {
            return new MetadataValue.IntegerValue(Long.parseLong(s.text()));
          } catch (NumberFormatException e) {
            // fall through
          }
        }
        throw j.errorAt(v.offset(), field, "INT64 values are signed decimal strings");
      case FLOAT32:
      case FLOAT64:
        return floating(t, s, v, field);
      case BOOL:
        if (s != null
            && (s.token() == JsonToken.VALUE_TRUE || s.token() == JsonToken.VALUE_FALSE)) {
          return new MetadataValue.BoolValue(s.token() == JsonToken.VALUE_TRUE);
        }
        throw j.errorAt(v.offset(), field, "BOOL values are true or false");
      case STRING:
        if (s != null && s.token() == JsonToken.VALUE_STRING) {
          return new MetadataValue.StringValue(s.text());
        }
        throw j.errorAt(v.offset(), field, "STRING values are strings");
      default:
        throw j.errorAt(v.offset(), field, "ARRAY is not a scalar type");
    }
  }

  private MetadataValue small(@Nullable ScalarValue s, Value v, String field, long min, long max)
      throws ReaException {
    if (s != null && s.token() == JsonToken.VALUE_NUMBER_INT && !s.text().equals("-0")) {
      try {
        long x = Long.parseLong(s.text());
        if (x >= min && x <= max) {
          return new MetadataValue.IntegerValue(x);
        }
      } catch (NumberFormatException e) {
        // fall through
      }
    }
    throw j.errorAt(v.offset(), field, "expected an integer number in [" + min + ", " + max + "]");
  }

  private MetadataValue floating(ValueType t, @Nullable ScalarValue s, Value v, String field)
      throws ReaException {
    if (s != null && s.token() == JsonToken.VALUE_STRING) {
      switch (s.text()) {
        case "NaN":
          return new MetadataValue.FloatValue(Double.NaN);
        case "+Infinity":
          return new MetadataValue.FloatValue(Double.POSITIVE_INFINITY);
        case "-Infinity":
          return new MetadataValue.FloatValue(Double.NEGATIVE_INFINITY);
        case "-0":
          return new MetadataValue.FloatValue(-0.0);
        default:
          break;
      }
    }
    if (s != null
        && (s.token() == JsonToken.VALUE_NUMBER_FLOAT
            || s.token() == JsonToken.VALUE_NUMBER_INT)) {
      double d = t == ValueType.FLOAT32 ? (double) Float.parseFloat(s.text())
          : Double.parseDouble(s.text());
      if (Double.isInfinite(d)) {
        throw j.errorAt(v.offset(), field, t + " value overflows; infinities are strings");
      }
      if (d == 0.0 && Double.doubleToRawLongBits(d) != 0L) {
        throw j.errorAt(v.offset(), field, "negative zero is the string \"-0\"");
      }
      return new MetadataValue.FloatValue(d);
    }
    throw j.errorAt(v.offset(), field,
        t + " values are numbers or \"NaN\", \"+Infinity\", \"-Infinity\", \"-0\"");
  }
}
