package dev.rea.core.internal.evidence;

import static java.util.Objects.requireNonNull;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Artifact;
import dev.rea.core.evidence.Authentication;
import dev.rea.core.evidence.Coverage;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FileIdentity;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.Request;
import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.evidence.Subject;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.Totals;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.evidence.WireFormat.ArtifactField;
import dev.rea.core.internal.evidence.WireFormat.AuthenticationField;
import dev.rea.core.internal.evidence.WireFormat.CoverageField;
import dev.rea.core.internal.evidence.WireFormat.IdentityField;
import dev.rea.core.internal.evidence.WireFormat.LimitationField;
import dev.rea.core.internal.evidence.WireFormat.RecordField;
import dev.rea.core.internal.evidence.WireFormat.RequestField;
import dev.rea.core.internal.evidence.WireFormat.SubjectField;
import dev.rea.core.internal.evidence.WireFormat.TensorField;
import dev.rea.core.internal.evidence.WireFormat.TotalsField;
import dev.rea.core.internal.evidence.WireFormat.TypeField;
import dev.rea.core.internal.evidence.WireFormat.WarningField;
import dev.rea.core.internal.io.StrictJson;
import dev.rea.core.internal.io.StrictJson.ObjectValue;
import dev.rea.core.options.Limits;
import java.math.BigInteger;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonToken;

/**
 * Reads one record object of an already checked input ({@link EvidenceImport}), streaming:
 * property names and required-ness come from the {@link WireFormat} tables through {@link
 * ObjectFields}; the value rules of CONTRACT sections 2 and 3 (kinds, decimal strings, ranges,
 * enumeration spellings, digest forms, positional indices) are checked here as each value is
 * read. {@code format_facts} and {@code metadata} rows are read as small trees and interpreted by
 * {@link TreeRows}, since their shape depends on another property ({@code artifact.format}, a
 * row's {@code type}). Field paths in refusals start with the record's prefix. Not thread-safe;
 * one instance per record.
 */
final class RecordReader {
  /** The one defined {@code request.assume_layout} (CONTRACT section 12). */
  private static final String GGML_MODERN = "ggml-modern";

  private final StrictJson j;
  private final String prefix;
  private final Limits limits;

  /**
   * @param j the parser, on the record's opening brace
   * @param prefix field path prefix: {@code "records[i]."} in a bundle, {@code ""} otherwise
   * @param limits preview and nesting bounds of metadata arrays
   */
  RecordReader(StrictJson j, String prefix, Limits limits) {
    this.j = j;
    this.prefix = prefix;
    this.limits = limits;
  }

  private Supplier<String> f(String path) {
    return () -> prefix + path;
  }

  private Supplier<String> f(WireFormat.Field... path) {
    return f(WireFormat.path(path));
  }

  /** The record's properties as read so far: null until seen. */
  private static final class Parts {
    @Nullable String schema;
    @Nullable String evidenceId;
    @Nullable String operation;
    @Nullable String status;
    @Nullable String observedAt;
    @Nullable Request request;
    @Nullable Subject subject;
    @Nullable Artifact artifact;
    @Nullable ObjectValue facts;
    @Nullable List<MetadataRow> metadata;
    @Nullable List<TensorRow> tensors;
    @Nullable List<TypeRow> types;
    @Nullable Totals totals;
    @Nullable Coverage coverage;
    @Nullable List<Limitation> limitations;
    @Nullable List<Warning> warnings;
    @Nullable Authentication auth;
  }

