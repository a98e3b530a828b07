package dev.rea.spark;

import dev.rea.core.Rea;
import dev.rea.core.error.ErrorCategory;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Artifact;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FileIdentity;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.evidence.SetInspection;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.source.SourceIdentity;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructType;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;
import org.jspecify.annotations.Nullable;

/**
 * Builds the rows of {@link ScanSchema#UNITS} from what one unit's inspection gave: a record, a
 * failure (with or without partial Evidence), or a skip.
 *
 * <p>Status (CONTRACT section 10): {@code complete} for a complete record; {@code rejected} when
 * REA refused the content or it exceeded a limit (categories {@code unsupported_target}, {@code
 * resource_limit}, {@code invalid_request}); {@code partial} for a cancelled read that kept
 * partial Evidence; {@code failed} when the file could not be read as it was (categories {@code
 * missing_target}, {@code host_failure}: {@code target_changed} among them, {@code cancelled});
 * {@code skipped} for a file that is not a model.
 */
final class UnitRows {
  /** {@code files.status} values. */
  public static final String COMPLETE = "complete";

  public static final String PARTIAL = "partial";
  public static final String REJECTED = "rejected";
  public static final String FAILED = "failed";
  public static final String SKIPPED = "skipped";

  private static final DateTimeFormatter RFC3339_NANOS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.nnnnnnnnn'Z'").withZone(ZoneOffset.UTC);

  private static final StructType UNITS = ScanSchema.UNITS;

  private UnitRows() {}

  /**
   * @param error the failure
   * @param partial whether it kept partial Evidence
   * @return the {@code files.status} of a unit that failed so
   */
  public static String statusOf(ReaException error, boolean partial) {
    ErrorCategory c = error.category();
    if (c == ErrorCategory.UNSUPPORTED_TARGET
        || c == ErrorCategory.RESOURCE_LIMIT
        || c == ErrorCategory.INVALID_REQUEST) {
      return REJECTED;
    }
    if (c == ErrorCategory.CANCELLED && partial) {
      return PARTIAL;
    }
    return FAILED;
  }

  /**
   * A unit inspected to a record (complete, or partial with its failure).
   *
   * @param rea the front door (renders the summary)
   * @param kind {@code file} or {@code set}
   * @param record the record
   * @param error the failure of a partial record, or null for a complete one
   * @param bytesFetched bytes read from the file system for the unit
   * @return the row, with the record's tensor and metadata rows
   */
  public static Row ofRecord(
      Rea rea, String kind, EvidenceRecord record, @Nullable ReaException error, long bytesFetched) {
    @Nullable Object[] v = new Object[UNITS.size()];
    Artifact a = record.artifact();
    String status = error == null ? COMPLETE : statusOf(error, true);
    head(v, kind, a.path(), status);
    FileIdentity id = a.identity();
    set(v, "identity_size", u64(id.size()));
    set(v, "identity_modified", id.modified());
    set(v, "identity_device", id.device() == null ? null : new BigDecimal(id.device()));
    set(v, "identity_inode", id.inode() == null ? null : new BigDecimal(id.inode()));
    set(v, "evidence_id", record.evidenceId());
    set(v, "format", a.format());
    set(v, "file_size", u64(a.fileSize()));
    set(v, "header_length", u64(a.headerLength()));
    set(v, "header_sha256", a.headerSha256());
    set(v, "sha256", a.sha256());
    set(v, "bytes_read", u64(bytesFetched));
    set(v, "metadata_count", record.metadata().size());
    set(v, "tensor_count", record.tensors().size());
    set(v, "type_count", record.types().size());
    set(v, "total_tensor_count", (long) record.totals().tensorCount());
    set(v, "total_parameter_count", sum(record.totals().parameterCount()));
    set(v, "total_byte_length", sum(record.totals().byteLength()));
    set(v, "warning_count", record.warnings().size());
    set(v, "limitation_count", record.limitations().size());
    if (error != null) {
      error(v, error);
    }
    set(
        v,
        "summary",
        new String(rea.summaryJson(rea.evidence(record), null), StandardCharsets.UTF_8));
    v[UNITS.fieldIndex(ScanSchema.TENSOR_ROWS)] = seq(tensorRows(record, a.path(), null));
    v[UNITS.fieldIndex(ScanSchema.METADATA_ROWS)] = seq(metadataRows(record, a.path(), null));
    return RowFactory.create(v);
  }

