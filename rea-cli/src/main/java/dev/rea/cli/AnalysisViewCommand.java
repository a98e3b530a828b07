package dev.rea.cli;

import dev.rea.core.Evidence;
import dev.rea.core.Rea;
import dev.rea.core.SelectedPath;
import dev.rea.core.SetEvidence;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.view.SourceKind;
import dev.rea.core.view.ArrayView;
import dev.rea.core.view.ViewPage;
import dev.rea.core.view.ViewRequest;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code rea inspect-analysis-view --source FILE --view JSON}: answers one page of a view from a
 * saved Evidence record or bundle, without reopening the model (specification, "Facts and
 * selected queries"; CONTRACT section 4).
 *
 * <p>The file is read (at most 64 MiB), every record in it is authenticated (evidence ID and an
 * Ed25519 signature by a trusted key: the provider's own or one in {@code trusted/} of the REA
 * home directory) and only then indexed; any failure is {@code invalid_input} / {@code
 * evidence_rejected}. A record file or a bundle with one record answers directly; a bundle with
 * several records needs {@code --evidence_id} ({@code bad_argument} without it, listing the IDs;
 * {@code unknown_evidence} for an ID it does not hold). A set bundle answers over the whole set,
 * or from one member's record when {@code --evidence_id} names it; an array view reads one member.
 * The view object needs {@code "kind": "model-artifact"}.
 */
@Command(
    name = "inspect-analysis-view",
    mixinStandardHelpOptions = true,
    versionProvider = ReaMain.Version.class,
    sortOptions = false,
    usageHelpAutoWidth = true,
    header = "Answer one page of a view from saved Evidence, without the model.",
    description = {
      "Answers one page of a view from saved Evidence (a record or a bundle written by "
          + "inspect-model-artifact --json or --evidence_output), without reopening the model. "
          + "The Evidence is authenticated before it is used."},
    footer = {
      "",
      "Example:",
      "  rea inspect-analysis-view --source ev.json --json --view \\",
      "    '{\"kind\":\"model-artifact\",\"collection\":\"tensors\",",
      "      \"types\":[\"Q8_0\"],\"fields\":[\"name\",\"shape\"]}'",
      "  rea inspect-analysis-view --source ev.json --tensors 'blk.0.*'",
      "",
      "View: collection tensors|metadata|types (members over a set bundle);",
      "filters names, name_glob, keys, key_glob, types, indices,",
      "storage_validation (they intersect; omitted = all, [] = none); fields",
      "(index is always kept); offset (counts matches); limit (1-256, default",
      "32). name_glob and key_glob are shell patterns (* ? [a-z] [!0-9], \\",
      "escapes) matched against the whole name or key.",
      "",
      "Exit status: 0 page answered, 2 invalid input (bad view, rejected",
      "evidence), 3 evidence file unavailable, 4 execution failure, 5 resource",
      "exhausted (Evidence that would pass REA's memory budget)."
    })
public final class AnalysisViewCommand extends ReaCommand {
  /** How many member IDs an {@code unknown_evidence} message lists. */
  private static final int LISTED_MEMBER_IDS = 8;

  @Option(
      names = "--source",
      paramLabel = "FILE",
      required = true,
      description = "The saved Evidence: one record or a bundle. Relative to the working directory.")
  String source;

  @Option(
      names = "--view",
      paramLabel = "JSON",
      description =
          "The view object, with \"kind\":\"model-artifact\" (needed unless --tensors is"
              + " given).")
  @Nullable String view;

  @Option(
      names = TensorsOption.NAME,
      paramLabel = "GLOB",
      description =
          "Only tensors whose name matches GLOB: the view's name_glob (without --view, a view of"
              + " the tensors collection). "
              + TensorsOption.SYNTAX)
  @Nullable String tensors;

  @Option(
      names = {"--evidence_id", "--evidence-id"},
      paramLabel = "ID",
      description =
          "The record to answer from when the bundle holds several. In a set bundle: a"
              + " member's ID answers from that member alone; without it (or with the set's"
              + " ID) views cover the whole set.")
  @Nullable String evidenceId;

  @Option(
      names = "--json",
      description = "Print the page as JSON on stdout (or the error object on failure).")
  boolean json;

  @Option(names = WideOption.NAME, description = WideOption.DESCRIPTION)
  boolean wide;

  @Override
  boolean json() {
    return json;
  }

  @Override
  int run(PrintWriter out, PrintWriter err) throws ReaException {
    ArrayView arrayView =
        view == null ? null : ArrayView.parseIfArray(view.getBytes(StandardCharsets.UTF_8));
    if (arrayView != null) {
      return arrayPage(arrayView, out, err);
    }
    ViewRequest selection =
        TensorsOption.view(
            view == null ? null : ViewRequest.parse(view, ViewRequest.Mode.ANALYSIS), tensors);
    Path file = Arguments.resolve(source, "--source");
    SelectedPath.checkTrailingSlash("--source", source, file);
    Rea rea = rea(err);
    ViewPage page;
    if (Rea.isSetEvidence(file)) {
      // A set bundle (inspect-model-set): its views cover the whole set, unless --evidence_id
      // names one member's record.
      SetEvidence set = rea.readSetEvidence(file);
      Evidence member = member(set);
      page =
          member == null
              ? rea.view(set, selection, SourceKind.EVIDENCE_FILE)
              : rea.view(member, selection, SourceKind.EVIDENCE_FILE);
    } else {
      Evidence ev = rea.readEvidence(file).select(evidenceId, "with --evidence_id");
      page = rea.view(ev, selection, SourceKind.EVIDENCE_FILE);
    }
    if (json) {
      Output.printJson(out, page.json());
    } else {
      CompactReport.printPage(TerminalText.wrap(out), page.json(), Screen.forStdout(env, wide));
    }
    return 0;
  }

  /**
   * The member record {@code --evidence_id} names in a set bundle.
   *
   * @return the member's Evidence; null for no {@code --evidence_id} or the set record's own ID
   *     (the view covers the whole set)
   * @throws ReaException {@code unknown_evidence} for an ID the bundle does not hold, listing the
   *     set's and the first members' IDs
   */
  private @Nullable Evidence member(SetEvidence set) throws ReaException {
    if (evidenceId == null || evidenceId.equals(set.evidenceId())) {
      return null;
    }
    StringBuilder held = new StringBuilder(set.evidenceId()).append(" (the set)");
    int listed = 0;
    for (Evidence m : set.members()) {
      if (m.evidenceId().equals(evidenceId)) {
        return m;
      }
      if (listed++ < LISTED_MEMBER_IDS) {
        held.append(", ").append(m.evidenceId());
      }
    }
    if (set.members().size() > LISTED_MEMBER_IDS) {
      held.append(", ... (").append(set.members().size()).append(" members in all)");
    }
    throw ReaException.builder(
            Constraint.UNKNOWN_EVIDENCE,
            "evidence "
                + ReaException.truncateForMessage(evidenceId)
                + " is not in this set bundle; it holds: "
                + held)
        .field("evidence_id")
        .build();
  }

  /**
   * The member record an array view over a set bundle reads: the one {@code --evidence_id} names,
   * or the only member.
   *
   * @throws ReaException {@code bad_argument} when the set has several members and no member is
   *     named; {@code unknown_evidence} as {@link #member}
   */
  private Evidence arrayRecord(SetEvidence set) throws ReaException {
    Evidence member = member(set);
    if (member != null) {
      return member;
    }
    if (set.members().size() == 1) {
      return set.members().get(0);
    }
    throw ReaException.builder(
            Constraint.BAD_ARGUMENT,
            "an array view reads one member's metadata; choose the member with --evidence_id"
                + " (a GGUF split set keeps its metadata in the first member, "
                + set.members().get(0).evidenceId()
                + ")")
        .field("evidence_id")
        .build();
  }

  /**
   * An array view (docs/evidence.md, "Array element pages"): one page of an array's elements,
   * read again from the model file the saved Evidence names. Readable output: one element a line,
   * after its index.
   */
  private int arrayPage(ArrayView arrayView, PrintWriter out, PrintWriter err) throws ReaException {
    if (tensors != null) {
      throw ReaException.builder(
              Constraint.CONFLICTING_CHOICES,
              "--tensors selects tensors; it does not combine with an array view")
          .field("--tensors")
          .build();
    }
    Path file = Arguments.resolve(source, "--source");
    SelectedPath.checkTrailingSlash("--source", source, file);
    Rea rea = rea(err);
    Evidence ev =
        Rea.isSetEvidence(file) ? arrayRecord(rea.readSetEvidence(file))
            : rea.readEvidence(file).select(evidenceId, "with --evidence_id");
    byte[] page = ev.arrayPage(arrayView);
    if (json) {
      Output.printJson(out, page);
      return 0;
    }
    JsonNode p = JsonMapper.builder().build().readTree(page);
    PrintWriter w = TerminalText.wrap(out);
    w.println(TerminalText.printable(p.get("key").asText()) + ": " + p.get("element_type").asText()
        + "[" + p.get("count").asText() + "] sha256 " + p.get("value_sha256").asText());
    long index = arrayView.offset();
    for (JsonNode e : p.get("elements")) {
      w.println("  " + index++ + "  " + TerminalText.printable(e.isString() ? e.asText() : e.toString()));
    }
    if (!p.get("next_offset").isNull()) {
      w.println("next page: \"offset\": " + p.get("next_offset").asText());
    }
    w.flush();
    return 0;
  }
}
