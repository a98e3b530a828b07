package dev.rea.core.internal.io;

import java.io.IOException;

/**
 * One-line descriptions of I/O failures for the messages and {@code reason} diagnostics of {@code
 * io_error} failures (CONTRACT section 6): the operating system's wording where Java keeps it.
 */
public final class IoFailures {
  private IoFailures() {}

  /** @return a one-line description of an I/O failure */
  public static String describe(IOException e) {
    if (e instanceof java.nio.file.FileSystemException fse) {
      if (fse.getReason() != null) {
        return fse.getReason();
      }
      if (e instanceof java.nio.file.AccessDeniedException) {
        return "Permission denied";
      }
      if (e instanceof java.nio.file.NoSuchFileException) {
        return "No such file or directory";
      }
      if (e instanceof java.nio.file.NotDirectoryException) {
        return "Not a directory";
      }
      if (e instanceof java.nio.file.FileAlreadyExistsException) {
        return "File exists";
      }
    }
    String m = e.getMessage();
    return m == null ? e.getClass().getSimpleName() : m;
  }

  /**
   * As {@link #describe}, followed by the file the failure concerns when the exception names one
   * that the description does not already hold: "No such file or directory
   * (/proc/.version.x.tmp)" (the temporary file of an atomic write, say).
   */
  public static String describeWithFile(IOException e) {
    String what = describe(e);
    String file = e instanceof java.nio.file.FileSystemException fse ? fse.getFile() : null;
    return file == null || what.contains(file) ? what : what + " (" + file + ")";
  }
}
