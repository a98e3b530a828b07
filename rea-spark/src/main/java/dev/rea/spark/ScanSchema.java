package dev.rea.spark;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The three tables of the Spark job (CONTRACT section 10), as Spark SQL schemas.
 *
 * <p>{@code files}: one row per unit, the {@code rea.scan.v1} line flattened: {@code schema},
 * {@code kind}, {@code path}, {@code status}, the {@code identity} (size, modification time as
 * RFC 3339 UTC text, device and inode: null on Hadoop file systems), {@code evidence_id}; then
 * what the summary says (format, artifact sizes and digests, bytes read, row counts, totals,
 * warning and limitation counts); the error (code, category, constraint, message, field,
 * offset); and the whole summary (CONTRACT section 4) as JSON text.
 *
 * <p>{@code tensors}: {@code path}, {@code evidence_id} and the tensor row's fields (CONTRACT
 * section 3). {@code metadata}: {@code path}, {@code evidence_id}, {@code index}, {@code key},
 * {@code type} and {@code value} as JSON text ({@link dev.rea.core.Rea#metadataValueJson}).
 * Both end with {@code unit_path}, the {@code path} of the unit's {@code files} row, and {@code
 * member}, the row's member index in a set (null for a file unit): {@code path} and {@code
 * evidence_id} are those of the file the row is in, a set's member, so a set's rows join its
 * {@code files} row on {@code unit_path} (a trial found no column to join them on).
 *
 * <p>Unsigned 64-bit values (sizes, offsets, lengths, element counts, shape dimensions) are
 * {@code decimal(20,0)}, which holds every one of them. Totals are sums over many tensors and may
 * exceed 64 bits: {@code decimal(38,0)}. Indices and row counts are {@code int}.
 */
public final class ScanSchema {
  /** {@code decimal(20,0)}: an unsigned 64-bit value. */
  public static final DecimalType U64 = DataTypes.createDecimalType(20, 0);

  /** {@code decimal(38,0)}: a sum of unsigned 64-bit values. */
  public static final DecimalType SUM = DataTypes.createDecimalType(38, 0);

  /** The {@code tensors} table. */
  public static final StructType TENSORS =
      struct(
          field("path", DataTypes.StringType, false),
          field("evidence_id", DataTypes.StringType, true),
          field("index", DataTypes.IntegerType, false),
          field("name", DataTypes.StringType, false),
          field("type", DataTypes.StringType, false),
          field("type_id", DataTypes.LongType, true),
          field("shape", DataTypes.createArrayType(U64, false), false),
          field("parameter_count", U64, false),
          field("offset", U64, false),
          field("file_offset", U64, true),
          field("byte_length", U64, true),
          field("storage_validation", DataTypes.StringType, false),
          field("unit_path", DataTypes.StringType, false),
          field("member", DataTypes.IntegerType, true));

  /** The {@code metadata} table. */
  public static final StructType METADATA =
      struct(
          field("path", DataTypes.StringType, false),
          field("evidence_id", DataTypes.StringType, true),
          field("index", DataTypes.IntegerType, false),
          field("key", DataTypes.StringType, false),
          field("type", DataTypes.StringType, false),
          field("value", DataTypes.StringType, false),
          field("unit_path", DataTypes.StringType, false),
          field("member", DataTypes.IntegerType, true));

  /** The {@code files} table. */
  public static final StructType FILES =
      struct(
          field("schema", DataTypes.StringType, false),
          field("kind", DataTypes.StringType, false),
          field("path", DataTypes.StringType, false),
          field("status", DataTypes.StringType, false),
          field("identity_size", U64, true),
          field("identity_modified", DataTypes.StringType, true),
          field("identity_device", U64, true),
          field("identity_inode", U64, true),
          field("evidence_id", DataTypes.StringType, true),
          field("format", DataTypes.StringType, true),
          field("file_size", U64, true),
          field("header_length", U64, true),
          field("header_sha256", DataTypes.StringType, true),
          field("sha256", DataTypes.StringType, true),
          field("bytes_read", U64, true),
          field("metadata_count", DataTypes.IntegerType, true),
          field("tensor_count", DataTypes.IntegerType, true),
          field("type_count", DataTypes.IntegerType, true),
          field("total_tensor_count", DataTypes.LongType, true),
          field("total_parameter_count", SUM, true),
          field("total_byte_length", SUM, true),
          field("warning_count", DataTypes.IntegerType, true),
          field("limitation_count", DataTypes.IntegerType, true),
          field("error_code", DataTypes.StringType, true),
          field("error_category", DataTypes.StringType, true),
          field("error_constraint", DataTypes.StringType, true),
          field("error_message", DataTypes.StringType, true),
          field("error_field", DataTypes.StringType, true),
          field("error_offset", U64, true),
          field("summary", DataTypes.StringType, true));

  /** Column name of a unit's tensor rows in {@link #UNITS}. */
  public static final String TENSOR_ROWS = "tensor_rows";

  /** Column name of a unit's metadata rows in {@link #UNITS}. */
  public static final String METADATA_ROWS = "metadata_rows";

  /**
   * What the inspection stage produces, one row per unit: the {@link #FILES} columns, then the
   * unit's {@link #TENSORS} and {@link #METADATA} rows as arrays; the three tables are projections
   * of it, so every file is read once.
   */
  public static final StructType UNITS =
      FILES
          .add(TENSOR_ROWS, DataTypes.createArrayType(TENSORS, false), false)
          .add(METADATA_ROWS, DataTypes.createArrayType(METADATA, false), false);

  /** The {@code schema} of every {@code files} row (CONTRACT section 10). */
  public static final String SCAN_SCHEMA = "rea.scan.v1";

  private ScanSchema() {}

  private static StructType struct(StructField... fields) {
    return DataTypes.createStructType(fields);
  }

  private static StructField field(String name, DataType type, boolean nullable) {
    return DataTypes.createStructField(name, type, nullable);
  }
}
