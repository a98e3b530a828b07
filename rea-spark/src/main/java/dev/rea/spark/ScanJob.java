package dev.rea.spark;

import dev.rea.core.options.HashMode;
import dev.rea.spark.hadoop.HadoopSource;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark job of CONTRACT section 10:
 *
 * <pre>
 * spark-submit --class dev.rea.spark.ScanJob rea-spark.jar INPUT... --output DIR
 *     [--hash header|full] [--list-skipped] [--files-per-task N] [--read-ahead BYTES]
 *     [--overwrite]
 * </pre>
 *
 * <p>Lists every INPUT (files and directories on any Hadoop file system the cluster reads;
 * symbolic links are not followed), inspects each file's header on the executors and writes the
 * Parquet tables {@code DIR/files}, {@code DIR/tensors} and {@code DIR/metadata} ({@link
 * ScanSchema}). The last line on stderr counts units by status, bytes read and seconds.
 *
 * <p>Exit status, as {@code rea scan}'s: 0 every unit complete; 1 some unit rejected, partial or
 * failed; 2 invalid arguments; 4 the job itself failed (a table could not be written, say).
 */
public final class ScanJob {
  /** Exit status: every unit complete. */
  public static final int OK = 0;

  /** Exit status: some unit rejected, partial or failed. */
  public static final int SOME_NOT_COMPLETE = 1;

  /** Exit status: invalid arguments. */
  public static final int BAD_ARGUMENTS = 2;

  /** Exit status: the job itself failed. */
  public static final int JOB_FAILED = 4;

  static final String USAGE =
      "usage: ScanJob INPUT... --output DIR [--hash header|full] [--list-skipped]"
          + " [--files-per-task N] [--read-ahead BYTES] [--overwrite]";

  private ScanJob() {}

  /**
   * Runs the job in the session {@code spark-submit} (or {@code -Dspark.master=local[*]}) set
   * up, then stops it.
   *
   * @param args the command line
   */
  public static void main(String[] args) {
    Arguments a;
    try {
      a = Arguments.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("rea-spark: " + e.getMessage());
      System.err.println(USAGE);
      System.exit(BAD_ARGUMENTS);
      return;
    }
    SparkSession spark = SparkSession.builder().appName("rea-scan").getOrCreate();
    int status;
    try {
      status = run(spark, a, System.err);
    } finally {
      spark.stop();
    }
    System.exit(status);
  }

  /**
   * Runs the job in an existing session, leaving it open.
   *
   * @param spark the session
   * @param a the parsed command line
   * @param err where the closing count goes
   * @return the exit status
   */
  public static int run(SparkSession spark, Arguments a, PrintStream err) {
    long t0 = System.nanoTime();
    try {
      SaveMode mode = a.overwrite() ? SaveMode.Overwrite : SaveMode.ErrorIfExists;
      ScanTables.checkOutput(spark, a.output(), mode);
      ScanTables.Written w = ReaScan.scan(spark, a.inputs(), a.options()).write(a.output(), mode);
      double seconds = (System.nanoTime() - t0) / 1e9;
      long units = w.byStatus().values().stream().mapToLong(Long::longValue).sum();
      err.println(closingLine(w, units, seconds, a.output()));
      long notComplete =
          units
              - w.byStatus().getOrDefault("complete", 0L)
              - w.byStatus().getOrDefault("skipped", 0L);
      return notComplete == 0 ? OK : SOME_NOT_COMPLETE;
    } catch (RuntimeException e) {
      err.println("rea-spark: the scan failed: " + e);
      return JOB_FAILED;
    }
  }

  private static String closingLine(
      ScanTables.Written w, long units, double seconds, String output) {
    // A unit is a files row: a model file, a model set (several files), or a skipped entry.
    StringBuilder b = new StringBuilder("rea-spark: ").append(units).append(" units:");
    String sep = " ";
    for (Map.Entry<String, Long> e : w.byStatus().entrySet()) {
      b.append(sep).append(e.getValue()).append(' ').append(e.getKey());
      sep = ", ";
    }
    b.append(
        String.format(
            Locale.ROOT,
            "; %s bytes read; %.1f s (%.1f units/s); under %s:",
            w.bytesRead().toPlainString(),
            seconds,
            units / Math.max(seconds, 1e-9),
            output));
    sep = " ";
    for (Map.Entry<String, Long> e : w.rows().entrySet()) {
      b.append(sep).append(e.getKey()).append(' ').append(e.getValue()).append(" rows");
      sep = ", ";
    }
    return b.toString();
  }

  /**
   * The parsed command line.
   *
   * @param inputs files and directories to scan
   * @param output the output directory
   * @param options the scan's options
   * @param overwrite true to replace existing tables
   */
  public record Arguments(
      List<String> inputs, String output, ScanOptions options, boolean overwrite) {
    /**
     * @param args the command line
     * @return the arguments
     * @throws IllegalArgumentException when they are invalid (the message says how)
     */
    public static Arguments parse(String[] args) {
      List<String> inputs = new ArrayList<>();
      String output = null;
      ScanOptions options = ScanOptions.defaults();
      boolean overwrite = false;
      for (int i = 0; i < args.length; i++) {
        String arg = args[i];
        switch (arg) {
          case "--output" -> output = value(args, ++i, arg);
          case "--hash" -> {
            String v = value(args, ++i, arg);
            HashMode h = HashMode.fromWire(v);
            if (h == null) {
              throw new IllegalArgumentException("--hash must be header or full, not '" + v + "'");
            }
            options = options.withHash(h);
          }
          case "--list-skipped" -> options = options.withListSkipped(true);
          case "--files-per-task" -> options = options.withFilesPerTask(count(value(args, ++i, arg)));
          case "--read-ahead" -> options = options.withReadAhead(bytes(value(args, ++i, arg)));
          case "--overwrite" -> overwrite = true;
          default -> {
            if (arg.startsWith("--")) {
              throw new IllegalArgumentException("unknown option " + arg);
            }
            inputs.add(arg);
          }
        }
      }
      if (inputs.isEmpty()) {
        throw new IllegalArgumentException("no INPUT given");
      }
      if (output == null) {
        throw new IllegalArgumentException("--output DIR is required");
      }
      return new Arguments(List.copyOf(inputs), output, options, overwrite);
    }

    private static String value(String[] args, int i, String option) {
      if (i >= args.length) {
        throw new IllegalArgumentException(option + " needs a value");
      }
      return args[i];
    }

    private static int count(String text) {
      try {
        int n = Integer.parseInt(text);
        if (n >= 1) {
          return n;
        }
      } catch (NumberFormatException ignored) {
        // reported below
      }
      throw new IllegalArgumentException("--files-per-task must be a positive integer: " + text);
    }

    private static int bytes(String text) {
      try {
        int n = Integer.parseInt(text);
        if (n >= 0 && n <= HadoopSource.MAX_READ_AHEAD) {
          return n;
        }
      } catch (NumberFormatException ignored) {
        // reported below
      }
      throw new IllegalArgumentException(
          "--read-ahead must be a number of bytes from 0 to " + HadoopSource.MAX_READ_AHEAD + ": "
              + text);
    }
  }
}
