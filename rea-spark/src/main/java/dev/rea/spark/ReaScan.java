package dev.rea.spark;

import static org.apache.spark.sql.functions.col;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.spark.hadoop.HadoopListing;
import dev.rea.spark.hadoop.HadoopListing.Entry;
import dev.rea.spark.hadoop.HadoopListing.Kind;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.FlatMapGroupsFunction;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.jspecify.annotations.Nullable;

/**
 * REA's inspection as Spark jobs (CONTRACT section 10): list what lies under some paths on any
 * Hadoop file system, inspect every file's header on the executors, and give the {@code files},
 * {@code tensors} and {@code metadata} tables.
 *
 * <pre>{@code
 * SparkSession spark = SparkSession.builder().getOrCreate();
 * ScanTables t = ReaScan.scan(spark, List.of("hdfs://nn/models"), ScanOptions.defaults());
 * t.write("hdfs://nn/scans/2026-01-01", SaveMode.ErrorIfExists);
 * // or, from a list of files that is already a Dataset<String> (an inventory table):
 * ScanTables u = ReaScan.inspect(paths, ScanOptions.defaults());
 * u.files().where("status = 'rejected'").show();
 * }</pre>
 *
 * <p>Every file is read by positioned reads of its header only (unless a full hash is asked
 * for), through one REA front door per executor JVM. A file that cannot be listed, opened, read
 * or parsed is its unit's row (status {@code failed} or {@code rejected} with the error's fields),
 * never a failed task. A model set (CONTRACT section 9: an index with its members, a GGUF split
 * set) is one unit, planned per directory in {@link #units}; every other file is its own unit.
 */
public final class ReaScan {
  /** Schema of listing entries: path, kind ({@link Kind}), constraint, message. */
  static final StructType LISTING =
      DataTypes.createStructType(
          new StructField[] {
            DataTypes.createStructField("path", DataTypes.StringType, false),
            DataTypes.createStructField("kind", DataTypes.StringType, false),
            DataTypes.createStructField("constraint", DataTypes.StringType, true),
            DataTypes.createStructField("message", DataTypes.StringType, true)
          });

  /** Directories listed on the driver, at most, before the rest is listed by executors. */
  static final int DRIVER_LISTING_LIMIT = 10_000;

  private ReaScan() {}

  /**
   * Lists, then inspects: the whole job of {@code ScanJob}.
   *
   * @param spark the session
   * @param inputs files and directories (paths or URIs of any Hadoop file system)
   * @param options the scan's options
   * @return the tables (nothing is read until they are used)
   */
  public static ScanTables scan(SparkSession spark, List<String> inputs, ScanOptions options) {
    Dataset<Row> listing = list(spark, inputs);
    Dataset<String> files =
        listing.filter(col("kind").equalTo(Kind.FILE.name())).select("path").as(Encoders.STRING());
    Dataset<Row> notFiles =
        listing
            .filter(col("kind").notEqual(Kind.FILE.name()))
            .map((MapFunction<Row, Row>) ReaScan::listingRow, Encoders.row(ScanSchema.UNITS));
    return new ScanTables(units(files, options).union(notFiles), options);
  }

  /**
   * Inspects files whose paths are already known.
   *
   * @param files paths or URIs of regular files (a directory is its unit's failure, {@code
   *     not_regular_file})
   * @param options the scan's options
   * @return the tables
   */
  public static ScanTables inspect(Dataset<String> files, ScanOptions options) {
    return new ScanTables(units(files, options), options);
  }

