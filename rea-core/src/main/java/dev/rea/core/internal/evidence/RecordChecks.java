package dev.rea.core.internal.evidence;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Artifact;
import dev.rea.core.evidence.Coverage;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.internal.evidence.WireFormat.ArtifactField;
import dev.rea.core.internal.evidence.WireFormat.AuthenticationField;
import dev.rea.core.internal.evidence.WireFormat.CoverageField;
import dev.rea.core.internal.evidence.WireFormat.GgufFactsField;
import dev.rea.core.internal.evidence.WireFormat.IdentityField;
import dev.rea.core.internal.evidence.WireFormat.LimitationField;
import dev.rea.core.internal.evidence.WireFormat.MetadataField;
import dev.rea.core.internal.evidence.WireFormat.RecordField;
import dev.rea.core.internal.evidence.WireFormat.RequestField;
import dev.rea.core.internal.evidence.WireFormat.SubjectField;
import dev.rea.core.internal.evidence.WireFormat.TensorField;
import dev.rea.core.internal.evidence.WireFormat.TypeField;
import dev.rea.core.options.Limits;
import java.math.BigInteger;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Model-level checks of one Evidence record (CONTRACT sections 3 and 5), run on every imported
 * record before anything is indexed, and again by the verifier on any record it is given: wire
 * values of the enumerations, digest spellings, positional indices ({@code metadata[i].index ==
 * i}, {@code tensors[i].index == i}), unique metadata keys, tensor names and type labels, the
 * per-format shape of {@code format_facts} and tensor rows, array preview bounds, {@code
 * parameter_count} equal to the shape product (exact, in declaration order, no overflow past
 * 2^64-1), {@code file_offset} equal to the data offset plus {@code offset}, and the type rows
 * and totals equal to those derived from the tensor rows ({@link Derivations}), and the facts
 * tying request, artifact, subject, status and coverage together.
 *
 * <p>Every failure is {@code invalid_input} / {@code evidence_rejected}, naming the field path.
 */
public final class RecordChecks {
  /** {@code sha256:} and 64 lowercase hex digits. */
  public static final Pattern EVIDENCE_ID = Pattern.compile("sha256:[0-9a-f]{64}");

  /** 64 lowercase hex digits. */
  public static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");

  private static final BigInteger U64_LIMIT = BigInteger.ONE.shiftLeft(64);

