package dev.rea.core.internal.set;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Authentication;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.internal.evidence.WireFormat.RecordField;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * Writes set records ({@code rea.model-set.v1}, CONTRACT section 9) in their field order with the
 * number rules of CONTRACT section 2 (sizes, counts of parameters and bytes as decimal strings;
 * indices and tensor counts as JSON numbers), their bundles (the set record first, then each
 * member's record), their error objects, and their identity: {@code evidence_id = "sha256:" +
 * hex(SHA-256(RFC 8785 form of the record without evidence_id and authentication))}, as for file
 * records (CONTRACT section 5). Stateless and thread-safe.
 */
public final class SetRecordJson {
  private SetRecordJson() {}

  /**
   * @param r the record
   * @param withIdentity include {@code evidence_id} and {@code authentication}
   * @return compact UTF-8 JSON
   */
  public static byte[] recordBytes(ModelSetRecord r, boolean withIdentity) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
    try (JsonGenerator g = EvidenceJson.generator(out)) {
      write(g, r, withIdentity);
    }
    return out.toByteArray();
  }

  /**
   * The canonical bytes of a set record's identity-free form and the ID computed from them. The
   * record holds no floating-point value, so RFC 8785 needs no number rewriting.
   */
  public static EvidenceIds.Identity identity(ModelSetRecord r) {
    byte[] canonical = EvidenceIds.canonicalize(recordBytes(r, false));
    return new EvidenceIds.Identity(canonical, EvidenceIds.idOfCanonical(canonical));
  }

  /** @return the record with its {@code evidence_id} computed (authentication unchanged) */
  public static ModelSetRecord withId(ModelSetRecord r) {
    return r.withEvidenceId(identity(r).evidenceId());
  }

  /**
   * Writes a bundle {@code {"schema": "rea.bundle.v1", "records": [set, member...]}}.
   *
   * @param out where the UTF-8 JSON goes (not closed)
   * @param set the set record
   * @param members its members' records, in member order
   */
  public static void writeBundle(OutputStream out, ModelSetRecord set, List<EvidenceRecord> members) {
    try (JsonGenerator g = EvidenceJson.generator(nonClosing(out))) {
      writeBundle(g, set, members);
    }
  }

  /**
   * Writes the bundle object of {@link #writeBundle(OutputStream, ModelSetRecord, List)} as one
   * value of {@code g} (the predicate of a set's in-toto Statement, say).
   */
  public static void writeBundle(JsonGenerator g, ModelSetRecord set, List<EvidenceRecord> members) {
    g.writeStartObject();
    g.writeStringProperty("schema", EvidenceJson.BUNDLE_SCHEMA);
    g.writeName("records");
    g.writeStartArray();
    write(g, set, true);
    for (EvidenceRecord r : members) {
      EvidenceJson.writeRecord(g, r, true);
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  /** @return the bundle as bytes ({@link #writeBundle}) */
  public static byte[] bundleBytes(ModelSetRecord set, List<EvidenceRecord> members) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
    writeBundle(out, set, members);
    return out.toByteArray();
  }

  /**
   * The error object of CONTRACT section 6 with the partial set record as {@code
   * partial_evidence}.
   *
   * @param e the failure
   * @param partial the partial set record, or null
   * @return UTF-8 JSON
   */
  public static byte[] errorBytes(ReaException e, @Nullable ModelSetRecord partial) {
    byte[] error = EvidenceJson.errorBytes(e, null);
    if (partial == null) {
      return error;
    }
    byte[] record = recordBytes(partial, true);
    byte[] name = ",\"partial_evidence\":".getBytes(StandardCharsets.US_ASCII);
    ByteArrayOutputStream out = new ByteArrayOutputStream(error.length + name.length + record.length);
    out.write(error, 0, error.length - 1);
    out.write(name, 0, name.length);
    out.write(record, 0, record.length);
    out.write('}');
    return out.toByteArray();
  }

  /**
   * Writes one set record. The properties it shares with a file record (identity, request, type
   * rows, totals, coverage, limitations, warnings, authentication) are written by {@link
   * EvidenceJson} under the names of {@link RecordField}; {@code set} and {@code members} are the
   * set's own (CONTRACT section 9).
   */
  public static void write(JsonGenerator g, ModelSetRecord r, boolean withIdentity) {
    g.writeStartObject();
    g.writeStringProperty(RecordField.SCHEMA.json(), r.schema());
    if (withIdentity) {
      EvidenceJson.nullableString(g, RecordField.EVIDENCE_ID, r.evidenceId());
    }
    g.writeStringProperty(RecordField.OPERATION.json(), r.operation());
    g.writeStringProperty(RecordField.STATUS.json(), r.status());
    g.writeStringProperty(RecordField.OBSERVED_AT.json(), r.observedAt());
    EvidenceJson.writeRequest(g, r.request());
    writeSet(g, r.set());
    g.writeName("members");
    g.writeStartArray();
    for (ModelSetRecord.Member m : r.members()) {
      writeMember(g, m);
    }
    g.writeEndArray();
    g.writeName(RecordField.TYPES.json());
    g.writeStartArray();
    for (TypeRow t : r.types()) {
      EvidenceJson.writeTypeRow(g, t);
    }
    g.writeEndArray();
    EvidenceJson.writeTotals(g, r.totals());
    EvidenceJson.writeCoverage(g, r.coverage());
    g.writeName(RecordField.LIMITATIONS.json());
    g.writeStartArray();
    for (Limitation l : r.limitations()) {
      EvidenceJson.writeLimitation(g, l);
    }
    g.writeEndArray();
    g.writeName(RecordField.WARNINGS.json());
    g.writeStartArray();
    for (Warning w : r.warnings()) {
      EvidenceJson.writeWarning(g, w);
    }
    g.writeEndArray();
    Authentication a = r.authentication();
    if (withIdentity && a != null) {
      EvidenceJson.writeAuthentication(g, a);
    }
    g.writeEndObject();
  }

  private static void writeSet(JsonGenerator g, ModelSetRecord.SetInfo s) {
    g.writeName("set");
    g.writeStartObject();
    g.writeStringProperty("kind", s.kind());
    g.writeStringProperty("path", s.path());
    g.writeName("index");
    ModelSetRecord.IndexInfo ix = s.index();
    if (ix == null) {
      g.writeNull();
    } else {
      g.writeStartObject();
      g.writeStringProperty("path", ix.path());
      g.writeStringProperty("file_size", Long.toString(ix.fileSize()));
      g.writeStringProperty("sha256", ix.sha256());
      g.writeName("metadata");
      g.writeStartArray();
      for (ModelSetRecord.IndexEntry e : ix.metadata()) {
        g.writeStartObject();
        g.writeStringProperty("key", e.key());
        g.writeName("value");
        if (e.value() == null) {
          g.writeNull();
        } else if (e.isBoolean()) {
          g.writeBoolean(e.value().equals("true"));
        } else {
          g.writeString(e.value());
        }
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    g.writeEndObject();
  }

  /** Writes one {@code members} entry. */
  public static void writeMember(JsonGenerator g, ModelSetRecord.Member m) {
    g.writeStartObject();
    g.writeNumberProperty("index", m.index());
    g.writeStringProperty("path", m.path());
    g.writeStringProperty("evidence_id", m.evidenceId());
    g.writeStringProperty("format", m.format());
    g.writeStringProperty("file_size", Long.toString(m.fileSize()));
    nullable(g, "header_sha256", m.headerSha256());
    nullable(g, "sha256", m.sha256());
    g.writeNumberProperty("tensor_count", m.tensorCount());
    g.writeStringProperty("parameter_count", m.parameterCount().toString());
    big(g, "byte_length", m.byteLength());
    g.writeEndObject();
  }

  private static void nullable(JsonGenerator g, String name, @Nullable String v) {
    if (v == null) {
      g.writeNullProperty(name);
    } else {
      g.writeStringProperty(name, v);
    }
  }

  private static void big(JsonGenerator g, String name, @Nullable BigInteger v) {
    if (v == null) {
      g.writeNullProperty(name);
    } else {
      g.writeStringProperty(name, v.toString());
    }
  }

  private static OutputStream nonClosing(OutputStream out) {
    return new java.io.FilterOutputStream(out) {
      @Override
      public void write(byte[] b, int off, int len) throws java.io.IOException {
        out.write(b, off, len);
      }

      @Override
      public void close() throws java.io.IOException {
        flush();
      }
    };
  }
}
