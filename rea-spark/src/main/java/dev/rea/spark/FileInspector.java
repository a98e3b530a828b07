package dev.rea.spark;

import dev.rea.core.FileProbe;
import dev.rea.core.ModelUnits;
import dev.rea.core.Rea;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.source.SourceIdentity;
import dev.rea.spark.hadoop.HadoopSource;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.time.Instant;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.AccessControlException;
import org.apache.spark.sql.Row;
import org.jspecify.annotations.Nullable;

/**
 * Inspects one file on a Hadoop file system into its {@code files} row (with its tensor and
 * metadata rows): {@code getFileStatus}, open, a few bytes for content detection, then, for a
 * model, REA's inspection of the same open stream, whose identity is observed again at the end.
 *
 * <p>Never throws for anything about the file: every failure, including a defect inside REA, is
 * the unit's row with status {@code failed} or {@code rejected} and the error's fields, so one bad
 * file never fails the task (and so never the job). Not thread-safe: one per task.
 */
final class FileInspector {
  /** The front door of this executor JVM: thread-safe, shared by every task it runs. */
  private static volatile @Nullable Rea shared;

  private final Rea rea;
  private final Configuration conf;
  private final InspectOptions options;
  private final boolean skipReasons;
  private final int readAhead;
  private final SetUnitInspector sets;

  /**
   * @param conf the Hadoop configuration
   * @param scan the scan's options: hash mode; with {@code listSkipped}, why each skipped file
   *     is not a model (its inspection's {@code unsupported_format} error; no extra read: the
   *     first bytes are kept); the read-ahead
   * @param sets reads a file that is one member of a model by its own account as its set of one
   */
  FileInspector(Configuration conf, ScanOptions scan, SetUnitInspector sets) {
    this.rea = rea();
    this.sets = sets;
    this.conf = conf;
    this.options = InspectOptions.builder().hash(scan.hash()).build();
    this.skipReasons = scan.listSkipped();
    this.readAhead = scan.readAhead();
  }

  /** @return this JVM's front door, made on first use (one per executor, not per file) */
  static Rea rea() {
    Rea r = shared;
    if (r == null) {
      synchronized (FileInspector.class) {
        r = shared;
        if (r == null) {
          r = Rea.standard();
          shared = r;
        }
      }
    }
    return r;
  }

  /**
   * @param path a file's path or URI
   * @return its row of {@code dev.rea.spark.ScanSchema#UNITS}
   */
  public Row inspect(String path) {
    FileSystem fs;
    FileStatus status;
    String named = path;
    try {
      fs = HadoopSource.fileSystem(new Path(path), conf);
      Path p = fs.makeQualified(new Path(path));
      named = p.toString();
      status = fs.getFileStatus(p);
    } catch (IOException | RuntimeException e) {
      return failure(named, null, hostError(named, "examining the file failed", e), 0);
    }
    String name = status.getPath().toString();
    SourceIdentity identity =
        SourceIdentity.of(status.getLen(), Instant.ofEpochMilli(status.getModificationTime()));
    if (!status.isFile()) {
      ReaException e =
          ReaException.builder(
                  Constraint.NOT_REGULAR_FILE,
                  (status.isDirectory() ? "the path is a directory: " : "not a regular file: ")
                      + name)
              .path(name)
              .build();
      return failure(name, identity, e, 0);
    }
    HadoopSource src;
    try {
      src = HadoopSource.open(fs, status, options.hash(), readAhead);
    } catch (IOException | RuntimeException e) {
      return failure(name, identity, hostError(name, "opening the file failed", e), 0);
    }
    try {
      return inspectOpen(src, identity);
    } finally {
      try {
        src.close();
      } catch (IOException ignored) {
        // A read-only stream: nothing written can be lost, and the verdict is already made.
      }
    }
  }

  private Row inspectOpen(HadoopSource src, SourceIdentity identity) {
    String name = src.name();
    try {
      FileProbe probe = src.probe();
      // As rea scan decides: a truncated safetensors download (its JSON length past the end of
      // the file, within the header ceiling) is a model to reject, not a file to skip.
      if (probe.candidateFormat().isEmpty()) {
        @Nullable ReaException why = null;
        if (skipReasons) {
          why = rea.inspect(src, options).failure().orElse(null);
        }
        return UnitRows.ofFailure(
            "file", name, UnitRows.SKIPPED, identity, why, src.bytesFetched());
      }
      Inspection result = rea.inspect(src, options);
      if (result instanceof Inspection.Complete c) {
        // As rea scan reads it: a file that is one member of a model by its own account (a
        // renamed split member) is a set of one, whose warning says so.
        Path file = new Path(name);
        Path dir = file.getParent();
        if (dir != null && ModelUnits.isLoneMember(file.getName(), c.record())) {
          return sets.inspect(dir.toString(), file.getName(), file.getName(), src.bytesFetched());
        }
        return UnitRows.ofRecord(rea, "file", c.record(), null, src.bytesFetched());
      }
      Inspection.Failed f = (Inspection.Failed) result;
      if (f.partial() != null && UnitRows.statusOf(f.error(), true).equals(UnitRows.PARTIAL)) {
        return UnitRows.ofRecord(rea, "file", f.partial(), f.error(), src.bytesFetched());
      }
      return failure(name, identity, f.error(), src.bytesFetched());
    } catch (IOException e) {
      return failure(name, identity, hostError(name, "reading the file failed", e), src.bytesFetched());
    } catch (RuntimeException e) {
      return failure(name, identity, hostError(name, "REA failed", e), src.bytesFetched());
    } catch (OutOfMemoryError e) {
      return failure(name, identity, ReaException.heapExhausted(e), src.bytesFetched());
    }
  }

  private static Row failure(
      String path, @Nullable SourceIdentity identity, ReaException e, long fetched) {
    return UnitRows.ofFailure(
        "file", path, UnitRows.statusOf(e, false), identity, e.withPath(path), fetched);
  }

  /** A Hadoop or runtime failure as REA's typed error (CONTRACT section 6). */
  static ReaException hostError(String path, String what, Throwable e) {
    Constraint c;
    if (e instanceof FileNotFoundException) {
      c = Constraint.NOT_FOUND;
    } else if (e instanceof AccessControlException) {
      c = Constraint.PERMISSION_DENIED;
    } else {
      c = Constraint.IO_ERROR;
    }
    String m = e.getMessage();
    return ReaException.builder(
            c, what + ": " + e.getClass().getSimpleName() + (m == null ? "" : ": " + m))
        .path(path)
        .cause(e)
        .build();
  }
}