  /**
   * @return the record, its values checked one by one ({@link RecordChecks} is the caller's)
   * @throws ReaException {@code evidence_rejected} naming the field and offset
   */
  EvidenceRecord read() throws ReaException {
    Parts p = new Parts();
    ObjectFields.read(j, RecordField.class, prefix, "", j.offset(), f -> readProperty(f, p));
    // Every property but subject and authentication is required: present once the loop is done.
    Artifact artifact = requireNonNull(p.artifact);
    FormatFacts formatFacts =
        new TreeRows(j, prefix, limits).facts(requireNonNull(p.facts), artifact.format());
    return new EvidenceRecord(requireNonNull(p.schema), p.evidenceId, requireNonNull(p.operation),
        requireNonNull(p.status), requireNonNull(p.observedAt), requireNonNull(p.request),
        p.subject, artifact, formatFacts, requireNonNull(p.metadata), requireNonNull(p.tensors),
        requireNonNull(p.types), requireNonNull(p.totals), requireNonNull(p.coverage),
        requireNonNull(p.limitations), requireNonNull(p.warnings), p.auth);
  }

  /** Reads one property of the record into {@code p}, checking its value. */
  private void readProperty(RecordField field, Parts p) throws ReaException {
    Supplier<String> at = f(field);
    switch (field) {
      case SCHEMA -> p.schema = exactly(at, EvidenceRecord.SCHEMA);
      case EVIDENCE_ID -> {
        String id = j.string(at);
        if (!RecordChecks.EVIDENCE_ID.matcher(id).matches()) {
          throw j.error(at, "evidence_id must be sha256: and 64 lowercase hex digits");
        }
        p.evidenceId = id;
      }
      case OPERATION -> p.operation = exactly(at, EvidenceRecord.OPERATION);
      case STATUS ->
          p.status = wire(at, EvidenceRecord.STATUS_COMPLETE, EvidenceRecord.STATUS_PARTIAL);
      case OBSERVED_AT -> p.observedAt = instant(at);
      case REQUEST -> p.request = readRequest();
      case SUBJECT -> p.subject = readSubject();
      case ARTIFACT -> p.artifact = readArtifact();
      case FORMAT_FACTS -> {
        j.startObject(at);
        p.facts = (ObjectValue) j.readValue(at);
      }
      case METADATA -> p.metadata = readMetadata();
      case TENSORS -> p.tensors = readTensors();
      case TYPES -> p.types = readTypes();
      case TOTALS -> p.totals = readTotals();
      case COVERAGE -> p.coverage = readCoverage();
      case LIMITATIONS -> p.limitations = readLimitations();
      case WARNINGS -> p.warnings = readWarnings();
      case AUTHENTICATION -> p.auth = readAuthentication();
    }
  }

  /** A string that must be exactly {@code expected} ({@code schema}, {@code operation}). */
  private String exactly(Supplier<String> field, String expected) throws ReaException {
    String v = j.string(field);
    if (!expected.equals(v)) {
      String name = field.get().substring(prefix.length());
      throw j.error(field, name + " must be " + expected);
    }
    return v;
  }

  private String wire(Supplier<String> field, String... options) throws ReaException {
    String v = j.string(field);
    for (String o : options) {
      if (o.equals(v)) {
        return o;
      }
    }
    throw j.error(field, "\"" + ReaException.truncateForMessage(v) + "\" is not one of "
        + String.join(", ", options));
  }

  private String instant(Supplier<String> field) throws ReaException {
    String text = j.string(field);
    boolean ok = text.endsWith("Z");
    if (ok) {
      try {
        Instant.parse(text);
      } catch (DateTimeParseException e) {
        ok = false;
      }
    }
    if (!ok) {
      throw j.error(field, "observed_at must be an RFC 3339 UTC time");
    }
    return text;
  }

  private String sha(Supplier<String> field) throws ReaException {
    String v = j.string(field);
    if (!RecordChecks.SHA256_HEX.matcher(v).matches()) {
      throw j.error(field, "expected 64 lowercase hex digits");
    }
    return v;
  }

  private @Nullable String nullableSha(Supplier<String> field) throws ReaException {
    String v = j.nullableString(field);
    if (v != null && !RecordChecks.SHA256_HEX.matcher(v).matches()) {
      throw j.error(field, "expected 64 lowercase hex digits or null");
    }
    return v;
  }

