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
    try {
      Path p = Path.of(text);
      return p.isAbsolute() ? p : Path.of("").toAbsolutePath().resolve(p);
    } catch (InvalidPathException e) {
      throw ReaException.builder(Constraint.BAD_ARGUMENT, "invalid path: " + e.getMessage())
          .field("PATH")
          .build();
    }
  }
}
