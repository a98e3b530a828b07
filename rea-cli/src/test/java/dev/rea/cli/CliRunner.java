package dev.rea.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Runs {@link ReaMain} in-process and captures stdout, stderr and the exit status. The REA home
 * directory (signing keys) is a temporary directory, never the user's {@code ~/.config/rea}.
 */
final class CliRunner {
  static final ObjectMapper JSON = new ObjectMapper();

  /** The REA home used by {@link #run}: one per test JVM. */
  static final Path HOME;

  static {
    try {
      HOME = Files.createTempDirectory("rea-cli-test-home");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

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