  private Request readRequest() throws ReaException {
    // A missing property is reported at the "request" name, before the brace.
    long start = j.offset();
    j.startObject(f(RecordField.REQUEST));
    String[] v = new String[RequestField.values().length];
    String base = RecordField.REQUEST.json();
    ObjectFields.read(j, RequestField.class, prefix, base, start, field -> {
      Supplier<String> at = f(RecordField.REQUEST, field);
      v[field.ordinal()] = switch (field) {
        case PATH -> j.string(at);
        case HASH -> wire(at, "header", "full");
        case ASSUME_LAYOUT -> wire(at, GGML_MODERN);
      };
    });
    return new Request(requireNonNull(v[RequestField.PATH.ordinal()]),
        requireNonNull(v[RequestField.HASH.ordinal()]), v[RequestField.ASSUME_LAYOUT.ordinal()]);
  }

  private @Nullable Subject readSubject() throws ReaException {
    JsonToken t = j.next();
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    j.requireObject(f(RecordField.SUBJECT));
    String[] v = new String[SubjectField.values().length];
    ObjectFields.read(j, SubjectField.class, prefix, RecordField.SUBJECT.json(), j.offset(),
        field -> {
          Supplier<String> at = f(RecordField.SUBJECT, field);
          v[field.ordinal()] = switch (field) {
            case KIND -> wire(at, "file");
            case SHA256 -> sha(at);
          };
        });
    return new Subject(requireNonNull(v[SubjectField.KIND.ordinal()]),
        requireNonNull(v[SubjectField.SHA256.ordinal()]));
  }

  /** The artifact's values as read: null until seen. */
  private static final class ArtifactParts {
    @Nullable String path;
    @Nullable String format;
    long fileSize;
    long headerLength;
    @Nullable String headerSha;
    @Nullable String sha;
    long bytesRead;
    @Nullable String readScope;
    @Nullable FileIdentity identity;
  }

  private Artifact readArtifact() throws ReaException {
    j.startObject(f(RecordField.ARTIFACT));
    ArtifactParts a = new ArtifactParts();
    ObjectFields.read(j, ArtifactField.class, prefix, RecordField.ARTIFACT.json(), j.offset(),
        field -> {
          Supplier<String> at = f(RecordField.ARTIFACT, field);
          switch (field) {
            case PATH -> a.path = j.string(at);
            case FORMAT -> a.format = wire(at, "gguf", "safetensors");
            case FILE_SIZE -> a.fileSize = j.nonNegativeLong(at);
            case HEADER_LENGTH -> a.headerLength = j.nonNegativeLong(at);
            case HEADER_SHA256 -> a.headerSha = nullableSha(at);
            case SHA256 -> a.sha = nullableSha(at);
            case BYTES_READ -> a.bytesRead = j.nonNegativeLong(at);
            case READ_SCOPE -> a.readScope = wire(at, "header", "full");
            case IDENTITY -> a.identity = readIdentity();
          }
        });
    return new Artifact(requireNonNull(a.path), requireNonNull(a.format), a.fileSize,
        a.headerLength, a.headerSha, a.sha, a.bytesRead, requireNonNull(a.readScope),
        requireNonNull(a.identity));
  }

  /** The identity's values as read: null until seen. */
  private static final class IdentityParts {
    @Nullable String device;
    @Nullable String inode;
    long size;
    @Nullable String modified;
    boolean verified;
  }

  private FileIdentity readIdentity() throws ReaException {
    j.startObject(f(RecordField.ARTIFACT, ArtifactField.IDENTITY));
    IdentityParts v = new IdentityParts();
    String base = WireFormat.path(RecordField.ARTIFACT, ArtifactField.IDENTITY);
    ObjectFields.read(j, IdentityField.class, prefix, base, j.offset(), field -> {
      Supplier<String> at = f(RecordField.ARTIFACT, ArtifactField.IDENTITY, field);
      switch (field) {
        case DEVICE -> v.device = decimalOrNull(at);
        case INODE -> v.inode = decimalOrNull(at);
        case SIZE -> v.size = j.nonNegativeLong(at);
        case MODIFIED -> v.modified = j.string(at);
        case VERIFIED -> v.verified = j.bool(at);
      }
    });
    return new FileIdentity(v.device, v.inode, v.size, requireNonNull(v.modified), v.verified);
  }

