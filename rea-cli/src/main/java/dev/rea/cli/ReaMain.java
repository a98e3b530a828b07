package dev.rea.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine;

/**
 * The {@code rea} command (CONTRACT section 1). Subcommands print through picocli's
 * {@code getOut()}/{@code getErr()} so tests can capture them, and return the exit status of
 * CONTRACT section 1: 0 complete Evidence, 2 invalid_input, 3 target_unavailable, 4
 * execution_failure, 5 resource_exhausted, 130 cancelled (SIGINT); 143 when SIGTERM cancelled an
 * inspection (the contract names only SIGINT; 128 + 15 is the shell's convention).
 */
public final class ReaMain implements java.util.concurrent.Callable<Integer> {
  /** Usage-message description of {@code rea}. */
  static final String DESCRIPTION =
      "Reports exactly what a GGUF or safetensors model file declares, reading only its "
          + "header. REA never loads weights, runs Python or uses the network.";

  /** Usage-message footer of {@code rea}. */
  static final String[] FOOTER = {
    "",
    "Exit status: 0 complete Evidence, 1 an answer of no (diff: the declarations",
    "differ; check, scan: some model failed), 2 invalid input, 3 target unavailable,",
    "4 execution failure, 5 resource exhausted, 130 cancelled (SIGINT),",
    "143 terminated (SIGTERM), 141 stdout's reader went away (| head).",
    "Run 'rea help <command>' for a command's options."
  };

  // model() sets it on the command it builds, before picocli can call it.
  @SuppressWarnings("NullAway.Init")
  private CommandSpec spec;

  /**
   * @return the picocli model of {@code rea} without its subcommands, built without reflection
   *     ({@link CommandModels})
   */
  static CommandSpec model() {
    ReaMain main = new ReaMain();
    CommandSpec spec = CommandModels.command("rea", main);
    spec.usageMessage().description(DESCRIPTION).footer(FOOTER);
    main.spec = CommandModels.finish(spec);
    return spec;
  }

  /** Entry point. */
  public static void main(String[] args) {
    if (args.length > 0
        && ("inspect-model-artifact".equals(args[0])
            || "inspect-model-set".equals(args[0])
            || "scan".equals(args[0]))) {
      Interrupts.early();
    }
    Prewarm.startFor(args);
    PrintWriter out = new Output.Stdout(new PipeAware(new FileOutputStream(FileDescriptor.out)));
    PrintWriter err =
        new PrintWriter(
            new OutputStreamWriter(new FileOutputStream(FileDescriptor.err), StandardCharsets.UTF_8),
            true);
    Terminal.processStreams = true;
    int status = run(args, out, err);
    out.flush();
    err.flush();
    System.exit(status);
  }

  /**
   * stdout that behaves like a Unix tool when its reader goes away: on a broken pipe ({@code
   * EPIPE}, e.g. {@code rea ... | head -1}) the process exits at once with status 141 (128 +
   * SIGPIPE, what the shell reports for a tool killed by SIGPIPE) and no message, as a C program
   * would. The JVM ignores SIGPIPE, so without this the write would just fail. Shutdown hooks run
   * (an evidence file being written is removed). Other write failures (a full device, a closed
   * descriptor) are left to {@link #outputChecked}.
   */
  static final class PipeAware extends java.io.FilterOutputStream {
    PipeAware(java.io.OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws java.io.IOException {
      try {
        out.write(b, off, len);
      } catch (java.io.IOException e) {
        throw brokenPipe(e);
      }
    }

    @Override
    public void write(int b) throws java.io.IOException {
      try {
        out.write(b);
      } catch (java.io.IOException e) {
        throw brokenPipe(e);
      }
    }

    @Override
    public void flush() throws java.io.IOException {
      try {
        out.flush();
      } catch (java.io.IOException e) {
        throw brokenPipe(e);
      }
    }

    private static java.io.IOException brokenPipe(java.io.IOException e) {
      if ("Broken pipe".equals(e.getMessage())) {
        System.exit(141);
      }
      return e;
    }
  }

  /**
   * Runs the command line with the given streams.
   *
   * @return the exit status
   */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    return run(args, out, err, System.getenv());
  }

  /**
   * Runs the command line with the given streams and environment (the environment decides the
   * REA home directory, see {@code dev.rea.core.Rea.Builder#environment}).
   *
   * @return the exit status
   */
  public static int run(String[] args, PrintWriter out, PrintWriter err, Map<String, String> env) {
    CommandLine cmd = commandLine(env, args.length > 0 ? args[0] : null);
    cmd.setOut(out);
    // Messages on stderr can quote the file (tensor names, values) or the command line: they are
    // made printable. stdout is filtered by each command in its readable mode only.
    cmd.setErr(TerminalText.wrap(err));
    return outputChecked(cmd.execute(args), out, err);
  }

