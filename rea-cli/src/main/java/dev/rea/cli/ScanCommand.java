package dev.rea.cli;

import dev.rea.cli.scan.LineSink;
import dev.rea.cli.scan.ProgressLine;
import dev.rea.cli.scan.ResumeIndex;
import dev.rea.cli.scan.SarifCollector;
import dev.rea.cli.scan.ScanEngine;
import dev.rea.cli.scan.ScanLine;
import dev.rea.cli.scan.ScanRoots;
import dev.rea.cli.scan.Tally;
import dev.rea.cli.scan.TreeWalker;
import dev.rea.cli.scan.DirectorySets;
import dev.rea.cli.scan.UnitGrouping;
import dev.rea.cli.scan.UnitListener;
import dev.rea.core.OutputFiles;
import dev.rea.core.Rea;
import dev.rea.core.SelectedPath;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.LayoutAssumption;
import dev.rea.core.options.Limits;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code rea scan PATH...}: inspects every model file under the PATHs, one JSON line per unit
 * (CONTRACT section 10), with {@code --jobs N} workers. The walk, the workers, the line format
 * and {@code --resume} are in {@code dev.rea.cli.scan}; this class checks the arguments, opens
 * the output, handles signals and decides the exit status: 0 every unit complete; 1 some unit
 * partial, rejected or failed (or, with {@code --fail-on warnings}, carrying a warning; with
 * {@code --fail-on limitations}, a warning or a limitation); 2
 * invalid arguments (checked before anything is read); 4 the scan itself failed (its output or
 * a bundle could not be written); 130 interrupted (SIGINT), 143 terminated (SIGTERM). An
 * interrupted or failed scan leaves FILE holding whole lines only, which {@code --resume}
 * continues.
 *
 * <p>{@code --format sarif} (CONTRACT section 13) writes, instead of the lines, one SARIF 2.1.0
 * log of the whole scan ({@link SarifCollector}: a result per failure and per warning, with the
 * error's byte offset) to {@code --output FILE} (atomically) or stdout, once the scan finished:
 * an interrupted or failed scan writes no log. It is refused with {@code --resume}, which would
 * keep earlier lines without their findings. The exit status is the same.
 *
 * <p>Stderr: a progress line while stderr is a terminal, notices (a key pair created for
 * {@code --bundles}), and last the closing count ({@link Tally#closing}).
 */
@Command(
    name = "scan",
    mixinStandardHelpOptions = true,
    versionProvider = ReaMain.Version.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    header = "Inspect every model file under directories: one JSON line per model.",
    description = {
      "Walks each PATH (symbolic links below it are not followed, except in a Hugging Face"
          + " cache, whose snapshots/ links are read by their names and whose blobs/ is not"
          + " walked), finds model files by"
          + " content (reading at most 512 bytes of any other file), inspects each as"
          + " inspect-model-artifact does (a safetensors index with its shards, or a GGUF split"
          + " set, as one set, as inspect-model-set does), and writes one JSON line per model"
          + " as it finishes:"
          + " schema, kind, path, status (complete, partial, rejected, failed, skipped),"
          + " identity, evidence_id, summary (as --detail summary) and error. Files that are"
          + " not models are counted, and listed only with --list-skipped. A directory that"
          + " cannot be read is a failed line, not the end of the scan."
    },
    footer = {
      "",
      "Examples:",
      "  rea scan /models --output scan.jsonl",
      "  rea scan /models --output scan.jsonl --resume      (after an interruption)",
      "  rea scan /models --jobs 4 --bundles evidence/ > scan.jsonl",
      "  rea scan . --format sarif --output rea.sarif      (for code scanning)",
      "",
      "Exit status: 0 every model complete, 1 some model partial, rejected or",
      "failed (or carrying a warning, with --fail-on warnings; or a warning or",
      "limitation, with --fail-on limitations), 2 invalid",
      "arguments, 4 the scan itself failed, 130 interrupted (SIGINT), 143",
      "terminated (SIGTERM)."
    })
public final class ScanCommand implements Callable<Integer>, ReaMain.UsesEnvironment {
  /** Most workers accepted. */
  static final int MAX_JOBS = 256;

  /** How REA's SARIF logs begin: the OASIS schema's address as {@code $schema}. */
  static final String SARIF_START = "{\"$schema\":\"https://docs.oasis-open.org/sarif/";

  @SuppressWarnings("NullAway.Init") // set by picocli
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Parameters(
      paramLabel = "PATH",
      arity = "1..*",
      description = "Directories (walked) or files. Relative paths are resolved against the"
          + " working directory; lines name files by the PATH they were reached from.")
  @SuppressWarnings("NullAway.Init") // set by picocli (required)
  List<String> paths;

  @Option(
      names = "--jobs",
      paramLabel = "N",
      description = "Inspect N files at once (default: the number of processors, here ${DEFAULT-VALUE}).")
  int jobs = Runtime.getRuntime().availableProcessors();

  @Option(
      names = "--hash",
      paramLabel = "header|full",
      defaultValue = "header",
      description = "header (default): read each model's header only. full: hash every model file whole.")
  String hash = "header";

  @Option(
      names = {Arguments.ASSUME_LAYOUT, "--assume_layout"},
      paramLabel = "ggml-modern",
      description = Arguments.ASSUME_LAYOUT_HELP
          + " Each line of a model inspected so carries \"assume_layout\".")
  @Nullable String assumeLayout;

  @Option(
      names = "--output",
      paramLabel = "FILE",
      description = "Write the lines to FILE (created, or replaced if it is an earlier scan"
          + " output or empty) instead of stdout.")
  @Nullable String output;

  @Option(
      names = "--resume",
      description = "Continue the scan in --output FILE: keep its lines whose file is unchanged"
          + " (same device, inode, size and modification time) and inspect the rest. A line"
          + " made with another --hash or --assume-layout is inspected again. Kept lines are"
          + " taken on trust (they are not signed): keep FILE where only you can write it, or"
          + " scan again without --resume (with --bundles for every unit's signed Evidence).")
  boolean resume;

  @Option(
      names = "--bundles",
      paramLabel = "DIR",
      description =
          "Also write each model's signed Evidence bundle as DIR/<evidence_id hex>.json. DIR is"
              + " created when its parent directory exists.")
  @Nullable String bundles;

  @Option(
      names = {"--fail-on", "--fail_on"},
      paramLabel = "warnings|limitations",
      description =
          "warnings: exit 1 also when a model's Evidence carries a warning. limitations: also"
              + " when it carries a limitation (what REA could not establish), as rea check"
              + " --fail-on limitations.")
  @Nullable String failOn;

  @Option(
      names = {"--list-skipped", "--list_skipped"},
      description = "Also write a line (status skipped, with the reason) for every file that is"
          + " not a model, every symbolic link and every special file.")
  boolean listSkipped;

  @Option(
      names = "--format",
      paramLabel = "rea|sarif",
      defaultValue = "rea",
      description = {"rea (default): one JSON line per model.",
          "sarif: instead of lines, one SARIF 2.1.0 log of the whole scan (a result per"
              + " rejection, failure or warning; files named relative to the working"
              + " directory), written to --output FILE or stdout once the scan finished."
              + " Not with --resume."})
  String format = "rea";

  /** Test seam: adjusts the front door before it is built (an inspector with injected faults). */
  UnaryOperator<Rea.Builder> frontDoor = UnaryOperator.identity();

  /** Test seam: opens directory listings (a double that refuses one, when tests run as root). */
  TreeWalker.Lister lister = TreeWalker.Lister.SYSTEM;

  private Map<String, String> env = System.getenv();

  @Override
  public void environment(Map<String, String> value) {
    this.env = value;
  }

  /** The checked arguments. */
  private record Plan(
      List<Path> roots,
      ScanEngine.Settings settings,
      @Nullable Path output,
      @Nullable ResumeIndex resume,
      boolean failOnWarnings,
      boolean failOnLimitations,
      boolean sarif) {}

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    // The closing count's seconds include reading an earlier output for --resume.
    Tally tally = new Tally();
    Plan plan;
    try {
      plan = plan();
    } catch (ReaException e) {
      return Failures.report(e, false, out, err, 0);
    }
    if (plan.settings().jobs() < jobs) {
      err.println("rea scan: --jobs " + jobs + " lowered to " + plan.settings().jobs()
          + ": each worker may hold " + (WORKER_BYTES >> 20) + " MiB, and the Java heap is "
          + (Runtime.getRuntime().maxMemory() >> 20) + " MiB");
    }
    Cancellation cancellation = new Cancellation();
    try (Interrupts signals = Interrupts.install(cancellation)) {
      return signals.exitStatus(scan(plan, tally, cancellation, out, err));
    }
  }

  /**
   * What one worker may need at once: an inspection's retained budget (Limits, 32 MiB) and room
   * for what it reads and writes besides (the header being parsed, the line and bundle).
   */
  static final long WORKER_BYTES = dev.rea.core.options.Limits.DEFAULT_RETAINED_BUDGET_BYTES
      + 16L * 1024 * 1024;

  /**
   * @param maxHeap the Java heap's limit, in bytes
   * @return how many workers fit it (at least 1): one per {@link #WORKER_BYTES}, after the same
   *     again for the walk, the queue and the resume index
   */
  static int jobsThatFit(long maxHeap) {
    return (int) Math.max(1, Math.min(MAX_JOBS, maxHeap / WORKER_BYTES - 1));
  }

  /** Checks every argument before anything is read or written. */
  private Plan plan() throws ReaException {
    if (jobs < 1 || jobs > MAX_JOBS) {
      throw bad("--jobs", "--jobs must be 1 to " + MAX_JOBS + ", not " + jobs);
    }
    HashMode mode = Arguments.hashMode(hash);
    LayoutAssumption layout = Arguments.layout(assumeLayout);
    if (failOn != null && !failOn.equals("warnings") && !failOn.equals("limitations")) {
      throw bad(
          "--fail-on",
          "--fail-on takes 'warnings' or 'limitations', not '"
              + ReaException.truncateForMessage(failOn)
              + "'");
    }
    if (resume && output == null) {
      throw bad("--resume", "--resume continues the scan in --output FILE: give --output");
    }
    boolean sarif = sarifFormat();
    List<Path> roots = new ArrayList<>();
    for (String p : paths) {
      Path root = Arguments.resolve(p);
      SelectedPath.checkTrailingSlash("PATH", p, root);
      root = ScanRoots.tidy(root);
      if (!Files.exists(root)) {
        throw bad("PATH", "PATH " + root + " does not exist (or a link on the way leads nowhere)");
      }
      roots.add(root);
    }
    Path bundleDir = null;
    if (bundles != null) {
      bundleDir = bundleDirectory(Arguments.resolve(bundles, "--bundles"));
    }
    Path file = output == null ? null : Arguments.outputFile(output, "--output");
    ResumeIndex index = null;
    if (file != null && Files.exists(file)) {
      if (resume) {
        index = loadIndex(file, mode, layout, bundleDir);
      } else {
        replacesOnlyEarlierOutput(file, sarif);
      }
    }
    // Each worker may retain an inspection's budget at once: more workers than the heap holds
    // would end units (or the scan) on the heap, by timing, not by what the files declare.
    int workers = Math.min(jobs, jobsThatFit(Runtime.getRuntime().maxMemory()));
    ScanEngine.Settings settings =
        new ScanEngine.Settings(workers, mode, listSkipped, bundleDir, Advice::advise, layout);
    return new Plan(
        List.copyOf(roots), settings, file, index, failOn != null, "limitations".equals(failOn),
        sarif);
  }

  /**
   * @return whether {@code --format sarif} was given
   * @throws ReaException {@code bad_argument} for another format; {@code conflicting_choices}
   *     for sarif with {@code --resume} (a resumed scan does not inspect its kept units again,
   *     so it could not report their findings)
   */
  private boolean sarifFormat() throws ReaException {
    if (format.equals("rea")) {
      return false;
    }
    if (!format.equals("sarif")) {
      throw bad("--format", "--format must be one of rea, sarif, not '"
          + ReaException.truncateForMessage(format) + "'");
    }
    if (resume) {
      throw ReaException.builder(
              Constraint.CONFLICTING_CHOICES,
              "--format sarif writes one log of the whole scan once it finished; --resume keeps"
                  + " the lines of an earlier scan without inspecting those files again, so"
                  + " their findings would be missing: scan again without --resume")
          .field("--format")
          .build();
    }
    return true;
  }

  /**
   * The {@code --bundles} directory, created when it does not exist and its parent does (as
   * {@code mkdir DIR} would: a mistyped parent is still an error, not a tree of new directories).
   *
   * @throws ReaException {@code bad_argument} when DIR is not a directory and cannot be made one
   */
  private static Path bundleDirectory(Path dir) throws ReaException {
    if (Files.isDirectory(dir)) {
      return dir;
    }
    if (Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      throw bad("--bundles", "--bundles: " + dir + " is not a directory");
    }
    Path parent = dir.getParent();
    if (parent == null || !Files.isDirectory(parent)) {
      throw bad(
          "--bundles", "--bundles: " + dir + " does not exist, nor does its parent directory");
    }
    try {
      return Files.createDirectory(dir);
    } catch (java.nio.file.FileAlreadyExistsException raced) {
      if (Files.isDirectory(dir)) {
        return dir;
      }
      throw bad("--bundles", "--bundles: " + dir + " is not a directory");
    } catch (java.nio.file.AccessDeniedException e) {
      throw bad("--bundles", "--bundles: " + dir + " could not be created: Permission denied");
    } catch (java.io.IOException e) {
      String why =
          e instanceof java.nio.file.FileSystemException f && f.getReason() != null
              ? f.getReason()
              : String.valueOf(e.getMessage());
      throw bad("--bundles", "--bundles: " + dir + " could not be created: " + why);
    }
  }

  private ResumeIndex loadIndex(
      Path file, HashMode mode, LayoutAssumption layout, @Nullable Path bundleDir)
      throws ReaException {
    try {
      // With --bundles, a complete line whose bundle is not in that directory is read again.
      return ResumeIndex.load(file, listSkipped, mode == HashMode.FULL, layout, bundleDir);
    } catch (IOException e) {
      throw bad("--output", "--resume: " + file + " cannot be read: " + e.getMessage());
    }
  }

  /**
   * Refuses to replace a file that is neither empty nor an earlier scan output (its first bytes
   * are those of a scan line: an object whose first property is {@code "schema":"rea.scan.v1"};
   * with {@code --format sarif}, those of REA's SARIF log, {@link #SARIF_START}): a model or
   * anything else given as --output by mistake would be lost.
   */
  private static void replacesOnlyEarlierOutput(Path file, boolean sarif) throws ReaException {
    String start = sarif ? SARIF_START : "{\"schema\":\"" + ScanLine.SCHEMA + "\"";
    byte[] head;
    try (InputStream in = Files.newInputStream(file)) {
      head = in.readNBytes(start.length());
    } catch (IOException e) {
      return; // left to the write, which reports it
    }
    if (head.length == 0 || new String(head, StandardCharsets.ISO_8859_1).equals(start)) {
      return;
    }
    throw bad(
        "--output",
        "--output: "
            + file
            + " already exists and is not an earlier rea scan output"
            + (sarif ? " in SARIF" : "")
            + "; choose another file name, or remove that file first"
            + (sarif
                ? " (a SARIF log replaces only an earlier SARIF log)"
                : " (--resume continues an earlier scan output)"));
  }

  private static ReaException bad(String field, String message) {
    return ReaException.builder(Constraint.BAD_ARGUMENT, message).field(field).build();
  }

  /** Runs the scan and reports how it ended; @return the exit status (before signals) */
  private int scan(
      Plan plan, Tally tally, Cancellation cancellation, PrintWriter out, PrintWriter err) {
    // Files below a directory PATH are read only through it, never by their paths, so that a
    // directory swapped for a link mid-scan cannot lead a read outside (docs/scan.md).
    Rea rea =
        frontDoor
            .apply(
                Rea.builder()
                    .environment(env)
                    .keyNotices(Keys.notices(err))
                    .confinedTo(ScanRoots.confinement(plan.roots())))
            .build();
    LineSink sink;
    Path file = plan.output();
    SarifCollector sarif = plan.sarif() ? new SarifCollector() : null;
    try {
      if (sarif != null) {
        sink = LineSink.DISCARD; // the log is written once the scan finished
      } else {
        sink = file == null ? LineSink.of(out) : LineSink.of(openOutput(file, plan.resume()));
      }
    } catch (IOException e) {
      return failed(err, "--output " + plan.output() + " cannot be written: " + e.getMessage(), null);
    }
    ProgressLine progress =
        Terminal.stderrIsTerminal()
            ? ProgressLine.start(TerminalText.raw(err), tally, Terminal.columns(env))
            : null;
    // An index with its members and a GGUF split set are one unit each, every other file its
    // own (CONTRACT sections 9 and 10); a set's link is read through only inside the PATHs.
    UnitGrouping grouping = new DirectorySets(Limits.defaults(), plan.roots(), rea);
    ScanEngine engine =
        new ScanEngine(
            rea, plan.settings(), grouping, sink, plan.resume(), tally, cancellation, lister,
            sarif == null ? UnitListener.NONE : sarif);
    ScanEngine.Outcome outcome;
    try {
      // Overlapping PATHs (c c/a.gguf, a PATH twice) would write a unit once per PATH.
      outcome = engine.run(ScanRoots.distinct(plan.roots(), n -> err.println("rea scan: " + n)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      outcome = ScanEngine.Outcome.CANCELLED;
    } finally {
      if (progress != null) {
        progress.close();
      }
    }
    Throwable failure = engine.failure();
    try {
      sink.close();
      ResumeIndex resumed = plan.resume();
      if (outcome == ScanEngine.Outcome.FINISHED
          && resumed != null
          && file != null
          && resumed.needsCompaction()) {
        resumed.compact(file);
      }
      if (sarif != null && outcome == ScanEngine.Outcome.FINISHED) {
        writeLog(sarif.log(Path.of("").toAbsolutePath()), file, out);
      }
    } catch (IOException e) {
      if (failure == null) {
        failure = e;
      }
      outcome = ScanEngine.Outcome.FAILED;
    }
    return ended(outcome, failure, plan, tally, err);
  }

  /**
   * Writes the SARIF log to {@code file} atomically (a temporary file in its directory, then a
   * rename), or to stdout.
   */
  private static void writeLog(byte[] log, @Nullable Path file, PrintWriter out) throws IOException {
    if (file == null) {
      Output.printJson(out, log);
      if (out.checkError()) {
        throw new IOException("stdout could not be written (a full device or a closed descriptor)");
      }
      return;
    }
    // Whole or not at all, with the mode any new file gets (as the JSON-lines output's).
    OutputFiles.replace(file, log);
  }

  private static FileChannel openOutput(Path file, @Nullable ResumeIndex resume)
      throws IOException {
    FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    try {
      // A fresh scan starts an empty file; a resumed one continues after the earlier output's
      // last whole line (a line cut short by a kill is dropped here).
      long keep = resume == null ? 0 : resume.validLength();
      ch.truncate(keep);
      ch.position(keep);
      return ch;
    } catch (IOException e) {
      ch.close();
      throw e;
    }
  }

  /** Says how the scan ended; the closing count is the last line. @return the exit status */
  private static int ended(
      ScanEngine.Outcome outcome,
      @Nullable Throwable failure,
      Plan plan,
      Tally tally,
      PrintWriter err) {
    switch (outcome) {
      case FAILED -> {
        return failed(err, describe(failure), tally);
      }
      case CANCELLED -> {
        err.println(
            "rea scan: interrupted; "
                + (plan.sarif()
                    ? "no SARIF log was written (it is written once the scan finished)"
                    : plan.output() == null
                    ? "the lines written so far are whole"
                    : plan.output()
                        + " holds whole lines only: run the same command with --resume to"
                        + " continue"));
        err.println(tally.closing());
        err.flush();
        return 130;
      }
      default -> {
        String none = noneKept(plan, tally);
        if (none != null) {
          err.println(none);
        }
        String warned = failOnReason(plan, tally);
        if (warned != null) {
          err.println(warned);
        }
        err.println(tally.closing());
        err.flush();
        return tally.anyTrouble() || warned != null ? 1 : 0;
      }
    }
  }

  /**
   * @return for a {@code --resume} that kept none of the earlier output's lines, a sentence
   *     saying why that can be (a user who resumed by another spelling of the same directory
   *     otherwise sees only "0 kept" after a scan as long as the first); else null
   */
  private static @Nullable String noneKept(Plan plan, Tally tally) {
    ResumeIndex resume = plan.resume();
    if (resume == null || resume.lines() == 0 || tally.kept() > 0) {
      return null;
    }
    int n = resume.lines();
    return "rea scan: --resume kept none of the "
        + n
        + (n == 1 ? " line" : " lines")
        + " of "
        + TerminalText.printable(String.valueOf(plan.output()))
        + ": each names a file that changed since, a failed or partial model (inspected again),"
        + " or a path not under the PATHs given now (a line names its model by absolute path;"
        + " a directory reached through another symbolic link is another path)";
  }

  /**
   * @return why {@code --fail-on} makes the scan exit 1 ({@code "rea scan: --fail-on warnings: 3
   *     models carry a warning (summary.warnings)"}), or null when it does not
   */
  private static @Nullable String failOnReason(Plan plan, Tally tally) {
    long warned = plan.failOnWarnings() ? tally.withWarnings() : 0;
    long limited = plan.failOnLimitations() ? tally.withLimitations() : 0;
    if (warned == 0 && limited == 0) {
      return null;
    }
    StringBuilder b =
        new StringBuilder("rea scan: --fail-on ")
            .append(plan.failOnLimitations() ? "limitations" : "warnings")
            .append(": ");
    if (warned > 0) {
      b.append(models(warned)).append(" a warning (summary.warnings)");
    }
    if (limited > 0) {
      b.append(warned > 0 ? "; " : "")
          .append(models(limited))
          .append(" a limitation (summary.limitation_count)");
    }
    return b.toString();
  }

  private static String models(long n) {
    return n + (n == 1 ? " model carries" : " models carry");
  }

  private static int failed(PrintWriter err, String what, @Nullable Tally tally) {
    err.println("rea: execution_failure: the scan failed: " + TerminalText.printable(what));
    if (tally != null) {
      err.println(tally.closing());
    }
    err.flush();
    return 4;
  }

  private static String describe(@Nullable Throwable failure) {
    if (failure == null) {
      return "unknown failure";
    }
    if (failure instanceof ReaException e) {
      return e.code().wireName() + " (" + e.constraint().wireName() + "): " + e.getMessage();
    }
    if (failure instanceof IOException e) {
      return "io_error: " + e.getMessage();
    }
    // A defect: say so plainly, with the class, so that it can be reported.
    return "internal error: " + failure;
  }
}
