package dev.rea.cli;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.inspect.HashMode;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/** Validation of CLI arguments into core types, as typed {@code invalid_input} failures. */
final class Arguments {
  private Arguments() {}

  /** @return the hash mode for {@code header} or {@code full} */
  static HashMode hashMode(String text) throws ReaException {
    HashMode mode = HashMode.fromWire(text);
    if (mode == null) {
      throw ReaException.builder(
              Constraint.BAD_ARGUMENT, "--hash must be 'header' or 'full', not '" + text + "'")
          .field("--hash")
          .build();
    }
    return mode;
  }

  /**
   * Resolves a path against the working directory (CONTRACT section 1: relative paths are
   * resolved and recorded as absolute). The path is not normalised: the selected spelling is
   * kept.
   */
  static Path resolve(String text) throws ReaException {
    return resolve(text, "PATH");
  }

  /** As {@link #resolve(String)}, naming the option in the error. */
  static Path resolve(String text, String field) throws ReaException {
    if (text.isEmpty()) {
      throw ReaException.builder(Constraint.BAD_ARGUMENT, field + " is empty: give a file path")
          .field(field)
          .build();
    }
    dev.rea.core.Limits.checkPathLength(field, text);
    try {
      Path p = Path.of(text);
      return p.isAbsolute() ? p : Path.of("").toAbsolutePath().resolve(p);
    } catch (InvalidPathException e) {
      throw ReaException.builder(Constraint.BAD_ARGUMENT, "invalid path: " + e.getMessage())
          .field(field)
          .build();
    }
  }

  /**
   * Resolves an output file and checks, before any work is done, that its directory exists and
   * that it is not a directory itself.
   *
   * @throws ReaException {@code bad_argument} naming the option
   */
  static Path outputFile(String text, String field) throws ReaException {
    Path p = resolve(text, field);
    Path dir = p.getParent();
    if (dir != null && !java.nio.file.Files.isDirectory(dir)) {
      throw badOutput(field, p, "the directory " + dir + " does not exist (create it first)");
    }
    if (java.nio.file.Files.isDirectory(p)) {
      throw badOutput(field, p, p + " is a directory; give a file name");
    }
    if (java.nio.file.Files.exists(p) && !java.nio.file.Files.isRegularFile(p)) {
      // A FIFO, device or socket: the atomic rename would replace it with a regular file.
      throw badOutput(
          field,
          p,
          p + " exists and is not a regular file (a FIFO, device or socket); give a file name");
    }
    return p;
  }

  /**
   * Refuses an output file that is the input file itself (the same file by device and inode,
   * through any spelling or link): writing the Evidence there would destroy what it describes.
   *
   * @throws ReaException {@code bad_argument} naming the option
   */
  static void notTheInput(Path output, Path input, String field) throws ReaException {
    boolean same;
    try {
      same = java.nio.file.Files.exists(output) && java.nio.file.Files.isSameFile(output, input);
    } catch (java.io.IOException | SecurityException e) {
      same = false; // the input is missing or unreadable: the inspection reports that
    }
    if (same) {
      throw badOutput(
          field,
          output,
          output + " is the file being inspected; writing the Evidence there would replace the model");
    }
  }

  private static ReaException badOutput(String field, Path p, String problem) {
    return ReaException.builder(Constraint.BAD_ARGUMENT, field + ": " + problem)
        .field(field)
        .path(p.toString())
        .build();
  }

  /** The delivery detail of {@code --detail}. */
  enum Detail {
    COMPLETE,
    SUMMARY
  }

  /**
   * Reads {@code --detail}, given zero or more times.
   *
   * @return {@link Detail#COMPLETE} when absent (the CLI default)
   * @throws ReaException {@code bad_argument} for another value; {@code conflicting_choices}
   *     when both {@code complete} and {@code summary} are given
   */
  static Detail detail(java.util.List<String> values) throws ReaException {
    Detail chosen = null;
    if (values == null) {
      return Detail.COMPLETE;
    }
    for (String v : values) {
      Detail d;
      if (v.equals("complete")) {
        d = Detail.COMPLETE;
      } else if (v.equals("summary")) {
        d = Detail.SUMMARY;
      } else {
        throw ReaException.builder(
                Constraint.BAD_ARGUMENT, "--detail must be 'complete' or 'summary', not '" + v + "'")
            .field("--detail")
            .build();
      }
      if (chosen != null && chosen != d) {
        throw ReaException.builder(
                Constraint.CONFLICTING_CHOICES,
                "--detail summary and --detail complete are conflicting choices")
            .field("--detail")
            .build();
      }
      chosen = d;
    }
    return chosen == null ? Detail.COMPLETE : chosen;
  }
}
