package dev.rea.core.internal.io;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.ref.Cleaner;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * {@link FileAccess} that never leaves a set of directory trees (the PATHs of {@code rea scan}):
 * a file below one of the directories is examined and opened through open directory
 * descriptors, one {@code openat(2)} per name from the directory down with {@code O_NOFOLLOW}
 * ({@link SecureDirectoryStream}), never by its path. So a directory of the tree that is swapped
 * for a symbolic link to somewhere else, even for an instant around the open, cannot make REA
 * read a file outside the trees: the name resolves inside, or the open fails.
 *
 * <p>A symbolic link met on the way (a Hugging Face snapshot's link to its blob, a set member
 * linked to a file beside it) is followed by its text, resolved against the link's directory
 * without asking the kernel (so {@code ..} is taken by name, as the directory chain holds no
 * link), and only when the result lies in one of the trees again; at most 40 links per path, as
 * Linux allows. The text is read by path, so a swap may show REA another link's text: whatever
 * it says, the file is then opened inside the trees, or not at all. A path whose link leads out
 * is examined by path ({@link #stat}: so a link to nowhere is missing and a link to a directory
 * a directory, as for a read by path) but never opened or listed.
 *
 * <p>Each directory is the one it was when this access was made: its open descriptor's {@code
 * fstat} must match the device and inode recorded then, else the operation fails. A path in no
 * tree goes to {@link FileAccess#system()}, as does every path when the platform offers no
 * {@link SecureDirectoryStream}.
 *
 * <p>Every operation runs on a daemon thread while the caller waits at most {@link
 * #TIMEOUT_MILLIS}: a FIFO swapped in for a directory makes {@code openat} block until a writer
 * comes, and Java has no {@code O_NONBLOCK} for it. An operation that completes after its caller
 * gave up closes what it opened.
 *
 * <p>Identity: device, inode, size, type and modification time come from {@code fstatat} through
 * the directory ({@code AT_SYMLINK_NOFOLLOW}); the inode change time, which that view lacks, from
 * a {@code stat} of the path, used only when that names the same device and inode.
 *
 * <p>Thread-safe.
 */
public final class ConfinedFileAccess implements FileAccess {
  /** Longest wait for one operation, in milliseconds: a stalled file system or a FIFO. */
  static final long TIMEOUT_MILLIS = 60_000;

  /** Links followed in one path before giving up (Linux's {@code MAXSYMLINKS}). */
  private static final int MAX_LINKS = 40;

  /** The JDK's Unix file key as it prints it: {@code (dev=fe00,ino=2482187)}, device in hex. */
  private static final Pattern UNIX_FILE_KEY = Pattern.compile("\\(dev=([0-9a-f]+),ino=([0-9]+)\\)");

  private static final ExecutorService WORKERS =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(() -> {
              markBounded();
              r.run();
            }, "rea-confined");
            t.setDaemon(true);
            return t;
          });

  /** Whether this thread's blocking is bounded by whoever waits for it. */
  private static final ThreadLocal<Boolean> BOUNDED = ThreadLocal.withInitial(() -> Boolean.FALSE);

  /**
   * Marks the calling thread as one whose caller waits for it with a bound and gives up on it
   * when it blocks ({@code GuardedOpen}'s openers): operations on it then run on it directly
   * rather than on a thread of their own. Call it first thing on such a thread.
   */
  public static void markBounded() {
    BOUNDED.set(Boolean.TRUE);
  }

  /**
   * A directory of the trees and its file key as observed when this access was made.
   *
   * @param strict whether the directory's own name is opened without following a link (its
   *     parent by path): for a directory REA derived, not one the caller gave
   */
  private record Root(Path dir, String key, boolean strict) {}

  /** Closes the directories kept open once the access is unreachable. */
  private static final Cleaner CLEANER = Cleaner.create();

  private final List<Root> roots;
  private final long timeoutMillis;
  private final DirectoryCache cache = new DirectoryCache();

  private ConfinedFileAccess(List<Root> roots, long timeoutMillis) {
    this.roots = roots;
    this.timeoutMillis = timeoutMillis;
    DirectoryCache c = cache;
    CLEANER.register(this, c::closeAll);
  }

  /**
   * @param directories absolute paths, each opened by its path (a symbolic link followed, as a
   *     command line's PATH is); those that are not directories now (or whose identity cannot be
   *     read) are left out, and a path below none of the trees goes to the system access
   * @param strict absolute paths of directories opened without following a link at their own
   *     name (their parent by path): a Hugging Face repository's {@code blobs/}, which a link
   *     swapped in must not turn into another tree
   * @return an access confined to the directories as they are now, or {@link FileAccess#system()}
   *     when none is left or the platform cannot open files relative to a directory
   */
  public static FileAccess of(Collection<Path> directories, Collection<Path> strict) {
    return of(directories, strict, TIMEOUT_MILLIS);
  }

  /** As {@link #of(Collection, Collection)}, with another longest wait (tests shorten it). */
  static FileAccess of(Collection<Path> directories, Collection<Path> strict, long timeoutMillis) {
    List<Root> roots = new ArrayList<>();
    List<Root> candidates = new ArrayList<>();
    for (Path d : directories) {
      candidates.add(new Root(d, "", false));
    }
    for (Path d : strict) {
      candidates.add(new Root(d, "", true));
    }
    for (Root c : candidates) {
      if (!c.dir.isAbsolute()) {
        throw new IllegalArgumentException("not an absolute path: " + c.dir);
      }
      java.util.Optional<SecureDirectoryStream<Path>> opened;
      try {
        opened = guarded(c.dir, timeoutMillis, () -> java.util.Optional.ofNullable(openUnchecked(c)),
            late -> late.ifPresent(ConfinedFileAccess::closeQuietly));
      } catch (IOException | SecurityException notADirectoryNow) {
        continue; // not a tree to confine: a file PATH, one that is gone, a link in strict
      }
      if (opened.isEmpty()) {
        return FileAccess.system();
      }
      SecureDirectoryStream<Path> secure = opened.get();
      try (secure) {
        Object key = secure.getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey();
        if (key != null && UNIX_FILE_KEY.matcher(key.toString()).matches()) {
          roots.add(new Root(c.dir, key.toString(), c.strict));
        }
      } catch (IOException | SecurityException unreadable) {
        // Left out.
      }
    }
    return roots.isEmpty()
        ? FileAccess.system()
        : new ConfinedFileAccess(List.copyOf(roots), timeoutMillis);
  }

  /**
   * Opens a tree's directory: by its path, or for a strict one its parent by path and its name
   * without following a link. Unbounded: a FIFO at a strict name blocks (callers bound it).
   *
   * @return the open directory, or null when the platform gives no {@link SecureDirectoryStream}
   */
  private static @Nullable SecureDirectoryStream<Path> openUnchecked(Root root) throws IOException {
    Path parent = root.dir.getParent();
    Path name = root.dir.getFileName();
    if (!root.strict || parent == null || name == null) {
      DirectoryStream<Path> ds = Files.newDirectoryStream(root.dir);
      if (ds instanceof SecureDirectoryStream<Path> secure) {
        return secure;
      }
      ds.close();
      return null;
    }
    BasicFileAttributes a =
        Files.readAttributes(root.dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (!a.isDirectory()) {
      throw new NotDirectoryException(root.dir.toString()); // a link, or no directory: never opened
    }
    try (DirectoryStream<Path> up = Files.newDirectoryStream(parent)) {
      if (!(up instanceof SecureDirectoryStream<Path> secure)) {
        return null;
      }
      return secure.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS);
    }
  }

  @Override
  public FileSnapshot stat(Path path) throws IOException {
    if (rootOf(path) == null) {
      return FileAccess.system().stat(path);
    }
    try {
      return statInside(path);
    } catch (LeadsOut e) {
      // What lies there is told (missing, a directory, a FIFO, a file's identity), so that the
      // verdict is the one a read by path gives; opening it is refused.
      return FileAccess.system().stat(path);
    }
  }

  /**
   * As {@link #stat}, except that a path whose link leads out of the trees fails instead of being
   * examined by path: for a caller that records what it observes, which must be nothing of a
   * file outside.
   *
   * @throws IOException as {@link #stat}, and a {@link FileSystemException} for a link that leads
   *     out
   */
  public FileSnapshot statInsideOnly(Path path) throws IOException {
    return rootOf(path) == null ? FileAccess.system().stat(path) : statInside(path);
  }

  /** A symbolic link on the path leads out of the trees. */
  private static final class LeadsOut extends FileSystemException {
    private static final long serialVersionUID = 1L;

    LeadsOut(Path path) {
      super(path.toString(), null, "a symbolic link on the path leads out of the scanned directories");
    }
  }

  @Override
  public SeekableByteChannel open(Path path) throws IOException {
    if (rootOf(path) == null) {
      return FileAccess.system().open(path);
    }
    try (Resolved r = resolve(path)) {
      if (r.attributes.isDirectory()) {
        throw new FileSystemException(path.toString(), null, "Is a directory");
      }
      SecureDirectoryStream<Path> dir = r.dir.stream;
      return guarded(
          path,
          () -> dir.newByteChannel(r.name, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)),
          ConfinedFileAccess::closeQuietly);
    }
  }

  @Override
  public List<Path> list(Path dir) throws IOException {
    Root root = null;
    for (Root r : roots) {
      if (r.dir.equals(dir)) {
        root = r;
      }
    }
    if (root == null && rootOf(dir) == null) {
      return FileAccess.system().list(dir);
    }
    // A listing of its own ("." of the open directory): a kept stream is never iterated.
    DirectoryCache.Entry e = root != null ? rootEntry(root, dir) : directory(dir);
    try {
      SecureDirectoryStream<Path> s = e.stream;
      return names(guarded(dir, () -> s.newDirectoryStream(HERE, LinkOption.NOFOLLOW_LINKS),
          ConfinedFileAccess::closeQuietly), dir);
    } finally {
      cache.release(e);
    }
  }

  /** @return how many directories are kept open now (for tests) */
  int keptOpen() {
    return cache.size();
  }

  /** The directory itself, relative to its open descriptor. */
  private static final Path HERE = Path.of(".");

  private FileSnapshot statInside(Path path) throws IOException {
    try (Resolved r = resolve(path)) {
      long[] devIno = devIno(r.attributes.fileKey());
      Long dev = devIno == null ? null : devIno[0];
      Long ino = devIno == null ? null : devIno[1];
      return SystemFileAccess.snapshot(r.attributes, dev, ino, changeTime(path, dev, ino));
    }
  }

  /**
   * @return the inode change time of what {@code path} names by path, when that is the file with
   *     this device and inode; else {@link Long#MIN_VALUE}, which no later observation of the
   *     right file equals
   */
  private static @Nullable Long changeTime(Path path, @Nullable Long dev, @Nullable Long ino) {
    if (dev == null || ino == null) {
      return null;
    }
    try {
      Map<String, Object> unix = Files.readAttributes(path, "unix:dev,ino,ctime");
      if (dev.equals(unix.get("dev")) && ino.equals(unix.get("ino"))) {
        return Objects.requireNonNull((FileTime) unix.get("ctime"), "unix:ctime")
            .to(TimeUnit.NANOSECONDS);
      }
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      // Swapped, gone or unreadable by path: the marker below.
    }
    return Long.MIN_VALUE;
  }

  /** @return the directory {@code dir} names, through the trees, in use until released */
  private DirectoryCache.Entry directory(Path dir) throws IOException {
    DirectoryCache.Entry e = cache.acquire(dir);
    if (e != null) {
      return e;
    }
    try (Resolved r = resolve(dir)) {
      if (!r.attributes.isDirectory()) {
        throw new NotDirectoryException(dir.toString());
      }
      return openBelow(r.dir, r.name, dir, dir);
    }
  }

  /** Opens a directory relative to its parent's descriptor, without following a link, and keeps it. */
  private DirectoryCache.Entry openBelow(
      DirectoryCache.Entry parent, Path name, Path childPath, Path path) throws IOException {
    SecureDirectoryStream<Path> s = parent.stream;
    SecureDirectoryStream<Path> child;
    try {
      child = guarded(path, () -> s.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS),
          ConfinedFileAccess::closeQuietly);
    } catch (IOException e) {
      throw named(e, path);
    }
    return cache.add(childPath, child);
  }

  /** @return the entries of an open listing as {@code dir} joined with each name; closes it */
  private static List<Path> names(SecureDirectoryStream<Path> ds, Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    try (ds) {
      for (Path entry : ds) {
        Path name = entry.getFileName();
        if (name != null) {
          out.add(dir.resolve(name));
        }
      }
    } catch (java.nio.file.DirectoryIteratorException e) {
      IOException cause = e.getCause();
      throw cause == null ? new IOException(e) : named(cause, dir);
    }
    return out;
  }

  /**
   * The directory holding a path's last name (in use until closed), that name, and what the
   * directory holds under it.
   */
  private final class Resolved implements AutoCloseable {
    final DirectoryCache.Entry dir;
    final Path name;
    final BasicFileAttributes attributes;

    Resolved(DirectoryCache.Entry dir, Path name, BasicFileAttributes attributes) {
      this.dir = dir;
      this.name = name;
      this.attributes = attributes;
    }

    @Override
    public void close() {
      cache.release(dir);
    }
  }

  /**
   * Walks {@code path} from its tree's directory one name at a time through open descriptors
   * (starting from the deepest directory above it already open), following links by their text
   * as long as they lead into a tree.
   *
   * @throws IOException {@link NoSuchFileException}, {@link NotDirectoryException} or {@link
   *     AccessDeniedException} naming {@code path}; a {@link FileSystemException} for a link that
   *     leads out of the trees, too many links, or a tree directory that was replaced
   */
  private Resolved resolve(Path path) throws IOException {
    Path at = path;
    for (int links = 0; links <= MAX_LINKS; links++) {
      Root root = rootOf(at);
      if (root == null) {
        throw new LeadsOut(path);
      }
      Path rel = root.dir.relativize(at);
      int n = rel.getNameCount();
      int i = n - 1;
      DirectoryCache.Entry dir = null;
      for (; i > 0 && dir == null; i--) {
        dir = cache.acquire(root.dir.resolve(rel.subpath(0, i)));
      }
      if (dir == null) {
        dir = rootEntry(root, path);
        i = 0;
      } else {
        i++; // the loop stepped past the directory it found
      }
      Path followed = null;
      try {
        for (; i < n; i++) {
          Path name = rel.getName(i);
          BasicFileAttributes a;
          try {
            a = dir.stream
                .getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                .readAttributes();
          } catch (IOException e) {
            throw named(e, path);
          }
          if (a.isSymbolicLink()) {
            followed = linkTarget(root.dir.resolve(rel.subpath(0, i + 1)), rel, i, path);
            break;
          }
          if (i == n - 1) {
            Resolved r = new Resolved(dir, name, a);
            dir = null; // handed over
            return r;
          }
          if (!a.isDirectory()) {
            throw new NotDirectoryException(path.toString());
          }
          DirectoryCache.Entry child =
              openBelow(dir, name, root.dir.resolve(rel.subpath(0, i + 1)), path);
          cache.release(dir);
          dir = child;
        }
      } finally {
        if (dir != null) {
          cache.release(dir);
        }
      }
      at = Objects.requireNonNull(followed, "a link was followed");
    }
    throw new FileSystemException(path.toString(), null, "Too many levels of symbolic links");
  }

  /**
   * @param link the link met, as reached from the tree's directory
   * @return the path the link leads to, with the names after it, taken lexically
   */
  private static Path linkTarget(Path link, Path rel, int i, Path path) throws IOException {
    Path target;
    try {
      target = Files.readSymbolicLink(link);
    } catch (IOException e) {
      throw named(e, path);
    }
    Path base = link.getParent();
    Path next = target.isAbsolute() || base == null ? target : base.resolve(target);
    if (i + 1 < rel.getNameCount()) {
      next = next.resolve(rel.subpath(i + 1, rel.getNameCount()));
    }
    return next.normalize();
  }

  /** @return a tree's directory, kept open, in use until released */
  private DirectoryCache.Entry rootEntry(Root root, Path path) throws IOException {
    DirectoryCache.Entry e = cache.acquire(root.dir);
    if (e != null) {
      return e;
    }
    return cache.add(root.dir, guarded(path, () -> openRoot(root, path), ConfinedFileAccess::closeQuietly));
  }

  /** Opens a tree's directory and checks that it is the one recorded. */
  private static SecureDirectoryStream<Path> openRoot(Root root, Path path) throws IOException {
    SecureDirectoryStream<Path> secure;
    try {
      secure = openUnchecked(root);
    } catch (IOException e) {
      throw named(e, path);
    }
    if (secure == null) {
      throw new FileSystemException(path.toString(), null, "the directory cannot be opened securely");
    }
    Object key;
    try {
      key = secure.getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey();
    } catch (IOException e) {
      secure.close();
      throw named(e, path);
    }
    if (key == null || !root.key.equals(key.toString())) {
      secure.close();
      throw new FileSystemException(
          path.toString(), null, "the scanned directory " + root.dir + " was replaced");
    }
    return secure;
  }

  /** @return the tree holding {@code path} below its directory (the deepest such), or null */
  private @Nullable Root rootOf(Path path) {
    Root best = null;
    for (Root r : roots) {
      if (path.startsWith(r.dir)
          && !path.equals(r.dir)
          && (best == null || r.dir.getNameCount() > best.dir.getNameCount())) {
        best = r;
      }
    }
    return best;
  }

  /** @return {device, inode} from a Unix file key, or null */
  private static long @Nullable [] devIno(@Nullable Object key) {
    if (key == null) {
      return null;
    }
    Matcher m = UNIX_FILE_KEY.matcher(key.toString());
    if (!m.matches()) {
      return null;
    }
    return new long[] {Long.parseUnsignedLong(m.group(1), 16), Long.parseUnsignedLong(m.group(2))};
  }

  /** The same failure, naming the whole path rather than a name relative to a directory. */
  private static IOException named(IOException e, Path path) {
    String p = path.toString();
    if (e instanceof NoSuchFileException) {
      return withCause(new NoSuchFileException(p), e);
    }
    if (e instanceof NotDirectoryException) {
      return withCause(new NotDirectoryException(p), e);
    }
    if (e instanceof AccessDeniedException) {
      return withCause(new AccessDeniedException(p), e);
    }
    if (e instanceof FileSystemException fse) {
      return withCause(new FileSystemException(p, fse.getOtherFile(), fse.getReason()), e);
    }
    return e;
  }

  private static IOException withCause(IOException e, IOException cause) {
    e.initCause(cause);
    return e;
  }

  /** An operation on the trees. */
  private interface Operation<T> {
    T run() throws IOException;
  }

  /** What to do with a result that came after its caller gave up. */
  private interface Release<T> {
    void release(T late);
  }

  /** Runs an operation on a daemon thread, waiting at most {@code timeoutMillis}. */
  private <T> T guarded(Path path, Operation<T> op, Release<T> release) throws IOException {
    return guarded(path, timeoutMillis, op, release);
  }

  private static <T> T guarded(Path path, long timeoutMillis, Operation<T> op, Release<T> release)
      throws IOException {
    if (BOUNDED.get()) {
      return op.run(); // the caller already waits for this thread with a bound of its own
    }
    CompletableFuture<T> result = new CompletableFuture<>();
    WORKERS.execute(
        () -> {
          try {
            T value = op.run();
            if (!result.complete(value)) {
              release.release(value);
            }
          } catch (Throwable t) {
            result.completeExceptionally(t);
          }
        });
    try {
      return result.get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(cause);
    } catch (InterruptedException e) {
      abandon(result, release);
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while examining " + path);
    } catch (TimeoutException e) {
      abandon(result, release);
      throw new FileSystemException(
          path.toString(),
          null,
          "examining or opening did not complete within "
              + timeoutMillis
              + " ms (a stalled file system, or a FIFO swapped in for a directory)");
    }
  }

  private static <T> void abandon(CompletableFuture<T> result, Release<T> release) {
    if (!result.cancel(false) && !result.isCompletedExceptionally()) {
      release.release(result.join()); // it completed just now
    }
  }

  private static void closeQuietly(java.io.Closeable c) {
    try {
      c.close();
    } catch (IOException e) {
      // Nothing was read from it.
    }
  }
}
