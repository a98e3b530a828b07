package dev.rea.core.text;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * File names that cannot be written as text. Java decodes a listed file name in the locale's
 * encoding ({@code sun.jnu.encoding}) and shows each byte it cannot decode as U+FFFD, so {@code
 * m\xe8.gguf} and {@code m\xe9.gguf} both read {@code m\ufffd.gguf}: no output can name such a
 * file, the text names another file or none, and two files can read alike. The listed {@link
 * Path} keeps the bytes, and its URI percent-encodes them.
 */
public final class FileNames {
  private FileNames() {}

  /**
   * @param listed a path as a directory listing gave it (holding the name's bytes)
   * @return whether its text holds U+FFFD and does not lead to the same file (device and inode,
   *     links followed); a name that really holds U+FFFD (valid UTF-8) leads to itself and is
   *     decodable
   */
  public static boolean undecodable(Path listed) {
    String text = listed.toString();
    if (text.indexOf('\uFFFD') < 0) {
      return false;
    }
    try {
      return !Files.isSameFile(Path.of(text), listed);
    } catch (IOException | InvalidPathException | SecurityException e) {
      return true;
    }
  }

  /**
   * The refusal of a file whose name is {@link #undecodable}: {@code target_unavailable} /
   * {@code not_found} (by its text, no such file), naming the file by its URI in the message and
   * in {@code details.diagnostics.uri}.
   *
   * @param listed the path as listed
   * @param consequence what follows for the caller, e.g. {@code "so no output can name it: not
   *     read"}
   * @return the refusal, with {@code details.path} the path's text
   */
  public static ReaException undecodableName(Path listed, String consequence) {
    String uri = listed.toUri().toString();
    return ReaException.builder(
            Constraint.NOT_FOUND,
            "the name holds bytes that are not valid in the locale's encoding ("
                + System.getProperty("sun.jnu.encoding", "unknown")
                + "), shown as U+FFFD, "
                + consequence
                + " (its name's bytes: "
                + uri
                + "); rename it")
        .path(listed.toString())
        .diagnostic("uri", uri)
        .build();
  }
}
