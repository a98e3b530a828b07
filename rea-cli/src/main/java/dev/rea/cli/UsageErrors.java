package dev.rea.cli;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import java.util.Arrays;
import picocli.CommandLine;

/**
 * Maps picocli's usage errors to {@code invalid_input} (exit 2). With {@code --json} on the
 * command line the error is the JSON object of CONTRACT section 6 on stdout; otherwise a message
 * and the usage help on stderr.
 */
final class UsageErrors implements CommandLine.IParameterExceptionHandler {
  @Override
  public int handleParseException(CommandLine.ParameterException ex, String[] args) {
    CommandLine cmd = ex.getCommandLine();
    ReaException error =
        ReaException.builder(Constraint.BAD_ARGUMENT, ex.getMessage())
            .field(ex.getArgSpec() == null ? null : argName(ex.getArgSpec()))
            .build();
    if (Arrays.asList(args).contains("--json")) {
      Output.printJson(cmd.getOut(), dev.rea.core.evidence.EvidenceJson.errorBytes(error));
    } else {
      cmd.getErr().println("rea: " + ex.getMessage());
      CommandLine.UnmatchedArgumentException.printSuggestions(ex, cmd.getErr());
      if (ex instanceof CommandLine.UnmatchedArgumentException u
          && "inspect-model-artifact".equals(cmd.getCommandName())
          && u.getUnmatched().stream().noneMatch(a -> a.startsWith("-"))) {
        cmd.getErr()
            .println(
                "inspect-model-artifact takes one file per run: run it once for each file (for a"
                    + " sharded model, once per shard).");
      }
      cmd.getErr()
          .println(
              "Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more information.");
    }
    return error.code().exitStatus();
  }

  private static String argName(CommandLine.Model.ArgSpec spec) {
    if (spec instanceof CommandLine.Model.OptionSpec o) {
      return o.longestName();
    }
    return spec.paramLabel();
  }
}
