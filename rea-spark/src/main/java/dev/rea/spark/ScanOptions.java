package dev.rea.spark;

import dev.rea.core.options.HashMode;
import java.io.Serializable;
import java.util.Objects;

/**
 * Options of a scan on Spark. Immutable; the {@code with} methods return changed copies.
 *
 * @param hash {@code header} (the default: only headers are read) or {@code full} (every byte is
 *     read and hashed)
 * @param listSkipped true to keep rows for files that are not models (status {@code skipped},
 *     with why) in the {@code files} table, as {@code rea scan --list-skipped} lists them; they
 *     are counted either way
 * @param filesPerTask files inspected by one Spark task (at least 1): fewer tasks cost less
 *     scheduling, more tasks spread the work and limit what one retry repeats
 * @param readAhead bytes fetched at once when REA's read misses what was fetched before (0, the
 *     default: every read fetches exactly what REA asks for, so nothing past a header is read;
 *     on HDFS or an object store, 65536 turns a GGUF header's dozens of small reads into one or
 *     two requests, fetching up to that much past the header: {@code
 *     dev.rea.spark.hadoop.PositionedReadChannel})
 */
public record ScanOptions(HashMode hash, boolean listSkipped, int filesPerTask, int readAhead)
    implements Serializable {
  /** Files per task by default. */
  public static final int DEFAULT_FILES_PER_TASK = 1000;

  public ScanOptions {
    Objects.requireNonNull(hash, "hash");
    if (filesPerTask < 1) {
      throw new IllegalArgumentException("filesPerTask must be at least 1: " + filesPerTask);
    }
    if (readAhead < 0) {
      throw new IllegalArgumentException("readAhead must not be negative: " + readAhead);
    }
  }

  /**
   * @return header hash, skipped files counted but not listed, {@value #DEFAULT_FILES_PER_TASK}
   *     files per task, no read-ahead
   */
  public static ScanOptions defaults() {
    return new ScanOptions(HashMode.HEADER, false, DEFAULT_FILES_PER_TASK, 0);
  }

  /** @return a copy with this hash mode */
  public ScanOptions withHash(HashMode value) {
    return new ScanOptions(value, listSkipped, filesPerTask, readAhead);
  }

  /** @return a copy that lists skipped files or not */
  public ScanOptions withListSkipped(boolean value) {
    return new ScanOptions(hash, value, filesPerTask, readAhead);
  }

  /** @return a copy with this many files per task */
  public ScanOptions withFilesPerTask(int value) {
    return new ScanOptions(hash, listSkipped, value, readAhead);
  }

  /** @return a copy with this read-ahead in bytes */
  public ScanOptions withReadAhead(int value) {
    return new ScanOptions(hash, listSkipped, filesPerTask, value);
  }
}
