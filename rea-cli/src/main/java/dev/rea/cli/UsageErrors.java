package dev.rea.cli;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
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
    String hint = optionBeforeCommand(ex, args);
    if (hint == null) {
      hint = dashedFileName(ex, args);
    }
    String said = ex.getMessage();
    // picocli's parameter exceptions always say what is wrong (a ReaException needs a message).
    String message =
        hint == null ? Objects.requireNonNull(said, "message") : said + " (" + hint + ")";
    ReaException error =
        ReaException.builder(Constraint.BAD_ARGUMENT, message)
            .field(ex.getArgSpec() == null ? null : argName(ex.getArgSpec()))
            .build();
    if (Arrays.asList(args).contains("--json")) {
      Output.printJson(cmd.getOut(), dev.rea.core.Rea.errorJson(error, null));
    } else {
      cmd.getErr().println("rea: " + TerminalText.printable(message));
      CommandLine.UnmatchedArgumentException.printSuggestions(ex, cmd.getErr());
      if (ex instanceof CommandLine.UnmatchedArgumentException u
          && "inspect-model-artifact".equals(cmd.getCommandName())
          && u.getUnmatched().stream().noneMatch(a -> a.startsWith("-"))) {
        cmd.getErr()
            .println(
                "inspect-model-artifact takes one file per run: a model made of several files"
                    + " is read whole by inspect-model-set PATH, and many models by scan PATH...");
      }
      cmd.getErr()
          .println(
              "Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more information.");
    }
    return error.code().exitStatus();
  }

  /**
   * @return a hint when options were given before the command name ({@code rea --json
   *     inspect-model-artifact FILE}): {@code rea} itself has only --help and --version; or null
   */
  static @Nullable String optionBeforeCommand(CommandLine.ParameterException ex, String[] args) {
    CommandLine cmd = ex.getCommandLine();
    if (!(ex instanceof CommandLine.UnmatchedArgumentException u)
        || cmd.getParent() != null
        || u.getUnmatched().isEmpty()
        || !u.getUnmatched().get(0).startsWith("-")) {
      return null;
    }
    for (String a : args) {
      if (cmd.getSubcommands().containsKey(a) && !"help".equals(a)) {
        return "options go after the command name: rea " + a + " ... " + u.getUnmatched().get(0);
      }
    }
    return null;
  }

  /**
   * @return a hint when the file argument is missing and an argument that is no option of the
   *     command starts with '-' ({@code rea inspect-model-artifact -model.gguf}): picocli read it
   *     as an option; or null
   */
  static @Nullable String dashedFileName(CommandLine.ParameterException ex, String[] args) {
    if (!(ex instanceof CommandLine.MissingParameterException m)
        || m.getMissing().stream().noneMatch(CommandLine.Model.ArgSpec::isPositional)) {
      return null;
    }
    CommandLine.Model.CommandSpec spec = ex.getCommandLine().getCommandSpec();
    for (String a : args) {
      if (a.equals("--")) {
        return null;
      }
      int eq = a.indexOf('=');
      String name = eq < 0 ? a : a.substring(0, eq);
      if (a.length() > 1
          && a.startsWith("-")
          && spec.findOption(name) == null
          && !spec.subcommands().containsKey(a)) {
        return "'"
            + a
            + "' was read as an option; for a file whose name starts with '-', write ./"
            + a
            + " or put -- before it";
      }
    }
    return null;
  }

  private static String argName(CommandLine.Model.ArgSpec spec) {
    if (spec instanceof CommandLine.Model.OptionSpec o) {
      return o.longestName();
    }
    return spec.paramLabel();
  }
}