  private @Nullable String decimalOrNull(Supplier<String> field) throws ReaException {
    String v = j.nullableString(field);
    if (v != null) {
      j.parseU64(v, field);
    }
    return v;
  }

  private List<MetadataRow> readMetadata() throws ReaException {
    j.startArray(f(RecordField.METADATA));
    TreeRows rows = new TreeRows(j, prefix, limits);
    List<MetadataRow> out = new ArrayList<>();
    while (j.nextElement()) {
      int i = out.size();
      String base = prefix + WireFormat.row(RecordField.METADATA, i);
      j.requireObject(() -> base);
      ObjectValue row = (ObjectValue) j.readValue(() -> base);
      out.add(rows.metadataRow(row, base, i));
    }
    return out;
  }

  private List<TensorRow> readTensors() throws ReaException {
    j.startArray(f(RecordField.TENSORS));
    List<TensorRow> rows = new ArrayList<>();
    while (j.nextElement()) {
      int i = rows.size();
      j.requireObject(f(WireFormat.row(RecordField.TENSORS, i)));
      rows.add(tensorRow(i));
    }
    return rows;
  }

  /** A tensor row's values as read: null until seen. */
  private static final class TensorParts {
    int index;
    @Nullable String name;
    @Nullable String type;
    @Nullable Long typeId;
    @Nullable List<Long> shape;
    long params;
    long offset;
    @Nullable Long fileOffset;
    @Nullable Long byteLength;
    @Nullable StorageValidation validation;
  }

  private TensorRow tensorRow(int position) throws ReaException {
    String row = WireFormat.row(RecordField.TENSORS, position);
    String base = prefix + row;
    TensorParts t = new TensorParts();
    ObjectFields.read(j, TensorField.class, prefix, row, j.offset(), field -> {
      Supplier<String> at = () -> base + "." + field.json();
      switch (field) {
        case INDEX -> {
          t.index = (int) j.integer(at, 0, Integer.MAX_VALUE);
          if (t.index != position) {
            throw j.error(at, "index " + t.index + " does not match position " + position);
          }
        }
        case NAME -> t.name = j.string(at);
        case TYPE -> t.type = j.string(at);
        case TYPE_ID -> t.typeId = j.integer(at, 0, 0xFFFF_FFFFL);
        case SHAPE -> t.shape = readShape(base + "." + field.json());
        case PARAMETER_COUNT -> t.params = j.u64(at);
        case OFFSET -> t.offset = j.u64(at);
        case FILE_OFFSET -> t.fileOffset = j.nullableU64(at);
        case BYTE_LENGTH -> t.byteLength = j.nullableU64(at);
        case STORAGE_VALIDATION -> t.validation = readStorageValidation(at);
      }
    });
    return new TensorRow(t.index, requireNonNull(t.name), requireNonNull(t.type), t.typeId,
        requireNonNull(t.shape), t.params, t.offset, t.fileOffset, t.byteLength,
        requireNonNull(t.validation));
  }

  /** A tensor's shape: dimensions as decimal strings of unsigned 64-bit values. */
  private List<Long> readShape(String field) throws ReaException {
    j.startArray(() -> field);
    List<Long> dims = new ArrayList<>(4);
    while (j.nextElement()) {
      int d = dims.size();
      dims.add(j.parseU64(j.currentString(() -> field + "[" + d + "]"),
          () -> field + "[" + d + "]"));
    }
    return dims;
  }

  private StorageValidation readStorageValidation(Supplier<String> field) throws ReaException {
    String w = j.string(field);
    StorageValidation sv = StorageValidation.fromWire(w);
    if (sv == null) {
      throw j.error(field, "storage_validation must be consistent or unknown");
    }
    return sv;
  }

