package dev.rea.mcp;

import dev.rea.core.Evidence;
import dev.rea.core.Rea;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.options.LayoutAssumption;
import dev.rea.core.options.ProgressListener;
import dev.rea.core.view.SourceKind;
import dev.rea.core.view.ViewPage;
import dev.rea.core.view.ArrayView;
import dev.rea.core.view.ViewRequest;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The MCP tools of CONTRACT sections 7 and 9 and their handlers. Handlers run on the SDK's worker
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
  private final Rea rea;
  private final Inspections inspections;
  private final EvidenceDesk desk;

  ReaTools(
      McpJsonMapper json,
      Rea rea,
      Inspections inspections,
      EvidenceDesk desk) {
    this.json = Objects.requireNonNull(json, "json");
    this.schemas = new Schemas(json);
    this.results = new Results(json);
    this.rea = Objects.requireNonNull(rea, "rea");
    this.inspections = Objects.requireNonNull(inspections, "inspections");
    this.desk = Objects.requireNonNull(desk, "desk");
  }

  /** @return the tool specifications to register */
  List<SyncToolSpecification> specifications() {
    // Hints: read-only, destructive, idempotent (MCP ToolAnnotations); the open-world hint is
    // false for all four (no network, no other system).
    return List.of(
        spec(INSPECT, "Inspect a GGUF or safetensors model file", Descriptions.INSPECT,
            true, false, false, this::inspect),
        spec(SetTool.NAME, "Inspect a model made of several files", Descriptions.SET,
            true, false, false, new SetTool(this, rea, desk)::inspect),
        spec(VIEW, "Page through complete Evidence", Descriptions.VIEW,
            true, false, true, this::view),
        spec(IMPORT, "Import an Evidence bundle into this session", Descriptions.IMPORT,
            false, false, true, this::importBundle),
        spec(RELEASE, "Release retained Evidence", Descriptions.RELEASE,
            false, true, false, this::release));
  }

  private SyncToolSpecification spec(
      String name,
      String title,
      String description,
      boolean readOnly,
      boolean destructive,
      boolean idempotent,
      java.util.function.BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> h) {
    Tool tool =
        Tool.builder()
            .name(name)
            .title(title)
            .description(description)
            .inputSchema(schemas.input(name))
            .outputSchema(schemas.output(name))
            // One title: the annotations' title is the tool's own (clients show either).
            .annotations(
                new ToolAnnotations(title, readOnly, destructive, idempotent, false, null))
            .build();
    return SyncToolSpecification.builder()
        .tool(tool)
        .callHandler(
            (exchange, request) -> {
              try {
                return h.apply(exchange, request);
              } catch (OutOfMemoryError e) {
                // What the call held is unreachable now: answer, so the client is not left waiting.
                return results.failure(ReaException.heapExhausted(e));
              }
            })
        .build();
  }

  // ---------------------------------------------------------------- inspect_model_artifact

  CallToolResult inspect(McpSyncServerExchange exchange, CallToolRequest request) {
    try {
      Args a =
          Args.of(
              request.arguments(),
              Set.of("path", "hash", "assume_layout", "detail", "view", FormatArg.NAME));
      Path path = a.absolutePath("path");
      HashMode hash =
          Objects.requireNonNull(HashMode.fromWire(a.choice("hash", "header", List.of("header", "full"))));
      LayoutAssumption layout = layout(a);
      Map<String, Object> view = a.optionalObject("view");
      FormatArg format = FormatArg.of(a);
      String detail = format.detail(a, hash, view != null);
      if (view != null && detail.equals("complete")) {
        throw Failures.conflicting(
            "view",
            "view returns one page with the summary; it cannot be combined with detail:"
                + " \"complete\". Drop view, or drop detail: \"complete\".");
      }
      // A bad view is refused before the file is opened.
      ViewRequest selection =
          view == null ? null : ViewRequest.parse(viewBytes(view), ViewRequest.Mode.INLINE);
      Inspection result = runInspection(exchange, request, path, hash, layout);
      if (result instanceof Inspection.Failed failed) {
        return results.failure(
            Advice.forInspection(failed.error()), desk.signPartial(failed.partial()));
      }
      EvidenceRecord record = result.orThrow();
      if (format != FormatArg.REA) {
        return results.success(format.of(rea, desk.sign(record)));
      }
      if (detail.equals("complete")) {
        // Signed, so the client can hand it back later (inline or as an evidence file).
        return results.success(Rea.recordJson(desk.sign(record)));
      }
      Evidence retained = desk.retainProduced(record);
      ViewPage page =
          selection == null ? null : rea.view(retained, selection, SourceKind.RETAINED_EVIDENCE);
      return results.success(rea.summaryJson(retained, page));
    } catch (ReaException e) {
      return results.failure(Advice.forInspection(e));
    }
  }

  // ---------------------------------------------------------------- inspect_analysis_view

  /** The parsed view: {@code view} parses it whenever the view is not an array view. */
  private static ViewRequest viewOf(@Nullable ViewRequest selection) {
    return Objects.requireNonNull(selection, "a view that is not an array view is parsed");
  }

  CallToolResult view(McpSyncServerExchange exchange, CallToolRequest request) {
    try {
      Args a = Args.of(request.arguments(), Set.of("source", "view"));
      Map<String, Object> source = a.optionalObject("source");
      if (source == null) {
        throw Failures.badArgument("source", "the argument \"source\" is required");
      }
      Map<String, Object> view = a.optionalObject("view");
      if (view == null) {
        throw Failures.badArgument("view", "the argument \"view\" is required");
      }
      byte[] viewJson = viewBytes(view);
      // An array view pages one array's elements from the model file (ArrayView).
      ArrayView arrayView = ArrayView.parseIfArray(viewJson);
      ViewRequest selection =
          arrayView != null ? null : ViewRequest.parse(viewJson, ViewRequest.Mode.ANALYSIS);
      String k = source.get("kind") instanceof String s ? s : null;
      if (k == null) {
        throw Failures.badArgument(
            "source.kind", "source.kind must be \"retained-evidence\", \"evidence-file\" or \"inline\"");
      }
      Evidence ev;
      SourceKind sourceKind;
      switch (k) {
        case "retained-evidence" -> {
          Args s = Args.of("source.", source, Set.of("kind", "evidence_id"));
          dev.rea.core.SetEvidence set = desk.set(s.requiredString("evidence_id"));
          if (set != null) {
            if (arrayView != null) {
              throw Failures.badArgument(
                  "view.collection", "array views page one model file's Evidence, not a set's");
            }
            return results.success(
                rea.view(set, viewOf(selection), SourceKind.RETAINED_EVIDENCE).json());
          }
          ev = desk.store().get(s.requiredString("evidence_id"));
          sourceKind = SourceKind.RETAINED_EVIDENCE;
        }
        case "evidence-file" -> {
          Args s = Args.of("source.", source, Set.of("kind", "path"));
          Path p = s.absolutePath("path");
          if (Rea.isSetEvidence(p)) {
            // A set bundle (inspect_model_set's or the CLI's --evidence_output) is paged as one
            // set, as the CLI's inspect-analysis-view --source pages it.
            if (arrayView != null) {
              throw Failures.badArgument(
                  "view.collection", "array views page one model file's Evidence, not a set's");
            }
            return results.success(
                rea.view(desk.loadSetFile(p), viewOf(selection), SourceKind.EVIDENCE_FILE)
                    .json());
          }
          ev = EvidenceDesk.singleRecord(desk.loadFile(p), p);
          sourceKind = SourceKind.EVIDENCE_FILE;
        }
        case "inline" -> {
          Args s = Args.of("source.", source, Set.of("kind", "evidence"));
          Map<String, Object> evidence = s.optionalObject("evidence");
          if (evidence == null) {
            throw Failures.badArgument("source.evidence", "source.evidence (a record) is required");
          }
          ev = EvidenceDesk.singleRecord(desk.load(bytes(evidence)), null);
          sourceKind = SourceKind.INLINE;
        }
        default ->
            throw Failures.badArgument(
                "source.kind",
                "source.kind must be \"retained-evidence\", \"evidence-file\" or \"inline\", not "
                    + Args.quote(k));
      }
      return results.success(
          arrayView != null
              ? ev.arrayPage(arrayView)
              : rea.view(ev, viewOf(selection), sourceKind).json());
    } catch (ReaException e) {
      return results.failure(e);
    }
  }

  // ---------------------------------------------------------------- import_evidence_bundle

  CallToolResult importBundle(McpSyncServerExchange exchange, CallToolRequest request) {
    try {
      Args a = Args.of(request.arguments(), Set.of("path", "bundle"));
      List<String> ids;
      if (a.has("path") && a.has("bundle")) {
        throw Failures.conflicting("bundle", "give either path or bundle, not both");
      } else if (a.has("path")) {
        ids = desk.importBundleFile(a.absolutePath("path"));
      } else if (a.has("bundle")) {
        Map<String, Object> bundle = Objects.requireNonNull(a.optionalObject("bundle"));
        Object schema = bundle.get("schema");
        boolean envelope = bundle.containsKey("payloadType") && bundle.containsKey("payload");
        if (!Rea.BUNDLE_SCHEMA.equals(schema) && !envelope) {
          // Refused before any record is read or authenticated.
          throw rejectedBundle(
              "the bundle argument must be a bundle, {\"schema\": \""
                  + Rea.BUNDLE_SCHEMA
                  + "\", \"records\": [...]}, or an in-toto envelope REA wrote"
                  + (EvidenceRecord.SCHEMA.equals(schema)
                      ? "; this is a single Evidence record: wrap it as {\"schema\": \""
                          + Rea.BUNDLE_SCHEMA
                          + "\", \"records\": [record]}, or page through it with"
                          + " inspect_analysis_view and source {kind: \"inline\", evidence}"
                      : ""));
        }
        ids = desk.importBundle(bytes(bundle));
      } else {
        throw Failures.badArgument(
            "path", "give path (an absolute path to a bundle file) or bundle (the bundle object)");
      }
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("evidence_ids", ids);
      return results.success(bytes(out));
    } catch (ReaException e) {
      return results.failure(e);
    }
  }

  // ---------------------------------------------------------------- release_evidence

  CallToolResult release(McpSyncServerExchange exchange, CallToolRequest request) {
    try {
      Args a = Args.of(request.arguments(), Set.of("evidence_id"));
      desk.release(a.requiredString("evidence_id"));
      return results.success(bytes(Map.of("released", true)));
    } catch (ReaException e) {
      return results.failure(e);
    }
  }

  /**
   * A view argument as JSON text for {@link ViewRequest#parse}. The SDK has already read the line
   * into Java values and reads a number beyond the double range (such as {@code 1e400}) as an
   * infinite double, which would be written back as the string {@code "Infinity"}; such a number is
   * written as {@code 1E+400} (or {@code -1E+400}) instead, so the view is refused for the number
   * it holds, not for a string it never held.
   */
  byte[] viewBytes(Map<String, Object> view) {
    return bytes(finite(view));
  }

  /** The value with every infinite double or float (at any depth) replaced as above. */
  private static @Nullable Object finite(@Nullable Object value) {
    if ((value instanceof Double d && d.isInfinite()) || (value instanceof Float f && f.isInfinite())) {
      return new BigDecimal(((Number) value).doubleValue() > 0 ? "1e400" : "-1e400");
    }
    if (value instanceof Map<?, ?> m) {
      Map<Object, @Nullable Object> copy = new LinkedHashMap<>();
      m.forEach((k, v) -> copy.put(k, finite(v)));
      return copy;
    }
    if (value instanceof List<?> l) {
      List<@Nullable Object> copy = new ArrayList<>(l.size());
      l.forEach(v -> copy.add(finite(v)));
      return copy;
    }
    return value;
  }

  private byte[] bytes(@Nullable Object value) {
    try {
      return json.writeValueAsBytes(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** @return the results builder */
  Results results() {
    return results;
  }

  /**
   * @return the {@code assume_layout} argument (CONTRACT section 12): {@code ggml-modern}, or
   *     none when absent
   * @throws ReaException {@code bad_argument} for any other value
   */
  static LayoutAssumption layout(Args a) throws ReaException {
    String v = a.choice("assume_layout", "none", List.of("ggml-modern"));
    return LayoutAssumption.parse(v);
  }

  /**
   * Runs an inspection in the server's one slot, with the request's cancellation and progress.
   *
   * @throws ReaException {@code provider_busy} when another inspection runs
   */
  <T> T inSlot(McpSyncServerExchange exchange, CallToolRequest request, HashMode hash,
      LayoutAssumption layout, java.util.function.Function<InspectOptions, T> work)
      throws ReaException {
    Inspections.Ticket ticket = inspections.tryStart(requestKey(request));
    if (ticket == null) {
      throw Failures.busy();
    }
    try {
      return work.apply(InspectOptions.builder()
          .hash(hash)
          .layout(layout)
          .cancellation(ticket.cancellation)
          .progress(new Progress(exchange, request.progressToken()))
          .build());
    } finally {
      inspections.finish(ticket);
    }
  }

  private Inspection runInspection(
      McpSyncServerExchange exchange,
      CallToolRequest request,
      Path path,
      HashMode hash,
      LayoutAssumption layout)
      throws ReaException {
    String requestKey = requestKey(request);
    Inspections.Ticket ticket = inspections.tryStart(requestKey);
    if (ticket == null) {
      throw Failures.busy();
    }
    try {
      InspectOptions options =
          InspectOptions.builder()
              .hash(hash)
              .layout(layout)
              .cancellation(ticket.cancellation)
              .progress(new Progress(exchange, request.progressToken()))
              .build();
      return rea.inspect(path, options);
    } finally {
      inspections.finish(ticket);
    }
  }

  /**
   * {@code invalid_input} / {@code evidence_rejected} for the {@code schema} of a bundle, worded
   * as the core's Evidence checks word theirs.
   */
  private static ReaException rejectedBundle(String reason) {
    return ReaException.builder(
            Constraint.EVIDENCE_REJECTED, "evidence rejected at schema: " + reason)
        .field("schema")
        .diagnostic("reason", reason)
        .build();
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
  static final class Progress implements ProgressListener {
    private final McpSyncServerExchange exchange;
    private final @Nullable Object token;
    private long lastPercent = -1;

    Progress(McpSyncServerExchange exchange, @Nullable Object token) {
      this.exchange = exchange;
      this.token = token;
    }

    @Override
    public void progress(long done, long total) {
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
  }
}
