package dev.rea.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.explode;
import static org.apache.spark.sql.functions.sum;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * The result of a scan: one row per unit ({@link ScanSchema#UNITS}), of which the three tables
 * of CONTRACT section 10 are projections.
 *
 * <p>Spark evaluates lazily: each action on {@link #files()}, {@link #tensors()} or {@link
 * #metadata()} inspects the files again, unless the caller persists {@link #units()}. {@link
 * #write} inspects every file once: it writes the units to a staging Parquet directory first
 * ({@code DIR/units-staging}, removed afterwards) and writes the three tables from it, reading
 * only the columns each needs. The staging name starts with neither {@code _} nor {@code .}:
 * Spark's file index takes such names as hidden and warns when it is given one to read. The
 * staging copy, unlike a cache, holds any number of units without
 * executor memory and survives the loss of an executor.
 *
 * @param units one row per unit, skipped files included
 * @param options the scan's options
 */
public record ScanTables(Dataset<Row> units, ScanOptions options) {
  /** Rows per Parquet file of the {@code files} table, at most (one file per task otherwise). */
  static final long FILES_ROWS_PER_OUTPUT_FILE = 1_000_000;

  /** Rows per Parquet file of the {@code tensors} and {@code metadata} tables, at most. */
  static final long DETAIL_ROWS_PER_OUTPUT_FILE = 5_000_000;

  /** The staging directory's name under the output directory. */
  static final String STAGING = "units-staging";

  /** The tables, in the order they are written. */
  static final List<String> TABLES = List.of("files", "tensors", "metadata");

  public ScanTables {
    Objects.requireNonNull(units, "units");
    Objects.requireNonNull(options, "options");
  }

  /**
   * @return the {@code files} table ({@link ScanSchema#FILES}): one row per unit; files that
   *     are not models only with {@link ScanOptions#listSkipped()}
   */
  public Dataset<Row> files() {
    Dataset<Row> all = units.drop(ScanSchema.TENSOR_ROWS, ScanSchema.METADATA_ROWS);
    return options.listSkipped() ? all : all.filter(col("status").notEqual(UnitRows.SKIPPED));
  }

  /** @return the {@code tensors} table ({@link ScanSchema#TENSORS}) */
  public Dataset<Row> tensors() {
    return units.select(explode(col(ScanSchema.TENSOR_ROWS)).as("t")).select("t.*");
  }

  /** @return the {@code metadata} table ({@link ScanSchema#METADATA}) */
  public Dataset<Row> metadata() {
    return units.select(explode(col(ScanSchema.METADATA_ROWS)).as("m")).select("m.*");
  }

  /**
   * Counts units by status (skipped files included): a Spark job.
   *
   * @return status to count, in the order complete, partial, rejected, failed, skipped
   */
  public Map<String, Long> countByStatus() {
    Map<String, Long> out = new LinkedHashMap<>();
    for (String s :
        List.of(
            UnitRows.COMPLETE, UnitRows.PARTIAL, UnitRows.REJECTED, UnitRows.FAILED,
            UnitRows.SKIPPED)) {
      out.put(s, 0L);
    }
    for (Row r : units.groupBy("status").count().collectAsList()) {
      out.put(r.getString(0), r.getLong(1));
    }
    return out;
  }

  /**
   * What {@link #write} did.
   *
   * @param byStatus units by status, skipped files included
   * @param rows rows written per table ({@code files}, {@code tensors}, {@code metadata})
   * @param bytesRead bytes read from the file systems, all units together
   */
  public record Written(Map<String, Long> byStatus, Map<String, Long> rows, BigDecimal bytesRead) {}

  /**
   * Inspects every file once and writes the three tables as Parquet under {@code dir}: {@code
   * dir/files}, {@code dir/tensors}, {@code dir/metadata}. Each table is written in few enough
   * files (at most about a million {@code files} rows or five million detail rows per file) that
   * a scan of many small models does not leave one small file per task.
   *
   * @param dir the output directory, on any Hadoop file system
   * @param mode what to do when a table exists: {@link SaveMode#ErrorIfExists} refuses before
   *     anything is read, {@link SaveMode#Overwrite} replaces it
   * @return what was written
   * @throws IllegalStateException when a table exists and {@code mode} refuses it
   * @throws UncheckedIOException when the output directory cannot be examined or cleaned up
   */
  public Written write(String dir, SaveMode mode) {
    SparkSession spark = units.sparkSession();
    FileSystem fs = checkOutput(spark, dir, mode);
    Path out = new Path(dir);
    Path staging = new Path(out, STAGING);
    Written written;
    try {
      units.write().mode(SaveMode.Overwrite).parquet(staging.toString());
      written = new ScanTables(spark.read().parquet(staging.toString()), options).writeTables(dir, mode);
    } catch (RuntimeException e) {
      try {
        fs.delete(staging, true);
      } catch (IOException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
    try {
      fs.delete(staging, true);
    } catch (IOException e) {
      throw new UncheckedIOException("removing " + staging + " failed", e);
    }
    return written;
  }

  /**
   * Checks that the tables may be written under {@code dir}.
   *
   * @param spark the session (its Hadoop configuration reaches the file system)
   * @param dir the output directory
   * @param mode the save mode
   * @return the output directory's file system
   * @throws IllegalStateException when a table exists and {@code mode} is {@link
   *     SaveMode#ErrorIfExists}
   * @throws UncheckedIOException when the directory cannot be examined
   */
  public static FileSystem checkOutput(SparkSession spark, String dir, SaveMode mode) {
    Path out = new Path(dir);
    try {
      FileSystem fs = out.getFileSystem(spark.sparkContext().hadoopConfiguration());
      if (mode == SaveMode.ErrorIfExists) {
        for (String table : TABLES) {
          if (fs.exists(new Path(out, table))) {
            throw new IllegalStateException(
                new Path(out, table) + " already exists (--overwrite replaces it)");
          }
        }
      }
      return fs;
    } catch (IOException e) {
      throw new UncheckedIOException("examining " + dir + " failed", e);
    }
  }

  private Written writeTables(String dir, SaveMode mode) {
    Row totals =
        units
            .agg(
                sum(col("tensor_count").cast("long")),
                sum(col("metadata_count").cast("long")),
                sum(col("bytes_read")))
            .first();
    Map<String, Long> byStatus = countByStatus();
    Dataset<Row> files = files();
    long fileRows = files.count();
    long tensorRows = totals.isNullAt(0) ? 0 : totals.getLong(0);
    long metadataRows = totals.isNullAt(1) ? 0 : totals.getLong(1);
    Map<String, Long> rows = new LinkedHashMap<>();
    writeTable(files, fileRows, FILES_ROWS_PER_OUTPUT_FILE, dir + "/files", mode);
    rows.put("files", fileRows);
    writeTable(tensors(), tensorRows, DETAIL_ROWS_PER_OUTPUT_FILE, dir + "/tensors", mode);
    rows.put("tensors", tensorRows);
    writeTable(metadata(), metadataRows, DETAIL_ROWS_PER_OUTPUT_FILE, dir + "/metadata", mode);
    rows.put("metadata", metadataRows);
    BigDecimal bytes = totals.isNullAt(2) ? BigDecimal.ZERO : totals.getDecimal(2);
    return new Written(byStatus, rows, bytes);
  }

  private static void writeTable(
      Dataset<Row> table, long rows, long perFile, String path, SaveMode mode) {
    int parts = (int) Math.max(1, Math.min(table.rdd().getNumPartitions(), ceil(rows, perFile)));
    table.coalesce(parts).write().mode(mode).parquet(path);
  }

  private static long ceil(long a, long b) {
    return (a + b - 1) / b;
  }
}