  // Field paths of refusals, from the wire format tables (WireFormat).
  private static final String ARTIFACT_BYTES_READ =
      WireFormat.path(RecordField.ARTIFACT, ArtifactField.BYTES_READ);
  private static final String ARTIFACT_FILE_SIZE =
      WireFormat.path(RecordField.ARTIFACT, ArtifactField.FILE_SIZE);
  private static final String ARTIFACT_FORMAT =
      WireFormat.path(RecordField.ARTIFACT, ArtifactField.FORMAT);
  private static final String ARTIFACT_HEADER_LENGTH =
      WireFormat.path(RecordField.ARTIFACT, ArtifactField.HEADER_LENGTH);
  private static final String ARTIFACT_HEADER_SHA256 =
      WireFormat.path(RecordField.ARTIFACT, ArtifactField.HEADER_SHA256);
  private static final String ARTIFACT_IDENTITY_SIZE =
      WireFormat.path(RecordField.ARTIFACT, ArtifactField.IDENTITY, IdentityField.SIZE);
  private static final String ARTIFACT_IDENTITY_VERIFIED =
      WireFormat.path(RecordField.ARTIFACT, ArtifactField.IDENTITY, IdentityField.VERIFIED);
  private static final String ARTIFACT_PATH =
      WireFormat.path(RecordField.ARTIFACT, ArtifactField.PATH);
  private static final String ARTIFACT_READ_SCOPE =
      WireFormat.path(RecordField.ARTIFACT, ArtifactField.READ_SCOPE);
  private static final String ARTIFACT_SHA256 =
      WireFormat.path(RecordField.ARTIFACT, ArtifactField.SHA256);
  private static final String AUTHENTICATION_KEY_ID =
      WireFormat.path(RecordField.AUTHENTICATION, AuthenticationField.KEY_ID);
  private static final String AUTHENTICATION_SCHEME =
      WireFormat.path(RecordField.AUTHENTICATION, AuthenticationField.SCHEME);
  private static final String COVERAGE_DIGEST =
      WireFormat.path(RecordField.COVERAGE, CoverageField.DIGEST);
  private static final String COVERAGE_FINAL_IDENTITY =
      WireFormat.path(RecordField.COVERAGE, CoverageField.FINAL_IDENTITY);
  private static final String COVERAGE_HEADER =
      WireFormat.path(RecordField.COVERAGE, CoverageField.HEADER);
  private static final String COVERAGE_RANGES =
      WireFormat.path(RecordField.COVERAGE, CoverageField.RANGES);
  private static final String COVERAGE_STORAGE_SIZES =
      WireFormat.path(RecordField.COVERAGE, CoverageField.STORAGE_SIZES);
  private static final String EVIDENCE_ID_FIELD = WireFormat.path(RecordField.EVIDENCE_ID);
  private static final String FORMAT_FACTS = WireFormat.path(RecordField.FORMAT_FACTS);
  private static final String FORMAT_FACTS_ALIGNMENT =
      WireFormat.path(RecordField.FORMAT_FACTS, GgufFactsField.ALIGNMENT);
  private static final String FORMAT_FACTS_ALIGNMENT_SOURCE =
      WireFormat.path(RecordField.FORMAT_FACTS, GgufFactsField.ALIGNMENT_SOURCE);
  private static final String FORMAT_FACTS_BYTE_ORDER =
      WireFormat.path(RecordField.FORMAT_FACTS, GgufFactsField.BYTE_ORDER);
  private static final String FORMAT_FACTS_TENSOR_DATA_OFFSET =
      WireFormat.path(RecordField.FORMAT_FACTS, GgufFactsField.TENSOR_DATA_OFFSET);
  private static final String FORMAT_FACTS_VERSION =
      WireFormat.path(RecordField.FORMAT_FACTS, GgufFactsField.VERSION);
  private static final String OPERATION = WireFormat.path(RecordField.OPERATION);
  private static final String REQUEST_ASSUME_LAYOUT =
      WireFormat.path(RecordField.REQUEST, RequestField.ASSUME_LAYOUT);
  private static final String REQUEST_HASH =
      WireFormat.path(RecordField.REQUEST, RequestField.HASH);
  private static final String REQUEST_PATH =
      WireFormat.path(RecordField.REQUEST, RequestField.PATH);
  private static final String SCHEMA = WireFormat.path(RecordField.SCHEMA);
  private static final String STATUS = WireFormat.path(RecordField.STATUS);
  private static final String SUBJECT = WireFormat.path(RecordField.SUBJECT);
  private static final String SUBJECT_KIND =
      WireFormat.path(RecordField.SUBJECT, SubjectField.KIND);
  private static final String SUBJECT_SHA256 =
      WireFormat.path(RecordField.SUBJECT, SubjectField.SHA256);
  private static final String TOTALS = WireFormat.path(RecordField.TOTALS);
  // What follows a row's path for one of its properties.
  private static final String LIMITATION_CANDIDATES_FITTING_RANGES =
      dot(LimitationField.CANDIDATES_FITTING_RANGES);
  private static final String LIMITATION_CODE = dot(LimitationField.CODE);
  private static final String LIMITATION_TENSOR_INDICES = dot(LimitationField.TENSOR_INDICES);
  private static final String LIMITATION_TYPE_ID = dot(LimitationField.TYPE_ID);
  private static final String METADATA_INDEX = dot(MetadataField.INDEX);
  private static final String METADATA_KEY = dot(MetadataField.KEY);
  private static final String METADATA_PREVIEW = dot(MetadataField.PREVIEW);
  private static final String METADATA_PREVIEW_COMPLETE = dot(MetadataField.PREVIEW_COMPLETE);
  private static final String METADATA_TYPE = dot(MetadataField.TYPE);
  private static final String METADATA_VALUE = dot(MetadataField.VALUE);
  private static final String METADATA_VALUE_SHA256 = dot(MetadataField.VALUE_SHA256);
  private static final String TENSOR_FILE_OFFSET = dot(TensorField.FILE_OFFSET);
  private static final String TENSOR_INDEX = dot(TensorField.INDEX);
  private static final String TENSOR_NAME = dot(TensorField.NAME);
  private static final String TENSOR_PARAMETER_COUNT = dot(TensorField.PARAMETER_COUNT);
  private static final String TENSOR_SHAPE = dot(TensorField.SHAPE);
  private static final String TENSOR_TYPE_ID = dot(TensorField.TYPE_ID);
  private static final String TYPE_TYPE = dot(TypeField.TYPE);

