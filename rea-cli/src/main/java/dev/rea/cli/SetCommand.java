package dev.rea.cli;

import dev.rea.core.Rea;
import dev.rea.core.SetEvidence;
import dev.rea.core.SetSpool;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.evidence.SetInspection;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.view.Glob;
import dev.rea.core.view.SourceKind;
import dev.rea.core.view.ViewPage;
import dev.rea.core.view.ViewRequest;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code rea inspect-model-set PATH}: inspects a model made of several files (CONTRACT section 9)
 * with the options of {@code inspect-model-artifact}. PATH is a safetensors index, any member of
 * a GGUF split set, a directory holding one model, or a single model file. Without {@code --json}
 * it prints one block for the set, a line per member and the warnings ({@link SetReport}); with
 * {@code --json} stdout is the signed set bundle (set record, then each member's record), the
 * set summary ({@code --detail summary}, with {@code page} for {@code --view}), or the error
 * object with the partial set record. {@code --format in-toto|cyclonedx} prints the set's signed
 * attestation or its CycloneDX BOM instead (CONTRACT section 13, {@code docs/formats.md}).
 */
@Command(
    name = "inspect-model-set",
    mixinStandardHelpOptions = true,
    versionProvider = ReaMain.Version.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    header = "Report what a model made of several files declares, and check the files agree.",
    description = {
      "Inspects every file of a sharded safetensors checkpoint (through its "
          + "*.safetensors.index.json) or of a GGUF split set (NAME-00001-of-00003.gguf ...) with "
          + "inspect-model-artifact's reader, one after another, checks that the files agree "
          + "with each other and with the index, and reports the whole model: its members, "
          + "types and totals. PATH may be the index, any member, the directory holding the "
          + "model, or a single model file."},
    footer = {
      "",
      "Examples:",
      "  rea inspect-model-set ./Llama-3.1-8B/model.safetensors.index.json",
      "  rea inspect-model-set ./Qwen3-30B-A3B-BF16-00001-of-00002.gguf --hash full",
      "  rea inspect-model-set ./checkpoint --hash full --format in-toto",
      "  rea inspect-model-set ./checkpoint --detail summary \\",
      "      --evidence_output set.json --json \\",
      "      --view '{\"collection\":\"tensors\",\"names\":[\"lm_head.weight\"]}'",
      "",
      "Views over a set: collection members|tensors|metadata|types; tensor and",
      "metadata rows carry member (the member index) beside their own index.",
      "",
      "Exit status: 0 complete, 2 invalid input (several models in the directory),",
      "3 target unavailable (a member missing or rejected, or the members",
      "contradict each other: set_rejected), 4 execution failure, 5 resource",
      "exhausted, 130 cancelled (SIGINT), 143 terminated (SIGTERM)."
    })
public final class SetCommand extends ReaCommand {
  @Parameters(
      index = "0",
      paramLabel = "PATH",
      description = "The index, any member, the model's directory, or one model file.")
  String path;

  @Option(names = WideOption.NAME, description = WideOption.DESCRIPTION)
  boolean wide;

  @Option(names = "--json",
      description = "Print JSON on stdout: the signed set bundle (or the set summary with "
          + "--detail summary), or the error object on failure.")
  boolean json;

  @Option(names = "--hash", paramLabel = "header|full", defaultValue = "header",
      description = {"header (default): read and hash only each member's header.",
          "full: also hash every member whole, with one progress bar over the set."})
  String hash;

  @Option(
      names = {Arguments.ASSUME_LAYOUT, "--assume_layout"},
      paramLabel = "ggml-modern",
      description = Arguments.ASSUME_LAYOUT_HELP)
  @Nullable String assumeLayout;

  @Option(names = "--detail", paramLabel = "complete|summary",
      description = {"complete (default): every record (a signed bundle with --json).",
          "summary: the set summary, pointing at the complete Evidence by "
              + "parent_evidence_id (pair it with --evidence_output)."})
  @Nullable List<String> detail;

  @Option(names = {"--evidence_output", "--evidence-output"}, paramLabel = "FILE",
      description = "Also write the signed set bundle (set record, then every member's record) "
          + "to FILE, atomically.")
  @Nullable String evidenceOutput;

  @Option(names = TensorsOption.NAME, paramLabel = "GLOB",
      description = "List the tensors whose name matches GLOB, across every member, at the end"
          + " of the readable report (each row names its member). " + TensorsOption.SYNTAX)
  @Nullable String tensors;

  @Option(names = {"--max_tensor_rows", "--max-tensor-rows"}, paramLabel = "N",
      description = "With --tensors: matching rows shown (default "
          + InspectCommand.DEFAULT_MAX_TENSOR_ROWS + "; the count of the rest is given).")
  @Nullable Integer maxTensorRows;

  @Option(names = "--view", paramLabel = "JSON",
      description = "Answer one page of a view over the set in the same run. Needs --detail "
          + "summary and --evidence_output; the page is answered from that file.")
  @Nullable String view;

  @Option(names = "--format", paramLabel = "rea|in-toto|cyclonedx", defaultValue = "rea",
      description = {"rea (default): REA's own JSON and reports.",
          "in-toto: an in-toto Statement (a subject per member, the set's bundle as predicate)"
              + " in a DSSE envelope signed with REA's key (needs --hash full); cyclonedx: a"
              + " CycloneDX 1.6 ML-BOM, one component for the set holding one per member."
              + " Both print JSON on stdout and need complete detail."})
  String format = "rea";

  @Override
  boolean json() {
    return json;
  }

  @Override
  @SuppressWarnings("try") // the frame reads the installed handlers for the exit status
  int run(PrintWriter out, PrintWriter err) throws ReaException {
    Cancellation cancellation = new Cancellation();
    Rea rea = rea(err);
    HashMode mode = Arguments.hashMode(hash);
    Arguments.Detail chosen = Arguments.detail(detail);
    StandardFormat standard = StandardFormat.forInspection(format, mode, chosen, view != null);
    SetTensorMatches matches = tensorMatches(chosen, standard);
    ViewRequest selection = view == null ? null : selection(chosen);
    Targets targets = targets(path, evidenceOutput);
    Path selected = targets.selected();
    Path output = targets.output();
    ProgressBar bar = progressBar(mode, err);
    boolean bundle =
        output != null
            || (json && chosen == Arguments.Detail.COMPLETE && standard == StandardFormat.REA);
    // Members go to a spool (signed, on disk) or are dropped after the checks: memory stays
    // that of one member. The first is kept for a summary's headline. A standard format
    // describes every member in one document, so it keeps them all.
    EvidenceRecord[] first = new EvidenceRecord[1];
    long[] metadataRows = new long[1];
    List<EvidenceRecord> kept = new ArrayList<>();
    try (SetSpool spool = bundle ? rea.newSetSpool() : null;
        Interrupts installed = interrupts(cancellation)) {
      InspectOptions options = inspectOptions(mode, cancellation, bar, assumeLayout);
      SetInspection result;
      // Members that will be signed are signed on the threads that inspect them.
      boolean signed = bundle || standard == StandardFormat.IN_TOTO;
      try {
        SetInspection.MemberSink sink = (k, r) -> {
          if (k == 0) {
            first[0] = r;
          }
          metadataRows[0] += r.metadata().size();
          if (matches != null) {
            matches.add(k, r);
          }
          if (spool != null) {
            spool.accept(k, r);
          }
          if (standard != StandardFormat.REA) {
            kept.add(standard == StandardFormat.IN_TOTO ? rea.sign(r) : r);
          }
        };
        result = signed
            ? rea.inspectSetSigned(selected, options, sink)
            : rea.inspectSet(selected, options, sink);
      } finally {
        if (bar != null) {
          bar.finish();
        }
      }
      if (result instanceof SetInspection.Failed failed) {
        return exitStatus(failure(rea, failed, standard == StandardFormat.REA, out, err));
      }
      SetInspection.Complete done = result.orThrow();
      ModelSetRecord set =
          bundle || standard == StandardFormat.IN_TOTO ? rea.sign(done.set()) : done.set();
      if (output != null) {
        // bundle is true with --evidence_output, so the spool exists.
        Objects.requireNonNull(spool, "spool").writeBundle(output, set);
      }
      if (standard != StandardFormat.REA) {
        Output.printJson(out, standard.ofSet(rea, set, kept));
      } else if (chosen == Arguments.Detail.SUMMARY) {
        printSummary(rea, set, first[0], metadataRows[0], done.checksPassed(), selection,
            output, out, err);
      } else if (json) {
        // Complete detail in REA's JSON: bundle is true, so the spool exists.
        printBundle(Objects.requireNonNull(spool, "spool"), set, out);
      } else {
        PrintWriter text = TerminalText.wrap(out);
        new SetReport(text, Screen.forStdout(env, wide))
            .print(set, done.checksPassed(), output, matches, first[0]);
        text.flush();
      }
    }
    return 0;
  }

  /**
   * @return the collector of {@code --tensors}' matches, or null without the option
   * @throws ReaException {@code bad_argument} for a negative {@code --max_tensor_rows} or a
   *     pattern that does not parse; {@code conflicting_choices} as {@link TensorsOption#forReport}
   */
  private @Nullable SetTensorMatches tensorMatches(
      Arguments.Detail chosen, StandardFormat standard) throws ReaException {
    int rows =
        Arguments.maxTensorRows(
            maxTensorRows == null ? InspectCommand.DEFAULT_MAX_TENSOR_ROWS : maxTensorRows);
    if (maxTensorRows != null && tensors == null) {
      // A set's report prints no tensor rows but those --tensors chooses.
      throw ReaException.builder(
              dev.rea.core.error.Constraint.BAD_ARGUMENT,
              "--max_tensor_rows limits the rows --tensors GLOB lists: give --tensors")
          .field("--max_tensor_rows")
          .build();
    }
    Glob tensorFilter = TensorsOption.forReport(tensors, json, chosen, standard);
    return tensorFilter == null ? null : new SetTensorMatches(tensorFilter, rows);
  }

  /** Writes the signed set bundle from the spool to stdout as one JSON line. */
  private static void printBundle(SetSpool spool, ModelSetRecord set, PrintWriter out)
      throws ReaException {
    java.io.OutputStream bytes = Output.bytes(out);
    spool.writeBundle(bytes, set);
    try {
      bytes.write('\n');
      bytes.flush();
    } catch (java.io.IOException e) {
      throw ReaException.builder(dev.rea.core.error.Constraint.IO_ERROR,
              "writing the set bundle failed (" + e.getMessage() + ")")
          .cause(e)
          .build();
    }
  }

  /**
   * Reports a set that failed: with {@code --json} its error and partial Evidence on stdout;
   * otherwise the partial set's report on stdout (only in REA's own format: stdout of a standard
   * format holds that format's document or nothing) and the error on stderr.
   */
  private int failure(
      Rea rea, SetInspection.Failed failed, boolean report, PrintWriter out, PrintWriter err) {
    ReaException e = Advice.advise(failed.error());
    ModelSetRecord partial = failed.partial();
    if (json) {
      if (partial != null) {
        try {
          partial = rea.sign(partial);
        } catch (ReaException | RuntimeException signingFailed) {
          // Unsigned partial Evidence is still worth printing.
        }
      }
      Output.printJson(out, Rea.setErrorJson(e, partial));
      return e.code().exitStatus();
    }
    boolean shown = false;
    if (partial != null && report) {
      shown = true;
      PrintWriter text = TerminalText.wrap(out);
      new SetReport(text, Screen.forStdout(env, wide)).print(partial, List.of(), null, e);
      text.flush();
    }
    return Failures.report(e, null, false, out, err, 0,
        shown && SetReport.listsAllContradictions(e));
  }

  private ViewRequest selection(Arguments.Detail chosen) throws ReaException {
    if (chosen == Arguments.Detail.COMPLETE) {
      throw ReaException.builder(Constraint.CONFLICTING_CHOICES,
              "--view needs --detail summary (complete detail is the default) and"
                  + " --evidence_output FILE")
          .field("--view")
          .build();
    }
    if (evidenceOutput == null) {
      throw ReaException.builder(Constraint.BAD_ARGUMENT,
              "--view needs --evidence_output FILE: the page is answered from, and points at,"
                  + " the complete Evidence written there")
          .field("--evidence_output")
          .build();
    }
    // Called when --view was given.
    return ViewRequest.parse(Objects.requireNonNull(view, "--view"), ViewRequest.Mode.INLINE);
  }

  private void printSummary(Rea rea, ModelSetRecord set, EvidenceRecord first, long metadataRows,
      List<String> checks, @Nullable ViewRequest selection, @Nullable Path output, PrintWriter out,
      PrintWriter err)
      throws ReaException {
    byte[] summary;
    ViewPage page = null;
    if (selection != null) {
      // Answered from the bundle just written, as inspect-analysis-view answers it.
      // selection() refuses --view without --evidence_output.
      SetEvidence ev = rea.readSetEvidence(Objects.requireNonNull(output, "--evidence_output"));
      page = rea.view(ev, selection, SourceKind.EVIDENCE_FILE);
      summary = rea.setSummaryJson(ev, page);
    } else {
      summary = rea.setSummaryJson(set, first, metadataRows, null);
    }
    if (json) {
      Output.printJson(out, summary);
      if (output == null) {
        err.println("rea: the complete Evidence (parent_evidence_id) was not written anywhere;"
            + " add --evidence_output FILE to keep it");
      }
    } else {
      // The summary's own shape, as inspect-model-artifact --detail summary prints a file's (the
      // page, answered in the same call, is part of it).
      PrintWriter text = TerminalText.wrap(out);
      CompactReport.printSummary(text, summary, output, Screen.forStdout(env, wide));
      text.flush();
    }
  }
}
