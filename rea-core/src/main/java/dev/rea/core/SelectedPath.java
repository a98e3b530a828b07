package dev.rea.core;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What Java's {@link Path} drops from a selected path and REA must not: a trailing {@code /}.
 * {@code Path.of("model.gguf/")} is {@code model.gguf}, but the operating system resolves {@code
 * model.gguf/} only when {@code model.gguf} is a directory ({@code ENOTDIR} otherwise), and the
 * specification has the result record "the exact selected path" ("Identity and reads"). A
 * selection that ends with {@code /} and does not name a directory is therefore refused as the
 * system would refuse it; one that names a directory goes on, to be refused as a directory.
 */
public final class SelectedPath {
  private SelectedPath() {}

  /**
   * The end of a message about a path Java could not name or decode: when the JVM names files in
   * an encoding other than UTF-8 (under the C or POSIX locale, ASCII), it says so and how to start
   * REA with UTF-8; otherwise nothing. The {@code ./rea} launcher already uses C.UTF-8 in place of
   * an ASCII locale.
   *
   * @return {@code ""} or a sentence starting with {@code " ("}
   */
  public static String localeHint() {
    String jnu = System.getProperty("sun.jnu.encoding", "");
    if (jnu.equalsIgnoreCase("UTF-8") || jnu.equalsIgnoreCase("UTF8") || jnu.isEmpty()) {
      return "";
    }
    return " (this JVM names files in "
        + jnu
        + ", the locale's encoding; for UTF-8 file names start it with a UTF-8 locale, e.g."
        + " LC_ALL=C.UTF-8)";
  }

  /**
   * @param field the argument's name ({@code PATH}, {@code --source}, {@code path})
   * @param text the path as given
   * @param path {@code text} parsed (and made absolute); the failure names it, with its {@code /}
   * @throws ReaException {@code target_unavailable} / {@code not_found} when {@code text} ends
   *     with {@code /} (and is not the root) and {@code path} is not a directory
   */
  public static void checkTrailingSlash(String field, String text, Path path) throws ReaException {
    if (text.length() < 2 || !text.endsWith("/") || Files.isDirectory(path)) {
      return;
    }
    // Reported absolute, as every other failure's path is (CONTRACT section 1).
    String shown = path + "/";
    throw ReaException.builder(
            Constraint.NOT_FOUND,
            "not a directory: "
                + ReaException.truncateForMessage(shown)
                + " (a path ending in '/' names a directory, and this one is not a directory)")
        .field(field)
        .path(shown)
        .diagnostic("reason", "Not a directory")
        .build();
  }
}
