package dev.rea.core.internal.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;

/**
 * Whole-file replacement that never leaves a half-written file at the target path: the content
 * is written to a new temporary file in the target's own directory (so the rename stays on one
 * file system), forced to storage ({@code fsync}), then renamed over the target with {@code
 * ATOMIC_MOVE}; the directory is then synced (best effort) so the rename itself is durable. On
 * any failure the temporary file is removed and the target is left as it was. When the JVM shuts
 * down during a write (SIGTERM, a second SIGINT), a shutdown hook removes the temporary file.
 *
 * <p>The temporary file is created with the process's default permissions (umask), like any new
 * file; it is named {@code .<target name>.<random>.tmp}.
 */
public final class AtomicFiles {
  private static final SecureRandom RANDOM = new SecureRandom();

  /** Temporary files being written, removed by the shutdown hook if the JVM exits meanwhile. */
  private static final java.util.Set<Path> PENDING =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  private static final java.util.concurrent.atomic.AtomicBoolean HOOKED =
      new java.util.concurrent.atomic.AtomicBoolean();

  private AtomicFiles() {}

  /**
   * Atomically replaces (or creates) {@code target} with {@code content}.
   *
   * @param target the file to write; its parent directory must exist
   * @param content the complete new content
   * @throws IOException when writing, syncing or renaming fails (the target is then unchanged);
   *     {@link AtomicMoveNotSupportedException} when the file system cannot rename atomically
   */
  public static void write(Path target, byte[] content) throws IOException {
    write(target, out -> out.write(content));
  }

  /** Writes a file's content to a stream (for {@link #write(Path, Content)}). */
  @FunctionalInterface
  public interface Content {
    /** @param out the temporary file's stream (not to be closed) */
    void writeTo(java.io.OutputStream out) throws IOException;
  }

  /**
   * Atomically replaces (or creates) {@code target} with what {@code content} writes, streamed to
   * the temporary file (nothing is held whole).
   *
   * @throws IOException as {@link #write(Path, byte[])}
   */
  public static void write(Path target, Content content) throws IOException {
    Path abs = target.toAbsolutePath();
    Path dir = abs.getParent();
    if (dir == null) {
      throw new IOException("no parent directory for " + abs);
    }
    Path tmp =
        dir.resolve(
            "."
                + abs.getFileName()
                + "."
                + Long.toUnsignedString(RANDOM.nextLong(), 36)
                + ".tmp");
    boolean moved = false;
    track(tmp);
    try {
      try (FileChannel ch =
          FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        java.io.OutputStream out = new java.io.BufferedOutputStream(
            java.nio.channels.Channels.newOutputStream(ch), 64 * 1024);
        content.writeTo(out);
        out.flush();
        ch.force(true);
      }
      Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      moved = true;
      syncDirectory(dir);
    } finally {
      PENDING.remove(tmp);
      if (!moved) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException e) {
          // Nothing more to do: the target is untouched either way.
        }
      }
    }
  }

  private static void track(Path tmp) {
    if (HOOKED.compareAndSet(false, true)) {
      try {
        Runtime.getRuntime()
            .addShutdownHook(new Thread(AtomicFiles::removePending, "rea-atomic-files-cleanup"));
      } catch (IllegalStateException e) {
        // Already shutting down: the finally block of write removes the file if it can.
      }
    }
    PENDING.add(tmp);
  }

  private static void removePending() {
    for (Path tmp : PENDING) {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException | SecurityException e) {
        // Best effort at exit.
      }
    }
  }

  /**
   * Forces a directory's entries to storage where the platform allows opening a directory
   * (Linux, macOS); elsewhere this does nothing.
   */
  public static void syncDirectory(Path dir) {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // Best effort: not every platform can open or sync a directory.
    }
  }
}
