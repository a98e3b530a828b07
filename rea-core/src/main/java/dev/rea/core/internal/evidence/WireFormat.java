package dev.rea.core.internal.evidence;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The one description of the Evidence wire format (CONTRACT section 3, bundle of section 5): for
 * every kind of JSON object in a record, its properties in the order {@link EvidenceJson} writes
 * them, each with its JSON name, the JSON kind of its value (CONTRACT section 2's number
 * conventions: sizes, offsets, dimensions and 64-bit counts are {@link Kind#DECIMAL} strings;
 * versions, type IDs, alignment, indices and row counts are {@link Kind#NUMBER}s) and whether it
 * must be present and may be null ({@link Presence}).
 *
 * <p>Every consumer takes its property names from here: the writers ({@link EvidenceJson}, {@link
 * CanonicalRecordWriter}, the set writer), the strict reader ({@link EvidenceImport}: unknown
 * names and missing required properties are found by these tables), the size model ({@link
 * RecordSize}: a member's bytes are counted from its name here) and the record checks ({@link
 * RecordChecks}: field paths in refusals). {@code WireFormatTest} keeps the tables equal to what
 * the writer emits for the golden recordings, both ways.
 *
 * <p>What stays in each consumer is what only it needs: the value rules of the import (digest
 * spellings, ranges, enumeration values), the writer's null and omission choices as data, the
 * size model's widest values.
 */
public final class WireFormat {
  private WireFormat() {}

  /** The JSON kind of a property's value. */
  public enum Kind {
    /** A JSON string (enumerations, names, digests, times). */
    STRING,
    /** An unsigned decimal string (CONTRACT section 2: sizes, offsets, counts, dimensions). */
    DECIMAL,
    /** A JSON integer number (versions, type IDs, alignment, indices, row counts). */
    NUMBER,
    /** {@code true} or {@code false}. */
    BOOLEAN,
    /** A JSON object, described by its own table. */
    OBJECT,
    /** A JSON array. */
    ARRAY,
    /** A metadata value, its JSON kind given by the row's declared {@code type}. */
    TYPED
  }

  /** Whether a property must be present, and whether it may be null. */
  public enum Presence {
    /** Always present, never null. */
    REQUIRED,
    /** Always present; null when the value is not known. */
    NULLABLE,
    /** Omitted when it has no value; never null. */
    OPTIONAL;

    /** @return true when the reader refuses an object without the property */
    public boolean required() {
      return this != OPTIONAL;
    }
  }

  /** One property of one kind of object. */
  public interface Field {
    /** @return the property name, as written in JSON */
    String json();

    /** @return the JSON kind of its value */
    Kind kind();

    /** @return whether it must be present and may be null */
    Presence presence();
  }

  /** The bundle object of CONTRACT section 5. */
  public enum BundleField implements Field {
    SCHEMA("schema", Kind.STRING, Presence.REQUIRED),
    RECORDS("records", Kind.ARRAY, Presence.REQUIRED);

    private final String json;
    private final Kind kind;
    private final Presence presence;

    BundleField(String json, Kind kind, Presence presence) {
      this.json = json;
      this.kind = kind;
      this.presence = presence;
    }

    @Override public String json() { return json; }
    @Override public Kind kind() { return kind; }
    @Override public Presence presence() { return presence; }
  }

  /**
   * The record object. {@code evidence_id} and {@code authentication} are its identity ({@link
   * #identity()}): left out of the form that is canonicalised for the ID and signature.
   */
  public enum RecordField implements Field {
    SCHEMA("schema", Kind.STRING, Presence.REQUIRED),
    EVIDENCE_ID("evidence_id", Kind.STRING, Presence.REQUIRED),
    OPERATION("operation", Kind.STRING, Presence.REQUIRED),
    STATUS("status", Kind.STRING, Presence.REQUIRED),
    OBSERVED_AT("observed_at", Kind.STRING, Presence.REQUIRED),
    REQUEST("request", Kind.OBJECT, Presence.REQUIRED),
    SUBJECT("subject", Kind.OBJECT, Presence.NULLABLE),
    ARTIFACT("artifact", Kind.OBJECT, Presence.REQUIRED),
    FORMAT_FACTS("format_facts", Kind.OBJECT, Presence.REQUIRED),
    METADATA("metadata", Kind.ARRAY, Presence.REQUIRED),
    TENSORS("tensors", Kind.ARRAY, Presence.REQUIRED),
    TYPES("types", Kind.ARRAY, Presence.REQUIRED),
    TOTALS("totals", Kind.OBJECT, Presence.REQUIRED),
    COVERAGE("coverage", Kind.OBJECT, Presence.REQUIRED),
    LIMITATIONS("limitations", Kind.ARRAY, Presence.REQUIRED),
    WARNINGS("warnings", Kind.ARRAY, Presence.REQUIRED),
    AUTHENTICATION("authentication", Kind.OBJECT, Presence.OPTIONAL);

    private final String json;
    private final Kind kind;
    private final Presence presence;

    RecordField(String json, Kind kind, Presence presence) {
      this.json = json;
      this.kind = kind;
      this.presence = presence;
    }

    @Override public String json() { return json; }
    @Override public Kind kind() { return kind; }
    @Override public Presence presence() { return presence; }

    /** @return true for {@code evidence_id} and {@code authentication} */
    public boolean identity() {
      return this == EVIDENCE_ID || this == AUTHENTICATION;
    }
  }

  /** {@code request}. */
  public enum RequestField implements Field {
    PATH("path", Kind.STRING, Presence.REQUIRED),
    HASH("hash", Kind.STRING, Presence.REQUIRED),
    ASSUME_LAYOUT("assume_layout", Kind.STRING, Presence.OPTIONAL);

    private final String json;
    private final Kind kind;
    private final Presence presence;

    RequestField(String json, Kind kind, Presence presence) {
      this.json = json;
      this.kind = kind;
      this.presence = presence;
    }

    @Override public String json() { return json; }
    @Override public Kind kind() { return kind; }
    @Override public Presence presence() { return presence; }
  }

  /** {@code subject} (when not null). */
  public enum SubjectField implements Field {
    KIND("kind", Kind.STRING, Presence.REQUIRED),
    SHA256("sha256", Kind.STRING, Presence.REQUIRED);

    private final String json;
    private final Kind kind;
    private final Presence presence;

    SubjectField(String json, Kind kind, Presence presence) {
      this.json = json;
      this.kind = kind;
      this.presence = presence;
    }

    @Override public String json() { return json; }
    @Override public Kind kind() { return kind; }
    @Override public Presence presence() { return presence; }
  }

  /** {@code artifact}; its first six properties are the ones a summary carries too. */
  public enum ArtifactField implements Field {
    PATH("path", Kind.STRING, Presence.REQUIRED),
    FORMAT("format", Kind.STRING, Presence.REQUIRED),
    FILE_SIZE("file_size", Kind.DECIMAL, Presence.REQUIRED),
    HEADER_LENGTH("header_length", Kind.DECIMAL, Presence.REQUIRED),
    HEADER_SHA256("header_sha256", Kind.STRING, Presence.NULLABLE),
    SHA256("sha256", Kind.STRING, Presence.NULLABLE),
    BYTES_READ("bytes_read", Kind.DECIMAL, Presence.REQUIRED),
    READ_SCOPE("read_scope", Kind.STRING, Presence.REQUIRED),
    IDENTITY("identity", Kind.OBJECT, Presence.REQUIRED);

    private final String json;
    private final Kind kind;
    private final Presence presence;

    ArtifactField(String json, Kind kind, Presence presence) {
      this.json = json;
      this.kind = kind;
      this.presence = presence;
    }

    @Override public String json() { return json; }
    @Override public Kind kind() { return kind; }
    @Override public Presence presence() { return presence; }
  }

  /** {@code artifact.identity}. */
  public enum IdentityField implements Field {
    DEVICE("device", Kind.DECIMAL, Presence.NULLABLE),
    INODE("inode", Kind.DECIMAL, Presence.NULLABLE),
    SIZE("size", Kind.DECIMAL, Presence.REQUIRED),
    MODIFIED("modified", Kind.STRING, Presence.REQUIRED),
    VERIFIED("verified", Kind.BOOLEAN, Presence.REQUIRED);

    private final String json;
    private final Kind kind;
    private final Presence presence;

    IdentityField(String json, Kind kind, Presence presence) {
      this.json = json;
      this.kind = kind;
      this.presence = presence;
    }

    @Override public String json() { return json; }
    @Override public Kind kind() { return kind; }
    @Override public Presence presence() { return presence; }
  }

  /** {@code format_facts} of a GGUF record. */
  public enum GgufFactsField implements Field {
    VERSION("version", Kind.NUMBER, Presence.REQUIRED),
    BYTE_ORDER("byte_order", Kind.STRING, Presence.REQUIRED),
    ALIGNMENT("alignment", Kind.NUMBER, Presence.NULLABLE),
    ALIGNMENT_SOURCE("alignment_source", Kind.STRING, Presence.NULLABLE),
    TENSOR_DATA_OFFSET("tensor_data_offset", Kind.DECIMAL, Presence.NULLABLE);

    private final String json;
    private final Kind kind;
    private final Presence presence;

    GgufFactsField(String json, Kind kind, Presence presence) {
      this.json = json;
      this.kind = kind;
      this.presence = presence;
    }

    @Override public String json() { return json; }
    @Override public Kind kind() { return kind; }
    @Override public Presence presence() { return presence; }
  }

  /** {@code format_facts} of a safetensors record. */
  public enum SafetensorsFactsField implements Field {
    JSON_LENGTH("json_length", Kind.DECIMAL, Presence.REQUIRED),
    DATA_OFFSET("data_offset", Kind.DECIMAL, Presence.REQUIRED);

    private final String json;
    private final Kind kind;
    private final Presence presence;

    SafetensorsFactsField(String json, Kind kind, Presence presence) {
      this.json = json;
      this.kind = kind;
      this.presence = presence;
    }

    @Override public String json() { return json; }
    @Override public Kind kind() { return kind; }
    @Override public Presence presence() { return presence; }
  }

  /** Which of the three metadata object shapes a {@link MetadataField} belongs to. */
  public enum MetadataShape {
    /** A row whose {@code type} is a scalar type: {@code value}. */
    SCALAR_ROW,
    /** A row whose {@code type} is {@code ARRAY}: the array's fields and {@code value_sha256}. */
    ARRAY_ROW,
    /** An element of an ARRAY preview whose element type is {@code ARRAY}. */
    NESTED_ARRAY
  }

  /**
   * A {@code metadata} row, or a nested array inside one. The row is one object kind with two
   * shapes chosen by its {@code type}, and a nested array is the array part of a row; {@link
   * #fields(MetadataShape)} gives each shape's properties.
   */
  public enum MetadataField implements Field {
    INDEX("index", Kind.NUMBER, Presence.REQUIRED, true, true, false),
    KEY("key", Kind.STRING, Presence.REQUIRED, true, true, false),
    TYPE("type", Kind.STRING, Presence.REQUIRED, true, true, false),
    VALUE("value", Kind.TYPED, Presence.REQUIRED, true, false, false),
    ELEMENT_TYPE("element_type", Kind.STRING, Presence.REQUIRED, false, true, true),
    COUNT("count", Kind.DECIMAL, Presence.REQUIRED, false, true, true),
    PREVIEW("preview", Kind.ARRAY, Presence.REQUIRED, false, true, true),
    PREVIEW_COMPLETE("preview_complete", Kind.BOOLEAN, Presence.REQUIRED, false, true, true),
    /** CONTRACT section 11; absent in records saved before it existed. */
    VALUE_SHA256("value_sha256", Kind.STRING, Presence.OPTIONAL, false, true, false);

    private final String json;
    private final Kind kind;
    private final Presence presence;
    private final boolean scalarRow;
    private final boolean arrayRow;
    private final boolean nested;

    MetadataField(String json, Kind kind, Presence presence, boolean scalarRow, boolean arrayRow,
        boolean nested) {
      this.json = json;
      this.kind = kind;
      this.presence = presence;
      this.scalarRow = scalarRow;
      this.arrayRow = arrayRow;
      this.nested = nested;
    }

    @Override public String json() { return json; }
    @Override public Kind kind() { return kind; }
    @Override public Presence presence() { return presence; }

    /** @return true when objects of {@code shape} have this property */
    public boolean in(MetadataShape shape) {
      return switch (shape) {
        case SCALAR_ROW -> scalarRow;
        case ARRAY_ROW -> arrayRow;
        case NESTED_ARRAY -> nested;
      };
    }

    /** @return the properties of objects of {@code shape}, in write order */
    public static List<MetadataField> fields(MetadataShape shape) {
      List<MetadataField> out = new ArrayList<>();
      for (MetadataField f : values()) {
        if (f.in(shape)) {
          out.add(f);
        }
      }
      return Collections.unmodifiableList(out);
    }
  }

  /** A {@code tensors} row. */
  public enum TensorField implements Field {
    INDEX("index", Kind.NUMBER, Presence.REQUIRED),
    NAME("name", Kind.STRING, Presence.REQUIRED),
    TYPE("type", Kind.STRING, Presence.REQUIRED),
    /** GGUF only. */
    TYPE_ID("type_id", Kind.NUMBER, Presence.OPTIONAL),
    SHAPE("shape", Kind.ARRAY, Presence.REQUIRED),
    PARAMETER_COUNT("parameter_count", Kind.DECIMAL, Presence.REQUIRED),
    OFFSET("offset", Kind.DECIMAL, Presence.REQUIRED),
    FILE_OFFSET("file_offset", Kind.DECIMAL, Presence.NULLABLE),
    BYTE_LENGTH("byte_length", Kind.DECIMAL, Presence.NULLABLE),
    STORAGE_VALIDATION("storage_validation", Kind.STRING, Presence.REQUIRED);

    private final String json;
    private final Kind kind;
    private final Presence presence;

    TensorField(String json, Kind kind, Presence presence) {
      this.json = json;
      this.kind = kind;
      this.presence = presence;
    }

    @Override public String json() { return json; }
    @Override public Kind kind() { return kind; }
    @Override public Presence presence() { return presence; }
  }

  /** A {@code types} row. */
  public enum TypeField implements Field {
    TYPE("type", Kind.STRING, Presence.REQUIRED),
    /** GGUF only. */
    TYPE_ID("type_id", Kind.NUMBER, Presence.OPTIONAL),
    TENSOR_COUNT("tensor_count", Kind.NUMBER, Presence.REQUIRED),
    PARAMETER_COUNT("parameter_count", Kind.DECIMAL, Presence.REQUIRED),
    BYTE_LENGTH("byte_length", Kind.DECIMAL, Presence.NULLABLE);

    private final String json;
    private final Kind kind;
    private final Presence presence;

    TypeField(String json, Kind kind, Presence presence) {
      this.json = json;
      this.kind = kind;
      this.presence = presence;
    }

    @Override public String json() { return json; }
    @Override public Kind kind() { return kind; }
    @Override public Presence presence() { return presence; }
  }

  /** {@code totals}. */
  public enum TotalsField implements Field {
    TENSOR_COUNT("tensor_count", Kind.NUMBER, Presence.REQUIRED),
    PARAMETER_COUNT("parameter_count", Kind.DECIMAL, Presence.REQUIRED),
    BYTE_LENGTH("byte_length", Kind.DECIMAL, Presence.NULLABLE);

    private final String json;
    private final Kind kind;
    private final Presence presence;

    TotalsField(String json, Kind kind, Presence presence) {
      this.json = json;
      this.kind = kind;
      this.presence = presence;
    }

    @Override public String json() { return json; }
    @Override public Kind kind() { return kind; }
    @Override public Presence presence() { return presence; }
  }

  /** {@code coverage}. */
  public enum CoverageField implements Field {
    HEADER("header", Kind.STRING, Presence.REQUIRED),
    STORAGE_SIZES("storage_sizes", Kind.STRING, Presence.REQUIRED),
    RANGES("ranges", Kind.STRING, Presence.REQUIRED),
    DIGEST("digest", Kind.STRING, Presence.REQUIRED),
    FINAL_IDENTITY("final_identity", Kind.STRING, Presence.REQUIRED);

    private final String json;
    private final Kind kind;
    private final Presence presence;

    CoverageField(String json, Kind kind, Presence presence) {
      this.json = json;
      this.kind = kind;
      this.presence = presence;
    }

    @Override public String json() { return json; }
    @Override public Kind kind() { return kind; }
    @Override public Presence presence() { return presence; }
  }

  /** A {@code limitations} entry. */
  public enum LimitationField implements Field {
    CODE("code", Kind.STRING, Presence.REQUIRED),
    MESSAGE("message", Kind.STRING, Presence.REQUIRED),
    TENSOR_INDICES("tensor_indices", Kind.ARRAY, Presence.OPTIONAL),
    TYPE_ID("type_id", Kind.NUMBER, Presence.OPTIONAL),
    CANDIDATES("candidates", Kind.ARRAY, Presence.OPTIONAL),
    CANDIDATES_FITTING_RANGES("candidates_fitting_ranges", Kind.ARRAY, Presence.OPTIONAL);

    private final String json;
    private final Kind kind;
    private final Presence presence;

    LimitationField(String json, Kind kind, Presence presence) {
      this.json = json;
      this.kind = kind;
      this.presence = presence;
    }

    @Override public String json() { return json; }
    @Override public Kind kind() { return kind; }
    @Override public Presence presence() { return presence; }
  }

  /** A {@code warnings} entry. */
  public enum WarningField implements Field {
    CODE("code", Kind.STRING, Presence.REQUIRED),
    MESSAGE("message", Kind.STRING, Presence.REQUIRED);

    private final String json;
    private final Kind kind;
    private final Presence presence;

    WarningField(String json, Kind kind, Presence presence) {
      this.json = json;
      this.kind = kind;
      this.presence = presence;
    }

    @Override public String json() { return json; }
    @Override public Kind kind() { return kind; }
    @Override public Presence presence() { return presence; }
  }

  /** {@code authentication} (CONTRACT section 5). */
  public enum AuthenticationField implements Field {
    SCHEME("scheme", Kind.STRING, Presence.REQUIRED),
    KEY_ID("key_id", Kind.STRING, Presence.REQUIRED),
    SIGNATURE("signature", Kind.STRING, Presence.REQUIRED);

    private final String json;
    private final Kind kind;
    private final Presence presence;

    AuthenticationField(String json, Kind kind, Presence presence) {
      this.json = json;
      this.kind = kind;
      this.presence = presence;
    }

    @Override public String json() { return json; }
    @Override public Kind kind() { return kind; }
    @Override public Presence presence() { return presence; }
  }

  /** Every table, one per object kind (for documentation and {@code WireFormatTest}). */
  public static final List<Class<? extends Field>> TABLES =
      List.of(
          BundleField.class,
          RecordField.class,
          RequestField.class,
          SubjectField.class,
          ArtifactField.class,
          IdentityField.class,
          GgufFactsField.class,
          SafetensorsFactsField.class,
          MetadataField.class,
          TensorField.class,
          TypeField.class,
          TotalsField.class,
          CoverageField.class,
          LimitationField.class,
          WarningField.class,
          AuthenticationField.class);

  private static final ClassValue<Map<String, Field>> BY_NAME =
      new ClassValue<>() {
        @Override
        protected Map<String, Field> computeValue(Class<?> type) {
          Map<String, Field> m = new LinkedHashMap<>();
          Object[] constants = type.getEnumConstants();
          if (constants != null) {
            for (Object c : constants) {
              Field f = (Field) c;
              m.put(f.json(), f);
            }
          }
          return Collections.unmodifiableMap(m);
        }
      };

  /**
   * @param table one of the field enums
   * @param json a property name as read
   * @return the table's field of that name, or null when the object kind has no such property
   */
  public static <F extends Enum<F> & Field> @Nullable F field(Class<F> table, String json) {
    Field f = BY_NAME.get(table).get(json);
    return f == null ? null : table.cast(f);
  }

  /** @return the JSON names of {@code fields}, in order */
  public static List<String> names(List<? extends Field> fields) {
    List<String> out = new ArrayList<>(fields.size());
    for (Field f : fields) {
      out.add(f.json());
    }
    return Collections.unmodifiableList(out);
  }

  /** @return the JSON names of every field of {@code table}, in write order */
  public static List<String> names(Class<? extends Field> table) {
    return List.copyOf(BY_NAME.get(table).keySet());
  }

  /**
   * The path of a property below the record, as error fields name it: the JSON names joined by
   * dots, e.g. {@code path(ARTIFACT, IDENTITY, SIZE)} is {@code artifact.identity.size}.
   */
  public static String path(Field... fields) {
    StringBuilder b = new StringBuilder();
    for (Field f : fields) {
      if (b.length() > 0) {
        b.append('.');
      }
      b.append(f.json());
    }
    return b.toString();
  }

  /** @return {@code array[index]}, e.g. {@code tensors[3]}, the path of one row */
  public static String row(Field array, int index) {
    return array.json() + "[" + index + "]";
  }

  /** @return {@code array[index].field}, e.g. {@code tensors[3].name} */
  public static String row(Field array, int index, Field field) {
    return row(array, index) + "." + field.json();
  }
}
