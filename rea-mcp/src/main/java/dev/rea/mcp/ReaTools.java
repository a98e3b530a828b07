package dev.rea.mcp;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceJson;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.inspect.HashMode;
import dev.rea.core.inspect.ModelInspector;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The four MCP tools of CONTRACT section 7 and their handlers. Handlers run on the SDK's worker
 * threads (concurrent dispatch); every domain failure is returned as an {@code isError} result
 * with the CONTRACT section 6 error object; only defects escape as exceptions (the SDK turns them
 * into JSON-RPC error -32603).
 */
final class ReaTools {
  static final String INSPECT = InboundFilter.INSPECT_TOOL;
  static final String VIEW = "inspect_analysis_view";
  static final String IMPORT = "import_evidence_bundle";
  static final String RELEASE = "release_evidence";

  private final McpJsonMapper json;
  private final Schemas schemas;
  private final Results results;
  private final ModelInspector inspector;
  private final ModelInspector.Listener testHook;
  private final Inspections inspections;

  ReaTools(
      McpJsonMapper json,
      ModelInspector inspector,
      ModelInspector.Listener testHook,
      Inspections inspections) {
    this.json = Objects.requireNonNull(json, "json");
    this.schemas = new Schemas(json);
    this.results = new Results(json);
    this.inspector = Objects.requireNonNull(inspector, "inspector");
    this.testHook = Objects.requireNonNull(testHook, "testHook");
    this.inspections = Objects.requireNonNull(inspections, "inspections");
  }

  /** @return the tool specifications to register */
  List<SyncToolSpecification> specifications() {
    return List.of(
        spec(INSPECT, "Inspect a GGUF or safetensors model file", Descriptions.INSPECT, true,
            this::inspect));
  }

  private SyncToolSpecification spec(
      String name,
      String title,
      String description,
      boolean readOnly,
      java.util.function.BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> h) {
    Tool tool =
        Tool.builder()
            .name(name)
            .title(title)
            .description(description)
            .inputSchema(schemas.input(name))
            .outputSchema(schemas.output(name))
            .annotations(new ToolAnnotations(title, readOnly, false, true, false, null))
            .build();
    return SyncToolSpecification.builder().tool(tool).callHandler(h).build();
  }

  // ---------------------------------------------------------------- inspect_model_artifact

  CallToolResult inspect(McpSyncServerExchange exchange, CallToolRequest request) {
    try {
      Args a = Args.of(request.arguments(), Set.of("path", "hash", "detail", "view"));
      Path path = a.absolutePath("path");
      HashMode hash =
          Objects.requireNonNull(HashMode.fromWire(a.choice("hash", "header", List.of("header", "full"))));
      String detail = a.choice("detail", "summary", List.of("summary", "complete"));
      Map<String, Object> view = a.optionalObject("view");
      if (view != null && detail.equals("complete")) {
        throw Failures.conflicting(
            "view",
            "view returns one page with the summary; it cannot be combined with detail:"
                + " \"complete\". Drop view, or drop detail: \"complete\".");
      }
      if (detail.equals("summary")) {
        throw Failures.badArgument(
            "detail", "summary delivery is not available in this build; pass detail: \"complete\"");
      }
      EvidenceRecord record = runInspection(exchange, request, path, hash);
      return results.success(EvidenceJson.recordBytes(record, true));
    } catch (ReaException e) {
      return results.failure(e);
    }
  }

  private EvidenceRecord runInspection(
      McpSyncServerExchange exchange, CallToolRequest request, Path path, HashMode hash)
      throws ReaException {
    String requestKey = requestKey(request);
    Inspections.Ticket ticket = inspections.tryStart(requestKey);
    if (ticket == null) {
      throw Failures.busy();
    }
    try {
      Object token = request.progressToken();
      ModelInspector.Listener listener =
          new Progress(exchange, token, testHook);
      return inspector.inspect(path, hash, listener, ticket.cancellation);
    } finally {
      inspections.finish(ticket);
    }
  }

  private static @Nullable String requestKey(CallToolRequest request) {
    Map<String, Object> meta = request.meta();
    if (meta == null) {
      return null;
    }
    Object v = meta.get(InboundFilter.REQUEST_ID_META);
    return v instanceof String s ? s : null;
  }

  /**
   * Sends MCP progress for a full hash when the request carried a progress token: progress and
   * total are bytes of the file hashed so far and its size. At most one notification per whole
   * percent, and always one for the end. A failure to send is logged, never fails the inspection.
   */
  static final class Progress implements ModelInspector.Listener {
    private final McpSyncServerExchange exchange;
    private final @Nullable Object token;
    private final ModelInspector.Listener hook;
    private long lastPercent = -1;

    Progress(McpSyncServerExchange exchange, @Nullable Object token, ModelInspector.Listener hook) {
      this.exchange = exchange;
      this.token = token;
      this.hook = hook;
    }

    @Override
    public void onHashProgress(long done, long total) {
      hook.onHashProgress(done, total);
      if (token == null) {
        return;
      }
      long percent = total <= 0 ? 100 : (long) (100.0 * done / total);
      if (percent == lastPercent && done != total) {
        return;
      }
      lastPercent = percent;
      try {
        exchange.progressNotification(
            new ProgressNotification(
                token, (double) done, (double) total, "hashed " + done + " of " + total + " bytes"));
      } catch (RuntimeException e) {
        Log.warn("could not send a progress notification: " + e);
      }
    }

    @Override
    public void beforeHashRead(long offset) throws ReaException {
      hook.beforeHashRead(offset);
    }
  }
}