  private RecordChecks() {}

  /**
   * Checks one record.
   *
   * @param r the record
   * @param prefix field path prefix, e.g. {@code "records[2]."} or {@code ""}
   * @param limits preview and nesting bounds of metadata arrays
   * @param requireId true when {@code evidence_id} must be present
   * @throws ReaException {@code evidence_rejected} naming the first failing field
   */
  public static void check(EvidenceRecord r, String prefix, Limits limits, boolean requireId)
      throws ReaException {
    require(EvidenceRecord.SCHEMA.equals(r.schema()), prefix + SCHEMA,
        "schema must be " + EvidenceRecord.SCHEMA);
    if (requireId || r.evidenceId() != null) {
      require(r.evidenceId() != null && EVIDENCE_ID.matcher(r.evidenceId()).matches(),
          prefix + EVIDENCE_ID_FIELD, "evidence_id must be sha256: and 64 lowercase hex digits");
    }
    require(EvidenceRecord.OPERATION.equals(r.operation()), prefix + OPERATION,
        "operation must be " + EvidenceRecord.OPERATION);
    require(oneOf(r.status(), EvidenceRecord.STATUS_COMPLETE, EvidenceRecord.STATUS_PARTIAL),
        prefix + STATUS, "status must be complete or partial");
    require(oneOf(r.request().hash(), "header", "full"), prefix + REQUEST_HASH,
        "hash must be header or full");
    require(r.request().assumeLayout() == null || "ggml-modern".equals(r.request().assumeLayout()),
        prefix + REQUEST_ASSUME_LAYOUT, "assume_layout must be ggml-modern when present");
    if (r.subject() != null) {
      require("file".equals(r.subject().kind()), prefix + SUBJECT_KIND, "kind must be file");
      require(SHA256_HEX.matcher(r.subject().sha256()).matches(), prefix + SUBJECT_SHA256,
          "sha256 must be 64 lowercase hex digits");
    }
    Artifact a = r.artifact();
    boolean gguf = "gguf".equals(a.format());
    require(gguf || "safetensors".equals(a.format()), prefix + ARTIFACT_FORMAT,
        "format must be gguf or safetensors");
    require(a.fileSize() >= 0, prefix + ARTIFACT_FILE_SIZE, "negative size");
    require(a.headerLength() >= 0, prefix + ARTIFACT_HEADER_LENGTH, "negative length");
    require(a.bytesRead() >= 0, prefix + ARTIFACT_BYTES_READ, "negative count");
    require(a.headerSha256() == null || SHA256_HEX.matcher(a.headerSha256()).matches(),
        prefix + ARTIFACT_HEADER_SHA256, "header_sha256 must be 64 lowercase hex digits");
    require(a.sha256() == null || SHA256_HEX.matcher(a.sha256()).matches(),
        prefix + ARTIFACT_SHA256, "sha256 must be 64 lowercase hex digits");
    require(oneOf(a.readScope(), "header", "full"), prefix + ARTIFACT_READ_SCOPE,
        "read_scope must be header or full");
    require(gguf ? r.formatFacts() instanceof FormatFacts.Gguf
            : r.formatFacts() instanceof FormatFacts.Safetensors,
        prefix + FORMAT_FACTS, "format_facts do not match artifact.format " + a.format());
    Long dataOffset = null;
    if (r.formatFacts() instanceof FormatFacts.Gguf g) {
      require(g.version() == 2 || g.version() == 3, prefix + FORMAT_FACTS_VERSION,
          "version must be 2 or 3");
      require(oneOf(g.byteOrder(), "little", "big"), prefix + FORMAT_FACTS_BYTE_ORDER,
          "byte_order must be little or big");
      require((g.alignment() == null) == (g.alignmentSource() == null),
          prefix + FORMAT_FACTS_ALIGNMENT_SOURCE,
          "alignment_source must be present exactly when alignment is");
      require(g.alignment() == null || (g.alignment() > 0 && g.alignment() % 8 == 0
              && g.alignment() <= 0xFFFF_FFFFL),
          prefix + FORMAT_FACTS_ALIGNMENT, "alignment must be a positive multiple of 8");
      require(g.alignmentSource() == null || oneOf(g.alignmentSource(), "default", "metadata"),
          prefix + FORMAT_FACTS_ALIGNMENT_SOURCE,
          "alignment_source must be default or metadata");
      dataOffset = g.tensorDataOffset();
    } else if (r.formatFacts() instanceof FormatFacts.Safetensors s) {
      require(s.jsonLength() >= 0 && s.dataOffset() >= 0, prefix + FORMAT_FACTS,
          "negative length or offset");
      dataOffset = s.dataOffset();
    }

    checkMetadata(r.metadata(), prefix, limits, gguf);
    checkTensors(r.tensors(), prefix, gguf, dataOffset);

    List<TypeRow> derived = Derivations.types(r.tensors());
    Set<String> labels = new HashSet<>();
    for (int i = 0; i < r.types().size(); i++) {
      String label = r.types().get(i).type();
      require(labels.add(label), prefix + WireFormat.row(RecordField.TYPES, i) + TYPE_TYPE,
          "duplicate type label \"" + ReaException.truncateForMessage(label) + "\"");
    }
    if (!derived.equals(r.types())) {
      int i = 0;
      while (i < derived.size() && i < r.types().size() && derived.get(i).equals(r.types().get(i))) {
        i++;
      }
      throw reject(prefix + WireFormat.row(RecordField.TYPES, i),
          "type rows do not match the totals derived from the tensor rows");
    }
    require(Derivations.totals(r.tensors()).equals(r.totals()), prefix + TOTALS,
        "totals do not match the totals derived from the tensor rows");

    Coverage c = r.coverage();
    require(oneOf(c.header(), Coverage.COMPLETE, Coverage.PARTIAL), prefix + COVERAGE_HEADER,
        "header must be complete or partial");
    require(oneOf(c.storageSizes(), Coverage.COMPLETE, Coverage.PARTIAL, Coverage.ASSUMED),
        prefix + COVERAGE_STORAGE_SIZES, "storage_sizes must be complete, partial or assumed");
    require(oneOf(c.ranges(), Coverage.COMPLETE, Coverage.PARTIAL), prefix + COVERAGE_RANGES,
        "ranges must be complete or partial");
    require(oneOf(c.digest(), Coverage.NONE, Coverage.COMPLETE, Coverage.UNKNOWN),
        prefix + COVERAGE_DIGEST, "digest must be none, complete or unknown");
    require(oneOf(c.finalIdentity(), Coverage.VERIFIED, Coverage.UNVERIFIED),
        prefix + COVERAGE_FINAL_IDENTITY, "final_identity must be verified or unverified");

    boolean headerComplete = Coverage.COMPLETE.equals(c.header());
    for (int i = 0; i < r.limitations().size(); i++) {
      Limitation l = r.limitations().get(i);
      String lf = prefix + WireFormat.row(RecordField.LIMITATIONS, i);
      List<Integer> indices = l.tensorIndices();
      if (indices != null) {
        for (int j = 0; j < indices.size(); j++) {
          int t = indices.get(j);
          require(t >= 0 && t < r.tensors().size(), lf + LIMITATION_TENSOR_INDICES + "[" + j + "]",
              "tensor index " + t + " is not a row of this record");
        }
      }
      Long typeId = l.typeId();
      require(typeId == null || (typeId >= 0 && typeId <= 0xFFFF_FFFFL), lf + LIMITATION_TYPE_ID,
          "type id out of unsigned 32-bit range");
      checkFitting(l, lf + LIMITATION_CANDIDATES_FITTING_RANGES, headerComplete);
    }
    checkConsistency(r, prefix);
    if (r.authentication() != null) {
      require("ed25519".equals(r.authentication().scheme()), prefix + AUTHENTICATION_SCHEME,
          "scheme must be ed25519");
      require(EVIDENCE_ID.matcher(r.authentication().keyId()).matches(),
          prefix + AUTHENTICATION_KEY_ID, "key_id must be sha256: and 64 lowercase hex digits");
    }
  }

