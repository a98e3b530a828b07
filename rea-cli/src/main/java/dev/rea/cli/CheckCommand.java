package dev.rea.cli;

import dev.rea.core.CheckPolicy;
import dev.rea.core.ModelUnits;
import dev.rea.core.Rea;
import dev.rea.core.SelectedPath;
import dev.rea.core.Verdict;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.evidence.SetInspection;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.InspectOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * {@code rea check PATH...}: is each file or model set OK, yes or no (CONTRACT section 12)? A
 * directory, a safetensors index or a member of a GGUF split set is checked as the whole set
 * ({@link Rea#verdict(String, SetInspection, CheckPolicy)}). A unit fails when REA rejects it, when its full SHA-256 differs from {@code --expect-sha256}, on every warning
 * {@code --allow} does not name, and with {@code --fail-on limitations} on every limitation it
 * does not name.
 * Prints {@code OK PATH} or {@code FAIL PATH: reason; reason} per file (or one JSON object) and
 * exits 0 when all are OK, 1 otherwise, 2 for invalid arguments.
 */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    versionProvider = ReaMain.Version.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    header = "Say whether each model file or model set is OK: rejected, damaged or not as expected.",
    description = {
      "Inspects each file and fails it when REA rejects it, when its SHA-256 is not the "
          + "expected one, or when it carries a warning (REA's warnings all say a file is "
          + "damaged, obsolete or inconsistent) that --allow does not name. A directory, a "
          + "*.safetensors.index.json, a safetensors shard (named NAME-0000k-of-0000n, or "
          + "with an index beside it) or a member of a GGUF split set is checked as the whole "
          + "model, as inspect-model-set reads it: it fails also when its files contradict "
          + "each other or the index. With --expect-sha256, which is one file's digest, a "
          + "shard or split member is checked as that one file. A PATH that such a set, checked "
          + "earlier in the same run, read as its index or member gets no verdict of its own "
          + "(rea check DIR/* reads a checkpoint once, as rea check DIR does)."},
    footer = {
      "",
      "Examples:",
      "  rea check model.gguf",
      "  rea check model.safetensors --expect-sha256 HEX  # the model card's SHA-256",
      "  rea check *.gguf --allow removed_type --json",
      "  rea check ./Llama-3.1-8B/          # a sharded checkpoint, as one model",
      "",
      "Exit status: 0 every file or set OK, 1 some failed, 2 invalid arguments."
    })
public final class CheckCommand extends ReaCommand {
  @Parameters(
      arity = "1..*",
      paramLabel = "PATH",
      description = "Model files, or model sets (a directory, an index, a split member).")
  List<String> paths;

  @Option(
      names = {"--expect-sha256", "--expect_sha256"},
      paramLabel = "HEX",
      description = "The SHA-256 each file must have (implies a full hash).")
  @Nullable String expectSha256;

  @Option(
      names = "--allow",
      paramLabel = "CODE",
      split = ",",
      description =
          "Warning codes that do not fail a file, and with --fail-on limitations limitation"
              + " codes (layout_assumed after --assume-layout); comma-separated, repeatable.")
  List<String> allow = new ArrayList<>();

  @Option(
      names = {"--fail-on", "--fail_on"},
      paramLabel = "warnings|limitations",
      description =
          "limitations: also fail on limitations (what REA could not establish). warnings: the"
              + " default here (every warning not --allow'ed fails a file); rea scan fails on"
              + " warnings only when given --fail-on warnings.")
  @Nullable String failOn;

  @Option(
      names = {Arguments.ASSUME_LAYOUT, "--assume_layout"},
      paramLabel = "ggml-modern",
      description = Arguments.ASSUME_LAYOUT_HELP)
  @Nullable String assumeLayout;

  @Option(names = "--json", description = "Print one JSON object with every verdict.")
  boolean json;

  @Option(names = WideOption.NAME, description = WideOption.DESCRIPTION)
  boolean wide;

  @Option(
      names = "--format",
      paramLabel = "rea|sarif",
      defaultValue = "rea",
      description =
          "rea (default): lines, or REA's JSON with --json. sarif: a SARIF 2.1.0 log on stdout"
              + " (files relative to the working directory), for code-scanning services.")
  String format;

  @Override
  boolean json() {
    return json;
  }

  @Override
  int run(PrintWriter out, PrintWriter err) throws ReaException {
    StandardFormat output = StandardFormat.forCheck(format);
    CheckPolicy policy = policy();
    Rea rea = rea(err);
    InspectOptions options =
        InspectOptions.builder()
            .hash(policy.expectSha256() != null ? HashMode.FULL : HashMode.HEADER)
            .layout(Arguments.layout(assumeLayout))
            .build();
    List<Checked> checked = new ArrayList<>(paths.size());
    Set<Path> covered = new java.util.HashSet<>();
    int folded = 0;
    for (String text : paths) {
      if (coveredBefore(text, covered)) {
        folded++;
        continue;
      }
      checked.add(check(rea, text, options, policy, covered));
    }
    List<Verdict> verdicts = checked.stream().map(Checked::verdict).toList();
    boolean ok = verdicts.stream().allMatch(Verdict::ok);
    if (output == StandardFormat.SARIF) {
      Output.printJson(out, Rea.sarifLog(Path.of("").toAbsolutePath(), absolute(verdicts)));
    } else if (json) {
      Output.printJson(out, json(ok, verdicts));
    } else {
      PrintWriter text = TerminalText.wrap(out);
      Screen screen = Screen.forStdout(env, wide);
      for (Checked c : checked) {
        // A verdict's reasons go on under its path, indented past "FAIL ".
        screen.println(text, line(c.verdict(), c.scope()), LINE_INDENT);
      }
      text.flush();
    }
    if (folded > 0) {
      err.println(
          "rea check: "
              + folded
              + (folded == 1 ? " more PATH was a file" : " more PATHs were files")
              + " of a model set checked above, whose one verdict covers "
              + (folded == 1 ? "it" : "them"));
    }
    return ok ? 0 : 1;
  }

  /** @throws ReaException {@code bad_argument} for a malformed digest or --fail-on value */
  private CheckPolicy policy() throws ReaException {
    if (failOn != null && !failOn.equals("limitations") && !failOn.equals("warnings")) {
      throw ReaException.builder(
              Constraint.BAD_ARGUMENT,
              "--fail-on takes 'warnings' (the default: warnings always fail a file) or"
                  + " 'limitations', not '"
                  + ReaException.truncateForMessage(failOn)
                  + "'")
          .field("--fail-on")
          .build();
    }
    if (expectSha256 != null && !expectSha256.matches("[0-9A-Fa-f]{64}")) {
      throw ReaException.builder(
              Constraint.BAD_ARGUMENT,
              "--expect-sha256 takes 64 hexadecimal digits, not '"
                  + ReaException.truncateForMessage(expectSha256)
                  + "'")
          .field("--expect-sha256")
          .build();
    }
    Set<String> allowed = new LinkedHashSet<>();
    for (String code : allow) {
      if (!code.isBlank()) {
        String c = code.strip();
        if (!CheckPolicy.warningCodes().contains(c) && !CheckPolicy.limitationCodes().contains(c)) {
          // A misspelt code would let nothing through and fail silently the user's intent.
          throw ReaException.builder(
                  Constraint.BAD_ARGUMENT,
                  "--allow names warning or limitation codes, and REA has no '"
                      + ReaException.truncateForMessage(c)
                      + "'; its warnings are "
                      + String.join(", ", CheckPolicy.warningCodes())
                      + "; its limitations (which fail a file only with --fail-on limitations)"
                      + " are "
                      + String.join(", ", CheckPolicy.limitationCodes()))
              .field("--allow")
              .build();
        }
        allowed.add(c);
      }
    }
    return new CheckPolicy(expectSha256, allowed, "limitations".equals(failOn));
  }

  /**
   * One unit's verdict: a directory, a safetensors index, a member of a GGUF split set, or a
   * safetensors file that may be a shard ({@link SetFiles#mayBeAShard}) is checked as the whole
   * set (as {@code inspect-model-set} reads it), anything else as one file; with {@code
   * --expect-sha256}, which names one file's digest, a shard or member is that one file. A file
   * whose header declares {@code
   * split.count} of two or more under another name is checked again as a set, so that it fails
   * with {@code split_member_alone} instead of passing as a whole model. A path the user mistyped
   * is that unit's failure, not the run's.
   */
  private static Checked check(
      Rea rea, String text, InspectOptions options, CheckPolicy policy, Set<Path> covered) {
    Inspection result;
    try {
      Path path = Arguments.resolve(text);
      SelectedPath.checkTrailingSlash("PATH", text, path);
      // --expect-sha256 names one file's digest: a shard or split member given with it is that
      // file.
      boolean oneFile = policy.expectSha256() != null;
      boolean member = SetFiles.mayBeAShard(path) || SetFiles.namesASplitMember(path);
      if (oneFile ? SetFiles.namesASet(path) && !member : SetFiles.namesASet(path) || member) {
        return setVerdict(rea, text, path, options, policy, covered);
      }
      result = rea.inspect(path, options);
      if (result instanceof Inspection.Complete c && loneMember(path, c.record(), policy)) {
        return setVerdict(rea, text, path, options, policy, covered);
      }
    } catch (ReaException e) {
      result = new Inspection.Failed(e, null);
    }
    if (result instanceof Inspection.Failed f) {
      // A sharded model's index or directory: say which command reads it.
      result = new Inspection.Failed(Advice.advise(f.error()), f.partial());
    }
    return new Checked(Rea.verdict(text, result, policy), "");
  }

  /**
   * A unit's verdict, and what the readable line adds after its PATH: for a set of several files
   * or with an index, {@code " (the set of 3 files and its index)"}, so that a line under a
   * shard's name is not read as that shard's alone; empty for one file.
   */
  private record Checked(Verdict verdict, String scope) {}

  /**
   * Whether a file inspected alone is one member of a model by its own account ({@link
   * ModelUnits#isLoneMember}, the rule {@code scan} and {@code inspect-model-set} warn by), so
   * that its verdict is its set's. With {@code --expect-sha256} a shard or split member stays
   * the one file the digest names: a download checked file by file against the digests a model
   * card lists passes while the other files are still on their way.
   */
  private static boolean loneMember(Path path, EvidenceRecord record, CheckPolicy policy) {
    Path name = path.getFileName();
    return policy.expectSha256() == null
        && name != null
        && ModelUnits.isLoneMember(name.toString(), record);
  }

  private static Checked setVerdict(
      Rea rea,
      String text,
      Path path,
      InspectOptions options,
      CheckPolicy policy,
      Set<Path> covered) {
    SetInspection set = rea.inspectSet(path, options);
    String scope = "";
    if (set instanceof SetInspection.Complete c) {
      for (ModelSetRecord.Member m : c.set().members()) {
        cover(covered, m.path());
      }
      ModelSetRecord.IndexInfo index = c.set().set().index();
      if (index != null) {
        cover(covered, index.path());
      }
      int n = c.set().members().size();
      if (n > 1 || index != null) {
        scope =
            " (the set of "
                + n
                + (n == 1 ? " file" : " files")
                + (index == null ? "" : " and its index")
                + ")";
      } else if (n == 1 && java.nio.file.Files.isDirectory(path)) {
        // "OK DIR" alone reads as "the tree is fine": say which file was judged, and that the
        // directories below were not read.
        scope =
            " (its one model file, "
                + TerminalText.printable(SetReport.fileName(c.set().members().get(0).path()))
                + (holdsDirectory(path) ? "; the directories in it are not read: scan DIR" : "")
                + ")";
      }
    } else if (set instanceof SetInspection.Failed f) {
      // The members read before the failure: given again, they would fail the same way.
      for (EvidenceRecord m : f.members()) {
        cover(covered, m.artifact().path());
      }
      set = new SetInspection.Failed(Advice.advise(f.error()), f.partial(), f.members());
    }
    return new Checked(Rea.verdict(text, set, policy), scope);
  }

  /** @return whether the directory has a directory in it (false when it cannot be listed) */
  private static boolean holdsDirectory(Path dir) {
    try (java.util.stream.Stream<Path> entries = java.nio.file.Files.list(dir)) {
      return entries.anyMatch(e -> java.nio.file.Files.isDirectory(e, LinkOption.NOFOLLOW_LINKS));
    } catch (java.io.IOException | SecurityException e) {
      return false;
    }
  }

  /**
   * Whether a path names a file that a set checked earlier in this run read as its index or
   * member: its verdict is that set's, already printed once (so {@code rea check DIR/*} reads a
   * sharded checkpoint once and prints one line for it, as {@code rea check DIR} does).
   */
  private static boolean coveredBefore(String text, Set<Path> covered) {
    if (covered.isEmpty()) {
      return false;
    }
    try {
      return covered.contains(Arguments.resolve(text).toAbsolutePath().normalize());
    } catch (ReaException | java.nio.file.InvalidPathException notAPath) {
      return false; // its own check reports it
    }
  }

  /** Adds a set file's path, absolute and normalized as {@link #coveredBefore} compares it. */
  private static void cover(Set<Path> covered, String path) {
    try {
      covered.add(Path.of(path).toAbsolutePath().normalize());
    } catch (java.nio.file.InvalidPathException notAPath) {
      // A record's path this system cannot name is no PATH a user gave: nothing to fold.
    }
  }

  /** The verdicts with absolute paths (SARIF names files by URI). */
  private static List<Verdict> absolute(List<Verdict> verdicts) {
    List<Verdict> out = new ArrayList<>(verdicts.size());
    for (Verdict v : verdicts) {
      List<Verdict.Reason> reasons = new ArrayList<>(v.reasons().size());
      for (Verdict.Reason r : v.reasons()) {
        reasons.add(r.file() == null ? r : new Verdict.Reason(
            r.kind(), r.code(), r.message(), r.offset(), r.field(), absolute(r.file())));
      }
      out.add(new Verdict(absolute(v.path()), v.ok(), v.evidenceId(), reasons));
    }
    return out;
  }

  private static String absolute(String path) {
    try {
      return Path.of(path).toAbsolutePath().normalize().toString();
    } catch (java.nio.file.InvalidPathException notAPath) {
      return path;
    }
  }

  /** Columns before each continuation of a verdict's line on a terminal. */
  static final int LINE_INDENT = 5;

  /** {@code OK PATH} or {@code FAIL PATH: code: message; ...}. */
  static String line(Verdict v) {
    return line(v, "");
  }

  /**
   * As {@link #line(Verdict)}, with {@code scope} (what else the verdict covers, from {@link
   * Checked}) after the PATH.
   */
  static String line(Verdict v, String scope) {
    if (v.ok()) {
      return "OK " + TerminalText.printable(v.path()) + scope;
    }
    List<String> reasons = new ArrayList<>();
    java.util.Map<String, String> firstOfCode = new java.util.HashMap<>();
    boolean cut = false;
    boolean layout = false;
    for (Verdict.Reason r : v.reasons()) {
      String message = r.message();
      if (r.kind() == Verdict.Kind.LIMITATION) {
        // A limitation explains itself over a paragraph; its first sentence says what is unknown.
        int end = sentenceEnd(message);
        if (end > 0) {
          message = message.substring(0, end);
          cut = true;
        }
      }
      layout |= LAYOUT_CODES.contains(r.code());
      String earlier = firstOfCode.putIfAbsent(r.code(), message);
      // Warnings and limitations quote file text as the Evidence does; other reasons may not.
      String shown = asAbove(message, earlier);
      reasons.add(
          r.code()
              + ": "
              + (r.kind() == Verdict.Kind.WARNING || r.kind() == Verdict.Kind.LIMITATION
                  ? TerminalText.message(shown)
                  : TerminalText.printable(shown)));
    }
    return "FAIL "
        + TerminalText.printable(v.path())
        + scope
        + ": "
        + String.join("; ", reasons)
        + (cut ? " (limitations in their first sentence: --json has them whole)" : "")
        + (layout
            ? " (--assume-layout ggml-modern states the layouts of a file known to come from"
                + " current ggml; --allow layout_assumed then lets the statement pass)"
            : "");
  }

  /** The limitations a stated layout answers (CONTRACT section 12). */
  private static final java.util.Set<String> LAYOUT_CODES =
      java.util.Set.of("k_quant_layout_ambiguous", "q8_1_layout_ambiguous");

  /**
   * @param message a reason's message
   * @param earlier the message of an earlier reason of the same code, or null
   * @return {@code message}, or, when it ends as {@code earlier} does over 40 characters or more
   *     (the same explanation for another type), its own beginning and "as above"
   */
  static String asAbove(String message, @Nullable String earlier) {
    if (earlier == null) {
      return message;
    }
    int common = 0;
    while (common < message.length()
        && common < earlier.length()
        && message.charAt(message.length() - 1 - common)
            == earlier.charAt(earlier.length() - 1 - common)) {
      common++;
    }
    // Back to a word's start, so that no word is cut.
    int at = message.length() - common;
    while (at < message.length() && message.charAt(at) != ' ') {
      at++;
    }
    return common - (at - (message.length() - common)) < 40
        ? message
        : message.substring(0, at) + " ... as above";
  }

  /**
   * @return where the first sentence of {@code text} ends (its period), or -1 when it has one
   *     sentence; the periods of "e.g." and "i.e." end none
   */
  static int sentenceEnd(String text) {
    for (int i = text.indexOf(". "); i > 0; i = text.indexOf(". ", i + 1)) {
      boolean abbreviation =
          i >= 3 && (text.startsWith("e.g", i - 3) || text.startsWith("i.e", i - 3));
      if (!abbreviation) {
        return i;
      }
    }
    return -1;
  }

  /** {@code {"kind": "check", "ok", "units": [{path, ok, evidence_id, reasons}]}}. */
  static byte[] json(boolean ok, List<Verdict> verdicts) {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    try (JsonGenerator g =
        JsonFactory.builder().build().createGenerator(ObjectWriteContext.empty(), buf)) {
      g.writeStartObject();
      g.writeStringProperty("kind", "check");
      g.writeBooleanProperty("ok", ok);
      g.writeName("units");
      g.writeStartArray();
      for (Verdict v : verdicts) {
        g.writeStartObject();
        g.writeStringProperty("path", v.path());
        g.writeBooleanProperty("ok", v.ok());
        if (v.evidenceId() == null) {
          g.writeNullProperty("evidence_id");
        } else {
          g.writeStringProperty("evidence_id", v.evidenceId());
        }
        g.writeName("reasons");
        g.writeStartArray();
        for (Verdict.Reason r : v.reasons()) {
          g.writeStartObject();
          g.writeStringProperty("code", r.code());
          g.writeStringProperty("message", r.message());
          if (r.offset() != null) {
            g.writeStringProperty("offset", Long.toUnsignedString(r.offset()));
          }
          g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    return buf.toByteArray();
  }
}
