package dev.rea.core.internal.evidence;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.internal.evidence.WireFormat.Field;
import dev.rea.core.internal.evidence.WireFormat.GgufFactsField;
import dev.rea.core.internal.evidence.WireFormat.MetadataField;
import dev.rea.core.internal.evidence.WireFormat.MetadataShape;
import dev.rea.core.internal.evidence.WireFormat.RecordField;
import dev.rea.core.internal.evidence.WireFormat.SafetensorsFactsField;
import dev.rea.core.internal.io.StrictJson;
import dev.rea.core.internal.io.StrictJson.ArrayValue;
import dev.rea.core.internal.io.StrictJson.ObjectValue;
import dev.rea.core.internal.io.StrictJson.ScalarValue;
import dev.rea.core.internal.io.StrictJson.Value;
import dev.rea.core.options.Limits;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonToken;

/**
 * Interprets the parts of a record whose shape depends on another property, read as small trees
 * ({@link StrictJson#readValue}, already bounded by the first pass): {@code format_facts} (its
 * properties are those of {@code artifact.format}'s table) and {@code metadata} rows (a scalar
 * row or an ARRAY row by its {@code type}, with nested arrays down to {@link
 * Limits#nestingLimit()}). Allowed property names come from {@link WireFormat}; each value is
 * checked against the row's declared type (CONTRACT section 2). Not thread-safe.
 */
final class TreeRows {
  private final StrictJson j;
  private final String prefix;
  private final Limits limits;

  TreeRows(StrictJson j, String prefix, Limits limits) {
    this.j = j;
    this.prefix = prefix;
    this.limits = limits;
  }

  /** {@code format_facts} of a record whose {@code artifact.format} is {@code format}. */
  FormatFacts facts(ObjectValue facts, String format) throws ReaException {
    String base = prefix + RecordField.FORMAT_FACTS.json();
    Map<String, Value> p = facts.properties();
    if (format.equals("gguf")) {
      allowOnly(facts, base, GgufFactsField.values());
      long version = intScalar(get(p, GgufFactsField.VERSION), facts,
          sub(base, GgufFactsField.VERSION), 0, Integer.MAX_VALUE);
      String byteOrder = string(get(p, GgufFactsField.BYTE_ORDER), facts,
          sub(base, GgufFactsField.BYTE_ORDER));
      Value al = requirePresent(get(p, GgufFactsField.ALIGNMENT), facts,
          sub(base, GgufFactsField.ALIGNMENT));
      Long alignment = isNull(al) ? null
          : intScalar(al, facts, sub(base, GgufFactsField.ALIGNMENT), 1, 0xFFFF_FFFFL);
      String source = nullableString(get(p, GgufFactsField.ALIGNMENT_SOURCE), facts,
          sub(base, GgufFactsField.ALIGNMENT_SOURCE));
      Value tdoValue = get(p, GgufFactsField.TENSOR_DATA_OFFSET);
      String tdoField = sub(base, GgufFactsField.TENSOR_DATA_OFFSET);
      String tdo = nullableString(tdoValue, facts, tdoField);
      Long dataOffset = null;
      if (tdo != null && tdoValue != null) {
        dataOffset = decimal(tdo, tdoValue, tdoField);
      }
      return new FormatFacts.Gguf((int) version, byteOrder, alignment, source, dataOffset);
    }
    allowOnly(facts, base, SafetensorsFactsField.values());
    // Both must be strings before either is read as a number.
    String lengthField = sub(base, SafetensorsFactsField.JSON_LENGTH);
    Value length = requirePresent(get(p, SafetensorsFactsField.JSON_LENGTH), facts, lengthField);
    String lengthText = string(length, facts, lengthField);
    String offsetField = sub(base, SafetensorsFactsField.DATA_OFFSET);
    Value offset = requirePresent(get(p, SafetensorsFactsField.DATA_OFFSET), facts, offsetField);
    String offsetText = string(offset, facts, offsetField);
    return new FormatFacts.Safetensors(
        decimal(lengthText, length, lengthField), decimal(offsetText, offset, offsetField));
  }

  private static @Nullable Value get(Map<String, Value> properties, Field f) {
    return properties.get(f.json());
  }