  /**
   * The facts that tie a record's parts together, as the inspector writes them (CONTRACT section
   * 3): the request names the artifact's absolute path and its read scope; the identity's size is
   * the file size; lengths are ordered {@code header_length <= bytes_read <= file_size}; status,
   * digest coverage and final identity agree (complete: identity verified, digest complete for a
   * full hash and none for a header hash; partial: digest unknown, identity unverified); a
   * {@code subject} exists exactly for a complete full-hash record and names {@code
   * artifact.sha256}; storage and range coverage are those derived from the tensor rows.
   */
  private static void checkConsistency(EvidenceRecord r, String prefix) throws ReaException {
    Artifact a = r.artifact();
    require(absolute(a.path()), prefix + ARTIFACT_PATH, "artifact.path must be an absolute path");
    require(a.path().equals(r.request().path()), prefix + REQUEST_PATH,
        "request.path must equal artifact.path");
    require(a.readScope().equals(r.request().hash()), prefix + ARTIFACT_READ_SCOPE,
        "read_scope must equal request.hash");
    require(a.identity() != null && a.identity().size() == a.fileSize(),
        prefix + ARTIFACT_IDENTITY_SIZE, "identity.size must equal artifact.file_size");
    require(a.headerLength() <= a.fileSize(), prefix + ARTIFACT_HEADER_LENGTH,
        "header_length exceeds file_size");
    require(a.bytesRead() >= a.headerLength() && a.bytesRead() <= a.fileSize(),
        prefix + ARTIFACT_BYTES_READ, "bytes_read must lie between header_length and file_size");
    Coverage c = r.coverage();
    boolean complete = EvidenceRecord.STATUS_COMPLETE.equals(r.status());
    // A header read in part (a GGUF inspection cancelled before its directory ended) keeps its
    // completed declarations; what needs the whole header is unknown: its digest and, for GGUF,
    // the data section's start (and so every file_offset).
    boolean headerPartial = Coverage.PARTIAL.equals(c.header());
    require(!headerPartial || !complete, prefix + COVERAGE_HEADER,
        "a complete record has a complete header");
    require((a.headerSha256() == null) == headerPartial, prefix + ARTIFACT_HEADER_SHA256,
        "header_sha256 must be null exactly when the header is partial");
    if (r.formatFacts() instanceof FormatFacts.Gguf g) {
      require((g.tensorDataOffset() == null) == headerPartial,
          prefix + FORMAT_FACTS_TENSOR_DATA_OFFSET,
          "tensor_data_offset must be null exactly when the header is partial");
      require(headerPartial || g.alignment() != null, prefix + FORMAT_FACTS_ALIGNMENT,
          "alignment is known once the header is complete");
    } else {
      require(!headerPartial, prefix + COVERAGE_HEADER,
          "a safetensors header is read whole or not at all");
    }
    boolean full = "full".equals(r.request().hash());
    require(Coverage.VERIFIED.equals(c.finalIdentity()) == complete,
        prefix + COVERAGE_FINAL_IDENTITY,
        "final_identity must be verified exactly when status is complete");
    require(a.identity().verified() == complete, prefix + ARTIFACT_IDENTITY_VERIFIED,
        "identity.verified must be true exactly when status is complete");
    String digest = !complete ? Coverage.UNKNOWN : full ? Coverage.COMPLETE : Coverage.NONE;
    require(digest.equals(c.digest()), prefix + COVERAGE_DIGEST,
        "digest must be " + digest + " for a " + r.status() + " record of a "
            + r.request().hash() + " hash");
    boolean hashed = complete && full;
    require((r.subject() != null) == hashed, prefix + SUBJECT,
        "subject must be present exactly for a complete full-hash record");
    require((a.sha256() != null) == hashed, prefix + ARTIFACT_SHA256,
        "artifact.sha256 must be present exactly for a complete full-hash record");
    require(r.subject() == null || r.subject().sha256().equals(a.sha256()), prefix + SUBJECT_SHA256,
        "subject.sha256 must equal artifact.sha256");
    // With the header read in part, tensors may be missing: neither can be complete.
    checkAssumption(r, prefix, headerPartial);
    require(c.ranges().equals(!headerPartial && Derivations.rangesComplete(r.tensors())
            ? Coverage.COMPLETE : Coverage.PARTIAL),
        prefix + COVERAGE_RANGES, "ranges does not match the tensor rows");
  }

