package dev.rea.cli;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceJson;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.inspect.HashMode;
import dev.rea.core.inspect.ModelInspector;
import dev.rea.core.io.Cancellation;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code rea inspect-model-artifact PATH}: inspects one GGUF or safetensors file (CONTRACT
 * section 1). Without {@code --json} it prints a readable report; with {@code --json} stdout is
 * one JSON document: a bundle holding the complete record, or the error object of CONTRACT
 * section 6 (with partial Evidence when there is any).
 */
@Command(
    name = "inspect-model-artifact",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Inspects a GGUF (v2/v3, little- or big-endian v3) or safetensors file and reports every",
      "declaration: metadata, tensor directory, types, offsets, derived byte lengths and",
      "parameter counts, with what could not be established. Reads only the header unless",
      "--hash full is given. Detection is by content, never by file name."
    },
    footer = {
      "",
      "Examples:",
      "  rea inspect-model-artifact model.gguf",
      "  rea inspect-model-artifact model.safetensors --hash full --json",
      "",
      "Exit status: 0 complete Evidence, 2 invalid input, 3 target unavailable,",
      "4 execution failure, 5 resource exhausted, 130 cancelled."
    })
public final class InspectCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "PATH",
      description = "The model file. A relative path is resolved against the working directory.")
  String path;

  @Option(
      names = "--json",
      description = "Print JSON on stdout: the Evidence bundle, or the error object on failure.")
  boolean json;

  @Option(
      names = "--hash",
      paramLabel = "header|full",
      defaultValue = "header",
      description = {
        "header (default): read and hash only the header.",
        "full: also stream the rest of the file through SHA-256 (reads the whole file)."
      })
  String hash;

  @Option(
      names = "--max-tensor-rows",
      paramLabel = "N",
      defaultValue = "40",
      description = "Tensor rows shown in the readable report (default ${DEFAULT-VALUE}).")
  int maxTensorRows;

  /** Test seam: the inspector to use. */
  ModelInspector inspector = null;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Cancellation cancellation = new Cancellation();
    try {
      HashMode mode = Arguments.hashMode(hash);
      Path selected = Arguments.resolve(path);
      ModelInspector ins = inspector != null ? inspector : ModelInspector.standard();
      boolean showProgress = mode == HashMode.FULL && Terminal.stderrIsTerminal();
      ProgressBar bar = showProgress ? new ProgressBar(err, "hashing") : null;
      EvidenceRecord record;
      try (Interrupts ignored = Interrupts.onSigint(cancellation)) {
        record =
            ins.inspect(
                selected,
                mode,
                new ModelInspector.Listener() {
                  @Override
                  public void onHashProgress(long done, long total) {
                    if (bar != null) {
                      bar.update(done, total);
                    }
                  }
                },
                cancellation);
      } finally {
        if (bar != null) {
          bar.finish();
        }
      }
      if (json) {
        Output.printJson(out, EvidenceJson.bundleBytes(List.of(record)));
      } else {
        new HumanReport(out, maxTensorRows).print(record);
      }
      return 0;
    } catch (ReaException e) {
      return Failures.report(e, json, out, err, maxTensorRows);
    }
  }
}