  /**
   * Lists the files under {@code inputs} without following symbolic links. The first levels are
   * listed on the driver until there are enough directories to share out (four per core of the
   * cluster) or {@value #DRIVER_LISTING_LIMIT} have been listed; the trees under the rest are
   * listed by executors, in parallel.
   *
   * @param spark the session
   * @param inputs files and directories
   * @return listing entries ({@link #LISTING}): files, skipped paths, failures; listed once,
   *     eagerly, and kept by the executors ({@code localCheckpoint}: a listing lost with an
   *     executor fails the job, which is then run again; it is cheap beside the inspection)
   */
  public static Dataset<Row> list(SparkSession spark, List<String> inputs) {
    Configuration conf = spark.sparkContext().hadoopConfiguration();
    int wide = Math.max(8, 4 * spark.sparkContext().defaultParallelism());
    List<Row> found = new ArrayList<>();
    List<String> frontier = new ArrayList<>(inputs);
    int listed = 0;
    boolean first = true;
    while (!frontier.isEmpty()
        && (first || (frontier.size() < wide && listed + frontier.size() <= DRIVER_LISTING_LIMIT))) {
      first = false;
      List<String> next = new ArrayList<>();
      for (String dir : frontier) {
        listed++;
        for (Entry e : HadoopListing.listLevel(dir, conf)) {
          if (e.kind() == Kind.DIRECTORY) {
            next.add(e.path());
          } else {
            found.add(row(e));
          }
        }
      }
      frontier = next;
    }
    Dataset<Row> listing = spark.createDataFrame(found, LISTING);
    if (!frontier.isEmpty()) {
      Broadcast<SerializableConf> shared = broadcastConf(spark);
      Dataset<Row> deeper =
          spark
              .createDataset(frontier, Encoders.STRING())
              .repartition(Math.min(frontier.size(), wide))
              .flatMap(
                  (FlatMapFunction<String, Row>)
                      dir -> {
                        List<Row> out = new ArrayList<>();
                        HadoopListing.walk(dir, shared.value().get(), e -> out.add(row(e)));
                        return out.iterator();
                      },
                  Encoders.row(LISTING));
      listing = listing.union(deeper);
    }
    // Not Dataset.persist: its in-memory relation registers an accumulator that Spark 4.2's
    // executor heartbeat can read half-deserialized (a NullPointerException that stops the
    // heartbeats); an RDD-level local checkpoint has none.
    return listing.localCheckpoint(true);
  }

  /**
   * Files become units, and units are inspected: the paths are grouped by parent directory, each
   * directory's units planned as {@code rea scan} plans them ({@link UnitPlanner}: an index with
   * its members and a GGUF split set are one {@code set} unit each, every other file its own
   * unit), and the units spread evenly over {@code ceil(units / filesPerTask)} tasks. The plans
   * are kept by the executors ({@code localCheckpoint}), so indexes are read once for planning.
   * A directory's names are held by one task while it is planned.
   */
  static Dataset<Row> units(Dataset<String> files, ScanOptions options) {
    SparkSession spark = files.sparkSession();
    Broadcast<SerializableConf> shared = broadcastConf(spark);
    Dataset<String> plans =
        files
            .groupByKey((MapFunction<String, String>) UnitPlanner::parentOf, Encoders.STRING())
            .flatMapGroups(
                (FlatMapGroupsFunction<String, String, String>)
                    (dir, paths) -> UnitPlanner.plan(dir, paths, shared.value().get()),
                Encoders.STRING())
            .localCheckpoint(true);
    long count = plans.count();
    int tasks = (int) Math.max(1, Math.min(Integer.MAX_VALUE, ceil(count, options.filesPerTask())));
    return plans
        .repartition(tasks)
        .mapPartitions(
            (MapPartitionsFunction<String, Row>)
                units -> inspectAll(units, shared.value(), options),
            Encoders.row(ScanSchema.UNITS));
  }

  /** Inspects a partition's units lazily, one at a time, with one inspector for the task. */
  private static Iterator<Row> inspectAll(
      Iterator<String> plans, SerializableConf conf, ScanOptions options) {
    SetUnitInspector sets = new SetUnitInspector(conf.get(), options);
    FileInspector files = new FileInspector(conf.get(), options, sets);
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return plans.hasNext();
      }

      @Override
      public Row next() {
        String[] plan = UnitPlanner.fields(plans.next());
        return plan[0].equals(UnitPlanner.SET)
            ? sets.inspect(plan[1], plan[2], plan[3], 0)
            : files.inspect(plan[1]);
      }
    };
  }

  private static Broadcast<SerializableConf> broadcastConf(SparkSession spark) {
    SerializableConf conf = new SerializableConf(spark.sparkContext().hadoopConfiguration());
    return JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(conf);
  }

  private static Row row(Entry e) {
    return RowFactory.create(e.path(), e.kind().name(), e.constraint(), e.message());
  }

  /** A listing entry that is not a file to inspect, as its unit's row. */
  private static Row listingRow(Row entry) {
    String path = entry.getString(0);
    Kind kind = Kind.valueOf(entry.getString(1));
    ReaException why =
        ReaException.builder(
                constraint(entry.getString(2)),
                Objects.requireNonNullElse(entry.getString(3), "not inspected"))
            .path(path)
            .build();
    String status = kind == Kind.SKIPPED ? UnitRows.SKIPPED : UnitRows.statusOf(why, false);
    return UnitRows.ofFailure("file", path, status, null, why, 0);
  }

  private static Constraint constraint(@Nullable String wire) {
    for (Constraint c : Constraint.values()) {
      if (c.wireName().equals(wire)) {
        return c;
      }
    }
    return Constraint.IO_ERROR;
  }

  private static long ceil(long a, long b) {
    return (a + b - 1) / b;
  }
}
