package dev.rea.cli;

import dev.rea.core.testing.ScratchDirectories;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Runs {@link ReaMain} in-process and captures stdout, stderr and the exit status. The REA home
 * directory (signing keys) is a temporary directory, never the user's {@code ~/.config/rea}, and
 * is deleted when the test JVM ends.
 */
final class CliRunner {
  static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The REA home used by {@link #run}: one per test JVM, deleted (private key included) when the
   * JVM ends.
   */
  static final Path HOME = ScratchDirectories.createDeletedAtExit("rea-cli-test-home");

  record Result(int status, String out, String err) {
    JsonNode json() {
      return JSON.readTree(out);
    }
  }

  private CliRunner() {}

  static Result run(String... args) {
    return runWithHome(HOME, args);
  }

  /** Runs with {@code REA_HOME} set to {@code home}. */
  static Result runWithHome(Path home, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status =
        ReaMain.run(
            args,
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            Map.of("REA_HOME", home.toString()));
    return new Result(status, out.toString(), err.toString());
  }
}
