package dev.rea.spark.hadoop;

import dev.rea.core.HubCache;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.security.AccessControlException;
import org.jspecify.annotations.Nullable;

/**
 * Lists what lies under the paths a scan was given (CONTRACT section 10: "walks each directory
 * (symbolic links are not followed)"), one directory level at a time ({@link #listLevel}) or a
 * whole tree ({@link #walk}), reporting every path as an {@link Entry}: a regular file to
 * inspect, something skipped (a symbolic link, a device, a pipe) or a failure (a directory that
 * cannot be read is one entry, not the end of the listing).
 *
 * <p>The local file system is walked with {@code java.nio.file} without following links below an
 * input (an input that is itself a link is followed, as {@code rea scan} follows a PATH): Hadoop's
 * local file system reports a link as what it points to (symbolic links are disabled in Hadoop
 * by default), so it would descend into linked directories. A Hugging Face cache is read as
 * {@code rea scan} reads it ({@link HubCache}): a snapshot's link to its repository's blob is a
 * file under the link's name, and the repository's {@code blobs/} is one skipped entry. Other file systems are walked with
 * {@code listStatusIterator}, one request per directory (HDFS reports links as links and object
 * stores have none); their entries that are links are skipped.
 */
public final class HadoopListing {
  /** What a listed path is. */
  public enum Kind {
    /** A regular file: inspect it. */
    FILE,
    /** Not inspected: a symbolic link (not followed), a device, a pipe, a socket. */
    SKIPPED,
    /** The path or a directory under it could not be listed. */
    FAILED,
    /** A directory still to be listed (only from {@link #listLevel}). */
    DIRECTORY
  }

  /**
   * One listed path.
   *
   * @param path the qualified path ({@code file:/models/a.gguf})
   * @param kind what it is
   * @param constraint for {@code SKIPPED} and {@code FAILED}: the CONTRACT section 6 constraint
   *     ({@code not_regular_file}, {@code not_found}, {@code permission_denied}, {@code io_error})
   * @param message for {@code SKIPPED} and {@code FAILED}: why, in a sentence
   */
  public record Entry(
      String path, Kind kind, @Nullable String constraint, @Nullable String message) {
    static Entry file(String path) {
      return new Entry(path, Kind.FILE, null, null);
    }
  }

  private HadoopListing() {}

  /**
   * Lists one level: what {@code path} is, and when it is a directory, its children (files,
   * skipped entries and subdirectories still to list).
   *
   * @param path the path to list
   * @param conf the Hadoop configuration
   * @return the entries; a path that cannot be listed is one {@code FAILED} entry
   */
  public static List<Entry> listLevel(String path, Configuration conf) {
    List<Entry> out = new ArrayList<>();
    try {
      FileSystem fs = HadoopSource.fileSystem(new Path(path), conf);
      Path p = fs.makeQualified(new Path(path));
      if (fs instanceof RawLocalFileSystem) {
        localLevel(p, out);
        return out;
      }
      FileStatus st = fs.getFileStatus(p);
      if (!st.isDirectory()) {
        out.add(classify(st));
        return out;
      }
      RemoteIterator<FileStatus> it = fs.listStatusIterator(st.getPath());
      while (it.hasNext()) {
        FileStatus child = it.next();
        out.add(
            child.isDirectory()
                ? new Entry(child.getPath().toString(), Kind.DIRECTORY, null, null)
                : classify(child));
      }
    } catch (IOException | RuntimeException e) {
      out.add(failure(path, e));
    }
    return out;
  }

  /**
   * Walks the whole tree under {@code path} without following links.
   *
   * @param path a directory or file
   * @param conf the Hadoop configuration
   * @param sink receives every file, skipped and failed entry (never {@code DIRECTORY})
   */
  public static void walk(String path, Configuration conf, Consumer<Entry> sink) {
    List<String> pending = new ArrayList<>();
    pending.add(path);
    while (!pending.isEmpty()) {
      String next = pending.remove(pending.size() - 1);
      for (Entry e : listLevel(next, conf)) {
        if (e.kind() == Kind.DIRECTORY) {
          pending.add(e.path());
        } else {
          sink.accept(e);
        }
      }
    }
  }

  private static Entry classify(FileStatus st) {
    String path = st.getPath().toString();
    if (st.isFile()) {
      return Entry.file(path);
    }
    return new Entry(
        path,
        Kind.SKIPPED,
        "not_regular_file",
        st.isSymlink()
            ? "a symbolic link: links are not followed"
            : "not a regular file or directory");
  }

  /**
   * One level of the local file system, links below {@code p} not followed. {@code p} itself is
   * followed when it is a link, as {@code rea scan} follows a PATH ({@code find -H}): an input
   * such as {@code ~/models} linked to a data disk is scanned, its files named under the link.
   * Only an input can be a link here: the directories below it that a walk lists are never links.
   */
  private static void localLevel(Path p, List<Entry> out) throws IOException {
    java.nio.file.Path start = Paths.get(p.toUri());
    BasicFileAttributes attrs =
        Files.readAttributes(start, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (attrs.isSymbolicLink()) {
      attrs = Files.readAttributes(start, BasicFileAttributes.class);
      if (attrs.isRegularFile()) {
        out.add(Entry.file(qualified(start)));
        return;
      }
    }
    if (!attrs.isDirectory()) {
      out.add(localEntry(start, attrs));
      return;
    }
    try (DirectoryStream<java.nio.file.Path> children = Files.newDirectoryStream(start)) {
      for (java.nio.file.Path file : children) {
        BasicFileAttributes a;
        try {
          a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
          out.add(failure(qualified(file), e));
          continue;
        }
        if (a.isDirectory()) {
          out.add(HubCache.isBlobs(file)
              ? new Entry(withoutFinalSlash(qualified(file)), Kind.SKIPPED, "not_regular_file",
                  HubCache.BLOBS_SKIPPED)
              : new Entry(qualified(file), Kind.DIRECTORY, null, null));
        } else {
          out.add(localEntry(file, a));
        }
      }
    } catch (DirectoryIteratorException e) {
      throw e.getCause();
    }
  }

  private static Entry localEntry(java.nio.file.Path file, BasicFileAttributes a) {
    String path = qualified(file);
    if (a.isRegularFile() || (a.isSymbolicLink() && HubCache.blobOf(file) != null)) {
      return Entry.file(path);
    }
    return new Entry(
        path,
        Kind.SKIPPED,
        "not_regular_file",
        a.isSymbolicLink()
            ? "a symbolic link: links are not followed"
            : "not a regular file or directory");
  }

  /**
   * @return a directory's path as a row names it, as {@code rea scan} names it: without the
   *     {@code /} that a directory's URI ends with
   */
  private static String withoutFinalSlash(String path) {
    return path.endsWith("/") && !path.endsWith(":/") ? path.substring(0, path.length() - 1) : path;
  }

  /** @return the Hadoop spelling of a local path ({@code file:/a/b}) */
  private static String qualified(java.nio.file.Path file) {
    return new Path(file.toUri()).toString();
  }

  /** @return the failure entry for a path that could not be listed */
  static Entry failure(String path, Exception e) {
    String constraint;
    if (e instanceof FileNotFoundException || e instanceof NoSuchFileException) {
      constraint = "not_found";
    } else if (e instanceof AccessControlException || e instanceof AccessDeniedException) {
      constraint = "permission_denied";
    } else {
      constraint = "io_error";
    }
    return new Entry(path, Kind.FAILED, constraint, "listing failed: " + describe(e));
  }

  /** @return the exception's class and message, for a row's error message */
  static String describe(Throwable e) {
    String m = e.getMessage();
    return e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
  }
}
