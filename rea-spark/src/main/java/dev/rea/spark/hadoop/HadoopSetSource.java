package dev.rea.spark.hadoop;

import dev.rea.core.HubCache;
import dev.rea.core.options.HashMode;
import dev.rea.core.source.SeekableSource;
import dev.rea.core.source.SetSource;
import dev.rea.core.source.SourceIdentity;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.AccessControlException;
import org.jspecify.annotations.Nullable;

/**
 * One directory of a Hadoop file system as REA's {@link SetSource} (CONTRACT sections 9 and 14),
 * for inspecting a model set there with {@code Rea.inspectSet(SetSource, name, options)}: each
 * member is opened as a {@link HadoopSource} (its status handed to {@code openFile}, read by
 * positioned reads, its identity observed before and after), one at a time: opening the next
 * closes the one before, and {@link #close} the last.
 *
 * <p>The job follows no symbolic link but a Hugging Face cache's snapshot link to its own blob
 * ({@link HadoopListing}, {@link HubCache}), and a set's member is no exception: on the local
 * file system, whose Hadoop client reads through links, a member that is any other link is not
 * opened (an {@code io_error} naming it), so an index cannot lead the job to a file outside its
 * inputs (docs/scale.md, "A set's link that leads out of the PATHs").
 *
 * <p>Hadoop's "no such file" and "access denied" become {@link NoSuchFileException} and {@link
 * AccessDeniedException}, which REA reports as {@code not_found} and {@code permission_denied}
 * naming the member. Not thread-safe: one set inspection uses it.
 */
public final class HadoopSetSource implements SetSource, Closeable {
  private final FileSystem fs;
  private final Path dir;
  private final HashMode hash;
  private final int readAhead;
  private final Map<String, SourceIdentity> opened = new HashMap<>();
  private @Nullable HadoopSource current;
  private long fetched;

  /**
   * @param fs the file system holding {@code dir} ({@link HadoopSource#fileSystem})
   * @param dir the directory, qualified (its text is how members are recorded)
   * @param hash the hash mode (selects the read policy)
   * @param readAhead as {@link HadoopSource#open}
   */
  public HadoopSetSource(FileSystem fs, Path dir, HashMode hash, int readAhead) {
    this.fs = fs;
    this.dir = dir;
    this.hash = hash;
    this.readAhead = readAhead;
  }

  @Override
  public String directory() {
    return dir.toString();
  }

  @Override
  public List<String> list() throws IOException {
    List<String> out = new ArrayList<>();
    for (FileStatus s : translate(() -> fs.listStatus(dir), dir)) {
      if (s.isFile() && !isLocalLink(s.getPath())) {
        out.add(s.getPath().getName());
      }
    }
    return out;
  }

  @Override
  public long size(String name) throws IOException {
    Path p = new Path(dir, name);
    refuseLink(p);
    return translate(() -> fs.getFileStatus(p), p).getLen();
  }

  @Override
  public SeekableSource open(String name) throws IOException {
    closeCurrent();
    Path p = new Path(dir, name);
    refuseLink(p);
    FileStatus status = translate(() -> fs.getFileStatus(p), p);
    if (!status.isFile()) {
      throw new IOException("not a regular file: " + p);
    }
    HadoopSource src = HadoopSource.open(fs, status, hash, readAhead);
    current = src;
    opened.put(name, src.identity());
    return src;
  }

  /**
   * @param name a file name in the directory
   * @return the identity it had when it was opened (length and modification time), or null when
   *     it was not opened
   */
  public @Nullable SourceIdentity identityOf(String name) {
    return opened.get(name);
  }

  /** @return bytes fetched from the file system by every file opened so far */
  public long bytesFetched() {
    return fetched + (current == null ? 0 : current.bytesFetched());
  }

  @Override
  public void close() throws IOException {
    closeCurrent();
  }

  private void closeCurrent() throws IOException {
    HadoopSource c = current;
    if (c != null) {
      current = null;
      fetched += c.bytesFetched();
      c.close();
    }
  }

  /** @throws FileSystemException when {@code p} is a symbolic link of the local file system */
  private void refuseLink(Path p) throws IOException {
    if (isLocalLink(p)) {
      throw new FileSystemException(
          p.toString(), null,
          "a symbolic link: the Spark job follows no links but a Hugging Face cache's"
              + " snapshot links to its blobs");
    }
  }

  /**
   * @return whether {@code p} is on the local file system and a symbolic link there, other than a
   *     Hugging Face cache's snapshot link to its repository's blob
   */
  private boolean isLocalLink(Path p) {
    if (!"file".equals(fs.getUri().getScheme())) {
      return false; // HDFS keeps links off by default; object stores have none
    }
    try {
      java.nio.file.Path local = Paths.get(fs.makeQualified(p).toUri());
      return Files.isSymbolicLink(local) && HubCache.blobOf(local) == null;
    } catch (RuntimeException e) {
      return false; // not a path of this machine's file system
    }
  }

  /** A Hadoop call. */
  @FunctionalInterface
  private interface Call<T> {
    T run() throws IOException;
  }

  /** Runs a call, typing Hadoop's missing-file and permission failures as {@code java.nio}'s. */
  private static <T> T translate(Call<T> call, Path p) throws IOException {
    try {
      return call.run();
    } catch (FileNotFoundException e) {
      NoSuchFileException x = new NoSuchFileException(p.toString());
      x.initCause(e);
      throw x;
    } catch (AccessControlException e) {
      AccessDeniedException x = new AccessDeniedException(p.toString(), null, e.getMessage());
      x.initCause(e);
      throw x;
    }
  }
}
