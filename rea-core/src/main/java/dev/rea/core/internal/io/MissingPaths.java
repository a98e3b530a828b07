package dev.rea.core.internal.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Says why a path names no file, for {@code not_found} messages: a symbolic link whose target
 * does not exist (a dangling link) is named as such, with its target, since "no such file" for a
 * path the user can see in a directory listing is puzzling. Looked at only on that failure path.
 */
public final class MissingPaths {
  private MissingPaths() {}

  /**
   * @param path a path that could not be examined or opened because nothing exists there
   * @param what how to name the missing thing in the message ({@code "file"}, {@code "evidence
   *     file"})
   * @return {@code "no such WHAT: PATH"}, or {@code "PATH is a symbolic link whose target does not
   *     exist (it points to TARGET)"} when the path itself is a dangling link
   */
  public static String describe(Path path, String what) {
    try {
      if (Files.isSymbolicLink(path) && !Files.exists(path)) {
        return path
            + " is a symbolic link whose target does not exist (it points to "
            + Files.readSymbolicLink(path)
            + ")";
      }
    } catch (IOException | SecurityException | UnsupportedOperationException e) {
      // The link cannot be read: say what is known.
    }
    return "no such " + what + ": " + path;
  }

  /**
   * A path that cannot name a file: a component is not a directory (ENOTDIR), symbolic links
   * loop (ELOOP; the JDK appends "or unable to access attributes of symbolic link" to that
   * reason) or a name is too long (ENAMETOOLONG). Such a selection is missing ({@code
   * not_found}, {@code target_unavailable}), not a host failure (specification: "a missing,
   * non-regular or otherwise unusable selected path is also target_unavailable").
   *
   * @param e the failure examining or opening the path
   * @return whether its reason is one of those
   */
  public static boolean unresolvable(java.nio.file.FileSystemException e) {
    String reason = e.getReason();
    return reason != null
        && (reason.equals("Not a directory")
            || reason.startsWith("Too many levels of symbolic links")
            || reason.equals("File name too long"));
  }

  /**
   * @param path a path {@link #unresolvable} says cannot name a file
   * @param what how to name the missing thing ({@code "file"}, {@code "evidence file"})
   * @param e the failure, whose reason is quoted
   * @return {@code "no such WHAT: PATH (REASON)"}
   */
  public static String describeUnresolvable(
      java.nio.file.Path path, String what, java.nio.file.FileSystemException e) {
    return "no such " + what + ": " + path + " (" + e.getReason() + ")";
  }
}