  /**
   * {@code candidates_fitting_ranges} only on a layout limitation of a complete header, naming
   * each candidate layout at most once.
   */
  private static void checkFitting(Limitation l, String field, boolean headerComplete)
      throws ReaException {
    List<String> fitting = l.candidatesFittingRanges();
    if (fitting == null) {
      return;
    }
    require(headerComplete, field, "a header read in part has no candidates_fitting_ranges");
    require(LAYOUT_LIMITATIONS.contains(l.code()), field,
        "only layout limitations carry candidates_fitting_ranges");
    require(new HashSet<>(fitting).size() == fitting.size(), field, "a candidate is listed twice");
  }

  /** Limitation codes that carry {@code candidates_fitting_ranges} (CONTRACT section 12). */
  private static final Set<String> LAYOUT_LIMITATIONS =
      Set.of("q8_1_layout_ambiguous", "k_quant_layout_ambiguous", "ambiguous_type_id");

  /**
   * A layout assumption (CONTRACT section 12) is recorded consistently: a {@code layout_assumed}
   * limitation only when the request stated one, and {@code storage_sizes} as derived from the
   * tensor rows and that limitation ({@link Derivations#storageCoverage}), so that a record
   * claiming {@code "assumed"} without {@code request.assume_layout} is refused.
   */
  private static void checkAssumption(EvidenceRecord r, String prefix, boolean headerPartial)
      throws ReaException {
    Coverage c = r.coverage();
    boolean stated = r.request().assumeLayout() != null;
    for (int i = 0; i < r.limitations().size(); i++) {
      require(stated || !TypeNotes.LAYOUT_ASSUMED.equals(r.limitations().get(i).code()),
          prefix + WireFormat.row(RecordField.LIMITATIONS, i) + LIMITATION_CODE,
          "a layout_assumed limitation needs request.assume_layout");
    }
    require(stated || !Coverage.ASSUMED.equals(c.storageSizes()),
        prefix + COVERAGE_STORAGE_SIZES,
        "storage_sizes is assumed only when the request states assume_layout");
    require(c.storageSizes().equals(
            Derivations.storageCoverage(!headerPartial, r.tensors(), r.limitations())),
        prefix + COVERAGE_STORAGE_SIZES, "storage_sizes does not match the tensor rows");
  }

