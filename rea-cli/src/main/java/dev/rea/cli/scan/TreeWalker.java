package dev.rea.cli.scan;

import dev.rea.core.HubCache;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.FileIdentity;
import dev.rea.core.options.Cancellation;
import dev.rea.core.text.FileNames;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Walks directory trees depth first, streaming: it holds one open directory listing per level
 * of depth (one file descriptor each) and nothing per file, and hands each regular file to the
 * {@link UnitGrouping} as it is listed. Symbolic links are never followed, except a PATH given
 * on the command line itself (as {@code find -H} does) and, in a Hugging Face cache, a snapshot's
 * link to its repository's blob, whose {@code blobs/} is then not walked ({@link HubCache}): a
 * link found below is reported as
 * skipped ({@code not_regular_file}, naming its target), and so are FIFOs, sockets and devices,
 * unless the grouping takes the entry ({@link UnitGrouping.DirectoryUnits#other}: a safetensors
 * index that is a link or a special file).
 * A directory that is the same (device and inode) as one of its ancestors (a bind mount looping
 * back) is reported as skipped and not walked again.
 *
 * <p>A directory that cannot be listed is reported as failed ({@code permission_denied}, or
 * {@code io_error} naming the reason) and the walk goes on with the rest of the tree; one that
 * fails part way is reported the same way after the entries listed before the failure. A file
 * or directory that vanishes between being listed and being examined is not reported (a later
 * scan would not find it either).
 *
 * <p>One walker runs on one thread; it checks the cancellation before each entry.
 */
public final class TreeWalker {
  /** What the walk finds. Called on the walking thread. */
  public interface Listener {
    /**
     * @param unit a unit from the grouping
     * @throws InterruptedException when handing it over was interrupted
     */
    void unit(ScanUnit unit) throws InterruptedException;

    /**
     * An entry that is not inspected: a symbolic link, a special file, a looping directory.
     *
     * @param path the entry
     * @param identity its own identity (of the link itself, for a link)
     * @param why {@code target_unavailable} / {@code not_regular_file}, saying what it is
     * @throws InterruptedException when handing it over was interrupted
     */
    void skipped(Path path, FileIdentity identity, ReaException why) throws InterruptedException;

    /**
     * A directory that could not be listed (or examined), wholly or in part.
     *
     * @param directory the directory
     * @param identity its identity as observed when it was found
     * @param why {@code permission_denied} or {@code io_error}, with the path and the reason
     * @throws InterruptedException when handing it over was interrupted
     */
    void failed(Path directory, FileIdentity identity, ReaException why)
        throws InterruptedException;
  }

  /** Opens a directory's listing: {@link Files#newDirectoryStream(Path)}, or a test's double. */
  @FunctionalInterface
  public interface Lister {
    /** The file system's listing. */
    Lister SYSTEM = Files::newDirectoryStream;

    /**
     * @param directory the directory
     * @return its listing
     * @throws IOException when it cannot be listed
     */
    DirectoryStream<Path> open(Path directory) throws IOException;
  }

  private final UnitGrouping grouping;
  private final Listener listener;
  private final Cancellation cancellation;
  private final Lister lister;
  private final BlobIdentity blobs;

  /**
   * How the walk observes the blob a Hugging Face snapshot link names ({@link
   * dev.rea.core.Rea#observeRegularFile} through the scan's confined front door).
   */
  @FunctionalInterface
  public interface BlobIdentity {
    /** Observes by path, with {@code blobs/} checked around the blob's {@code lstat}. */
    BlobIdentity BY_PATH = TreeWalker::blobByPath;

    /**
     * @param link the snapshot's link
     * @param blob the blob it names ({@link HubCache#blobOf})
     * @return the blob's identity, or null when it is not a regular file (or changed meanwhile)
     * @throws IOException when it cannot be examined
     */
    @Nullable FileIdentity observe(Path link, Path blob) throws IOException;
  }

  /**
   * @param grouping turns each directory's regular files into units
   * @param listener receives units and reports
   * @param cancellation stops the walk (checked before each entry)
   * @param lister opens listings ({@link Lister#SYSTEM})
   */
  public TreeWalker(
      UnitGrouping grouping, Listener listener, Cancellation cancellation, Lister lister) {
    this(grouping, listener, cancellation, lister, BlobIdentity.BY_PATH);
  }

  /**
   * As {@link #TreeWalker(UnitGrouping, Listener, Cancellation, Lister)}, observing snapshot
   * blobs with {@code blobs}.
   */
  public TreeWalker(
      UnitGrouping grouping,
      Listener listener,
      Cancellation cancellation,
      Lister lister,
      BlobIdentity blobs) {
    this.grouping = grouping;
    this.listener = listener;
    this.cancellation = cancellation;
    this.lister = lister;
    this.blobs = blobs;
  }

  /** One directory being listed. */
  private static final class Frame implements AutoCloseable {
    final Path dir;
    final FileStat stat;
    final DirectoryStream<Path> stream;
    final Iterator<Path> entries;
    final UnitGrouping.DirectoryUnits units;

    Frame(Path dir, FileStat stat, DirectoryStream<Path> stream, UnitGrouping.DirectoryUnits units) {
      this.dir = dir;
      this.stat = stat;
      this.stream = stream;
      this.entries = stream.iterator();
      this.units = units;
    }

    @Override
    public void close() {
      try {
        stream.close();
      } catch (IOException ignored) {
        // A listing opened for reading only: nothing was written that closing could lose.
      }
    }
  }

  /**
   * Walks the PATHs in order, each as {@link #walk(Path)} does, except that PATHs that are regular
   * files are held and handed to the grouping once the others were walked, those of one
   * directory (as spelled) together as the files of one listing: so {@code rea scan
   * d/model.safetensors.index.json d/model-00001-of-00002.safetensors} (a shell glob of a
   * checkpoint's directory) makes one set unit whose shard is no unit of its own, as the walk of
   * {@code d} would. The file PATHs held are those the command line gives.
   *
   * @param roots absolute paths
   * @throws InterruptedException when handing something over was interrupted
   */
  public void walk(List<Path> roots) throws InterruptedException {
    Map<Path, List<ListedFile>> files = new LinkedHashMap<>();
    for (Path root : roots) {
      if (cancellation.isCancelled()) {
        return;
      }
      ListedFile file = walkOrFile(root);
      if (file != null) {
        files.computeIfAbsent(parentOf(root), k -> new ArrayList<>()).add(file);
      }
    }
    for (Map.Entry<Path, List<ListedFile>> e : files.entrySet()) {
      if (cancellation.isCancelled()) {
        return;
      }
      UnitGrouping.DirectoryUnits units = grouping.givenFiles(e.getKey());
      for (ListedFile f : e.getValue()) {
        units.file(f, listener::unit);
      }
      units.end(listener::unit);
    }
  }

  /**
   * Walks one PATH: a directory (its whole tree), a regular file (one unit), or anything else
   * (reported as skipped). A symbolic link given as PATH is followed.
   *
   * @param root an absolute path
   * @throws InterruptedException when handing something over was interrupted
   */
  public void walk(Path root) throws InterruptedException {
    walk(List.of(root));
  }

  /**
   * Walks a directory PATH, reports a PATH that cannot be examined or is not a regular file,
   * and returns a regular file PATH for its directory's grouping.
   *
   * @return the PATH as a listed file when it is a regular file, else null
   */
  private @Nullable ListedFile walkOrFile(Path root) throws InterruptedException {
    FileStat stat;
    try {
      stat = FileStat.of(root, true);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      FileIdentity unknown = FileIdentity.observed(null, null, 0, java.time.Instant.EPOCH);
      listener.failed(root, unknown, failure(root, "examining", e));
      return null;
    }
    switch (stat.type()) {
      case REGULAR -> {
        return new ListedFile(root, stat.identity());
      }
      case DIRECTORY -> walkTree(root, stat);
      default -> listener.skipped(root, stat.identity(), special(root));
    }
    return null;
  }

  private static Path parentOf(Path p) {
    Path parent = p.getParent();
    return parent == null ? p : parent;
  }

  private void walkTree(Path root, FileStat rootStat) throws InterruptedException {
    Deque<Frame> stack = new ArrayDeque<>();
    try {
      @Nullable Frame first = open(root, rootStat, false);
      if (first != null) {
        stack.push(first);
      }
      while (!stack.isEmpty()) {
        if (cancellation.isCancelled()) {
          return;
        }
        Frame f = stack.peek();
        Path entry = next(f);
        if (entry == null) {
          stack.pop().close();
          f.units.end(listener::unit);
          continue;
        }
        FileStat stat;
        try {
          stat = FileStat.of(entry, false);
        } catch (NoSuchFileException | NotDirectoryException gone) {
          continue;
        } catch (IOException e) {
          // A directory that can be read but not searched lists names it cannot examine: one
          // line for the directory, not one per name.
          listener.failed(f.dir, f.stat.identity(), failure(f.dir, "examining the entries of", e));
          stack.pop().close();
          f.units.end(listener::unit);
          continue;
        }
        FileIdentity held = replacedOnThePath(f, entry, stat);
        if (held != null) {
          listener.failed(entry, held, changedUnderTheWalk(entry));
          continue;
        }
        if (FileNames.undecodable(entry)) {
          // A line of its own: a failed model is never hidden behind another that reads alike.
          listener.failed(entry, stat.identity(), FileNames.undecodableName(
              entry, "so no output can name this entry and others may read alike: not read"));
          continue;
        }
        switch (stat.type()) {
          case REGULAR -> f.units.file(new ListedFile(entry, stat.identity()), listener::unit);
          case DIRECTORY -> {
            if (HubCache.isBlobs(entry)) {
              listener.skipped(entry, stat.identity(), cacheBlobs(entry));
            } else {
              descend(stack, entry, stat);
            }
          }
          default -> otherEntry(f, entry, stat);
        }
      }
    } finally {
      for (Frame f : stack) {
        f.close();
      }
    }
  }

  /**
   * An entry that is neither a regular file nor a directory: an index the grouping takes (read
   * through when it is a link), a Hugging Face cache's snapshot link to its blob (a file under
   * the link's name), or skipped.
   */
  private void otherEntry(Frame f, Path entry, FileStat stat) throws InterruptedException {
    if (f.units.other(entry, stat.identity())) {
      return;
    }
    ListedFile snapshotFile = snapshotFile(entry, stat);
    if (snapshotFile != null) {
      f.units.file(snapshotFile, listener::unit);
      return;
    }
    ReaException why = stat.type() == FileStat.Type.SYMBOLIC_LINK ? link(entry) : special(entry);
    listener.skipped(entry, stat.identity(), why);
  }

  /**
   * @return a Hugging Face cache's snapshot link to its repository's blob ({@link HubCache}) as a
   *     file named by the link, with the blob's identity; else null
   */
  private @Nullable ListedFile snapshotFile(Path entry, FileStat stat) {
    Path blob = stat.type() == FileStat.Type.SYMBOLIC_LINK ? HubCache.blobOf(entry) : null;
    if (blob == null) {
      return null;
    }
    try {
      FileIdentity id = blobs.observe(entry, blob);
      return id == null ? null : new ListedFile(entry, id);
    } catch (IOException | SecurityException changedMeanwhile) {
      return null;
    }
  }

  private static @Nullable FileIdentity blobByPath(Path entry, Path blob) throws IOException {
    Path blobs = blob.getParent();
    if (blobs == null) {
      return null;
    }
    try {
      // blobs/ examined around the blob, through no link: a blobs/ swapped for a link to
      // elsewhere must not lend the walk an outside file's identity.
      FileStat before = FileStat.of(blobs, false);
      FileStat b = FileStat.of(blob, false);
      FileStat after = FileStat.of(blobs, false);
      boolean same =
          before.type() == FileStat.Type.DIRECTORY
              && after.type() == FileStat.Type.DIRECTORY
              && before.sameFile(after);
      return same && b.type() == FileStat.Type.REGULAR ? b.identity() : null;
    } catch (SecurityException changedMeanwhile) {
      return null;
    }
  }

  private static ReaException cacheBlobs(Path blobs) {
    return ReaException.builder(Constraint.NOT_REGULAR_FILE, HubCache.BLOBS_SKIPPED)
        .path(blobs.toString())
        .build();
  }

  /** Pushes the directory, unless it loops back to an ancestor or cannot be opened. */
  private void descend(Deque<Frame> stack, Path dir, FileStat stat) throws InterruptedException {
    for (Frame ancestor : stack) {
      if (ancestor.stat.sameFile(stat)) {
        listener.skipped(
            dir,
            stat.identity(),
            ReaException.builder(
                    Constraint.NOT_REGULAR_FILE,
                    "a directory that is its own ancestor "
                        + ancestor.dir
                        + " (same device and inode: a bind mount or a file system loop); not"
                        + " walked again")
                .path(dir.toString())
                .diagnostic("ancestor", ancestor.dir.toString())
                .build());
        return;
      }
    }
    Frame child = open(dir, stat, true);
    if (child != null) {
      stack.push(child);
    }
  }

  /**
   * @param below whether {@code dir} was found by the walk (not a PATH, which may be a link
   *     followed as {@code find -H} follows it): its listing must then be the directory the walk
   *     examined
   * @return the directory's listing, or null (reported, or vanished)
   */
  private @Nullable Frame open(Path dir, FileStat stat, boolean below)
      throws InterruptedException {
    DirectoryStream<Path> stream;
    try {
      stream = lister.open(dir);
    } catch (NoSuchFileException | NotDirectoryException gone) {
      return null;
    } catch (IOException e) {
      listener.failed(dir, stat.identity(), failure(dir, "listing", e));
      return null;
    }
    if (below && stream instanceof SecureDirectoryStream<Path> secure) {
      // The directory was examined by name without following a link, then opened by name: if a
      // link was swapped in between, the listing is of the link's target, outside the PATHs.
      // The open listing's own identity (fstat) tells.
      Object opened;
      try {
        opened = secure.getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey();
      } catch (IOException e) {
        opened = null;
      }
      String examined = fileKey(stat.identity());
      if (examined != null && opened != null && !examined.equals(opened.toString())) {
        closeQuietly(stream);
        listener.failed(dir, stat.identity(), changedUnderTheWalk(dir));
        return null;
      }
    }
    return new Frame(dir, stat, stream, grouping.directory(dir));
  }

  /**
   * For an entry of a listing that is an open {@link SecureDirectoryStream}: whether the entry as
   * examined by its path ({@code stat}) is the entry the listing's directory holds under its name
   * (examined relative to the open directory, so through no link). They differ when a directory
   * on the path was replaced by a link since the listing was opened.
   *
   * @return null when they are the same file (or this cannot be told); else the identity of what
   *     the directory holds under the name (nothing of the file the path now leads to is
   *     reported), with device and inode null when it is gone
   */
  private static @Nullable FileIdentity replacedOnThePath(Frame f, Path entry, FileStat stat) {
    if (!(f.stream instanceof SecureDirectoryStream<Path> secure)) {
      return null;
    }
    String examined = fileKey(stat.identity());
    Path name = entry.getFileName();
    if (examined == null || name == null) {
      return null;
    }
    java.nio.file.attribute.BasicFileAttributes held;
    try {
      held =
          secure
              .getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
              .readAttributes();
    } catch (IOException e) {
      return FileIdentity.observed(null, null, 0, java.time.Instant.EPOCH);
    }
    Object key = held.fileKey();
    if (key == null || examined.equals(key.toString())) {
      return null;
    }
    java.util.regex.Matcher m = UNIX_FILE_KEY.matcher(key.toString());
    boolean parsed = m.matches();
    return FileIdentity.observed(
        parsed ? Long.parseUnsignedLong(m.group(1), 16) : null,
        parsed ? Long.parseUnsignedLong(m.group(2)) : null,
        held.size(),
        held.lastModifiedTime().toInstant());
  }

  /** The JDK's Unix file key as {@link #fileKey} spells it: device in hex, inode in decimal. */
  private static final java.util.regex.Pattern UNIX_FILE_KEY =
      java.util.regex.Pattern.compile("\\(dev=([0-9a-f]+),ino=([0-9]+)\\)");

  /**
   * @return the identity's device and inode as the JDK's Unix file key prints them ({@code
   *     (dev=fe00,ino=2482187)}: device in hex), or null when either is unknown
   */
  static @Nullable String fileKey(FileIdentity identity) {
    String device = identity.device();
    String inode = identity.inode();
    if (device == null || inode == null) {
      return null;
    }
    try {
      return "(dev=" + Long.toHexString(Long.parseUnsignedLong(device)) + ",ino=" + inode + ")";
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static ReaException changedUnderTheWalk(Path p) {
    return ReaException.builder(
            Constraint.TARGET_CHANGED,
            "a directory on the path was replaced while the walk examined it (a symbolic link"
                + " swapped in for a directory leads out of the PATHs): not read")
        .path(p.toString())
        .build();
  }

  private static void closeQuietly(DirectoryStream<Path> stream) {
    try {
      stream.close();
    } catch (IOException ignored) {
      // A listing opened for reading only: nothing was written that closing could lose.
    }
  }

  /** @return the next entry, or null at the end of the listing (or after a reported failure) */
  private @Nullable Path next(Frame f) throws InterruptedException {
    try {
      return f.entries.hasNext() ? f.entries.next() : null;
    } catch (DirectoryIteratorException e) {
      IOException cause = e.getCause();
      listener.failed(
          f.dir, f.stat.identity(), failure(f.dir, "listing", cause == null ? new IOException(e) : cause));
      return null;
    }
  }

  /**
   * @return {@code permission_denied} for a refused access, else {@code io_error} with the path
   *     and the reason in {@code details.diagnostics} (CONTRACT section 6)
   */
  static ReaException failure(Path path, String doing, IOException e) {
    String reason = reason(e);
    if (e instanceof AccessDeniedException) {
      return ReaException.builder(
              Constraint.PERMISSION_DENIED, "permission denied " + doing + " the directory " + path)
          .path(path.toString())
          .diagnostic("reason", reason)
          .cause(e)
          .build();
    }
    return ReaException.builder(
            Constraint.IO_ERROR, doing + " the directory " + path + " failed: " + reason)
        .path(path.toString())
        .diagnostic("path", path.toString())
        .diagnostic("reason", reason)
        .diagnostic("exception", e.getClass().getName())
        .cause(e)
        .build();
  }

  /** @return the operating system's reason ({@code Permission denied}, {@code Input/output error}) */
  static String reason(IOException e) {
    if (e instanceof FileSystemException fse && fse.getReason() != null) {
      return fse.getReason();
    }
    return String.valueOf(e.getMessage());
  }

  /** @return a link's own text (where it points, unresolved), or "?" when it cannot be read */
  static String linkTarget(Path link) {
    try {
      return Files.readSymbolicLink(link).toString();
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return "?";
    }
  }

  private static ReaException link(Path link) {
    String target = linkTarget(link);
    return ReaException.builder(
            Constraint.NOT_REGULAR_FILE,
            "a symbolic link to "
                + target
                + ": rea scan does not follow links (scan the target itself to include it)")
        .path(link.toString())
        .diagnostic("link_target", target)
        .build();
  }

  private static ReaException special(Path p) {
    return ReaException.builder(
            Constraint.NOT_REGULAR_FILE,
            "not a regular file (a FIFO, socket or device): not read")
        .path(p.toString())
        .build();
  }
}
