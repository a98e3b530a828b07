package dev.rea.spark;

import dev.rea.core.Rea;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.SetInspection;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.source.SourceIdentity;
import dev.rea.spark.hadoop.HadoopSetSource;
import dev.rea.spark.hadoop.HadoopSource;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;
import org.jspecify.annotations.Nullable;

/**
 * Inspects one model set on a Hadoop file system into its {@code files} row (kind {@code set},
 * with every member's tensor and metadata rows): {@code Rea.inspectSet} over a {@link
 * HadoopSetSource}, as {@code inspect-model-set DIR/NAME} inspects a local set (CONTRACT section
 * 9). A set's failure (a member missing, refused, or contradicting another: {@code
 * set_rejected}) is its row's status and error, as in {@code rea scan}: {@code failed} or
 * {@code rejected}, never {@code partial}.
 *
 * <p>Never throws for anything about the files. Not thread-safe: one per task.
 */
final class SetUnitInspector {
  private final Rea rea;
  private final Configuration conf;
  private final InspectOptions options;
  private final int readAhead;

  SetUnitInspector(Configuration conf, ScanOptions scan) {
    this.rea = FileInspector.rea();
    this.conf = conf;
    this.options = InspectOptions.builder().hash(scan.hash()).build();
    this.readAhead = scan.readAhead();
  }

  /**
   * @param dir the set's directory
   * @param name its index or first split member
   * @return its row of {@link ScanSchema#UNITS}
   */
  Row inspect(String dir, String name) {
    return inspect(dir, name, name, 0);
  }

  /**
   * As {@link #inspect(String, String)}: the row named by {@code name}, the set read through
   * {@code via} (a member that is there when the first split member is missing), counting
   * {@code fetchedBefore} bytes an earlier read of the file fetched.
   */
  Row inspect(String dir, String name, String via, long fetchedBefore) {
    Path directory;
    FileSystem fs;
    String named = dir + "/" + name;
    try {
      fs = HadoopSource.fileSystem(new Path(dir), conf);
      directory = fs.makeQualified(new Path(dir));
      named = new Path(directory, name).toString();
    } catch (IOException | RuntimeException e) {
      return failure(named, null, FileInspector.hostError(named, "examining the set failed", e), 0);
    }
    HadoopSetSource source = new HadoopSetSource(fs, directory, options.hash(), readAhead);
    try {
      SetInspection result;
      try {
        result = rea.inspectSet(source, via, options);
      } catch (RuntimeException e) {
        return failure(named, source.identityOf(name),
            FileInspector.hostError(named, "REA failed", e), fetchedBefore + source.bytesFetched());
      } catch (OutOfMemoryError e) {
        return failure(named, source.identityOf(name), ReaException.heapExhausted(e),
            fetchedBefore + source.bytesFetched());
      }
      if (result instanceof SetInspection.Complete c) {
        return UnitRows.ofSet(rea, c, source.identityOf(name), fetchedBefore + source.bytesFetched());
      }
      ReaException error = ((SetInspection.Failed) result).error();
      return failure(named, source.identityOf(name), error, fetchedBefore + source.bytesFetched());
    } finally {
      try {
        source.close();
      } catch (IOException ignored) {
        // Read-only streams: the verdict is made.
      }
    }
  }

  private static Row failure(
      String path, @Nullable SourceIdentity identity, ReaException e, long fetched) {
    String status =
        e.constraint() == Constraint.CANCELLED ? UnitRows.FAILED : UnitRows.statusOf(e, false);
    return UnitRows.ofFailure("set", path, status, identity, e, fetched);
  }
}