  private BigInteger bigDecimal(String text, Supplier<String> field) throws ReaException {
    boolean ok = !text.isEmpty() && text.length() <= 40
        && (text.charAt(0) != '0' || text.length() == 1)
        && text.chars().allMatch(c -> c >= '0' && c <= '9');
    if (!ok) {
      throw j.error(field, "expected an unsigned decimal string");
    }
    return new BigInteger(text);
  }

  private @Nullable BigInteger nullableBigDecimal(Supplier<String> field) throws ReaException {
    String t = j.nullableString(field);
    return t == null ? null : bigDecimal(t, field);
  }

  /** A type row's or the totals' values as read: null until seen. */
  private static final class SumParts {
    @Nullable String type;
    @Nullable Long typeId;
    int count;
    @Nullable BigInteger params;
    @Nullable BigInteger bytes;
  }

  private List<TypeRow> readTypes() throws ReaException {
    j.startArray(f(RecordField.TYPES));
    List<TypeRow> rows = new ArrayList<>();
    while (j.nextElement()) {
      String row = WireFormat.row(RecordField.TYPES, rows.size());
      String base = prefix + row;
      j.requireObject(() -> base);
      SumParts s = new SumParts();
      ObjectFields.read(j, TypeField.class, prefix, row, j.offset(), field -> {
        Supplier<String> at = () -> base + "." + field.json();
        switch (field) {
          case TYPE -> s.type = j.string(at);
          case TYPE_ID -> s.typeId = j.integer(at, 0, 0xFFFF_FFFFL);
          case TENSOR_COUNT -> s.count = (int) j.integer(at, 0, Integer.MAX_VALUE);
          case PARAMETER_COUNT -> s.params = bigDecimal(j.string(at), at);
          case BYTE_LENGTH -> s.bytes = nullableBigDecimal(at);
        }
      });
      rows.add(new TypeRow(requireNonNull(s.type), s.typeId, s.count, requireNonNull(s.params),
          s.bytes));
    }
    return rows;
  }

  private Totals readTotals() throws ReaException {
    j.startObject(f(RecordField.TOTALS));
    SumParts s = new SumParts();
    ObjectFields.read(j, TotalsField.class, prefix, RecordField.TOTALS.json(), j.offset(),
        field -> {
          Supplier<String> at = f(RecordField.TOTALS, field);
          switch (field) {
            case TENSOR_COUNT -> s.count = (int) j.integer(at, 0, Integer.MAX_VALUE);
            case PARAMETER_COUNT -> s.params = bigDecimal(j.string(at), at);
            case BYTE_LENGTH -> s.bytes = nullableBigDecimal(at);
          }
        });
    return new Totals(s.count, requireNonNull(s.params), s.bytes);
  }

  private Coverage readCoverage() throws ReaException {
    j.startObject(f(RecordField.COVERAGE));
    String[] v = new String[CoverageField.values().length];
    ObjectFields.read(j, CoverageField.class, prefix, RecordField.COVERAGE.json(), j.offset(),
        field -> {
          Supplier<String> at = f(RecordField.COVERAGE, field);
          v[field.ordinal()] = switch (field) {
            case HEADER -> wire(at, Coverage.COMPLETE, Coverage.PARTIAL);
            case STORAGE_SIZES -> wire(at, Coverage.COMPLETE, Coverage.PARTIAL, Coverage.ASSUMED);
            case RANGES -> wire(at, Coverage.COMPLETE, Coverage.PARTIAL);
            case DIGEST -> wire(at, Coverage.NONE, Coverage.COMPLETE, Coverage.UNKNOWN);
            case FINAL_IDENTITY -> wire(at, Coverage.VERIFIED, Coverage.UNVERIFIED);
          };
        });
    return new Coverage(
        requireNonNull(v[CoverageField.HEADER.ordinal()]),
        requireNonNull(v[CoverageField.STORAGE_SIZES.ordinal()]),
        requireNonNull(v[CoverageField.RANGES.ordinal()]),
        requireNonNull(v[CoverageField.DIGEST.ordinal()]),
        requireNonNull(v[CoverageField.FINAL_IDENTITY.ordinal()]));
  }

