package dev.rea.cli;

import dev.rea.core.Rea;
import dev.rea.core.SelectedPath;
import dev.rea.core.error.ReaException;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.InspectOptions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;

/**
 * The frame a command that inspects or reads Evidence runs in ({@code inspect-model-artifact},
 * {@code inspect-model-set}, {@code inspect-analysis-view}, {@code diff}, {@code check}): the
 * command's {@link #run} returns its exit status or throws; a {@link ReaException} is printed by
 * {@link Failures} (the error object on stdout with {@code --json}, text on stderr otherwise)
 * and exits with its code's status (CONTRACT section 6), 143 instead of 130 when SIGTERM
 * cancelled a run that {@link #interrupts} installed handlers for; a heap exhausted during the
 * run is reported as the typed {@code resource_exhausted} failure. {@code scan} (failures are
 * its lines) and {@code mcp} have frames of their own.
 */
abstract class ReaCommand implements Callable<Integer>, ReaMain.UsesEnvironment {
  /** picocli's model: injected for annotated commands, set by a model built in code. */
  @SuppressWarnings("NullAway.Init") // set by picocli or by the command's model
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  /** Test seam: adjusts the front door before it is built (an inspector with injected faults). */
  UnaryOperator<Rea.Builder> frontDoor = UnaryOperator.identity();

  /** The environment variables (the REA home directory, the terminal's width). */
  Map<String, String> env = System.getenv();

  private @Nullable Interrupts signals;

  @Override
  public void environment(Map<String, String> value) {
    this.env = value;
  }

  /**
   * Runs the command with its arguments as picocli parsed them.
   *
   * @param out standard output
   * @param err standard error
   * @return the exit status
   * @throws ReaException the run's failure, reported by the frame
   */
  abstract int run(PrintWriter out, PrintWriter err) throws ReaException;

  /** @return whether a failure is printed as the JSON error object on stdout ({@code --json}) */
  abstract boolean json();

  @Override
  public final Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    signals = null;
    try {
      return run(out, err);
    } catch (ReaException e) {
      return exitStatus(Failures.report(e, json(), out, err, 0));
    } catch (OutOfMemoryError e) {
      // What the run held is unreachable now: report it as the typed failure it is.
      return Failures.report(ReaException.heapExhausted(e), json(), out, err, 0);
    }
  }

  /** @return the front door, reading {@link #env}, its key notices on {@code err} */
  Rea rea(PrintWriter err) {
    return frontDoor.apply(Rea.builder().environment(env).keyNotices(Keys.notices(err))).build();
  }

  /**
   * Installs SIGINT/SIGTERM handlers that cancel {@code cancellation}; the caller closes them.
   *
   * @return the installed handlers, also used by {@link #exitStatus}
   */
  Interrupts interrupts(Cancellation cancellation) {
    Interrupts installed = Interrupts.install(cancellation);
    signals = installed;
    return installed;
  }

  /**
   * @param status the exit status of a failed run
   * @return 143 when SIGTERM cancelled the run (status 130), else {@code status}
   */
  int exitStatus(int status) {
    return signals == null ? status : signals.exitStatus(status);
  }

  /** @return a bar on stderr while a full hash runs on a terminal; otherwise null */
  @Nullable ProgressBar progressBar(HashMode mode, PrintWriter err) {
    return mode == HashMode.FULL && Terminal.stderrIsTerminal()
        ? new ProgressBar(TerminalText.raw(err), "hashing", Terminal.columns(env))
        : null;
  }

  /**
   * The options a file (each member of a set) is inspected with.
   *
   * @param assumeLayout the {@code --assume-layout} value, or null
   * @throws ReaException {@code bad_argument} for an unknown layout
   */
  static InspectOptions inspectOptions(HashMode mode, Cancellation cancellation,
      @Nullable ProgressBar bar, @Nullable String assumeLayout) throws ReaException {
    InspectOptions.Builder options =
        InspectOptions.builder()
            .hash(mode)
            .cancellation(cancellation)
            .layout(Arguments.layout(assumeLayout));
    if (bar != null) {
      options.progress(bar::update);
    }
    return options.build();
  }

  /**
   * The PATH argument and the {@code --evidence_output} file, both resolved and checked: the output
   * is a file path that is not the input and replaces only Evidence.
   *
   * @param selected the resolved PATH
   * @param output the resolved {@code --evidence_output}, or null when not given
   */
  record Targets(Path selected, @Nullable Path output) {}

  /**
   * Resolves and checks PATH and {@code --evidence_output}, in the order the commands report
   * their problems: the output's form first, then PATH, then the output against PATH.
   *
   * @param path the PATH argument as given
   * @param evidenceOutput the {@code --evidence_output} value, or null
   * @throws ReaException {@code bad_argument} naming the argument at fault
   */
  static Targets targets(String path, @Nullable String evidenceOutput) throws ReaException {
    Path output =
        evidenceOutput == null ? null : Arguments.outputFile(evidenceOutput, "--evidence_output");
    Path selected = Arguments.resolve(path);
    SelectedPath.checkTrailingSlash("PATH", path, selected);
    if (output != null) {
      Arguments.notTheInput(output, selected, "--evidence_output");
      Arguments.replacesOnlyEvidence(output, "--evidence_output");
    }
    return new Targets(selected, output);
  }
}