  private static String sub(String base, Field f) {
    return base + "." + f.json();
  }

  private long decimal(String text, Value at, String field) throws ReaException {
    if (!StrictJson.isCanonicalDecimal(text, false)) {
      throw j.errorAt(at.offset(), field, "expected an unsigned decimal string");
    }
    try {
      long v = Long.parseLong(text);
      if (v >= 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw j.errorAt(at.offset(), field, "value exceeds 2^63-1");
  }

  private void allowOnly(ObjectValue o, String base, Field[] fields) throws ReaException {
    allowOnly(o, base, List.of(fields));
  }

  private void allowOnly(ObjectValue o, String base, List<? extends Field> fields)
      throws ReaException {
    Set<String> allowed = new HashSet<>(WireFormat.names(fields));
    for (Map.Entry<String, Value> e : o.properties().entrySet()) {
      if (!allowed.contains(e.getKey())) {
        String name = ReaException.truncateForMessage(e.getKey());
        throw j.errorAt(e.getValue().offset(), base + "." + name,
            "unknown property \"" + name + "\"");
      }
    }
  }

  private Value requirePresent(@Nullable Value v, Value parent, String field)
      throws ReaException {
    if (v == null) {
      throw j.errorAt(parent.offset(), field, "required property is missing");
    }
    return v;
  }

  private static boolean isNull(Value v) {
    return v instanceof ScalarValue s && s.token() == JsonToken.VALUE_NULL;
  }

  private long intScalar(@Nullable Value value, Value parent, String field, long min, long max)
      throws ReaException {
    Value v = requirePresent(value, parent, field);
    if (!(v instanceof ScalarValue s) || s.token() != JsonToken.VALUE_NUMBER_INT) {
      throw j.errorAt(v.offset(), field, "expected an integer number");
    }
    try {
      long x = Long.parseLong(s.text());
      if (x >= min && x <= max && !s.text().equals("-0")) {
        return x;
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw j.errorAt(v.offset(), field, "integer is out of range [" + min + ", " + max + "]");
  }

  /** A required string property. */
  private String string(@Nullable Value value, Value parent, String field) throws ReaException {
    Value v = requirePresent(value, parent, field);
    if (!(v instanceof ScalarValue s) || s.token() != JsonToken.VALUE_STRING) {
      throw j.errorAt(v.offset(), field, "expected a string");
    }
    return s.text();
  }

  /** A property that must be present, as a string or null. */
  private @Nullable String nullableString(@Nullable Value value, Value parent, String field)
      throws ReaException {
    Value v = requirePresent(value, parent, field);
    if (isNull(v)) {
      return null;
    }
    if (!(v instanceof ScalarValue s) || s.token() != JsonToken.VALUE_STRING) {
      throw j.errorAt(v.offset(), field, "expected a string or null");
    }
    return s.text();
  }

  /**
   * One {@code metadata} row.
   *
   * @param base the row's field path, prefix included
   * @param position its index in the array
   */
  MetadataRow metadataRow(ObjectValue row, String base, int position) throws ReaException {
    Map<String, Value> p = row.properties();
    String indexField = sub(base, MetadataField.INDEX);
    long index = intScalar(get(p, MetadataField.INDEX), row, indexField, 0, Integer.MAX_VALUE);
    if (index != position) {
      Value at = requirePresent(get(p, MetadataField.INDEX), row, indexField);
      throw j.errorAt(at.offset(), indexField,
          "index " + index + " does not match position " + position);
    }
    String key = string(get(p, MetadataField.KEY), row, sub(base, MetadataField.KEY));
    ValueType type = valueType(get(p, MetadataField.TYPE), row, sub(base, MetadataField.TYPE));
    if (type == ValueType.ARRAY) {
      allowOnly(row, base, MetadataField.fields(MetadataShape.ARRAY_ROW));
      MetadataValue.ArrayValue value = arrayValue(row, base, 1);
      return new MetadataRow(position, key, type, value, valueSha256(row, base));
    }
    allowOnly(row, base, MetadataField.fields(MetadataShape.SCALAR_ROW));
    String valueField = sub(base, MetadataField.VALUE);
    Value v = requirePresent(get(p, MetadataField.VALUE), row, valueField);
    return new MetadataRow(position, key, type, new TypedValues(j).scalar(type, v, valueField));
  }

  /**
   * An ARRAY row's optional {@code value_sha256} (CONTRACT section 11): absent in records saved
   * before the field existed; when present, 64 lowercase hex digits.
   */
  private @Nullable String valueSha256(ObjectValue row, String base) throws ReaException {
    Value v = get(row.properties(), MetadataField.VALUE_SHA256);
    if (v == null) {
      return null;
    }
    String field = sub(base, MetadataField.VALUE_SHA256);
    String hex = string(v, row, field);
    if (!MetadataRow.isSha256Hex(hex)) {
      throw j.errorAt(v.offset(), field, "expected 64 lowercase hex digits");
    }
    return hex;
  }

  private ValueType valueType(@Nullable Value value, Value parent, String field)
      throws ReaException {
    Value v = requirePresent(value, parent, field);
    String name = string(v, parent, field);
    ValueType t = ValueType.byName(name);
    if (t == null) {
      throw j.errorAt(v.offset(), field,
          "\"" + ReaException.truncateForMessage(name) + "\" is not a GGUF value type");
    }
    return t;
  }

  private MetadataValue.ArrayValue arrayValue(ObjectValue o, String base, int level)
      throws ReaException {
    if (level > limits.nestingLimit()) {
      throw j.errorAt(o.offset(), base, "arrays nest deeper than " + limits.nestingLimit());
    }
    Map<String, Value> p = o.properties();
    ValueType et = valueType(get(p, MetadataField.ELEMENT_TYPE), o,
        sub(base, MetadataField.ELEMENT_TYPE));
    long count = count(o, base);
    String completeField = sub(base, MetadataField.PREVIEW_COMPLETE);
    Value pc = requirePresent(get(p, MetadataField.PREVIEW_COMPLETE), o, completeField);
    if (!(pc instanceof ScalarValue s)
        || (s.token() != JsonToken.VALUE_TRUE && s.token() != JsonToken.VALUE_FALSE)) {
      throw j.errorAt(pc.offset(), completeField, "expected true or false");
    }
    boolean complete = s.token() == JsonToken.VALUE_TRUE;
    String previewField = sub(base, MetadataField.PREVIEW);
    Value pv = requirePresent(get(p, MetadataField.PREVIEW), o, previewField);
    if (!(pv instanceof ArrayValue arr)) {
      throw j.errorAt(pv.offset(), previewField, "expected an array");
    }
    if (arr.items().size() > limits.previewElements()) {
      throw j.errorAt(pv.offset(), previewField,
          "preview holds more than " + limits.previewElements() + " elements");
    }
    List<MetadataValue> items = new ArrayList<>(arr.items().size());
    TypedValues typed = new TypedValues(j);
    for (int i = 0; i < arr.items().size(); i++) {
      Value e = arr.items().get(i);
      String ef = previewField + "[" + i + "]";
      if (et == ValueType.ARRAY) {
        if (!(e instanceof ObjectValue eo)) {
          throw j.errorAt(e.offset(), ef, "expected a nested array object");
        }
        allowOnly(eo, ef, MetadataField.fields(MetadataShape.NESTED_ARRAY));
        items.add(arrayValue(eo, ef, level + 1));
      } else {
        items.add(typed.scalar(et, e, ef));
      }
    }
    return new MetadataValue.ArrayValue(et, count, items, complete);
  }

  /** An array's {@code count}: an unsigned 64-bit decimal string. */
  private long count(ObjectValue o, String base) throws ReaException {
    String field = sub(base, MetadataField.COUNT);
    Value v = requirePresent(get(o.properties(), MetadataField.COUNT), o, field);
    String text = string(v, o, field);
    if (!StrictJson.isCanonicalDecimal(text, false)) {
      throw j.errorAt(v.offset(), field, "expected an unsigned decimal string");
    }
    try {
      return Long.parseUnsignedLong(text);
    } catch (NumberFormatException e) {
      throw j.errorAt(v.offset(), field, "count exceeds 2^64-1");
    }
  }
}