  private static boolean absolute(String path) {
    try {
      return path != null && java.nio.file.Path.of(path).isAbsolute();
    } catch (java.nio.file.InvalidPathException e) {
      return false;
    }
  }

  private static void checkMetadata(
      List<MetadataRow> rows, String prefix, Limits limits, boolean gguf) throws ReaException {
    Set<String> keys = new HashSet<>(rows.size() * 2);
    for (int i = 0; i < rows.size(); i++) {
      MetadataRow row = rows.get(i);
      String f = prefix + WireFormat.row(RecordField.METADATA, i);
      require(row.index() == i, f + METADATA_INDEX,
          "index " + row.index() + " does not match position " + i);
      require(keys.add(row.key()), f + METADATA_KEY,
          "duplicate metadata key \"" + ReaException.truncateForMessage(row.key()) + "\"");
      require(gguf || row.type() == ValueType.STRING, f + METADATA_TYPE,
          "safetensors metadata values are STRING");
      if (row.value() instanceof MetadataValue.ArrayValue a) {
        checkArray(a, f, limits, 1);
        // Optional (records saved before CONTRACT section 11 lack it); a digest when present.
        require(row.valueSha256() == null || SHA256_HEX.matcher(row.valueSha256()).matches(),
            f + METADATA_VALUE_SHA256, "value_sha256 must be 64 lowercase hex digits");
      } else {
        checkScalar(row.type(), row.value(), f + METADATA_VALUE);
      }
    }
  }