  /**
   * A complete set (CONTRACT section 9): the set record's id, totals, type, warning and
   * limitation counts and summary; {@code format} the members' ({@code mixed} when they differ),
   * {@code file_size} their sum; {@code header_length} and the digests null (each member has its
   * own); {@code metadata_count} and {@code tensor_count} the rows the unit gives the {@code
   * metadata} and {@code tensors} tables: every member's own rows, in member order, each named by
   * its member's path and {@code evidence_id} (the set record's {@code members} lists them), with
   * the set's path as {@code unit_path} and the member's index as {@code member}.
   *
   * @param rea the front door (renders the set summary)
   * @param set the complete set, with its members' records
   * @param identity the identity of the set's index or first member when it was opened, or null
   * @param bytesFetched bytes read from the file system for the whole set
   * @return the row
   */
  public static Row ofSet(
      Rea rea, SetInspection.Complete set, @Nullable SourceIdentity identity, long bytesFetched) {
    @Nullable Object[] v = new Object[UNITS.size()];
    ModelSetRecord r = set.set();
    head(v, "set", r.set().path(), COMPLETE);
    if (identity != null) {
      set(v, "identity_size", u64(identity.size()));
      set(v, "identity_modified", RFC3339_NANOS.format(identity.modified()));
    }
    set(v, "evidence_id", r.evidenceId());
    String format = null;
    long size = 0;
    for (ModelSetRecord.Member m : r.members()) {
      format = format == null || format.equals(m.format()) ? m.format() : "mixed";
      size += m.fileSize();
    }
    set(v, "format", format);
    set(v, "file_size", u64(size));
    set(v, "bytes_read", u64(bytesFetched));
    List<Row> tensors = new ArrayList<>();
    List<Row> metadata = new ArrayList<>();
    for (int k = 0; k < set.members().size(); k++) {
      EvidenceRecord m = set.members().get(k);
      tensors.addAll(tensorRows(m, r.set().path(), k));
      metadata.addAll(metadataRows(m, r.set().path(), k));
    }
    set(v, "metadata_count", metadata.size());
    set(v, "tensor_count", tensors.size());
    set(v, "type_count", r.types().size());
    set(v, "total_tensor_count", (long) r.totals().tensorCount());
    set(v, "total_parameter_count", sum(r.totals().parameterCount()));
    set(v, "total_byte_length", sum(r.totals().byteLength()));
    set(v, "warning_count", r.warnings().size());
    set(v, "limitation_count", r.limitations().size());
    EvidenceRecord first = set.members().isEmpty() ? null : set.members().get(0);
    set(v, "summary", new String(rea.setSummaryJson(r, first, metadata.size(), null), StandardCharsets.UTF_8));
    v[UNITS.fieldIndex(ScanSchema.TENSOR_ROWS)] = seq(tensors);
    v[UNITS.fieldIndex(ScanSchema.METADATA_ROWS)] = seq(metadata);
    return RowFactory.create(v);
  }

  /**
   * A unit without a record: failed, rejected or skipped.
   *
   * @param kind {@code file} or {@code set}
   * @param path the unit's path (qualified when its status could be had, else as given)
   * @param status the status
   * @param identity the identity observed, or null when none was
   * @param error why, or null (a skip without its reason)
   * @param bytesFetched bytes read from the file system for the unit
   * @return the row, without tensor or metadata rows
   */
  public static Row ofFailure(
      String kind,
      String path,
      String status,
      @Nullable SourceIdentity identity,
      @Nullable ReaException error,
      long bytesFetched) {
    @Nullable Object[] v = new Object[UNITS.size()];
    head(v, kind, path, status);
    if (identity != null) {
      set(v, "identity_size", u64(identity.size()));
      set(v, "identity_modified", RFC3339_NANOS.format(identity.modified()));
    }
    set(v, "bytes_read", u64(bytesFetched));
    if (error != null) {
      error(v, error);
    }
    v[UNITS.fieldIndex(ScanSchema.TENSOR_ROWS)] = seq(List.of());
    v[UNITS.fieldIndex(ScanSchema.METADATA_ROWS)] = seq(List.of());
    return RowFactory.create(v);
  }

  private static void head(@Nullable Object[] v, String kind, String path, String status) {
    set(v, "schema", ScanSchema.SCAN_SCHEMA);
    set(v, "kind", kind);
    set(v, "path", path);
    set(v, "status", status);
  }

  private static void error(@Nullable Object[] v, ReaException e) {
    set(v, "error_code", e.code().wireName());
    set(v, "error_category", e.category().wireName());
    set(v, "error_constraint", e.constraint().wireName());
    set(v, "error_message", e.getMessage());
    set(v, "error_field", e.field());
    set(v, "error_offset", e.offset() == null ? null : u64(e.offset()));
  }

  /**
   * @param unitPath the path of the unit's {@code files} row
   * @param member the record's member index in a set, or null for a file unit
   */
  private static List<Row> tensorRows(EvidenceRecord r, String unitPath, @Nullable Integer member) {
    String path = r.artifact().path();
    List<Row> out = new ArrayList<>(r.tensors().size());
    for (TensorRow t : r.tensors()) {
      List<BigDecimal> shape = new ArrayList<>(t.shape().size());
      for (Long d : t.shape()) {
        shape.add(u64(d));
      }
      out.add(
          RowFactory.create(
              path,
              r.evidenceId(),
              t.index(),
              t.name(),
              t.type(),
              t.typeId(),
              seq(shape),
              u64(t.parameterCount()),
              u64(t.offset()),
              t.fileOffset() == null ? null : u64(t.fileOffset()),
              t.byteLength() == null ? null : u64(t.byteLength()),
              t.storageValidation().wire(),
              unitPath,
              member));
    }
    return out;
  }

  private static List<Row> metadataRows(
      EvidenceRecord r, String unitPath, @Nullable Integer member) {
    String path = r.artifact().path();
    List<Row> out = new ArrayList<>(r.metadata().size());
    for (MetadataRow m : r.metadata()) {
      out.add(
          RowFactory.create(
              path, r.evidenceId(), m.index(), m.key(), m.type().name(), Rea.metadataValueJson(m),
              unitPath, member));
    }
    return out;
  }

  /** @return the list as the Scala sequence a {@code Row}'s array column holds */
  private static <T> Seq<T> seq(List<T> list) {
    return CollectionConverters.asScala(list).toSeq();
  }

  private static void set(@Nullable Object[] v, String field, @Nullable Object value) {
    v[UNITS.fieldIndex(field)] = value;
  }

  /** @return an unsigned 64-bit value (held in a long's bits) as a decimal */
  static BigDecimal u64(long bits) {
    return bits >= 0
        ? BigDecimal.valueOf(bits)
        : new BigDecimal(new BigInteger(Long.toUnsignedString(bits)));
  }

  private static @Nullable BigDecimal sum(@Nullable BigInteger value) {
    return value == null ? null : new BigDecimal(value);
  }
}