  /** A limitation's values as read: null until seen. */
  private static final class LimitationParts {
    @Nullable String code;
    @Nullable String message;
    @Nullable List<Integer> indices;
    @Nullable Long typeId;
    @Nullable List<String> candidates;
    @Nullable List<String> fitting;
  }

  private List<Limitation> readLimitations() throws ReaException {
    j.startArray(f(RecordField.LIMITATIONS));
    List<Limitation> out = new ArrayList<>();
    while (j.nextElement()) {
      String row = WireFormat.row(RecordField.LIMITATIONS, out.size());
      String base = prefix + row;
      j.requireObject(() -> base);
      LimitationParts l = new LimitationParts();
      ObjectFields.read(j, LimitationField.class, prefix, row, j.offset(), field -> {
        String at = base + "." + field.json();
        switch (field) {
          case CODE -> l.code = j.string(() -> at);
          case MESSAGE -> l.message = j.string(() -> at);
          case TENSOR_INDICES -> l.indices = indices(at);
          case TYPE_ID -> l.typeId = j.integer(() -> at, 0, 0xFFFF_FFFFL);
          case CANDIDATES -> l.candidates = strings(at);
          case CANDIDATES_FITTING_RANGES -> l.fitting = strings(at);
        }
      });
      out.add(new Limitation(requireNonNull(l.code), requireNonNull(l.message), l.indices,
          l.typeId, l.candidates, l.fitting));
    }
    return out;
  }

  /** Reads an array of tensor indices at {@code field}. */
  private List<Integer> indices(String field) throws ReaException {
    j.startArray(() -> field);
    List<Integer> out = new ArrayList<>();
    while (j.nextElement()) {
      int k = out.size();
      out.add((int) j.currentInteger(() -> field + "[" + k + "]", 0, Integer.MAX_VALUE));
    }
    return out;
  }

  /** Reads an array of strings at {@code field}. */
  private List<String> strings(String field) throws ReaException {
    j.startArray(() -> field);
    List<String> out = new ArrayList<>();
    while (j.nextElement()) {
      int k = out.size();
      out.add(j.currentString(() -> field + "[" + k + "]"));
    }
    return out;
  }

  private List<Warning> readWarnings() throws ReaException {
    j.startArray(f(RecordField.WARNINGS));
    List<Warning> out = new ArrayList<>();
    while (j.nextElement()) {
      String row = WireFormat.row(RecordField.WARNINGS, out.size());
      String base = prefix + row;
      j.requireObject(() -> base);
      String[] v = new String[WarningField.values().length];
      ObjectFields.read(j, WarningField.class, prefix, row, j.offset(),
          field -> v[field.ordinal()] = j.string(() -> base + "." + field.json()));
      out.add(new Warning(requireNonNull(v[WarningField.CODE.ordinal()]),
          requireNonNull(v[WarningField.MESSAGE.ordinal()])));
    }
    return out;
  }

  private Authentication readAuthentication() throws ReaException {
    j.startObject(f(RecordField.AUTHENTICATION));
    String[] v = new String[AuthenticationField.values().length];
    ObjectFields.read(j, AuthenticationField.class, prefix, RecordField.AUTHENTICATION.json(),
        j.offset(), field -> {
          Supplier<String> at = f(RecordField.AUTHENTICATION, field);
          v[field.ordinal()] = switch (field) {
            case SCHEME -> wire(at, "ed25519");
            case KEY_ID -> {
              String keyId = j.string(at);
              if (!RecordChecks.EVIDENCE_ID.matcher(keyId).matches()) {
                throw j.error(at, "key_id must be sha256: and 64 lowercase hex digits");
              }
              yield keyId;
            }
            case SIGNATURE -> j.string(at);
          };
        });
    return new Authentication(
        requireNonNull(v[AuthenticationField.SCHEME.ordinal()]),
        requireNonNull(v[AuthenticationField.KEY_ID.ordinal()]),
        requireNonNull(v[AuthenticationField.SIGNATURE.ordinal()]));
  }
}