  private static void checkArray(MetadataValue.ArrayValue a, String f, Limits limits, int level)
      throws ReaException {
    require(level <= limits.nestingLimit(), f, "arrays nest deeper than " + limits.nestingLimit());
    int n = a.preview().size();
    require(n <= limits.previewElements(), f + METADATA_PREVIEW,
        "preview holds " + n + " elements, more than " + limits.previewElements());
    require(Long.compareUnsigned(n, a.count()) <= 0, f + METADATA_PREVIEW,
        "preview holds more elements than count");
    require(a.previewComplete() == (Long.compareUnsigned(n, a.count()) == 0),
        f + METADATA_PREVIEW_COMPLETE,
        "preview_complete must be true exactly when preview holds count elements");
    for (int i = 0; i < n; i++) {
      MetadataValue e = a.preview().get(i);
      String ef = f + METADATA_PREVIEW + "[" + i + "]";
      if (a.elementType() == ValueType.ARRAY) {
        require(e instanceof MetadataValue.ArrayValue, ef, "element is not an array");
        checkArray((MetadataValue.ArrayValue) e, ef, limits, level + 1);
      } else {
        checkScalar(a.elementType(), e, ef);
      }
    }
  }

  private static void checkScalar(ValueType t, MetadataValue v, String f) throws ReaException {
    boolean ok;
    switch (t) {
      case UINT8:
        ok = v instanceof MetadataValue.IntegerValue i && i.bits() >= 0 && i.bits() <= 0xFF;
        break;
      case INT8:
        ok = v instanceof MetadataValue.IntegerValue i && i.bits() >= -128 && i.bits() <= 127;
        break;
      case UINT16:
        ok = v instanceof MetadataValue.IntegerValue i && i.bits() >= 0 && i.bits() <= 0xFFFF;
        break;
      case INT16:
        ok = v instanceof MetadataValue.IntegerValue i
            && i.bits() >= Short.MIN_VALUE && i.bits() <= Short.MAX_VALUE;
        break;
      case UINT32:
        ok = v instanceof MetadataValue.IntegerValue i && i.bits() >= 0 && i.bits() <= 0xFFFF_FFFFL;
        break;
      case INT32:
        ok = v instanceof MetadataValue.IntegerValue i
            && i.bits() >= Integer.MIN_VALUE && i.bits() <= Integer.MAX_VALUE;
        break;
      case UINT64:
      case INT64:
        ok = v instanceof MetadataValue.IntegerValue;
        break;
      case FLOAT32:
        ok = v instanceof MetadataValue.FloatValue fv
            && (Double.isNaN(fv.value()) || (double) (float) fv.value() == fv.value());
        break;
      case FLOAT64:
        ok = v instanceof MetadataValue.FloatValue;
        break;
      case BOOL:
        ok = v instanceof MetadataValue.BoolValue;
        break;
      case STRING:
        ok = v instanceof MetadataValue.StringValue;
        break;
      default:
        ok = false;
    }
    require(ok, f, "value does not fit its declared type " + t);
  }

