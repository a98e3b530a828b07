package dev.rea.cli;

import dev.rea.core.Comparison;
import dev.rea.core.FileProbe;
import dev.rea.core.LoadedEvidence;
import dev.rea.core.Rea;
import dev.rea.core.SelectedPath;
import dev.rea.core.SetEvidence;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.evidence.SetInspection;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.options.Limits;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code rea diff A B}: what changed between two model files, model sets or saved Evidence files
 * (CONTRACT section 11). Each side is inspected (a model file; a set: a directory, an index or a
 * split member) or read and authenticated (saved Evidence: a record, a bundle holding one record,
 * or a set bundle). Paths, identities, digests, evidence ids,
 * times and signatures are shown and never compared. Exit status 0 when the declarations are
 * the same, 1 when they differ, otherwise as {@code inspect-model-artifact}.
 */
@Command(
    name = "diff",
    mixinStandardHelpOptions = true,
    versionProvider = ReaMain.Version.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    header = "Show what changed between the declarations of two models.",
    description = {
      "Compares what two model files or model sets (or saved Evidence of them) declare: "
          + "format facts, metadata by key, tensors by name and their order, types and totals. "
          + "A directory, a safetensors index or a member of a GGUF split set is a set; a set "
          + "against one file compares the file as a set of one, so a set against its merged "
          + "file shows where each tensor moved. Paths, digests, identities, evidence ids and "
          + "times are shown, never compared."},
    footer = {
      "",
      "Examples:",
      "  rea diff model-q4.gguf model-q8.gguf",
      "  rea diff old-evidence.json model.gguf --json",
      "  rea diff model-00001-of-00003.gguf merged.gguf",
      "",
      "Exit status: 0 same declarations, 1 different, 2 invalid input, 3 a side",
      "unavailable or rejected, 4 execution failure, 5 resource exhausted."
    })
public final class DiffCommand extends ReaCommand {
  @Parameters(index = "0", paramLabel = "A", description = "The first model file, set or saved Evidence.")
  String first;

  @Parameters(index = "1", paramLabel = "B", description = "The second model file, set or saved Evidence.")
  String second;

  @Option(
      names = "--hash",
      paramLabel = "header|full",
      defaultValue = "header",
      description = "How model files are read: header (default) or full (also hash every byte).")
  String hash;

  @Option(
      names = {Arguments.ASSUME_LAYOUT, "--assume_layout"},
      paramLabel = "ggml-modern",
      description = Arguments.ASSUME_LAYOUT_HELP)
  @Nullable String assumeLayout;

  @Option(names = "--json", description = "Print the comparison as JSON (or the error object).")
  boolean json;

  @Option(names = WideOption.NAME, description = WideOption.DESCRIPTION)
  boolean wide;

  @Override
  boolean json() {
    return json;
  }

  @Override
  int run(PrintWriter out, PrintWriter err) throws ReaException {
    HashMode mode = Arguments.hashMode(hash);
    Rea rea = rea(err);
    InspectOptions options =
        InspectOptions.builder().hash(mode).layout(Arguments.layout(assumeLayout)).build();
    Side a = side(rea, first, "A", options);
    Side b = side(rea, second, "B", options);
    Comparison c = compare(rea, a, b);
    if (json) {
      Output.printJson(out, c.json());
    } else {
      DiffReport.print(
          TerminalText.wrap(out), c.json(), Screen.forStdout(env, wide), a.savedFile(), b.savedFile(),
          a::describe, b::describe);
      shardNote(out, "A", first, a);
      shardNote(out, "B", second, b);
    }
    return c.sameDeclarations() ? 0 : 1;
  }

  /**
   * A note after the readable diff when a side is a safetensors file inspected alone that may be
   * one shard of a checkpoint ({@link SetFiles#mayBeAShard}): its declarations are that file's
   * (a set of one, CONTRACT section 9), not the model's, which a reader comparing versions may
   * not expect.
   */
  private static void shardNote(PrintWriter out, String side, String text, Side s) {
    if (s.file() == null || s.savedFile() != null) {
      return;
    }
    Path path;
    try {
      path = Arguments.resolve(text, side);
    } catch (ReaException e) {
      return;
    }
    if (SetFiles.mayBeAShard(path)) {
      PrintWriter w = TerminalText.wrap(out);
      w.println(
          "  note: "
              + side
              + " is one safetensors file, which may be one shard of a checkpoint: compared as"
              + " that file alone; give the checkpoint's index or directory to compare the model");
      w.flush();
    }
  }

