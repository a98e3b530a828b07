package dev.rea.core.internal.io;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The open directories of {@link ConfinedFileAccess}, by the path they were reached by, so that
 * the files of one directory are not each reached by opening every directory above them again.
 * At most {@link #CAPACITY} are kept, least recently used first out; a directory in use is
 * closed when its last user releases it. A directory here was reached through the trees, so
 * whatever its path names later, reading through it stays inside them.
 *
 * <p>Thread-safe. Each entry's stream is used only for operations relative to it ({@code
 * fstatat}, {@code openat}), which the JDK allows from several threads at once; never iterated.
 */
final class DirectoryCache {
  /** Directories kept open at most (one descriptor each). */
  static final int CAPACITY = 64;

  /** One open directory and how many operations use it now. */
  static final class Entry {
    final Path path;
    final SecureDirectoryStream<Path> stream;
    private int users;
    private boolean dropped;

    private Entry(Path path, SecureDirectoryStream<Path> stream) {
      this.path = path;
      this.stream = stream;
    }
  }

  private final Map<Path, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
  private boolean closed;

  /** @return the directory reached by {@code path}, in use until {@link #release}, or null */
  synchronized @Nullable Entry acquire(Path path) {
    Entry e = entries.get(path);
    if (e != null) {
      e.users++;
    }
    return e;
  }

  /**
   * Keeps a directory just opened, in use until {@link #release}. When another thread kept the
   * same path meanwhile, that entry is returned and {@code stream} closed.
   */
  Entry add(Path path, SecureDirectoryStream<Path> stream) {
    List<Entry> out = new ArrayList<>();
    Entry result;
    synchronized (this) {
      Entry existing = entries.get(path);
      if (existing != null || closed) {
        result = existing;
      } else {
        result = new Entry(path, stream);
        entries.put(path, result);
        evict(out);
      }
      if (result == null) {
        // Closed: the entry lives only as long as this operation.
        result = new Entry(path, stream);
        result.dropped = true;
      }
      result.users++;
    }
    if (result.stream != stream) {
      closeQuietly(stream);
    }
    for (Entry e : out) {
      closeQuietly(e.stream);
    }
    return result;
  }

  /** Ends one use of an entry; a dropped entry's last user closes it. */
  void release(Entry e) {
    boolean close;
    synchronized (this) {
      e.users--;
      close = e.dropped && e.users == 0;
    }
    if (close) {
      closeQuietly(e.stream);
    }
  }

  /** Drops every entry (those in use close when released); later entries are not kept. */
  void closeAll() {
    List<Entry> out = new ArrayList<>();
    synchronized (this) {
      closed = true;
      for (Entry e : entries.values()) {
        e.dropped = true;
        if (e.users == 0) {
          out.add(e);
        }
      }
      entries.clear();
    }
    for (Entry e : out) {
      closeQuietly(e.stream);
    }
  }

  /** Drops the least recently used entries beyond the capacity; adds those unused to {@code out}. */
  private void evict(List<Entry> out) {
    Iterator<Entry> it = entries.values().iterator();
    while (entries.size() > CAPACITY && it.hasNext()) {
      Entry e = it.next();
      it.remove();
      e.dropped = true;
      if (e.users == 0) {
        out.add(e);
      }
    }
  }

  /** @return how many directories are kept (for tests) */
  synchronized int size() {
    return entries.size();
  }

  private static void closeQuietly(SecureDirectoryStream<Path> s) {
    try {
      s.close();
    } catch (IOException e) {
      // A directory opened for reading only.
    }
  }
}
