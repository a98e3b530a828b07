package dev.rea.core.testing;

import dev.rea.core.internal.io.FileAccess;
import java.io.IOException;
import java.util.function.Supplier;

/**
 * Wraps a {@link FileAccess} so that reading byte {@code failAt} of the opened file fails with a
 * chosen {@link IOException} (EIO, EACCES after a permission change, ...). Reads that would cross
 * {@code failAt} return the bytes before it, so the failing read starts exactly at {@code
 * failAt}; every later read fails too. Counts opened and closed channels ({@link
 * TrapFileAccess}).
 */
public final class FaultyFileAccess extends TrapFileAccess {
  private final Supplier<IOException> failure;
  private volatile long failedAt = -1;

  /**
   * @param delegate the real access
   * @param failAt absolute offset of the first byte that cannot be read
   * @param failure the exception a read of that byte throws
   */
  public FaultyFileAccess(FileAccess delegate, long failAt, Supplier<IOException> failure) {
    super(delegate, failAt);
    this.failure = failure;
  }

  /**
   * @return the system's file access, except that every open is refused as EACCES (tests may run
   *     as root, who can read anything, so a permission failure has to come from the seam)
   */
  public static FileAccess deniedOpen() {
    return failingOpen(path -> new java.nio.file.AccessDeniedException(path.toString()));
  }

  /**
   * @param reason the operating system's reason, e.g. {@code "Too many open files"}
   * @return the system's file access, except that every open fails with that reason
   */
  public static FileAccess failingOpen(String reason) {
    return failingOpen(path -> new java.nio.file.FileSystemException(path.toString(), null, reason));
  }

  /**
   * @param failure the exception an open of a path throws
   * @return the system's file access (stat included), except that every open throws
   */
  public static FileAccess failingOpen(
      java.util.function.Function<java.nio.file.Path, IOException> failure) {
    return openedBy(
        path -> {
          throw failure.apply(path);
        });
  }

  /** Opens a path for a test: may fail, or change the file, as the test needs. */
  public interface Opener {
    /** @return the channel, as {@link FileAccess#open} */
    java.nio.channels.SeekableByteChannel open(java.nio.file.Path path) throws IOException;
  }

  /**
   * @param opener what every open does
   * @return the system's file access (stat included), except that opens go to {@code opener}
   */
  public static FileAccess openedBy(Opener opener) {
    return new FileAccess() {
      @Override
      public dev.rea.core.internal.io.FileSnapshot stat(java.nio.file.Path path) throws IOException {
        return FileAccess.system().stat(path);
      }

      @Override
      public java.nio.channels.SeekableByteChannel open(java.nio.file.Path path)
          throws IOException {
        return opener.open(path);
      }
    };
  }

  /** @return an EIO failure, as the JDK reports it on Linux */
  public static IOException eio() {
    return new IOException("Input/output error");
  }

  @Override
  protected void atTrap(long position) throws IOException {
    failedAt = position;
    throw failure.get();
  }

  /** @return the offset of the read that failed, or -1 when none failed */
  public long failedAt() {
    return failedAt;
  }
}