  /**
   * Turns a lost stdout into a failure: when writing to {@code out} failed (a closed pipe, a full
   * device), the reader did not get the answer, so a status of 0 or 1 becomes 4 ({@code
   * execution_failure}) with a message on {@code err}: 1 is an answer too ({@code diff}: the
   * declarations differ; {@code check}, {@code scan}: some unit failed), and a script must not
   * take a lost answer for it. Another status is kept: it already says the run failed; after 4
   * ({@code execution_failure}) nothing more is said, since that failure was reported (a scan
   * says its stdout failed when its first line cannot be written).
   *
   * @return the exit status to use
   */
  static int outputChecked(int status, PrintWriter out, PrintWriter err) {
    if (!out.checkError() || status == 4) {
      return status;
    }
    err.println(
        "rea: execution_failure (io_error): could not write the output to stdout"
            + " (a full device or a closed descriptor); the output is incomplete");
    err.flush();
    return status == 0 || status == 1 ? 4 : status;
  }

  /** @return the configured picocli command line, reading this process's environment */
  public static CommandLine commandLine() {
    return commandLine(System.getenv(), null);
  }

  /** @return the configured picocli command line with every subcommand, for the environment */
  public static CommandLine commandLine(Map<String, String> env) {
    return commandLine(env, null);
  }

  /**
   * The subcommands, by name, each made from the environment and picocli's factory for annotated
   * commands. Only the one named on the command line gets a model (a model costs start-up time);
   * help and unknown names get them all. {@code inspect-model-artifact}, the command run most,
   * has a model built without reflection ({@link CommandModels}).
   */
  private static final Map<String, SubcommandMaker> SUBCOMMANDS = subcommands();

  /** Makes one subcommand's command line. */
  private interface SubcommandMaker {
    /**
     * @param env the environment, for commands that read it
     * @param factory picocli's factory for annotated commands (it hands them the environment)
     * @return the subcommand's command line
     */
    CommandLine make(Map<String, String> env, CommandLine.IFactory factory);
  }

  private static Map<String, SubcommandMaker> subcommands() {
    Map<String, SubcommandMaker> m = new LinkedHashMap<>();
    m.put("inspect-model-artifact", (env, factory) -> new CommandLine(InspectCommand.model(env)));
    m.put("inspect-model-set", (env, factory) -> new CommandLine(SetCommand.class, factory));
    m.put(
        "inspect-analysis-view",
        (env, factory) -> new CommandLine(AnalysisViewCommand.class, factory));
    m.put("scan", (env, factory) -> new CommandLine(ScanCommand.class, factory));
    m.put("diff", (env, factory) -> new CommandLine(DiffCommand.class, factory));
    m.put("check", (env, factory) -> new CommandLine(CheckCommand.class, factory));
    m.put("mcp", (env, factory) -> new CommandLine(McpCommand.class, factory));
    return Collections.unmodifiableMap(m);
  }

  /**
   * @param env the environment (decides the REA home directory)
   * @param firstArg the first command-line argument, or null
   * @return the configured picocli command line
   */
  public static CommandLine commandLine(Map<String, String> env, @Nullable String firstArg) {
    Map<String, String> environment = Map.copyOf(env);
    CommandLine.IFactory defaults = CommandLine.defaultFactory();
    CommandLine.IFactory factory =
        new CommandLine.IFactory() {
          @Override
          public <K> K create(Class<K> type) throws Exception {
            K made = defaults.create(type);
            if (made instanceof UsesEnvironment u) {
              u.environment(environment);
            }
            return made;
          }
        };
    CommandLine cmd = new CommandLine(model(), factory);
    String only = firstArg != null && SUBCOMMANDS.containsKey(firstArg) ? firstArg : null;
    for (Map.Entry<String, SubcommandMaker> sub : SUBCOMMANDS.entrySet()) {
      if (only == null || only.equals(sub.getKey())) {
        cmd.addSubcommand(sub.getKey(), sub.getValue().make(environment, factory));
      }
    }
    if (only == null) {
      cmd.addSubcommand("help", new CommandLine.HelpCommand());
    }
    cmd.setParameterExceptionHandler(new UsageErrors());
    cmd.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          // Only defects reach here: domain failures are returned as exit codes by the commands.
          commandLine.getErr().println("rea: internal error: " + ex);
          ex.printStackTrace(commandLine.getErr());
          return 70;
        });
    cmd.setCaseInsensitiveEnumValuesAllowed(false);
    return cmd;
  }

  /** Without a command: the usage on stderr and status 2 (a usage error). */
  @Override
  public Integer call() {
    spec.commandLine().usage(TerminalText.raw(spec.commandLine().getErr()));
    return 2;
  }

  /** Reports the build version. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = ReaMain.class.getPackage().getImplementationVersion();
      return new String[] {"rea " + (v == null ? "development build" : v)};
    }
  }

  /** A command that reads the environment (injected by {@link #commandLine(Map, String)}). */
  interface UsesEnvironment {
    /** Receives the environment variables. */
    void environment(Map<String, String> env);
  }
}
