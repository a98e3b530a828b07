package dev.rea.mcp;

import dev.rea.core.Rea;
import dev.rea.core.SetEvidence;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.evidence.SetInspection;
import dev.rea.core.options.HashMode;
import dev.rea.core.view.SourceKind;
import dev.rea.core.view.ViewPage;
import dev.rea.core.view.ViewRequest;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The {@code inspect_model_set} tool (CONTRACT section 9) with the arguments of {@code
 * inspect_model_artifact}: {@code path} (an index, any split member, a directory holding one
 * model, or a model file), {@code hash}, {@code detail} ({@code summary} default, {@code
 * complete}), {@code view}, {@code format} ({@link FormatArg}). It runs in the server's one inspection slot, reports one progress
 * stream over all members' bytes and is cancelled by {@code notifications/cancelled} (the partial
 * set record comes back in the error). With summary detail the set is retained (its members in
 * the session's budget) and its views are answered by {@code inspect_analysis_view} with {@code
 * source {kind: "retained-evidence", evidence_id: <the set's id>}}; {@code release_evidence}
 * with that ID releases the set and its members.
 */
final class SetTool {
  static final String NAME = InboundFilter.SET_TOOL;

  private final ReaTools tools;
  private final Rea rea;
  private final EvidenceDesk desk;

  SetTool(ReaTools tools, Rea rea, EvidenceDesk desk) {
    this.tools = Objects.requireNonNull(tools, "tools");
    this.rea = Objects.requireNonNull(rea, "rea");
    this.desk = Objects.requireNonNull(desk, "desk");
  }

  CallToolResult inspect(McpSyncServerExchange exchange, CallToolRequest request) {
    Results results = tools.results();
    try {
      Args a =
          Args.of(
              request.arguments(),
              Set.of("path", "hash", "assume_layout", "detail", "view", FormatArg.NAME));
      Path path = a.absolutePath("path");
      HashMode hash = Objects.requireNonNull(
          HashMode.fromWire(a.choice("hash", "header", List.of("header", "full"))));
      Map<String, Object> view = a.optionalObject("view");
      FormatArg format = FormatArg.of(a);
      String detail = format.detail(a, hash, view != null);
      if (view != null && detail.equals("complete")) {
        throw Failures.conflicting("view",
            "view returns one page with the summary; it cannot be combined with detail:"
                + " \"complete\". Drop view, or drop detail: \"complete\".");
      }
      ViewRequest selection = view == null
          ? null : ViewRequest.parse(tools.viewBytes(view), ViewRequest.Mode.INLINE);
      SetInspection result =
          tools.inSlot(
              exchange, request, hash, ReaTools.layout(a), options -> rea.inspectSet(path, options));
      if (result instanceof SetInspection.Failed f) {
        return failure(results, f);
      }
      SetInspection.Complete done = rea.sign(result.orThrow());
      if (format != FormatArg.REA) {
        return results.success(format.ofSet(rea, done.set(), done.members()));
      }
      if (detail.equals("complete")) {
        return results.success(Rea.setBundleJson(done.set(), done.members()));
      }
      SetEvidence retained = desk.retainSet(done.set(), done.members());
      ViewPage page = selection == null
          ? null : rea.view(retained, selection, SourceKind.RETAINED_EVIDENCE);
      return results.success(rea.setSummaryJson(retained, page));
    } catch (ReaException e) {
      return results.failure(e);
    }
  }

  private CallToolResult failure(Results results, SetInspection.Failed f) {
    ModelSetRecord partial = f.partial();
    if (partial != null) {
      try {
        partial = rea.sign(partial);
      } catch (ReaException | RuntimeException signingFailed) {
        Log.warn("could not sign the partial set record: " + signingFailed.getMessage());
      }
    }
    return results.failureJson(Rea.setErrorJson(Advice.advise(f.error()), partial));
  }
}
