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
import dev.rea.core.evidence.Request;
import dev.rea.core.evidence.Subject;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.Totals;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.evidence.WireFormat.ArtifactField;
import dev.rea.core.internal.evidence.WireFormat.AuthenticationField;
import dev.rea.core.internal.evidence.WireFormat.BundleField;
import dev.rea.core.internal.evidence.WireFormat.CoverageField;
import dev.rea.core.internal.evidence.WireFormat.Field;
import dev.rea.core.internal.evidence.WireFormat.GgufFactsField;
import dev.rea.core.internal.evidence.WireFormat.IdentityField;
import dev.rea.core.internal.evidence.WireFormat.LimitationField;
import dev.rea.core.internal.evidence.WireFormat.MetadataField;
import dev.rea.core.internal.evidence.WireFormat.RecordField;
import dev.rea.core.internal.evidence.WireFormat.RequestField;
import dev.rea.core.internal.evidence.WireFormat.SafetensorsFactsField;
import dev.rea.core.internal.evidence.WireFormat.SubjectField;
import dev.rea.core.internal.evidence.WireFormat.TensorField;
import dev.rea.core.internal.evidence.WireFormat.TotalsField;
import dev.rea.core.internal.evidence.WireFormat.TypeField;
import dev.rea.core.internal.evidence.WireFormat.WarningField;
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
 * sections 3, 5 and 6 (for records and bundles, the order and names of the {@link WireFormat}
 * tables), with the number conventions of CONTRACT section 2: byte offsets, sizes,
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

  /**
   * Writes a bundle holding the given records to {@code out} as UTF-8 JSON, the bytes {@link
   * #bundleBytes} gives; {@code out} is neither flushed nor closed.
   *
   * @throws java.io.UncheckedIOException when writing fails
   */
  public static void writeBundle(List<EvidenceRecord> records, OutputStream out) {
    try (JsonGenerator g = generatorKeepingOpen(out)) {
      writeBundle(g, records);
    } catch (tools.jackson.core.JacksonException e) {
      if (e.getCause() instanceof java.io.IOException io) {
        throw new java.io.UncheckedIOException(io);
      }
      throw e;
    }
  }

  /**
   * A generator as {@link #generator} gives, whose {@code close()} flushes {@code out} but leaves
   * it open (the caller's stream: stdout, an envelope being written).
   */
  public static JsonGenerator generatorKeepingOpen(OutputStream out) {
    return generator(new Unclosed(out));
  }

  /** {@code out} for a generator that closes what it writes to: closing only flushes. */
  private static final class Unclosed extends java.io.FilterOutputStream {
    Unclosed(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws java.io.IOException {
      out.write(b, off, len);
    }

    @Override
    public void close() throws java.io.IOException {
      out.flush();
    }
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
    string(g, BundleField.SCHEMA, BUNDLE_SCHEMA);
    g.writeName(BundleField.RECORDS.json());
    g.writeStartArray();
    for (EvidenceRecord r : records) {
      writeRecord(g, r, true);
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  /**
   * Writes one record, its properties in {@link RecordField} order.
   *
   * @param withIdentity include {@code evidence_id} and {@code authentication}
   */
  public static void writeRecord(JsonGenerator g, EvidenceRecord r, boolean withIdentity) {
    g.writeStartObject();
    string(g, RecordField.SCHEMA, r.schema());
    if (withIdentity) {
      nullableString(g, RecordField.EVIDENCE_ID, r.evidenceId());
    }
    string(g, RecordField.OPERATION, r.operation());
    string(g, RecordField.STATUS, r.status());
    string(g, RecordField.OBSERVED_AT, r.observedAt());
    writeRequest(g, r.request());
    writeSubject(g, r.subject());
    writeArtifact(g, r.artifact());
    writeFormatFacts(g, r.formatFacts());

    g.writeName(RecordField.METADATA.json());
    g.writeStartArray();
    for (MetadataRow row : r.metadata()) {
      writeMetadataRow(g, row);
    }
    g.writeEndArray();

    g.writeName(RecordField.TENSORS.json());
    writeTensorRows(g, r.tensors());

    g.writeName(RecordField.TYPES.json());
    g.writeStartArray();
    for (TypeRow row : r.types()) {
      writeTypeRow(g, row);
    }
    g.writeEndArray();

    writeTotals(g, r.totals());
    writeCoverage(g, r.coverage());

    g.writeName(RecordField.LIMITATIONS.json());
    g.writeStartArray();
    for (Limitation l : r.limitations()) {
      writeLimitation(g, l);
    }
    g.writeEndArray();

    g.writeName(RecordField.WARNINGS.json());
    g.writeStartArray();
    for (Warning w : r.warnings()) {
      writeWarning(g, w);
    }
    g.writeEndArray();

    Authentication a = r.authentication();
    if (withIdentity && a != null) {
      writeAuthentication(g, a);
    }
    g.writeEndObject();
  }

  /** Writes the {@code "request"} property (a set record's too, CONTRACT section 9). */
  public static void writeRequest(JsonGenerator g, Request q) {
    g.writeName(RecordField.REQUEST.json());
    g.writeStartObject();
    string(g, RequestField.PATH, q.path());
    string(g, RequestField.HASH, q.hash());
    String layout = q.assumeLayout();
    if (layout != null) {
      string(g, RequestField.ASSUME_LAYOUT, layout);
    }
    g.writeEndObject();
  }

  private static void writeSubject(JsonGenerator g, @Nullable Subject s) {
    g.writeName(RecordField.SUBJECT.json());
    if (s == null) {
      g.writeNull();
    } else {
      g.writeStartObject();
      string(g, SubjectField.KIND, s.kind());
      string(g, SubjectField.SHA256, s.sha256());
      g.writeEndObject();
    }
  }

  /** Writes the {@code "totals"} property (a set record's too). */
  public static void writeTotals(JsonGenerator g, Totals t) {
    g.writeName(RecordField.TOTALS.json());
    g.writeStartObject();
    number(g, TotalsField.TENSOR_COUNT, t.tensorCount());
    string(g, TotalsField.PARAMETER_COUNT, t.parameterCount().toString());
    nullableBig(g, TotalsField.BYTE_LENGTH, t.byteLength());
    g.writeEndObject();
  }

  /** Writes the {@code "coverage"} property (a set record's too). */
  public static void writeCoverage(JsonGenerator g, Coverage c) {
    g.writeName(RecordField.COVERAGE.json());
    g.writeStartObject();
    string(g, CoverageField.HEADER, c.header());
    string(g, CoverageField.STORAGE_SIZES, c.storageSizes());
    string(g, CoverageField.RANGES, c.ranges());
    string(g, CoverageField.DIGEST, c.digest());
    string(g, CoverageField.FINAL_IDENTITY, c.finalIdentity());
    g.writeEndObject();
  }

  /** Writes the {@code "authentication"} property (CONTRACT section 5; a set record's too). */
  public static void writeAuthentication(JsonGenerator g, Authentication a) {
    g.writeName(RecordField.AUTHENTICATION.json());
    g.writeStartObject();
    string(g, AuthenticationField.SCHEME, a.scheme());
    string(g, AuthenticationField.KEY_ID, a.keyId());
    string(g, AuthenticationField.SIGNATURE, a.signature());
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
    g.writeName(RecordField.ARTIFACT.json());
    g.writeStartObject();
    writeArtifactSummaryFields(g, a);
    string(g, ArtifactField.BYTES_READ, Long.toString(a.bytesRead()));
    string(g, ArtifactField.READ_SCOPE, a.readScope());
    FileIdentity id = a.identity();
    g.writeName(ArtifactField.IDENTITY.json());
    g.writeStartObject();
    nullableString(g, IdentityField.DEVICE, id.device());
    nullableString(g, IdentityField.INODE, id.inode());
    string(g, IdentityField.SIZE, Long.toString(id.size()));
    string(g, IdentityField.MODIFIED, id.modified());
    g.writeBooleanProperty(IdentityField.VERIFIED.json(), id.verified());
    g.writeEndObject();
    g.writeEndObject();
  }

  /**
   * Writes the artifact fields a summary carries too (CONTRACT section 4): {@code path}, {@code
   * format}, {@code file_size}, {@code header_length}, {@code header_sha256}, {@code sha256}.
   */
  public static void writeArtifactSummaryFields(JsonGenerator g, Artifact a) {
    string(g, ArtifactField.PATH, a.path());
    string(g, ArtifactField.FORMAT, a.format());
    string(g, ArtifactField.FILE_SIZE, Long.toString(a.fileSize()));
    string(g, ArtifactField.HEADER_LENGTH, Long.toString(a.headerLength()));
    nullableString(g, ArtifactField.HEADER_SHA256, a.headerSha256());
    nullableString(g, ArtifactField.SHA256, a.sha256());
  }

  /** Writes the {@code "format_facts"} property. */
  public static void writeFormatFacts(JsonGenerator g, FormatFacts facts) {
    g.writeName(RecordField.FORMAT_FACTS.json());
    g.writeStartObject();
    if (facts instanceof FormatFacts.Gguf f) {
      number(g, GgufFactsField.VERSION, f.version());
      string(g, GgufFactsField.BYTE_ORDER, f.byteOrder());
      g.writeName(GgufFactsField.ALIGNMENT.json());
      Long alignment = f.alignment();
      if (alignment == null) {
        g.writeNull();
      } else {
        g.writeNumber(alignment.longValue());
      }
      nullableString(g, GgufFactsField.ALIGNMENT_SOURCE, f.alignmentSource());
      Long dataOffset = f.tensorDataOffset();
      nullableString(g, GgufFactsField.TENSOR_DATA_OFFSET,
          dataOffset == null ? null : Long.toString(dataOffset));
    } else if (facts instanceof FormatFacts.Safetensors s) {
      string(g, SafetensorsFactsField.JSON_LENGTH, Long.toString(s.jsonLength()));
      string(g, SafetensorsFactsField.DATA_OFFSET, Long.toString(s.dataOffset()));
    }
    g.writeEndObject();
  }

  /**
   * Writes one complete metadata row object; an ARRAY row ends with {@code value_sha256} when it
   * has one (CONTRACT section 11).
   */
  public static void writeMetadataRow(JsonGenerator g, MetadataRow row) {
    writeMetadataRow(g, row, null);
  }

  /**
   * A metadata row as {@link #writeMetadataRow(JsonGenerator, MetadataRow)} writes it, with {@code
   * "member": K} after {@code index} when {@code member} is given: a row of a set's member, named
   * as a set's view rows name it (docs/sets.md).
   */
  public static void writeMetadataRow(JsonGenerator g, MetadataRow row, @Nullable Integer member) {
    g.writeStartObject();
    number(g, MetadataField.INDEX, row.index());
    if (member != null) {
      g.writeNumberProperty("member", member.intValue());
    }
    string(g, MetadataField.KEY, row.key());
    string(g, MetadataField.TYPE, row.type().name());
    writeMetadataValueFields(g, row.type(), row.value());
    writeValueSha256(g, row);
    g.writeEndObject();
  }

  private static void writeValueSha256(JsonGenerator g, MetadataRow row) {
    String digest = row.valueSha256();
    if (digest != null) {
      string(g, MetadataField.VALUE_SHA256, digest);
    }
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
        writeValueSha256(g, row);
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
      string(g, MetadataField.ELEMENT_TYPE, a.elementType().name());
      string(g, MetadataField.COUNT, Long.toUnsignedString(a.count()));
      g.writeName(MetadataField.PREVIEW.json());
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
      g.writeBooleanProperty(MetadataField.PREVIEW_COMPLETE.json(), a.previewComplete());
    } else {
      g.writeName(MetadataField.VALUE.json());
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
    number(g, TensorField.INDEX, t.index());
    string(g, TensorField.NAME, t.name());
    string(g, TensorField.TYPE, t.type());
    Long typeId = t.typeId();
    if (typeId != null) {
      number(g, TensorField.TYPE_ID, typeId);
    }
    g.writeName(TensorField.SHAPE.json());
    writeShape(g, t.shape());
    unsigned(g, TensorField.PARAMETER_COUNT, t.parameterCount());
    unsigned(g, TensorField.OFFSET, t.offset());
    nullableUnsigned(g, TensorField.FILE_OFFSET, t.fileOffset());
    nullableUnsigned(g, TensorField.BYTE_LENGTH, t.byteLength());
    string(g, TensorField.STORAGE_VALIDATION, t.storageValidation().wire());
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
    string(g, TypeField.TYPE, t.type());
    Long typeId = t.typeId();
    if (typeId != null) {
      number(g, TypeField.TYPE_ID, typeId);
    }
    number(g, TypeField.TENSOR_COUNT, t.tensorCount());
    string(g, TypeField.PARAMETER_COUNT, t.parameterCount().toString());
    nullableBig(g, TypeField.BYTE_LENGTH, t.byteLength());
    g.writeEndObject();
  }

  /** Writes one limitation object. */
  public static void writeLimitation(JsonGenerator g, Limitation l) {
    g.writeStartObject();
    string(g, LimitationField.CODE, l.code());
    string(g, LimitationField.MESSAGE, l.message());
    List<Integer> indices = l.tensorIndices();
    if (indices != null) {
      g.writeName(LimitationField.TENSOR_INDICES.json());
      g.writeStartArray();
      for (Integer i : indices) {
        g.writeNumber(i.intValue());
      }
      g.writeEndArray();
    }
    Long typeId = l.typeId();
    if (typeId != null) {
      number(g, LimitationField.TYPE_ID, typeId);
    }
    writeStrings(g, LimitationField.CANDIDATES, l.candidates());
    writeStrings(g, LimitationField.CANDIDATES_FITTING_RANGES, l.candidatesFittingRanges());
    g.writeEndObject();
  }

  /** Writes an array of strings as {@code field}, nothing when it is null. */
  private static void writeStrings(JsonGenerator g, Field field, @Nullable List<String> values) {
    if (values == null) {
      return;
    }
    g.writeName(field.json());
    g.writeStartArray();
    for (String c : values) {
      g.writeString(c);
    }
    g.writeEndArray();
  }

  /** Writes one warning object. */
  public static void writeWarning(JsonGenerator g, Warning w) {
    g.writeStartObject();
    string(g, WarningField.CODE, w.code());
    string(g, WarningField.MESSAGE, w.message());
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

  private static void string(JsonGenerator g, Field field, String value) {
    g.writeStringProperty(field.json(), value);
  }

  private static void number(JsonGenerator g, Field field, long value) {
    g.writeNumberProperty(field.json(), value);
  }

  /** Writes {@code field} and {@code value} as an unsigned decimal string. */
  private static void unsigned(JsonGenerator g, Field field, long value) {
    g.writeName(field.json());
    writeUnsigned(g, value);
  }

  private static void nullableUnsigned(JsonGenerator g, Field field, @Nullable Long value) {
    if (value == null) {
      g.writeNullProperty(field.json());
    } else {
      unsigned(g, field, value);
    }
  }

  /** Writes an unsigned 64-bit value as a decimal string. */
  private static void writeUnsigned(JsonGenerator g, long value) {
    g.writeString(Long.toUnsignedString(value));
  }

  /** Writes {@code "name":null} or the string, for a property that is null when unknown. */
  public static void nullableString(JsonGenerator g, Field field, @Nullable String value) {
    if (value == null) {
      g.writeNullProperty(field.json());
    } else {
      g.writeStringProperty(field.json(), value);
    }
  }

  /** Writes {@code "name":null} or the sum as a decimal string. */
  public static void nullableBig(JsonGenerator g, Field field, @Nullable BigInteger value) {
    if (value == null) {
      g.writeNullProperty(field.json());
    } else {
      g.writeStringProperty(field.json(), value.toString());
    }
  }
}
