package dev.rea.core.internal.evidence;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Artifact;
import dev.rea.core.evidence.Authentication;
import dev.rea.core.evidence.Coverage;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FileIdentity;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.evidence.Warning;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Writes Evidence records, bundles and error objects as JSON, in the field order of CONTRACT
 * sections 3, 5 and 6, with the number conventions of CONTRACT section 2: byte offsets, sizes,
 * lengths, dimensions, element and parameter counts and 64-bit integer values are decimal
 * strings; versions, type IDs, alignment, indices and row counts are JSON numbers.
 *
 * <p>Output is compact UTF-8 JSON. Strings are written as decoded; Jackson escapes control
 * characters (including U+0000).
 */
public final class EvidenceJson {
  /** Bundle schema name (CONTRACT section 5). */
  public static final String BUNDLE_SCHEMA = "rea.bundle.v1";

  private static final JsonFactory FACTORY = JsonFactory.builder().build();

  private EvidenceJson() {}

  /** @return the shared generator factory (thread-safe) */
  public static JsonFactory factory() {
    return FACTORY;
  }

  /** @return a new generator writing UTF-8 to {@code out}; the caller closes it */
  public static JsonGenerator generator(OutputStream out) {
    return FACTORY.createGenerator(ObjectWriteContext.empty(), out);
  }

