package dev.rea.spark.hadoop;

import dev.rea.core.FileProbe;
import dev.rea.core.options.HashMode;
import dev.rea.core.source.SeekableSource;
import dev.rea.core.source.SourceIdentity;
import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.time.Instant;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.functional.FutureIO;

/**
 * A file on any Hadoop file system (HDFS, S3A, ABFS, GCS, the local one), opened for REA's
 * inspection ({@link dev.rea.core.Rea#inspect(SeekableSource, dev.rea.core.options.InspectOptions)},
 * CONTRACT sections 10 and 14).
 *
 * <p>Identity: the length and modification time of a {@link FileStatus}, observed by {@code
 * getFileStatus} before the file is opened ({@link #identity()}) and again after the read
 * ({@link #identityNow()}); any difference makes the inspection fail with {@code
 * execution_failure} / {@code target_changed}. Hadoop file systems have no device or inode.
 *
 * <p>Reads: the stream is opened with the status already known ({@code openFile(path)
 * .withFileStatus(status)}, so object stores skip another metadata request) and the read policy
 * {@code random} for header reads ({@code whole-file} for a full hash), and then read only by
 * positioned reads ({@link PositionedReadChannel}). What one file costs: {@code getFileStatus},
 * open, one or two small reads for content detection, the header reads, {@code getFileStatus}
 * again.
 *
 * <p>The local file system is read through Hadoop's raw local file system, without the checksum
 * layer ({@code .crc} files are a Hadoop writer's, not a model's, and the layer reads whole
 * checksum chunks around what is asked).
 *
 * <p>Not thread-safe; the caller closes it.
 */
public final class HadoopSource implements SeekableSource, Closeable {
  /** Leading bytes read first for content detection: enough for {@link FileProbe#headLength}. */
  static final int FIRST_BYTES = 8;

  /** The largest read-ahead, in bytes (16 MiB): a window is one buffer per open file. */
  public static final int MAX_READ_AHEAD = 16 << 20;

  private final FileSystem fs;
  private final Path path;
  private final String name;
  private final SourceIdentity before;
  private final FSDataInputStream stream;
  private final PositionedReadChannel channel;

  private HadoopSource(FileSystem fs, FileStatus status, FSDataInputStream stream, int readAhead) {
    this.fs = fs;
    this.path = status.getPath();
    this.name = path.toString();
    this.before = identityOf(status);
    this.stream = stream;
    this.channel = new PositionedReadChannel(stream, status.getLen(), readAhead);
  }

  /**
   * The file system that holds {@code path}, the local one without its checksum layer.
   *
   * @param path a path or URI ({@code hdfs://nn/models/a.gguf}, {@code file:/models/a.gguf})
   * @param conf the Hadoop configuration
   * @return the (cached) file system
   * @throws IOException when the file system cannot be reached or its scheme is unknown
   */
  public static FileSystem fileSystem(Path path, Configuration conf) throws IOException {
    FileSystem fs = path.getFileSystem(conf);
    return fs instanceof LocalFileSystem local ? local.getRawFileSystem() : fs;
  }

  /**
   * Opens a regular file whose status the caller has just observed.
   *
   * @param fs the file system that holds it ({@link #fileSystem})
   * @param status its status from {@code fs.getFileStatus}: a regular file (its qualified path is
   *     the name REA records)
   * @param hash the hash mode the file will be inspected with (selects the read policy)
   * @param readAhead bytes to fetch at once ({@link PositionedReadChannel}); 0 fetches exactly
   *     what REA asks for, never past the header unless {@code hash} is full
   * @return the open source
   * @throws IOException when it cannot be opened
   * @throws IllegalArgumentException when {@code status} is not a regular file
   */
  public static HadoopSource open(FileSystem fs, FileStatus status, HashMode hash, int readAhead)
      throws IOException {
    if (!status.isFile()) {
      throw new IllegalArgumentException("not a regular file: " + status.getPath());
    }
    if (readAhead < 0 || readAhead > MAX_READ_AHEAD) {
      throw new IllegalArgumentException("read-ahead " + readAhead);
    }
    String policy =
        hash == HashMode.FULL
            ? Options.OpenFileOptions.FS_OPTION_OPENFILE_READ_POLICY_WHOLE_FILE
            : Options.OpenFileOptions.FS_OPTION_OPENFILE_READ_POLICY_RANDOM;
    FSDataInputStream in =
        FutureIO.awaitFuture(
            fs.openFile(status.getPath())
                .withFileStatus(status)
                .opt(Options.OpenFileOptions.FS_OPTION_OPENFILE_READ_POLICY, policy)
                .build());
    return new HadoopSource(fs, status, in, readAhead);
  }

  /**
   * Reads the first bytes (8, then as many as {@link FileProbe#headLength} says: never past a
   * model's header) and says what they show. The bytes are kept, so the inspection that follows
   * does not fetch them again.
   *
   * @return what the first bytes show
   * @throws IOException when a read fails
   */
  public FileProbe probe() throws IOException {
    long size = before.size();
    byte[] first = channel.readHead(FIRST_BYTES);
    byte[] head = channel.readHead(FileProbe.headLength(first, first.length, size));
    return FileProbe.of(head, head.length, size);
  }

  /** @return the file's qualified path ({@code file:/models/a.gguf}, {@code hdfs://nn/...}) */
  @Override
  public String name() {
    return name;
  }

  @Override
  public SeekableByteChannel channel() {
    return channel;
  }

  @Override
  public SourceIdentity identity() {
    return before;
  }

  /**
   * @return the identity from a new {@code getFileStatus}
   * @throws IOException when the status cannot be had (the file was removed, say)
   */
  @Override
  public SourceIdentity identityNow() throws IOException {
    return identityOf(fs.getFileStatus(path));
  }

  /** @return bytes fetched from the file system so far */
  public long bytesFetched() {
    return channel.bytesFetched();
  }

  @Override
  public void close() throws IOException {
    channel.close();
    stream.close();
  }

  /** @return a status's length and modification time (milliseconds, as Hadoop keeps it) */
  static SourceIdentity identityOf(FileStatus status) {
    Objects.requireNonNull(status, "status");
    return SourceIdentity.of(status.getLen(), Instant.ofEpochMilli(status.getModificationTime()));
  }
}
