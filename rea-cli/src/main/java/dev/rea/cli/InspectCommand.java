package dev.rea.cli;

import dev.rea.core.Evidence;
import dev.rea.core.Rea;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.view.Glob;
import dev.rea.core.view.SourceKind;
import dev.rea.core.view.ViewPage;
import dev.rea.core.view.ViewRequest;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * {@code rea inspect-model-artifact PATH}: inspects one GGUF or safetensors file (CONTRACT
 * section 1). Without {@code --json} it prints a readable report; with {@code --json} stdout is
 * one JSON document: a signed bundle holding the complete record ({@code --detail complete}, the
 * default), the summary of CONTRACT section 4 ({@code --detail summary}, with {@code page} when
 * {@code --view} is given), or the error object of CONTRACT section 6 (with partial Evidence,
 * signed when a key is at hand, when there is any).
 *
 * <p>{@code --evidence_output FILE} writes the signed bundle atomically. {@code --view} needs
 * {@code --detail summary} ({@code conflicting_choices} with complete detail, also when complete
 * is the default, whose message then says that --view needs --detail summary) and {@code
 * --evidence_output} ({@code bad_argument} without it); its page is
 * answered from the written file, so it equals {@code inspect-analysis-view}'s answer for the
 * same view. Options are checked before the file is read. Signing keys come from the REA home
 * directory ({@code $REA_HOME}, else {@code $XDG_CONFIG_HOME/rea}, else {@code ~/.config/rea});
 * a readable report without {@code --evidence_output} needs no key.
 *
 * <p>Its picocli model is built by {@link #model} through picocli's API rather than read from
 * annotations, which costs a starting JVM more ({@link CommandModels}).
 */
public final class InspectCommand extends ReaCommand {
  /** Default of {@code --hash}. */
  static final String DEFAULT_HASH = "header";

  /** Default of {@code --max_tensor_rows}. */
  static final int DEFAULT_MAX_TENSOR_ROWS = 40;

  /** Usage-message header of the command. */
  static final String HEADER =
      "Report what a GGUF or safetensors file declares, from its header alone.";

  /** Usage-message description of the command. */
  static final String DESCRIPTION =
      "Inspects a GGUF (v2/v3, little- or big-endian v3) or safetensors file and reports "
          + "every declaration: metadata, tensor directory, types, offsets, derived byte lengths "
          + "and parameter counts, with what could not be established. Reads only the header "
          + "unless --hash full is given. Detection is by content, never by file name.";

  /** Usage-message footer: examples and exit statuses. */
  static final String[] FOOTER = {
    "",
    "Examples:",
    "  rea inspect-model-artifact model.gguf",
    "  rea inspect-model-artifact model.safetensors --hash full --json",
    "  rea inspect-model-artifact model.gguf --detail summary \\",
    "      --evidence_output ev.json --json",
    "  rea inspect-model-artifact model.gguf --detail summary \\",
    "      --evidence_output ev.json --json \\",
    "      --view '{\"collection\":\"tensors\",",
    "               \"names\":[\"token_embd.weight\"]}'",
    "  rea inspect-model-artifact model.gguf --tensors 'blk.0.*'",
    "",
    "Exit status: 0 complete Evidence, 2 invalid input, 3 target unavailable",
    "(missing, unreadable, rejected or unsupported file), 4 execution failure",
    "(I/O error, file changed while read), 5 resource exhausted, 130 cancelled",
    "(SIGINT), 143 terminated (SIGTERM); both print the partial Evidence;",
    "141 when the reader of stdout went away (| head)."
  };

  // The arguments, copied from the parsed model when the command runs (readArguments); the
  // options without a default are null when not given.
  @SuppressWarnings("NullAway.Init") // readArguments(): PATH is a required positional
  String path;
  boolean json;
  @SuppressWarnings("NullAway.Init") // readArguments(): --hash has a default
  String hash;
  @Nullable String assumeLayout;
  int maxTensorRows;
  @Nullable List<String> detail;
  @Nullable String evidenceOutput;
  @Nullable String view;
  @SuppressWarnings("NullAway.Init") // readArguments(): --format has a default
  String format;
  @Nullable String tensors;
  boolean wide;

  /**
   * The picocli model of {@code inspect-model-artifact}, built without reflection ({@link
   * CommandModels}); its user object is a new command that reads {@code env}.
   *
   * @param env the environment (decides the REA home directory)
   * @return the model
   */
  static CommandSpec model(Map<String, String> env) {
    InspectCommand command = new InspectCommand();
    command.environment(env);
    CommandSpec spec = CommandModels.command("inspect-model-artifact", command);
    spec.usageMessage().header(HEADER).description(DESCRIPTION).footer(FOOTER);
    spec.addPositional(
        PositionalParamSpec.builder()
            .index("0")
            .arity("1")
            .required(true)
            .paramLabel("PATH")
            .type(String.class)
            .description(
                "The model file. A relative path is resolved against the working directory.")
            .build());
    spec.addOption(
        OptionSpec.builder("--json")
            .type(boolean.class)
            .initialValue(false)
            .description(
                "Print JSON on stdout: the signed Evidence bundle (or the summary with "
                    + "--detail summary), or the error object on failure.")
            .build());
    spec.addOption(
        OptionSpec.builder("--hash")
            .paramLabel("header|full")
            .type(String.class)
            .defaultValue(DEFAULT_HASH)
            .description(
                "header (default): read and hash only the header.",
                "full: also stream the rest of the file through SHA-256 (reads the whole file).")
            .build());
    spec.addOption(
        OptionSpec.builder(Arguments.ASSUME_LAYOUT, "--assume_layout")
            .paramLabel("ggml-modern")
            .type(String.class)
            .description(Arguments.ASSUME_LAYOUT_HELP)
            .build());
    addReportOptions(spec);
    command.spec = CommandModels.finish(spec);
    return spec;
  }

  /** Adds the options that shape what is printed, in the order the help lists them. */
  private static void addReportOptions(CommandSpec spec) {
    spec.addOption(
        OptionSpec.builder("--max_tensor_rows", "--max-tensor-rows")
            .paramLabel("N")
            .type(int.class)
            .defaultValue("" + DEFAULT_MAX_TENSOR_ROWS)
            .description(
                "Tensor rows shown in the readable report (default ${DEFAULT-VALUE}; 0 "
                    + "shows none; --json always has every row).")
            .build());
    spec.addOption(
        OptionSpec.builder(TensorsOption.NAME)
            .paramLabel("GLOB")
            .type(String.class)
            .description(
                "Show only the tensors whose name matches GLOB in the readable report's tensor"
                    + " table. "
                    + TensorsOption.SYNTAX)
            .build());
    spec.addOption(
        OptionSpec.builder(WideOption.NAME)
            .type(boolean.class)
            .initialValue(false)
            .description(WideOption.DESCRIPTION)
            .build());
    spec.addOption(
        OptionSpec.builder("--detail")
            .paramLabel("complete|summary")
            .type(List.class)
            .auxiliaryTypes(String.class)
            .description(
                "complete (default): the whole Evidence record (a signed bundle with --json).",
                "summary: counts, headline metadata, chat-template presence and totals, pointing"
                    + " at the complete Evidence by parent_evidence_id (pair it with"
                    + " --evidence_output).")
            .build());
    spec.addOption(
        OptionSpec.builder("--evidence_output", "--evidence-output")
            .paramLabel("FILE")
            .type(String.class)
            .description(
                "Also write the complete Evidence as a signed bundle to FILE, "
                    + "atomically (a temporary file in the same directory, then a rename). "
                    + "An existing FILE is replaced only if it is earlier Evidence (or empty). "
                    + "Read it back with inspect-analysis-view.")
            .build());
    spec.addOption(
        OptionSpec.builder("--view")
            .paramLabel("JSON")
            .type(String.class)
            .description(
                "Answer one page of a view in the same run (see the example below and "
                    + "rea help inspect-analysis-view). Needs --detail summary and "
                    + "--evidence_output; the page is answered from that file.")
            .build());
    spec.addOption(
        OptionSpec.builder("--format")
            .paramLabel("rea|in-toto|cyclonedx")
            .type(String.class)
            .defaultValue("rea")
            .description(
                "rea (default): REA's own JSON and reports.",
                "in-toto: an in-toto Statement in a DSSE envelope signed with REA's key (needs"
                    + " --hash full); cyclonedx: a CycloneDX 1.6 ML-BOM. Both print JSON on"
                    + " stdout and need complete detail.")
            .build());
  }

  /** Copies the parsed arguments (and the defaults of those not given) from the model. */
  private void readArguments() {
    path = spec.positionalParameters().get(0).getValue();
    json = Boolean.TRUE.equals(spec.findOption("--json").getValue());
    hash = spec.findOption("--hash").getValue();
    assumeLayout = spec.findOption(Arguments.ASSUME_LAYOUT).getValue();
    maxTensorRows = spec.findOption("--max_tensor_rows").<Integer>getValue();
    detail = spec.findOption("--detail").getValue();
    evidenceOutput = spec.findOption("--evidence_output").getValue();
    view = spec.findOption("--view").getValue();
    format = spec.findOption("--format").getValue();
    tensors = spec.findOption(TensorsOption.NAME).getValue();
    wide = Boolean.TRUE.equals(spec.findOption(WideOption.NAME).getValue());
  }

  @Override
  boolean json() {
    return json;
  }

  @Override
  @SuppressWarnings("try") // the frame reads the installed handlers for the exit status
  int run(PrintWriter out, PrintWriter err) throws ReaException {
    readArguments();
    Cancellation cancellation = new Cancellation();
    Rea rea = rea(err);
    HashMode mode = Arguments.hashMode(hash);
    Arguments.maxTensorRows(maxTensorRows);
    Arguments.Detail chosen = Arguments.detail(detail);
    StandardFormat standard = StandardFormat.forInspection(format, mode, chosen, view != null);
    Glob tensorFilter = TensorsOption.forReport(tensors, json, chosen, standard);
    ViewRequest selection = view == null ? null : selection(chosen);
    Targets targets = targets(path, evidenceOutput);
    Path selected = targets.selected();
    Path output = targets.output();
    boolean signed =
        output != null
            || (json && chosen == Arguments.Detail.COMPLETE)
            || standard == StandardFormat.IN_TOTO;
    ProgressBar bar = progressBar(mode, err);
    Inspection result;
    try (Interrupts installed = interrupts(cancellation)) {
      InspectOptions options = inspectOptions(mode, cancellation, bar, assumeLayout);
      result = signed ? rea.inspectSigned(selected, options) : rea.inspect(selected, options);
    } finally {
      if (bar != null) {
        bar.finish();
      }
    }
    if (result instanceof Inspection.Failed failed) {
      // A standard format's stdout is its JSON document or nothing: a pipeline that redirects it
      // into model.intoto.json must not get a readable report of partial Evidence (a cancel).
      EvidenceRecord partial =
          standard == StandardFormat.REA ? signPartial(rea, failed.partial()) : null;
      int status =
          Failures.report(failed.error(), partial, json, out, err, maxTensorRows, false);
      return exitStatus(status);
    }
    EvidenceRecord record = result.orThrow();
    if (signed && record.authentication() == null) {
      record = rea.sign(record); // the key's problem, reported as before
    }
    if (output != null) {
      rea.writeEvidence(output, List.of(record));
    }
    if (standard != StandardFormat.REA) {
      Output.printJson(out, standard.of(rea, record));
    } else if (chosen == Arguments.Detail.SUMMARY) {
      printSummary(rea, record, selection, output, out, err);
    } else if (json) {
      EvidenceRecord whole = record;
      Output.printJson(out, stream -> Rea.writeBundleJson(List.of(whole), stream));
    } else {
      printReport(record, tensorFilter, output, out);
    }
    return 0;
  }

  /** The readable report on stdout, then where the complete Evidence was written, if it was. */
  private void printReport(
      EvidenceRecord record, @Nullable Glob tensorFilter, @Nullable Path output, PrintWriter out) {
    PrintWriter text = TerminalText.wrap(out);
    Screen screen = Screen.forStdout(env, wide);
    new HumanReport(text, maxTensorRows).tensorFilter(tensorFilter).screen(screen).print(record);
    if (output != null) {
      text.println();
      screen.println(
          text,
          "Complete Evidence "
              + record.evidenceId()
              + " written to "
              + TerminalText.printable(output.toString()),
          2);
    }
    text.flush();
  }

  /**
   * The parsed {@code --view}, after checking that it goes with the other options.
   *
   * @throws ReaException {@code conflicting_choices} with complete detail; {@code bad_argument}
   *     without {@code --evidence_output}; {@code bad_view}
   */
  private ViewRequest selection(Arguments.Detail chosen) throws ReaException {
    if (chosen == Arguments.Detail.COMPLETE) {
      // Without --detail, complete is only the default: say what --view needs, plainly.
      String message =
          detail == null
              ? "--view needs --detail summary (complete detail is the default)"
                  + (evidenceOutput == null
                      ? " together with --evidence_output FILE: the page is answered from,"
                          + " and points at, the complete Evidence written there"
                      : "")
              : "--view selects rows for summary delivery; complete detail and a selection"
                  + " are conflicting choices (use --detail summary"
                  + (evidenceOutput == null
                      ? ", with --evidence_output FILE for the complete Evidence the page"
                          + " points at)"
                      : ")");
      throw ReaException.builder(Constraint.CONFLICTING_CHOICES, message).field("--view").build();
    }
    if (evidenceOutput == null) {
      throw ReaException.builder(
              Constraint.BAD_ARGUMENT,
              "--view needs --evidence_output FILE: the page is answered from, and points at,"
                  + " the complete Evidence written there")
          .field("--evidence_output")
          .build();
    }
    // Called when --view was given.
    return ViewRequest.parse(Objects.requireNonNull(view, "--view"), ViewRequest.Mode.INLINE);
  }

  /** Prints the summary (with the page of {@code --view}, answered from the written file). */
  private void printSummary(
      Rea rea,
      EvidenceRecord record,
      @Nullable ViewRequest selection,
      @Nullable Path output,
      PrintWriter out,
      PrintWriter err)
      throws ReaException {
    Evidence ev;
    ViewPage page = null;
    if (selection != null) {
      // Answer from the evidence file just written, exactly as inspect-analysis-view does.
      // selection() refuses --view without --evidence_output.
      ev =
          rea.readEvidence(Objects.requireNonNull(output, "--evidence_output"))
              .select(record.evidenceId(), "by its evidence_id");
      page = rea.view(ev, selection, SourceKind.EVIDENCE_FILE);
    } else {
      ev = rea.evidence(record);
    }
    byte[] summary = rea.summaryJson(ev, page);
    if (json) {
      Output.printJson(out, summary);
      if (output == null) {
        // The summary names the complete Evidence by parent_evidence_id; say that it was not
        // kept (the readable summary says so in its own text).
        err.println(
            "rea: the complete Evidence (parent_evidence_id) was not written anywhere; add"
                + " --evidence_output FILE to keep it");
      }
    } else {
      CompactReport.printSummary(
          TerminalText.wrap(out), summary, output, Screen.forStdout(env, wide));
    }
  }

  /** Signs the partial Evidence of a JSON failure when a key is at hand (best effort). */
  private @Nullable EvidenceRecord signPartial(Rea rea, @Nullable EvidenceRecord partial) {
    if (!json || partial == null) {
      return partial;
    }
    try {
      return rea.sign(partial);
    } catch (ReaException | RuntimeException signingFailed) {
      return partial;
    }
  }
}
