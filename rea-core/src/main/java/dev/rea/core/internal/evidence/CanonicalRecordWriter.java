package dev.rea.core.internal.evidence;

import dev.rea.core.evidence.Artifact;
import dev.rea.core.evidence.Coverage;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FileIdentity;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.Subject;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.canonical.CanonicalSink;
import dev.rea.core.internal.evidence.WireFormat.ArtifactField;
import dev.rea.core.internal.evidence.WireFormat.CoverageField;
import dev.rea.core.internal.evidence.WireFormat.GgufFactsField;
import dev.rea.core.internal.evidence.WireFormat.IdentityField;
import dev.rea.core.internal.evidence.WireFormat.LimitationField;
import dev.rea.core.internal.evidence.WireFormat.MetadataField;
import dev.rea.core.internal.evidence.WireFormat.RecordField;
import dev.rea.core.internal.evidence.WireFormat.RequestField;
import dev.rea.core.internal.evidence.WireFormat.SafetensorsFactsField;
import dev.rea.core.internal.evidence.WireFormat.SubjectField;
import dev.rea.core.internal.evidence.WireFormat.TensorField;
import dev.rea.core.internal.evidence.WireFormat.TypeField;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Writes the RFC 8785 canonical form of a record without {@code evidence_id} and {@code
 * authentication} (CONTRACT section 5) straight from the typed record, in one pass: the bytes the
 * RFC's reference canonicalizer gives for the JSON text {@link EvidenceJson} writes for the same
 * record ({@code CanonicalRecordWriterTest}, against that library, on the golden files, random
 * records and RFC 8785's examples).
 *
 * <p>Why this can be written without sorting anything at run time: every property name of a
 * record is one of CONTRACT section 3's fixed ASCII names (metadata keys and tensor names are
 * values, in arrays of rows), so each object's member order is known here. The members below are
 * written in RFC 8785 order, by name as UTF-16 code units (for ASCII names, byte order). Values
 * follow CONTRACT section 2 exactly as {@link EvidenceJson} writes them, then as the canonicalizer
 * reads that text: decimal strings for sizes and 64-bit values; JSON numbers for indices, counts,
 * versions, type IDs and small integers; FLOAT64 as the ECMAScript form of the double; FLOAT32 as
 * the ECMAScript form of the double that its shortest float text ({@link Float#toString}) reads
 * as, which is what every existing evidence_id was computed over; NaN, the infinities and -0 as
 * the strings {@link EvidenceJson#specialFloatText} gives.
 *
 * <p>Stateless; thread-safe.
 */
final class CanonicalRecordWriter {
  private CanonicalRecordWriter() {}

  /**
   * The encoded property name {@code ,"name":}; a first member is written from offset 1,
   * without the comma. One constant below per distinct name: where several {@link WireFormat}
   * tables share a name ({@code index}, {@code type}, {@code path}, {@code byte_length}...), the
   * field of any of them gives the same bytes.
   */
  private static byte[] name(WireFormat.Field field) {
    return (",\"" + field.json() + "\":").getBytes(StandardCharsets.US_ASCII);
  }

  private static final byte[] ALIGNMENT = name(GgufFactsField.ALIGNMENT);
  private static final byte[] ALIGNMENT_SOURCE = name(GgufFactsField.ALIGNMENT_SOURCE);
  private static final byte[] ARTIFACT = name(RecordField.ARTIFACT);
  private static final byte[] ASSUME_LAYOUT = name(RequestField.ASSUME_LAYOUT);
  private static final byte[] BYTE_LENGTH = name(TensorField.BYTE_LENGTH);
  private static final byte[] BYTE_ORDER = name(GgufFactsField.BYTE_ORDER);
  private static final byte[] BYTES_READ = name(ArtifactField.BYTES_READ);
  private static final byte[] CANDIDATES = name(LimitationField.CANDIDATES);
  private static final byte[] CANDIDATES_FITTING = name(LimitationField.CANDIDATES_FITTING_RANGES);
  private static final byte[] CODE = name(LimitationField.CODE);
  private static final byte[] COUNT = name(MetadataField.COUNT);
  private static final byte[] COVERAGE = name(RecordField.COVERAGE);
  private static final byte[] DATA_OFFSET = name(SafetensorsFactsField.DATA_OFFSET);
  private static final byte[] DEVICE = name(IdentityField.DEVICE);
  private static final byte[] DIGEST = name(CoverageField.DIGEST);
  private static final byte[] ELEMENT_TYPE = name(MetadataField.ELEMENT_TYPE);
  private static final byte[] FILE_OFFSET = name(TensorField.FILE_OFFSET);
  private static final byte[] FILE_SIZE = name(ArtifactField.FILE_SIZE);
  private static final byte[] FINAL_IDENTITY = name(CoverageField.FINAL_IDENTITY);
  private static final byte[] FORMAT = name(ArtifactField.FORMAT);
  private static final byte[] FORMAT_FACTS = name(RecordField.FORMAT_FACTS);
  private static final byte[] HASH = name(RequestField.HASH);
  private static final byte[] HEADER = name(CoverageField.HEADER);
  private static final byte[] HEADER_LENGTH = name(ArtifactField.HEADER_LENGTH);
  private static final byte[] HEADER_SHA256 = name(ArtifactField.HEADER_SHA256);
  private static final byte[] IDENTITY = name(ArtifactField.IDENTITY);
  private static final byte[] INDEX = name(TensorField.INDEX);
  private static final byte[] INODE = name(IdentityField.INODE);
  private static final byte[] JSON_LENGTH = name(SafetensorsFactsField.JSON_LENGTH);
  private static final byte[] KEY = name(MetadataField.KEY);
  private static final byte[] KIND = name(SubjectField.KIND);
  private static final byte[] LIMITATIONS = name(RecordField.LIMITATIONS);
  private static final byte[] MESSAGE = name(LimitationField.MESSAGE);
  private static final byte[] METADATA = name(RecordField.METADATA);
  private static final byte[] MODIFIED = name(IdentityField.MODIFIED);
  private static final byte[] NAME = name(TensorField.NAME);
  private static final byte[] OBSERVED_AT = name(RecordField.OBSERVED_AT);
  private static final byte[] OFFSET = name(TensorField.OFFSET);
  private static final byte[] OPERATION = name(RecordField.OPERATION);
  private static final byte[] PARAMETER_COUNT = name(TensorField.PARAMETER_COUNT);
  private static final byte[] PATH = name(ArtifactField.PATH);
  private static final byte[] PREVIEW = name(MetadataField.PREVIEW);
  private static final byte[] PREVIEW_COMPLETE = name(MetadataField.PREVIEW_COMPLETE);
  private static final byte[] RANGES = name(CoverageField.RANGES);
  private static final byte[] READ_SCOPE = name(ArtifactField.READ_SCOPE);
  private static final byte[] REQUEST = name(RecordField.REQUEST);
  private static final byte[] SCHEMA = name(RecordField.SCHEMA);
  private static final byte[] SHA256 = name(ArtifactField.SHA256);
  private static final byte[] SHAPE = name(TensorField.SHAPE);
  private static final byte[] SIZE = name(IdentityField.SIZE);
  private static final byte[] VALUE_SHA256 = name(MetadataField.VALUE_SHA256);
  private static final byte[] STATUS = name(RecordField.STATUS);
  private static final byte[] STORAGE_SIZES = name(CoverageField.STORAGE_SIZES);
  private static final byte[] STORAGE_VALIDATION = name(TensorField.STORAGE_VALIDATION);
  private static final byte[] SUBJECT = name(RecordField.SUBJECT);
  private static final byte[] TENSOR_COUNT = name(TypeField.TENSOR_COUNT);
  private static final byte[] TENSOR_DATA_OFFSET = name(GgufFactsField.TENSOR_DATA_OFFSET);
  private static final byte[] TENSOR_INDICES = name(LimitationField.TENSOR_INDICES);
  private static final byte[] TENSORS = name(RecordField.TENSORS);
  private static final byte[] TOTALS = name(RecordField.TOTALS);
  private static final byte[] TYPE = name(TensorField.TYPE);
  private static final byte[] TYPE_ID = name(TensorField.TYPE_ID);
  private static final byte[] TYPES = name(RecordField.TYPES);
  private static final byte[] VALUE = name(MetadataField.VALUE);
  private static final byte[] VERIFIED = name(IdentityField.VERIFIED);
  private static final byte[] VERSION = name(GgufFactsField.VERSION);
  private static final byte[] WARNINGS = name(RecordField.WARNINGS);

  /** Opens an object with its first member's name. */
  private static void first(CanonicalSink out, byte[] name) {
    out.ascii('{');
    out.raw(name, 1, name.length);
  }

  /**
   * Writes the record's canonical form (identity-free) into {@code out}.
   *
   * @throws ClassCastException when a metadata value does not have the Java type its declared
   *     type needs (as {@link EvidenceJson#writeScalar} does)
   * @throws IllegalArgumentException for a string holding an unpaired surrogate
   */
  static void write(EvidenceRecord r, CanonicalSink out) {
    first(out, ARTIFACT);
    artifact(out, r.artifact());
    out.raw(COVERAGE);
    coverage(out, r.coverage());
    out.raw(FORMAT_FACTS);
    formatFacts(out, r.formatFacts());
    out.raw(LIMITATIONS);
    out.ascii('[');
    for (int i = 0; i < r.limitations().size(); i++) {
      if (i > 0) {
        out.ascii(',');
      }
      limitation(out, r.limitations().get(i));
    }
    out.ascii(']');
    out.raw(METADATA);
    out.ascii('[');
    for (int i = 0; i < r.metadata().size(); i++) {
      if (i > 0) {
        out.ascii(',');
      }
      metadataRow(out, r.metadata().get(i));
    }
    out.ascii(']');
    out.raw(OBSERVED_AT);
    out.string(r.observedAt());
    out.raw(OPERATION);
    out.string(r.operation());
    out.raw(REQUEST);
    if (r.request().assumeLayout() != null) {
      first(out, ASSUME_LAYOUT);
      out.string(r.request().assumeLayout());
      out.raw(HASH);
    } else {
      first(out, HASH);
    }
    out.string(r.request().hash());
    out.raw(PATH);
    out.string(r.request().path());
    out.ascii('}');
    out.raw(SCHEMA);
    out.string(r.schema());
    out.raw(STATUS);
    out.string(r.status());
    out.raw(SUBJECT);
    subject(out, r.subject());
    out.raw(TENSORS);
    tensors(out, r.tensors());
    out.raw(TOTALS);
    first(out, BYTE_LENGTH);
    decimalOrNull(out, r.totals().byteLength());
    out.raw(PARAMETER_COUNT);
    out.decimalString(r.totals().parameterCount());
    out.raw(TENSOR_COUNT);
    out.integer(r.totals().tensorCount());
    out.ascii('}');
    out.raw(TYPES);
    types(out, r.types());
    out.raw(WARNINGS);
    out.ascii('[');
    for (int i = 0; i < r.warnings().size(); i++) {
      Warning w = r.warnings().get(i);
      out.raw(i > 0 ? COMMA_OPEN : OPEN);
      out.raw(CODE, 1, CODE.length);
      out.string(w.code());
      out.raw(MESSAGE);
      out.string(w.message());
      out.ascii('}');
    }
    out.raw(CLOSE_ALL);
  }

  private static final byte[] OPEN = {'{'};
  private static final byte[] COMMA_OPEN = {',', '{'};
  /** The end of the warnings array and of the record. */
  private static final byte[] CLOSE_ALL = {']', '}'};

  private static void artifact(CanonicalSink out, Artifact a) {
    first(out, BYTES_READ);
    out.signedString(a.bytesRead());
    out.raw(FILE_SIZE);
    out.signedString(a.fileSize());
    out.raw(FORMAT);
    out.string(a.format());
    out.raw(HEADER_LENGTH);
    out.signedString(a.headerLength());
    out.raw(HEADER_SHA256);
    stringOrNull(out, a.headerSha256());
    out.raw(IDENTITY);
    FileIdentity id = a.identity();
    first(out, DEVICE);
    stringOrNull(out, id.device());
    out.raw(INODE);
    stringOrNull(out, id.inode());
    out.raw(MODIFIED);
    out.string(id.modified());
    out.raw(SIZE);
    out.signedString(id.size());
    out.raw(VERIFIED);
    out.bool(id.verified());
    out.ascii('}');
    out.raw(PATH);
    out.string(a.path());
    out.raw(READ_SCOPE);
    out.string(a.readScope());
    out.raw(SHA256);
    stringOrNull(out, a.sha256());
    out.ascii('}');
  }

  private static void coverage(CanonicalSink out, Coverage c) {
    first(out, DIGEST);
    out.string(c.digest());
    out.raw(FINAL_IDENTITY);
    out.string(c.finalIdentity());
    out.raw(HEADER);
    out.string(c.header());
    out.raw(RANGES);
    out.string(c.ranges());
    out.raw(STORAGE_SIZES);
    out.string(c.storageSizes());
    out.ascii('}');
  }

  private static void formatFacts(CanonicalSink out, FormatFacts facts) {
    if (facts instanceof FormatFacts.Gguf f) {
      first(out, ALIGNMENT);
      if (f.alignment() == null) {
        out.nul();
      } else {
        out.integer(f.alignment());
      }
      out.raw(ALIGNMENT_SOURCE);
      stringOrNull(out, f.alignmentSource());
      out.raw(BYTE_ORDER);
      out.string(f.byteOrder());
      out.raw(TENSOR_DATA_OFFSET);
      if (f.tensorDataOffset() == null) {
        out.nul();
      } else {
        out.signedString(f.tensorDataOffset());
      }
      out.raw(VERSION);
      out.integer(f.version());
      out.ascii('}');
    } else if (facts instanceof FormatFacts.Safetensors s) {
      first(out, DATA_OFFSET);
      out.signedString(s.dataOffset());
      out.raw(JSON_LENGTH);
      out.signedString(s.jsonLength());
      out.ascii('}');
    } else {
      out.raw(EMPTY_OBJECT);
    }
  }

  private static final byte[] EMPTY_OBJECT = {'{', '}'};

  /**
   * Writes an optional array of strings as a member (its comma only when it is not the object's
   * first member).
   *
   * @return whether the object still has no member
   */
  private static boolean strings(
      CanonicalSink out, byte[] name, @Nullable List<String> values, boolean first) {
    if (values == null) {
      return first;
    }
    if (first) {
      out.raw(name, 1, name.length);
    } else {
      out.raw(name);
    }
    out.ascii('[');
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        out.ascii(',');
      }
      out.string(values.get(i));
    }
    out.ascii(']');
    return false;
  }

  /**
   * Members in order: candidates, candidates_fitting_ranges, code, message, tensor_indices,
   * type_id (some optional).
   */
  private static void limitation(CanonicalSink out, Limitation l) {
    out.ascii('{');
    boolean first = true;
    first = strings(out, CANDIDATES, l.candidates(), first);
    first = strings(out, CANDIDATES_FITTING, l.candidatesFittingRanges(), first);
    if (first) {
      out.raw(CODE, 1, CODE.length);
    } else {
      out.raw(CODE);
    }
    out.string(l.code());
    out.raw(MESSAGE);
    out.string(l.message());
    if (l.tensorIndices() != null) {
      out.raw(TENSOR_INDICES);
      out.ascii('[');
      for (int i = 0; i < l.tensorIndices().size(); i++) {
        if (i > 0) {
          out.ascii(',');
        }
        out.integer(l.tensorIndices().get(i));
      }
      out.ascii(']');
    }
    if (l.typeId() != null) {
      out.raw(TYPE_ID);
      out.integer(l.typeId());
    }
    out.ascii('}');
  }

  /**
   * A scalar row: index, key, type, value. An array row: count, element_type, index, key,
   * preview, preview_complete, type, value_sha256 (when present).
   */
  private static void metadataRow(CanonicalSink out, MetadataRow row) {
    if (row.value() instanceof MetadataValue.ArrayValue a) {
      first(out, COUNT);
      out.unsignedString(a.count());
      out.raw(ELEMENT_TYPE);
      out.string(a.elementType().name());
      out.raw(INDEX);
      out.integer(row.index());
      out.raw(KEY);
      out.string(row.key());
      out.raw(PREVIEW);
      preview(out, a);
      out.raw(PREVIEW_COMPLETE);
      out.bool(a.previewComplete());
      out.raw(TYPE);
      out.string(row.type().name());
      if (row.valueSha256() != null) {
        out.raw(VALUE_SHA256);
        out.string(row.valueSha256());
      }
    } else {
      first(out, INDEX);
      out.integer(row.index());
      out.raw(KEY);
      out.string(row.key());
      out.raw(TYPE);
      out.string(row.type().name());
      out.raw(VALUE);
      scalar(out, row.type(), row.value());
    }
    out.ascii('}');
  }

  /** An array's preview; a nested array is an object: count, element_type, preview, preview_complete. */
  private static void preview(CanonicalSink out, MetadataValue.ArrayValue a) {
    out.ascii('[');
    List<MetadataValue> elements = a.preview();
    for (int i = 0; i < elements.size(); i++) {
      if (i > 0) {
        out.ascii(',');
      }
      MetadataValue e = elements.get(i);
      if (e instanceof MetadataValue.ArrayValue nested) {
        first(out, COUNT);
        out.unsignedString(nested.count());
        out.raw(ELEMENT_TYPE);
        out.string(nested.elementType().name());
        out.raw(PREVIEW);
        preview(out, nested);
        out.raw(PREVIEW_COMPLETE);
        out.bool(nested.previewComplete());
        out.ascii('}');
      } else {
        scalar(out, a.elementType(), e);
      }
    }
    out.ascii(']');
  }

  /** A scalar by its declared type, as {@link EvidenceJson#writeScalar} writes it, canonical. */
  private static void scalar(CanonicalSink out, ValueType type, MetadataValue v) {
    switch (type) {
      case UINT8, INT8, UINT16, INT16, UINT32, INT32 ->
          out.integer(((MetadataValue.IntegerValue) v).bits());
      case UINT64 -> out.unsignedString(((MetadataValue.IntegerValue) v).bits());
      case INT64 -> out.signedString(((MetadataValue.IntegerValue) v).bits());
      case FLOAT32 -> float32(out, ((MetadataValue.FloatValue) v).value());
      case FLOAT64 -> float64(out, ((MetadataValue.FloatValue) v).value());
      case BOOL -> out.bool(((MetadataValue.BoolValue) v).value());
      case STRING -> out.string(((MetadataValue.StringValue) v).value());
      case ARRAY -> throw new IllegalArgumentException("ARRAY is not a scalar");
    }
  }

  /**
   * A FLOAT32 value: {@link EvidenceJson} writes {@code Float.toString}, and the canonical form
   * holds the ECMAScript form of the double that text reads as (not of the float's exact value:
   * {@code 0.1f} is {@code 0.1}, not {@code 0.10000000149011612}).
   */
  private static void float32(CanonicalSink out, double d) {
    String special = EvidenceJson.specialFloatText(d);
    if (special != null) {
      out.string(special);
    } else {
      out.number(Double.parseDouble(Float.toString((float) d)));
    }
  }

  /** A FLOAT64 value: {@code Double.toString} reads back as the same double. */
  private static void float64(CanonicalSink out, double d) {
    String special = EvidenceJson.specialFloatText(d);
    if (special != null) {
      out.string(special);
    } else {
      out.number(d);
    }
  }

  private static void subject(CanonicalSink out, @Nullable Subject s) {
    if (s == null) {
      out.nul();
      return;
    }
    first(out, KIND);
    out.string(s.kind());
    out.raw(SHA256);
    out.string(s.sha256());
    out.ascii('}');
  }

  /**
   * Tensor rows. Members: byte_length, file_offset, index, name, offset, parameter_count, shape,
   * storage_validation, type, type_id (only when present).
   */
  private static void tensors(CanonicalSink out, List<TensorRow> rows) {
    out.ascii('[');
    for (int i = 0; i < rows.size(); i++) {
      TensorRow t = rows.get(i);
      out.raw(i > 0 ? COMMA_OPEN : OPEN);
      out.raw(BYTE_LENGTH, 1, BYTE_LENGTH.length);
      unsignedOrNull(out, t.byteLength());
      out.raw(FILE_OFFSET);
      unsignedOrNull(out, t.fileOffset());
      out.raw(INDEX);
      out.integer(t.index());
      out.raw(NAME);
      out.string(t.name());
      out.raw(OFFSET);
      out.unsignedString(t.offset());
      out.raw(PARAMETER_COUNT);
      out.unsignedString(t.parameterCount());
      out.raw(SHAPE);
      out.ascii('[');
      List<Long> shape = t.shape();
      for (int d = 0; d < shape.size(); d++) {
        if (d > 0) {
          out.ascii(',');
        }
        out.unsignedString(shape.get(d));
      }
      out.ascii(']');
      out.raw(STORAGE_VALIDATION);
      out.string(t.storageValidation().wire());
      out.raw(TYPE);
      out.string(t.type());
      if (t.typeId() != null) {
        out.raw(TYPE_ID);
        out.integer(t.typeId());
      }
      out.ascii('}');
    }
    out.ascii(']');
  }

  /** Type rows. Members: byte_length, parameter_count, tensor_count, type, type_id (optional). */
  private static void types(CanonicalSink out, List<TypeRow> rows) {
    out.ascii('[');
    for (int i = 0; i < rows.size(); i++) {
      TypeRow t = rows.get(i);
      out.raw(i > 0 ? COMMA_OPEN : OPEN);
      out.raw(BYTE_LENGTH, 1, BYTE_LENGTH.length);
      decimalOrNull(out, t.byteLength());
      out.raw(PARAMETER_COUNT);
      out.decimalString(t.parameterCount());
      out.raw(TENSOR_COUNT);
      out.integer(t.tensorCount());
      out.raw(TYPE);
      out.string(t.type());
      if (t.typeId() != null) {
        out.raw(TYPE_ID);
        out.integer(t.typeId());
      }
      out.ascii('}');
    }
    out.ascii(']');
  }

  private static void stringOrNull(CanonicalSink out, @Nullable String s) {
    if (s == null) {
      out.nul();
    } else {
      out.string(s);
    }
  }

  private static void unsignedOrNull(CanonicalSink out, @Nullable Long v) {
    if (v == null) {
      out.nul();
    } else {
      out.unsignedString(v);
    }
  }

  private static void decimalOrNull(CanonicalSink out, @Nullable BigInteger v) {
    if (v == null) {
      out.nul();
    } else {
      out.decimalString(v);
    }
  }
}
