package dev.rea.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/** Runs {@link ReaMain} in-process and captures stdout, stderr and the exit status. */
final class CliRunner {
  static final ObjectMapper JSON = new ObjectMapper();

  record Result(int status, String out, String err) {
    JsonNode json() {
      return JSON.readTree(out);
    }
  }

  private CliRunner() {}

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = ReaMain.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(status, out.toString(), err.toString());
  }
}