  /**
   * One side: a file's record, or a set (its record and its members'), and the saved Evidence
   * file it was read from (null for a fresh inspection).
   */
  private record Side(
      @Nullable EvidenceRecord file, @Nullable SetEvidence set, @Nullable String savedFile) {
    /**
     * @param names tensor names this side declares (the diff's added or removed ones, at most
     *     256)
     * @return each name's type and shape as the report shows them ({@code F32 [4, 8]}), by name
     */
    java.util.Map<String, String> describe(java.util.Set<String> names) {
      java.util.Map<String, String> out = new java.util.HashMap<>();
      java.util.List<EvidenceRecord> records =
          file != null ? java.util.List.of(file) : java.util.Objects.requireNonNull(set).memberRecords();
      for (EvidenceRecord r : records) {
        for (dev.rea.core.evidence.TensorRow t : r.tensors()) {
          if (names.contains(t.name())) {
            out.putIfAbsent(t.name(), t.type() + " " + t.shape());
          }
        }
      }
      return out;
    }
  }

  /**
   * Two files compare as files; when either side is a set, the other is taken as a set of one
   * (CONTRACT section 11: a set against its merged single file).
   */
  private static Comparison compare(Rea rea, Side a, Side b) {
    EvidenceRecord fa = a.file();
    EvidenceRecord fb = b.file();
    SetEvidence sa = a.set();
    SetEvidence sb = b.set();
    if (fa != null && fb != null) {
      return Rea.compare(fa, fb);
    }
    if (sa != null && sb != null) {
      return Rea.compare(sa, sb);
    }
    return sa != null
        ? Rea.compare(sa, java.util.Objects.requireNonNull(fb))
        : Rea.compare(java.util.Objects.requireNonNull(fa), java.util.Objects.requireNonNull(sb));
  }

  /**
   * One side: saved Evidence is read and authenticated (a set bundle as a set); a directory, a
   * safetensors index or a member of a GGUF split set is inspected as a set; another file is
   * inspected as one file.
   *
   * @throws ReaException as inspection or Evidence reading do; {@code bad_argument} for a
   *     bundle of several records that is not a set
   */
  private static Side side(Rea rea, String text, String field, InspectOptions options)
      throws ReaException {
    Path path = Arguments.resolve(text, field);
    SelectedPath.checkTrailingSlash(field, text, path);
    if (isSavedEvidence(path)) {
      if (Rea.isSetEvidence(path)) {
        return new Side(null, rea.readSetEvidence(path), text);
      }
      LoadedEvidence loaded = rea.readEvidence(path);
      return new Side(
          loaded
              .select(
                  null,
                  "and save it alone, e.g. jq '.records[0]' "
                      + path.getFileName()
                      + " > one.json (each record carries its own signature; rea diff compares"
                      + " one record per side)")
              .record(),
          null,
          text);
    }
    if (SetFiles.namesASet(path)) {
      SetInspection.Complete set = rea.inspectSet(path, options).orThrow();
      return new Side(null, rea.setEvidence(set.set(), set.members()), null);
    }
    Inspection result = rea.inspect(path, options);
    if (result instanceof Inspection.Failed failed) {
      throw failed.error();
    }
    return new Side(result.orThrow(), null, null);
  }

  /**
   * @return whether the file is read as saved Evidence: it starts as saved Evidence does ({@link
   *     FileProbe#savedEvidence}, its first bytes), or it is a JSON object after any JSON
   *     whitespace (an envelope or bundle rewritten by another tool, with a long unknown first
   *     member or a long indent: no model file starts so, and the Evidence reader decides) and
   *     not a safetensors index
   */
  private static boolean isSavedEvidence(Path path) throws ReaException {
    if (!Files.isRegularFile(path)) {
      return false;
    }
    try {
      // A safetensors index is a JSON object too, and names a set.
      return FileProbe.of(path).savedEvidence()
          || (!SetFiles.namesASet(path) && startsAsJsonObject(path));
    } catch (IOException e) {
      // Unreadable here: the inspection that follows reports it in its own terms.
      return false;
    }
  }

  /** Most leading whitespace looked through: the Evidence reader's bound on a whole file. */
  private static final long MOST_WHITESPACE = Limits.DEFAULT_EVIDENCE_INPUT_BYTES + (1 << 20);

  /**
   * @return whether the first byte after JSON whitespace is {@code {} and none of the first 8
   *     bytes is NUL (a safetensors file's first 8 bytes are its header length, which for any
   *     real header holds NUL bytes)
   */
  private static boolean startsAsJsonObject(Path path) throws IOException {
    try (java.io.InputStream in = new java.io.BufferedInputStream(Files.newInputStream(path))) {
      byte[] head = in.readNBytes(8);
      for (byte x : head) {
        if (x == 0) {
          return false;
        }
      }
      java.io.InputStream all =
          new java.io.SequenceInputStream(new java.io.ByteArrayInputStream(head), in);
      int b = all.read();
      for (long seen = 0; seen < MOST_WHITESPACE && isJsonWhitespace(b); seen++) {
        b = all.read();
      }
      return b == '{';
    }
  }

  private static boolean isJsonWhitespace(int b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\r';
  }
}