  private static void checkTensors(
      List<TensorRow> rows, String prefix, boolean gguf, @Nullable Long dataOffset)
      throws ReaException {
    Set<String> names = new HashSet<>(rows.size() * 2);
    for (int i = 0; i < rows.size(); i++) {
      TensorRow t = rows.get(i);
      String f = prefix + WireFormat.row(RecordField.TENSORS, i);
      require(t.index() == i, f + TENSOR_INDEX,
          "index " + t.index() + " does not match position " + i);
      require(names.add(t.name()), f + TENSOR_NAME,
          "duplicate tensor name \"" + ReaException.truncateForMessage(t.name()) + "\"");
      require(gguf || i == 0 || Derivations.compareCodePoints(rows.get(i - 1).name(), t.name()) < 0,
          f + TENSOR_NAME, "safetensors tensor rows are not in name order");
      require(gguf == (t.typeId() != null), f + TENSOR_TYPE_ID,
          gguf ? "GGUF tensor rows carry type_id" : "safetensors tensor rows carry no type_id");
      require(t.typeId() == null || (t.typeId() >= 0 && t.typeId() <= 0xFFFF_FFFFL),
          f + TENSOR_TYPE_ID,
          "type id out of unsigned 32-bit range");
      require(!gguf || t.shape().size() <= 4, f + TENSOR_SHAPE,
          "GGUF tensors have at most 4 dimensions");
      BigInteger product = BigInteger.ONE;
      for (int d = 0; d < t.shape().size(); d++) {
        product = product.multiply(Derivations.unsigned(t.shape().get(d)));
        require(product.compareTo(U64_LIMIT) < 0, f + TENSOR_SHAPE + "[" + d + "]",
            "shape product exceeds 2^64-1");
      }
      require(product.equals(Derivations.unsigned(t.parameterCount())), f + TENSOR_PARAMETER_COUNT,
          "parameter_count is not the product of the shape");
      if (dataOffset != null) {
        BigInteger expected = Derivations.unsigned(dataOffset).add(Derivations.unsigned(t.offset()));
        require(t.fileOffset() != null && expected.equals(Derivations.unsigned(t.fileOffset())),
            f + TENSOR_FILE_OFFSET, "file_offset is not the data offset plus offset");
      } else {
        require(t.fileOffset() == null, f + TENSOR_FILE_OFFSET,
            "file_offset must be null while the data offset is unknown");
      }
    }
  }

  /** @return {@code .name}: what follows a row's path for one of its properties */
  private static String dot(WireFormat.Field field) {
    return "." + field.json();
  }

  private static boolean oneOf(String v, String... options) {
    for (String o : options) {
      if (o.equals(v)) {
        return true;
      }
    }
    return false;
  }

  private static void require(boolean ok, String field, String reason) throws ReaException {
    if (!ok) {
      throw reject(field, reason);
    }
  }

  /** @return an {@code evidence_rejected} failure naming the field */
  public static ReaException reject(String field, String reason) {
    return ReaException.builder(
            Constraint.EVIDENCE_REJECTED,
            "evidence rejected at " + ReaException.truncateForMessage(field) + ": " + reason)
        .field(field)
        .diagnostic("reason", reason)
        .build();
  }

  /**
   * @return {@code invalid_input} / {@code evidence_rejected} naming {@code field} and the byte
   *     offset {@code offset} of the input (none when negative)
   */
  public static ReaException reject(String field, String reason, long offset) {
    ReaException.Builder b = ReaException.builder(
            Constraint.EVIDENCE_REJECTED,
            "evidence rejected at " + ReaException.truncateForMessage(field) + ": " + reason
                + (offset >= 0 ? " (byte " + offset + ")" : ""))
        .field(field)
        .diagnostic("reason", reason);
    if (offset >= 0) {
      b.offset(offset);
    }
    return b.build();
  }
}