  /**
   * Serialises one record.
   *
   * @param record the record
   * @param withIdentity true to include {@code evidence_id} and {@code authentication}; false
   *     gives the form that is canonicalised for the ID and signature (CONTRACT section 5)
   * @return UTF-8 JSON bytes
   */
  public static byte[] recordBytes(EvidenceRecord record, boolean withIdentity) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
    try (JsonGenerator g = generator(out)) {
      writeRecord(g, record, withIdentity);
    }
    return out.toByteArray();
  }

  /** @return UTF-8 JSON bytes of a bundle holding the given records */
  public static byte[] bundleBytes(List<EvidenceRecord> records) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
    try (JsonGenerator g = generator(out)) {
      writeBundle(g, records);
    }
    return out.toByteArray();
  }

  /** @return UTF-8 JSON bytes of the error object of CONTRACT section 6 */
  public static byte[] errorBytes(ReaException error) {
    return errorBytes(error, null);
  }

  /**
   * @param error the failure
   * @param partial its partial Evidence, written as {@code partial_evidence}, or null
   * @return UTF-8 JSON bytes of the error object of CONTRACT section 6
   */
  public static byte[] errorBytes(ReaException error, @Nullable EvidenceRecord partial) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(512);
    try (JsonGenerator g = generator(out)) {
      writeError(g, error, partial);
    }
    return out.toByteArray();
  }

  /** Writes {@code {"schema":"rea.bundle.v1","records":[...]}}. */
  public static void writeBundle(JsonGenerator g, List<EvidenceRecord> records) {
    g.writeStartObject();
    g.writeStringProperty("schema", BUNDLE_SCHEMA);
    g.writeName("records");
    g.writeStartArray();
    for (EvidenceRecord r : records) {
      writeRecord(g, r, true);
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  /**
   * Writes one record.
   *
   * @param withIdentity include {@code evidence_id} and {@code authentication}
   */
  public static void writeRecord(JsonGenerator g, EvidenceRecord r, boolean withIdentity) {
    g.writeStartObject();
    g.writeStringProperty("schema", r.schema());
    if (withIdentity) {
      writeNullableString(g, "evidence_id", r.evidenceId());
    }
    g.writeStringProperty("operation", r.operation());
    g.writeStringProperty("status", r.status());
    g.writeStringProperty("observed_at", r.observedAt());

    writeRequestAndSubject(g, r);

    writeArtifact(g, r.artifact());
    writeFormatFacts(g, r.formatFacts());

    g.writeName("metadata");
    g.writeStartArray();
    for (MetadataRow row : r.metadata()) {
      writeMetadataRow(g, row);
    }
    g.writeEndArray();

    g.writeName("tensors");
    writeTensorRows(g, r.tensors());

    g.writeName("types");
    g.writeStartArray();
    for (TypeRow row : r.types()) {
      writeTypeRow(g, row);
    }
    g.writeEndArray();

    writeTotalsAndCoverage(g, r);

    g.writeName("limitations");
    g.writeStartArray();
    for (Limitation l : r.limitations()) {
      writeLimitation(g, l);
    }
    g.writeEndArray();

    g.writeName("warnings");
    g.writeStartArray();
    for (Warning w : r.warnings()) {
      writeWarning(g, w);
    }
    g.writeEndArray();

    if (withIdentity && r.authentication() != null) {
      Authentication a = r.authentication();
      g.writeName("authentication");
      g.writeStartObject();
      g.writeStringProperty("scheme", a.scheme());
      g.writeStringProperty("key_id", a.keyId());
      g.writeStringProperty("signature", a.signature());
      g.writeEndObject();
    }
    g.writeEndObject();
  }

  private static void writeRequestAndSubject(JsonGenerator g, EvidenceRecord r) {
    g.writeName("request");
    g.writeStartObject();
    g.writeStringProperty("path", r.request().path());
    g.writeStringProperty("hash", r.request().hash());
    if (r.request().assumeLayout() != null) {
      g.writeStringProperty("assume_layout", r.request().assumeLayout());
    }
    g.writeEndObject();

    g.writeName("subject");
    if (r.subject() == null) {
      g.writeNull();
    } else {
      g.writeStartObject();
      g.writeStringProperty("kind", r.subject().kind());
      g.writeStringProperty("sha256", r.subject().sha256());
      g.writeEndObject();
    }
  }

  private static void writeTotalsAndCoverage(JsonGenerator g, EvidenceRecord r) {
    g.writeName("totals");
    g.writeStartObject();
    g.writeNumberProperty("tensor_count", r.totals().tensorCount());
    g.writeStringProperty("parameter_count", r.totals().parameterCount().toString());
    writeNullableBig(g, "byte_length", r.totals().byteLength());
    g.writeEndObject();

    Coverage c = r.coverage();
    g.writeName("coverage");
    g.writeStartObject();
    g.writeStringProperty("header", c.header());
    g.writeStringProperty("storage_sizes", c.storageSizes());
    g.writeStringProperty("ranges", c.ranges());
    g.writeStringProperty("digest", c.digest());
    g.writeStringProperty("final_identity", c.finalIdentity());
    g.writeEndObject();
  }

  /** Writes a JSON array of tensor rows. */
  static void writeTensorRows(JsonGenerator g, List<TensorRow> rows) {
    g.writeStartArray();
    for (TensorRow row : rows) {
      writeTensorRow(g, row);
    }
    g.writeEndArray();
  }

  /** Writes the {@code "artifact"} property. */
  public static void writeArtifact(JsonGenerator g, Artifact a) {
    g.writeName("artifact");
    g.writeStartObject();
    writeArtifactSummaryFields(g, a);
    g.writeStringProperty("bytes_read", Long.toString(a.bytesRead()));
    g.writeStringProperty("read_scope", a.readScope());
    FileIdentity id = a.identity();
    g.writeName("identity");
    g.writeStartObject();
    writeNullableString(g, "device", id.device());
    writeNullableString(g, "inode", id.inode());
    g.writeStringProperty("size", Long.toString(id.size()));
    g.writeStringProperty("modified", id.modified());
    g.writeBooleanProperty("verified", id.verified());
    g.writeEndObject();
    g.writeEndObject();
  }

  /**
   * Writes the artifact fields a summary carries too (CONTRACT section 4): {@code path}, {@code
   * format}, {@code file_size}, {@code header_length}, {@code header_sha256}, {@code sha256}.
   */
  public static void writeArtifactSummaryFields(JsonGenerator g, Artifact a) {
    g.writeStringProperty("path", a.path());
    g.writeStringProperty("format", a.format());
    g.writeStringProperty("file_size", Long.toString(a.fileSize()));
    g.writeStringProperty("header_length", Long.toString(a.headerLength()));
    writeNullableString(g, "header_sha256", a.headerSha256());
    writeNullableString(g, "sha256", a.sha256());
  }

  /** Writes the {@code "format_facts"} property. */
  public static void writeFormatFacts(JsonGenerator g, FormatFacts facts) {
    g.writeName("format_facts");
    g.writeStartObject();
    if (facts instanceof FormatFacts.Gguf f) {
      g.writeNumberProperty("version", f.version());
      g.writeStringProperty("byte_order", f.byteOrder());
      g.writeName("alignment");
      if (f.alignment() == null) {
        g.writeNull();
      } else {
        g.writeNumber(f.alignment().longValue());
      }
      writeNullableString(g, "alignment_source", f.alignmentSource());
      writeNullableString(
          g,
          "tensor_data_offset",
          f.tensorDataOffset() == null ? null : Long.toString(f.tensorDataOffset()));
    } else if (facts instanceof FormatFacts.Safetensors s) {
      g.writeStringProperty("json_length", Long.toString(s.jsonLength()));
      g.writeStringProperty("data_offset", Long.toString(s.dataOffset()));
    }
    g.writeEndObject();
  }

  /**
   * Writes one complete metadata row object; an ARRAY row ends with {@code value_sha256} when it
   * has one (CONTRACT section 11).
   */
  public static void writeMetadataRow(JsonGenerator g, MetadataRow row) {
    g.writeStartObject();
    g.writeNumberProperty("index", row.index());
    g.writeStringProperty("key", row.key());
    g.writeStringProperty("type", row.type().name());
    writeMetadataValueFields(g, row.type(), row.value());
    if (row.valueSha256() != null) {
      g.writeStringProperty("value_sha256", row.valueSha256());
    }
    g.writeEndObject();
  }

  /**
   * A row's value as JSON text ({@code Rea.metadataValueJson}): a scalar's {@code value}, or an
   * array row's object of its value fields and {@code value_sha256} (when it has one).
   */
  public static String metadataValueJson(MetadataRow row) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = generator(out)) {
      if (row.value() instanceof MetadataValue.ArrayValue) {
        g.writeStartObject();
        writeMetadataValueFields(g, row.type(), row.value());
        if (row.valueSha256() != null) {
          g.writeStringProperty("value_sha256", row.valueSha256());
        }
        g.writeEndObject();
      } else {
        writeScalar(g, row.type(), row.value());
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /**
   * Writes the value fields of a metadata row or nested array: {@code value} for scalars;
   * {@code element_type}, {@code count}, {@code preview}, {@code preview_complete} for arrays.
   */
  public static void writeMetadataValueFields(JsonGenerator g, ValueType type, MetadataValue v) {
    if (v instanceof MetadataValue.ArrayValue a) {
      g.writeStringProperty("element_type", a.elementType().name());
      g.writeStringProperty("count", Long.toUnsignedString(a.count()));
      g.writeName("preview");
      g.writeStartArray();
      for (MetadataValue e : a.preview()) {
        if (e instanceof MetadataValue.ArrayValue nested) {
          g.writeStartObject();
          writeMetadataValueFields(g, ValueType.ARRAY, nested);
          g.writeEndObject();
        } else {
          writeScalar(g, a.elementType(), e);
        }
      }
      g.writeEndArray();
      g.writeBooleanProperty("preview_complete", a.previewComplete());
    } else {
      g.writeName("value");
      writeScalar(g, type, v);
    }
  }

  /**
   * Writes a scalar value by its declared type (CONTRACT section 2).
   *
   * @throws IllegalArgumentException if the value does not fit the type
   */
  public static void writeScalar(JsonGenerator g, ValueType type, MetadataValue v) {
    switch (type) {
      case UINT8, INT8, UINT16, INT16, UINT32, INT32 ->
          g.writeNumber(((MetadataValue.IntegerValue) v).bits());
      case UINT64 -> g.writeString(Long.toUnsignedString(((MetadataValue.IntegerValue) v).bits()));
      case INT64 -> g.writeString(Long.toString(((MetadataValue.IntegerValue) v).bits()));
      case FLOAT32 -> writeFloat32(g, ((MetadataValue.FloatValue) v).value());
      case FLOAT64 -> writeFloat64(g, ((MetadataValue.FloatValue) v).value());
      case BOOL -> g.writeBoolean(((MetadataValue.BoolValue) v).value());
      case STRING -> g.writeString(((MetadataValue.StringValue) v).value());
      case ARRAY -> throw new IllegalArgumentException("ARRAY is not a scalar");
    }
  }

  /** @return the special string for a non-finite or negative-zero value, or null */
  public static @Nullable String specialFloatText(double d) {
    return MetadataValue.FloatValue.specialText(d);
  }


  private static void writeFloat32(JsonGenerator g, double d) {
    String special = specialFloatText(d);
    if (special != null) {
      g.writeString(special);
    } else {
      g.writeNumber(Float.toString((float) d));
    }
  }

  private static void writeFloat64(JsonGenerator g, double d) {
    String special = specialFloatText(d);
    if (special != null) {
      g.writeString(special);
    } else {
      g.writeNumber(Double.toString(d));
    }
  }

  /** Writes one complete tensor row object. */
  public static void writeTensorRow(JsonGenerator g, TensorRow t) {
    g.writeStartObject();
    g.writeNumberProperty("index", t.index());
    g.writeStringProperty("name", t.name());
    g.writeStringProperty("type", t.type());
    if (t.typeId() != null) {
      g.writeNumberProperty("type_id", t.typeId().longValue());
    }
    g.writeName("shape");
    writeShape(g, t.shape());
    writeUnsignedProperty(g, "parameter_count", t.parameterCount());
    writeUnsignedProperty(g, "offset", t.offset());
    if (t.fileOffset() == null) {
      g.writeNullProperty("file_offset");
    } else {
      writeUnsignedProperty(g, "file_offset", t.fileOffset());
    }
    if (t.byteLength() == null) {
      g.writeNullProperty("byte_length");
    } else {
      writeUnsignedProperty(g, "byte_length", t.byteLength());
    }
    g.writeStringProperty("storage_validation", t.storageValidation().wire());
    g.writeEndObject();
  }

  /** Writes a shape as an array of unsigned decimal strings. */
  public static void writeShape(JsonGenerator g, List<Long> shape) {
    g.writeStartArray();
    for (Long d : shape) {
      writeUnsigned(g, d);
    }
    g.writeEndArray();
  }

  /** Writes one complete type row object. */
  public static void writeTypeRow(JsonGenerator g, TypeRow t) {
    g.writeStartObject();
    g.writeStringProperty("type", t.type());
    if (t.typeId() != null) {
      g.writeNumberProperty("type_id", t.typeId().longValue());
    }
    g.writeNumberProperty("tensor_count", t.tensorCount());
    g.writeStringProperty("parameter_count", t.parameterCount().toString());
    writeNullableBig(g, "byte_length", t.byteLength());
    g.writeEndObject();
  }

  /** Writes one limitation object. */
  public static void writeLimitation(JsonGenerator g, Limitation l) {
    g.writeStartObject();
    g.writeStringProperty("code", l.code());
    g.writeStringProperty("message", l.message());
    if (l.tensorIndices() != null) {
      g.writeName("tensor_indices");
      g.writeStartArray();
      for (Integer i : l.tensorIndices()) {
        g.writeNumber(i.intValue());
      }
      g.writeEndArray();
    }
    if (l.typeId() != null) {
      g.writeNumberProperty("type_id", l.typeId().longValue());
    }
    if (l.candidates() != null) {
      g.writeName("candidates");
      g.writeStartArray();
      for (String c : l.candidates()) {
        g.writeString(c);
      }
      g.writeEndArray();
    }
    if (l.candidatesFittingRanges() != null) {
      g.writeName("candidates_fitting_ranges");
      g.writeStartArray();
      for (String c : l.candidatesFittingRanges()) {
        g.writeString(c);
      }
      g.writeEndArray();
    }
    g.writeEndObject();
  }

  /** Writes one warning object. */
  public static void writeWarning(JsonGenerator g, Warning w) {
    g.writeStartObject();
    g.writeStringProperty("code", w.code());
    g.writeStringProperty("message", w.message());
    g.writeEndObject();
  }

  /**
   * Writes the error object of CONTRACT section 6, with {@code partial_evidence} when there is
   * partial Evidence.
   */
  public static void writeError(JsonGenerator g, ReaException e, @Nullable EvidenceRecord partial) {
    g.writeStartObject();
    g.writeName("error");
    g.writeStartObject();
    g.writeStringProperty("code", e.code().wireName());
    g.writeStringProperty("category", e.category().wireName());
    g.writeStringProperty("constraint", e.constraint().wireName());
    g.writeStringProperty("message", e.getMessage());
    g.writeName("details");
    g.writeStartObject();
    if (e.path() != null) {
      g.writeStringProperty("path", e.path());
    }
    if (e.offset() != null) {
      g.writeStringProperty("offset", Long.toUnsignedString(e.offset()));
    }
    if (e.field() != null) {
      g.writeStringProperty("field", e.field());
    }
    if (!e.diagnostics().isEmpty()) {
      g.writeName("diagnostics");
      writeJsonish(g, e.diagnostics());
    }
    g.writeEndObject();
    g.writeEndObject();
    if (partial != null) {
      g.writeName("partial_evidence");
      writeRecord(g, partial, true);
    }
    g.writeEndObject();
  }

  /** Writes a Map/List/String/Number/Boolean/null tree. */
  private static void writeJsonish(JsonGenerator g, @Nullable Object o) {
    if (o == null) {
      g.writeNull();
    } else if (o instanceof Map<?, ?> m) {
      g.writeStartObject();
      for (Map.Entry<?, ?> e : m.entrySet()) {
        g.writeName(String.valueOf(e.getKey()));
        writeJsonish(g, e.getValue());
      }
      g.writeEndObject();
    } else if (o instanceof List<?> l) {
      g.writeStartArray();
      for (Object e : l) {
        writeJsonish(g, e);
      }
      g.writeEndArray();
    } else if (o instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (o instanceof Integer i) {
      g.writeNumber(i.intValue());
    } else if (o instanceof Long l) {
      g.writeNumber(l.longValue());
    } else if (o instanceof BigInteger b) {
      g.writeString(b.toString());
    } else {
      g.writeString(o.toString());
    }
  }

  /** Writes {@code name} and {@code value} as an unsigned decimal string. */
  private static void writeUnsignedProperty(JsonGenerator g, String name, long value) {
    g.writeName(name);
    writeUnsigned(g, value);
  }

  /** Writes an unsigned 64-bit value as a decimal string. */
  private static void writeUnsigned(JsonGenerator g, long value) {
    g.writeString(Long.toUnsignedString(value));
  }

  private static void writeNullableString(JsonGenerator g, String name, @Nullable String value) {
    if (value == null) {
      g.writeNullProperty(name);
    } else {
      g.writeStringProperty(name, value);
    }
  }

  private static void writeNullableBig(JsonGenerator g, String name, @Nullable BigInteger value) {
    if (value == null) {
      g.writeNullProperty(name);
    } else {
      g.writeStringProperty(name, value.toString());
    }
  }
}
