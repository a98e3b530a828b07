package dev.rea.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * End to end with the Java SDK client: summary delivery, retained Evidence, every source kind of
 * {@code inspect_analysis_view}, paging, import, release, and the retained budget.
 */
class EvidenceToolsE2eTest {
  @TempDir Path dir;

  private final List<McpSyncClient> clients = new CopyOnWriteArrayList<>();

  private McpSyncClient client(Map<String, String> props) {
    StdioClientTransport transport =
        new StdioClientTransport(
            ServerCommand.parameters(TestServerMain.class, props), McpJsonDefaults.getMapper());
    transport.setStdErrorHandler(line -> {});
    McpSyncClient c =
        McpClient.sync(transport)
            .requestTimeout(Duration.ofSeconds(60))
            .initializationTimeout(Duration.ofSeconds(30))
            .build();
    clients.add(c);
    c.initialize();
    return c;
  }

  private McpSyncClient client() {
    return client(Map.of());
  }

  @AfterEach
  void close() {
    for (McpSyncClient c : clients) {
      c.closeGracefully();
    }
  }

  private static JsonNode ok(CallToolResult r) {
    JsonNode n = McpClientE2eTest.structured(r);
    assertThat(r.isError()).as("isError: " + n).isFalse();
    return n;
  }

  private static CallToolResult call(McpSyncClient c, String tool, Map<String, Object> args) {
    return c.callTool(new CallToolRequest(tool, args));
  }

  private static Map<String, Object> view(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", "model-artifact");
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  private static Map<String, Object> retained(String id) {
    return Map.of("kind", "retained-evidence", "evidence_id", id);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> asMap(JsonNode n) {
    return RawSession.JSON.convertValue(n, Map.class);
  }

  @Test
  void listsAllFiveTools() {
    assertThat(client().listTools().tools())
        .extracting(Tool::name)
        .containsExactlyInAnyOrder(
            ReaTools.INSPECT, SetTool.NAME, ReaTools.VIEW, ReaTools.IMPORT, ReaTools.RELEASE);
  }

  @Test
  void summaryByDefaultRetainsTheCompleteEvidence() throws Exception {
    Path p = TinyGguf.write(dir.resolve("s.gguf"), 4, 7, 0);
    McpSyncClient c = client();
    JsonNode s = ok(call(c, ReaTools.INSPECT, Map.of("path", p.toString())));
    assertThat(s.path("kind").asString()).isEqualTo("model-artifact-summary");
    assertThat(s.path("status").asString()).isEqualTo("complete");
    assertThat(s.path("counts").path("tensors").asInt()).isEqualTo(7);
    assertThat(s.path("counts").path("metadata").asInt()).isEqualTo(4);
    // Seven 4x4 F32 tensors: one type row; no general.file_type.
    assertThat(s.path("types").toString()).isEqualTo("[{\"type\":\"F32\",\"type_id\":0,"
        + "\"tensor_count\":7,\"parameter_count\":\"112\",\"byte_length\":\"448\"}]");
    assertThat(s.path("file_type").isNull()).isTrue();
    assertThat(s.path("artifact").path("path").asString()).isEqualTo(p.toString());
    assertThat(s.has("page")).isFalse();
    String id = s.path("parent_evidence_id").asString();
    assertThat(id).startsWith("sha256:");

    JsonNode page =
        ok(call(c, ReaTools.VIEW, Map.of("source", retained(id), "view", view("collection", "metadata", "keys", List.of("test.key.2")))));
    assertThat(page.path("kind").asString()).isEqualTo("model-artifact-page");
    assertThat(page.path("parent_evidence_id").asString()).isEqualTo(id);
    assertThat(page.path("source").path("kind").asString()).isEqualTo("retained-evidence");
    assertThat(page.path("total_matches").asInt()).isEqualTo(1);
    assertThat(page.path("rows").get(0).path("index").asInt()).isEqualTo(2);
    assertThat(page.path("rows").get(0).path("value").asString()).isEqualTo("value-2");
  }

  @Test
  void assumeLayoutIsRecordedAndSummarised() throws Exception {
    Path p = dir.resolve("k.gguf");
    java.nio.file.Files.write(
        p,
        dev.rea.core.internal.format.gguf.GgufBuilder.v3().tensor("w", 12, 256, 2).bytes());
    McpSyncClient c = client();
    JsonNode rec =
        ok(call(c, ReaTools.INSPECT,
            Map.of("path", p.toString(), "assume_layout", "ggml-modern", "detail", "complete")));
    assertThat(rec.path("request").path("assume_layout").asString()).isEqualTo("ggml-modern");
    assertThat(rec.path("tensors").get(0).path("byte_length").asString()).isEqualTo("288");
    JsonNode s =
        ok(call(c, ReaTools.INSPECT, Map.of("path", p.toString(), "assume_layout", "ggml-modern")));
    assertThat(s.path("assume_layout").asString()).isEqualTo("ggml-modern");
    assertThat(s.path("totals").path("byte_length").asString()).isEqualTo("288");
    JsonNode plain = ok(call(c, ReaTools.INSPECT, Map.of("path", p.toString())));
    assertThat(plain.has("assume_layout")).isFalse();
    assertThat(plain.path("totals").path("byte_length").isNull()).isTrue();
    JsonNode bad =
        McpClientE2eTest.error(
            call(c, ReaTools.INSPECT, Map.of("path", p.toString(), "assume_layout", "k64")));
    assertThat(bad.toString()).contains("assume_layout");
  }

  @Test
  void inlineViewReturnsOnePageWithTheSummary() throws Exception {
    Path p = TinyGguf.write(dir.resolve("v.gguf"), 1, 5, 0);
    JsonNode s =
        ok(
            call(
                client(),
                ReaTools.INSPECT,
                Map.of(
                    "path", p.toString(),
                    "view",
                        Map.of(
                            "collection", "tensors",
                            "names", List.of("blk.3.weight"),
                            "fields", List.of("type", "shape", "file_offset")))));
    JsonNode page = s.path("page");
    assertThat(page.path("kind").asString()).isEqualTo("model-artifact-page");
    assertThat(page.path("rows")).hasSize(1);
    JsonNode row = page.path("rows").get(0);
    assertThat(row.path("index").asInt()).isEqualTo(3);
    assertThat(row.path("type").asString()).isEqualTo("F32");
    assertThat(row.has("name")).isFalse();
    assertThat(page.path("parent_evidence_id").asString())
        .isEqualTo(s.path("parent_evidence_id").asString());
  }

  @Test
  void namePatternsSelectTensorsAndKeys() throws Exception {
    Path p = TinyGguf.write(dir.resolve("glob.gguf"), 5, 25, 0);
    McpSyncClient c = client();
    JsonNode s = ok(call(c, ReaTools.INSPECT, Map.of("path", p.toString(),
        "view", Map.of("collection", "tensors", "name_glob", "blk.1?.weight",
            "fields", List.of("name")))));
    List<String> names = new ArrayList<>();
    for (JsonNode row : s.path("page").path("rows")) {
      names.add(row.path("name").asString());
    }
    List<String> expected = new ArrayList<>();
    for (int i = 10; i < 20; i++) {
      expected.add("blk." + i + ".weight");
    }
    assertThat(names).isEqualTo(expected);
    String id = s.path("parent_evidence_id").asString();
    JsonNode keys = ok(call(c, ReaTools.VIEW, Map.of("source", retained(id),
        "view", view("collection", "metadata", "key_glob", "test.key.[13]", "fields",
            List.of("key")))));
    assertThat(keys.path("rows").toString())
        .isEqualTo("[{\"index\":1,\"key\":\"test.key.1\"},{\"index\":3,\"key\":\"test.key.3\"}]");
    JsonNode both = ok(call(c, ReaTools.VIEW, Map.of("source", retained(id),
        "view", view("collection", "tensors", "name_glob", "blk.[!1]*", "indices",
            List.of(1, 2, 20, 21), "fields", List.of("name")))));
    assertThat(both.path("total_matches").asInt()).isEqualTo(3);
    JsonNode bad = McpClientE2eTest.error(call(c, ReaTools.VIEW, Map.of("source", retained(id),
        "view", view("collection", "tensors", "name_glob", "blk.[2-"))));
    assertThat(bad.path("constraint").asString()).isEqualTo("bad_view");
    assertThat(bad.path("details").path("field").asString()).isEqualTo("view.name_glob");
    assertThat(bad.path("message").asString()).contains("code point 4");
    JsonNode wrong = McpClientE2eTest.error(call(c, ReaTools.VIEW, Map.of("source", retained(id),
        "view", view("collection", "types", "key_glob", "x"))));
    assertThat(wrong.path("details").path("field").asString()).isEqualTo("view.key_glob");
  }

  @Test
  void anArrayViewPagesEveryElementFromTheUnchangedModelFile() throws Exception {
    java.util.List<dev.rea.core.internal.format.gguf.GgufBuilder.Value> tokens =
        new java.util.ArrayList<>();
    for (int i = 0; i < 600; i++) {
      tokens.add(dev.rea.core.internal.format.gguf.GgufBuilder.str("tok" + i));
    }
    Path p = dir.resolve("v.gguf");
    java.nio.file.Files.write(p, dev.rea.core.internal.format.gguf.GgufBuilder.v3()
        .kv("tokenizer.ggml.tokens", dev.rea.core.internal.format.gguf.GgufBuilder.array(
            dev.rea.core.internal.format.gguf.GgufBuilder.STRING, tokens))
        .bytes());
    McpSyncClient c = client();
    String id = ok(call(c, ReaTools.INSPECT, Map.of("path", p.toString())))
        .path("parent_evidence_id").asString();
    JsonNode page = ok(call(c, ReaTools.VIEW, Map.of("source", retained(id), "view",
        view("collection", "array", "key", "tokenizer.ggml.tokens", "offset", 500, "limit", 50))));
    assertThat(page.path("kind").asString()).isEqualTo("model-artifact-array-page");
    assertThat(page.path("count").asString()).isEqualTo("600");
    assertThat(page.path("elements").size()).isEqualTo(50);
    assertThat(page.path("elements").get(0).asString()).isEqualTo("tok500");
    assertThat(page.path("next_offset").asString()).isEqualTo("550");
    // The file changed since: refused, typed.
    java.nio.file.Files.setLastModifiedTime(
        p, java.nio.file.attribute.FileTime.fromMillis(1_800_000_000_000L));
    CallToolResult refused = call(c, ReaTools.VIEW, Map.of("source", retained(id), "view",
        view("collection", "array", "key", "tokenizer.ggml.tokens")));
    assertThat(refused.isError()).isTrue();
    assertThat(McpClientE2eTest.structured(refused).toString()).contains("target_changed");
  }

  @Test
  void badViewIsRefusedBeforeTheFileIsRead() {
    JsonNode e =
        McpClientE2eTest.error(
            call(
                client(),
                ReaTools.INSPECT,
                Map.of(
                    "path", dir.resolve("never-opened.gguf").toString(),
                    "view", Map.of("collection", "tensors", "keys", List.of("x")))));
    assertThat(e.path("constraint").asString()).isEqualTo("bad_view");
    assertThat(e.path("code").asString()).isEqualTo("invalid_input");
  }

  @Test
  void pagesThroughARetainedRecord() throws Exception {
    int tensors = 300;
    Path p = TinyGguf.write(dir.resolve("many.gguf"), 2, tensors, 0);
    McpSyncClient c = client();
    String id = ok(call(c, ReaTools.INSPECT, Map.of("path", p.toString()))).path("parent_evidence_id").asString();
    List<Integer> seen = new ArrayList<>();
    Integer offset = 0;
    int pages = 0;
    while (offset != null) {
      JsonNode page =
          ok(
              call(
                  c,
                  ReaTools.VIEW,
                  Map.of(
                      "source", retained(id),
                      "view", view("collection", "tensors", "fields", List.of("name"), "offset", offset, "limit", 64))));
      pages++;
      assertThat(page.path("total_matches").asInt()).isEqualTo(tensors);
      assertThat(page.path("offset").asInt()).isEqualTo(offset);
      for (JsonNode row : page.path("rows")) {
        int index = row.path("index").asInt();
        assertThat(row.path("name").asString()).isEqualTo("blk." + index + ".weight");
        seen.add(index);
      }
      JsonNode next = page.path("next_offset");
      offset = next.isNull() ? null : next.asInt();
      assertThat(pages).isLessThan(20);
    }
    assertThat(pages).isEqualTo(5);
    assertThat(seen).hasSize(tensors);
    for (int i = 0; i < tensors; i++) {
      assertThat(seen.get(i)).isEqualTo(i);
    }
  }

  @Test
  void evidenceFileAndInlineSourcesAnswerFromSignedRecords() throws Exception {
    Path p = TinyGguf.write(dir.resolve("f.gguf"), 3, 4, 0);
    McpSyncClient c = client();
    JsonNode rec = ok(call(c, ReaTools.INSPECT, Map.of("path", p.toString(), "detail", "complete")));
    assertThat(rec.path("authentication").path("scheme").asString()).isEqualTo("ed25519");
    String id = rec.path("evidence_id").asString();
    Path file = dir.resolve("record.json");
    Files.writeString(file, RawSession.JSON.writeValueAsString(rec), StandardCharsets.UTF_8);

    Map<String, Object> types = view("collection", "types");
    JsonNode fromFile =
        ok(call(c, ReaTools.VIEW, Map.of("source", Map.of("kind", "evidence-file", "path", file.toString()), "view", types)));
    assertThat(fromFile.path("source").path("kind").asString()).isEqualTo("evidence-file");
    assertThat(fromFile.path("parent_evidence_id").asString()).isEqualTo(id);
    assertThat(fromFile.path("rows").get(0).path("type").asString()).isEqualTo("F32");
    assertThat(fromFile.path("rows").get(0).path("tensor_count").asInt()).isEqualTo(4);

    JsonNode inline =
        ok(call(c, ReaTools.VIEW, Map.of("source", Map.of("kind", "inline", "evidence", asMap(rec)), "view", types)));
    assertThat(inline.path("source").path("kind").asString()).isEqualTo("inline");
    assertThat(inline.path("rows")).isEqualTo(fromFile.path("rows"));

    // A changed record is refused before anything is indexed.
    ObjectNode tampered = (ObjectNode) rec.deepCopy();
    ((ObjectNode) tampered.path("tensors").get(0)).put("name", "blk.x.weight");
    JsonNode e =
        McpClientE2eTest.error(
            call(c, ReaTools.VIEW, Map.of("source", Map.of("kind", "inline", "evidence", asMap(tampered)), "view", types)));
    assertThat(e.path("constraint").asString()).isEqualTo("evidence_rejected");

    // A bundle, even of this one record, is not a single record: refused with the way on.
    ObjectNode bundle = RawSession.JSON.createObjectNode();
    bundle.put("schema", "rea.bundle.v1");
    bundle.putArray("records").add(rec);
    Path bundleFile = dir.resolve("bundle.json");
    Files.writeString(bundleFile, RawSession.JSON.writeValueAsString(bundle), StandardCharsets.UTF_8);
    JsonNode bundleFromFile =
        McpClientE2eTest.error(
            call(c, ReaTools.VIEW, Map.of("source", Map.of("kind", "evidence-file", "path", bundleFile.toString()), "view", types)));
    assertThat(bundleFromFile.path("constraint").asString()).isEqualTo("evidence_rejected");
    assertThat(bundleFromFile.path("details").path("field").asString()).isEqualTo("schema");
    assertThat(bundleFromFile.path("details").path("path").asString()).isEqualTo(bundleFile.toString());
    assertThat(bundleFromFile.path("message").asString())
        .isEqualTo(
            "this file is a bundle (schema rea.bundle.v1, 1 record), not a single Evidence record"
                + " (schema rea.evidence.v1). Import it with import_evidence_bundle and query its"
                + " records with source {kind: \"retained-evidence\", evidence_id}, or save one"
                + " record of it as a standalone Evidence file.");
    JsonNode bundleInline =
        McpClientE2eTest.error(
            call(c, ReaTools.VIEW, Map.of("source", Map.of("kind", "inline", "evidence", asMap(bundle)), "view", types)));
    assertThat(bundleInline.path("constraint").asString()).isEqualTo("evidence_rejected");
    assertThat(bundleInline.path("message").asString()).startsWith("source.evidence is a bundle");

    JsonNode relative =
        McpClientE2eTest.error(
            call(c, ReaTools.VIEW, Map.of("source", Map.of("kind", "evidence-file", "path", "record.json"), "view", types)));
    assertThat(relative.path("constraint").asString()).isEqualTo("relative_path");
    assertThat(relative.path("details").path("field").asString()).isEqualTo("source.path");

    JsonNode noKind =
        McpClientE2eTest.error(
            call(c, ReaTools.VIEW, Map.of("source", retained(id), "view", Map.of("collection", "types"))));
    assertThat(noKind.path("constraint").asString()).isEqualTo("bad_view");
  }

  @Test
  void aFileGivenToTheWrongToolGetsAdviceInTheToolsTerms() throws Exception {
    Path p = TinyGguf.write(dir.resolve("w.gguf"), 1, 2, 0);
    McpSyncClient c = client();
    JsonNode rec = ok(call(c, ReaTools.INSPECT, Map.of("path", p.toString(), "detail", "complete")));
    Path file = dir.resolve("saved.json");
    Files.writeString(file, RawSession.JSON.writeValueAsString(rec), StandardCharsets.UTF_8);

    // Saved Evidence given as a model.
    JsonNode asModel = McpClientE2eTest.error(call(c, ReaTools.INSPECT, Map.of("path", file.toString())));
    assertThat(asModel.path("constraint").asString()).isEqualTo("unsupported_format");
    assertThat(asModel.path("details").path("diagnostics").path("detected").asString())
        .isEqualTo("rea_evidence");
    assertThat(asModel.path("message").asString())
        .isEqualTo(
            "unsupported format: the file is Evidence that REA saved (a rea.evidence.v1 record),"
                + " not a model: read it with inspect_analysis_view and source {kind:"
                + " \"evidence-file\", path}, or retain a bundle with import_evidence_bundle");

    // A model, or a summary, given as Evidence: advice names the tools, never the CLI's options.
    JsonNode summary = ok(call(c, ReaTools.INSPECT, Map.of("path", p.toString())));
    Path summaryFile = dir.resolve("summary.json");
    Files.writeString(summaryFile, RawSession.JSON.writeValueAsString(summary), StandardCharsets.UTF_8);
    Map<String, Object> types = view("collection", "types");
    JsonNode modelAsEvidence =
        McpClientE2eTest.error(
            call(c, ReaTools.VIEW, Map.of("source", Map.of("kind", "evidence-file", "path", p.toString()), "view", types)));
    JsonNode modelImported = McpClientE2eTest.error(call(c, ReaTools.IMPORT, Map.of("path", p.toString())));
    for (JsonNode e : new JsonNode[] {modelAsEvidence, modelImported}) {
      assertThat(e.path("constraint").asString()).isEqualTo("evidence_rejected");
      assertThat(e.path("details").path("diagnostics").path("detected").asString()).isEqualTo("gguf");
      assertThat(e.path("message").asString())
          .isEqualTo(
              "this is a GGUF model file, not saved Evidence: inspect it with"
                  + " inspect_model_artifact (the summary's parent_evidence_id names its complete"
                  + " Evidence, which the server retains: query it with inspect_analysis_view and"
                  + " source {kind: \"retained-evidence\", evidence_id})");
    }
    JsonNode summaryAsEvidence =
        McpClientE2eTest.error(
            call(c, ReaTools.VIEW, Map.of("source", Map.of("kind", "evidence-file", "path", summaryFile.toString()), "view", types)));
    assertThat(summaryAsEvidence.path("message").asString())
        .startsWith("this is a model-artifact summary, not saved Evidence: ")
        .contains("{kind: \"retained-evidence\", evidence_id}")
        .doesNotContain("--evidence_output");
  }

  @Test
  void importThenViewThenReleaseThenRefused() throws Exception {
    Path p = TinyGguf.write(dir.resolve("i.gguf"), 2, 3, 0);
    McpSyncClient c = client();
    JsonNode rec = ok(call(c, ReaTools.INSPECT, Map.of("path", p.toString(), "detail", "complete")));
    String id = rec.path("evidence_id").asString();
    Map<String, Object> bundle = new LinkedHashMap<>();
    bundle.put("schema", "rea.bundle.v1");
    bundle.put("records", List.of(asMap(rec)));

    JsonNode imported = ok(call(c, ReaTools.IMPORT, Map.of("bundle", bundle)));
    assertThat(imported.path("evidence_ids")).hasSize(1);
    assertThat(imported.path("evidence_ids").get(0).asString()).isEqualTo(id);

    Map<String, Object> tensors = view("collection", "tensors", "indices", List.of(2));
    JsonNode page = ok(call(c, ReaTools.VIEW, Map.of("source", retained(id), "view", tensors)));
    assertThat(page.path("rows").get(0).path("name").asString()).isEqualTo("blk.2.weight");

    JsonNode released = ok(call(c, ReaTools.RELEASE, Map.of("evidence_id", id)));
    assertThat(released.path("released").asBoolean()).isTrue();
    JsonNode gone =
        McpClientE2eTest.error(call(c, ReaTools.VIEW, Map.of("source", retained(id), "view", tensors)));
    assertThat(gone.path("code").asString()).isEqualTo("invalid_input");
    assertThat(gone.path("constraint").asString()).isEqualTo("unknown_evidence");
    JsonNode again = McpClientE2eTest.error(call(c, ReaTools.RELEASE, Map.of("evidence_id", id)));
    assertThat(again.path("constraint").asString()).isEqualTo("unknown_evidence");

    // Import from a bundle file works the same way.
    Path file = dir.resolve("bundle.json");
    Files.writeString(file, RawSession.JSON.writeValueAsString(bundle), StandardCharsets.UTF_8);
    JsonNode fromFile = ok(call(c, ReaTools.IMPORT, Map.of("path", file.toString())));
    assertThat(fromFile.path("evidence_ids").get(0).asString()).isEqualTo(id);
    assertThat(ok(call(c, ReaTools.VIEW, Map.of("source", retained(id), "view", tensors))).path("rows")).hasSize(1);

    JsonNode both =
        McpClientE2eTest.error(call(c, ReaTools.IMPORT, Map.of("path", file.toString(), "bundle", bundle)));
    assertThat(both.path("constraint").asString()).isEqualTo("conflicting_choices");
    JsonNode neither = McpClientE2eTest.error(call(c, ReaTools.IMPORT, Map.of()));
    assertThat(neither.path("constraint").asString()).isEqualTo("bad_argument");
  }

  @Test
  void importTakesBundlesOnly() throws Exception {
    Path p = TinyGguf.write(dir.resolve("b.gguf"), 1, 2, 0);
    McpSyncClient c = client();
    JsonNode rec = ok(call(c, ReaTools.INSPECT, Map.of("path", p.toString(), "detail", "complete")));
    String id = rec.path("evidence_id").asString();
    Path recordFile = dir.resolve("record.json");
    Files.writeString(recordFile, RawSession.JSON.writeValueAsString(rec), StandardCharsets.UTF_8);

    // A valid, signed single record is still not a bundle: by path ...
    JsonNode byPath = McpClientE2eTest.error(call(c, ReaTools.IMPORT, Map.of("path", recordFile.toString())));
    assertThat(byPath.path("code").asString()).isEqualTo("invalid_input");
    assertThat(byPath.path("category").asString()).isEqualTo("invalid_request");
    assertThat(byPath.path("constraint").asString()).isEqualTo("evidence_rejected");
    assertThat(byPath.path("details").path("field").asString()).isEqualTo("schema");
    assertThat(byPath.path("details").path("path").asString()).isEqualTo(recordFile.toString());
    assertThat(byPath.path("message").asString()).contains("single Evidence record");
    // ... or inline as the bundle argument.
    JsonNode inline = McpClientE2eTest.error(call(c, ReaTools.IMPORT, Map.of("bundle", asMap(rec))));
    assertThat(inline.path("constraint").asString()).isEqualTo("evidence_rejected");
    assertThat(inline.path("details").path("field").asString()).isEqualTo("schema");
    assertThat(inline.path("message").asString()).contains("single Evidence record");
    // Neither was retained.
    JsonNode none =
        McpClientE2eTest.error(
            call(c, ReaTools.VIEW, Map.of("source", retained(id), "view", view("collection", "types"))));
    assertThat(none.path("constraint").asString()).isEqualTo("unknown_evidence");

    // Other shapes: a bundle without records, with no records, of another schema; a bundle
    // given as JSON text; an argument the contract does not name.
    JsonNode noRecords =
        McpClientE2eTest.error(call(c, ReaTools.IMPORT, Map.of("bundle", Map.of("schema", "rea.bundle.v1"))));
    assertThat(noRecords.path("constraint").asString()).isEqualTo("evidence_rejected");
    assertThat(noRecords.path("details").path("field").asString()).isEqualTo("records");
    JsonNode empty =
        McpClientE2eTest.error(
            call(c, ReaTools.IMPORT, Map.of("bundle", Map.of("schema", "rea.bundle.v1", "records", List.of()))));
    assertThat(empty.path("constraint").asString()).isEqualTo("evidence_rejected");
    JsonNode otherSchema =
        McpClientE2eTest.error(
            call(c, ReaTools.IMPORT, Map.of("bundle", Map.of("schema", "rea.bundle.v2", "records", List.of(asMap(rec))))));
    assertThat(otherSchema.path("constraint").asString()).isEqualTo("evidence_rejected");
    assertThat(otherSchema.path("details").path("field").asString()).isEqualTo("schema");
    Map<String, Object> bundle = new LinkedHashMap<>();
    bundle.put("schema", "rea.bundle.v1");
    bundle.put("records", List.of(asMap(rec)));
    JsonNode text =
        McpClientE2eTest.error(
            call(c, ReaTools.IMPORT, Map.of("bundle", RawSession.JSON.writeValueAsString(bundle))));
    assertThat(text.path("constraint").asString()).isEqualTo("bad_argument");
    assertThat(text.path("details").path("field").asString()).isEqualTo("bundle");
    JsonNode records = McpClientE2eTest.error(call(c, ReaTools.IMPORT, Map.of("records", List.of(asMap(rec)))));
    assertThat(records.path("constraint").asString()).isEqualTo("bad_argument");
    assertThat(records.path("details").path("field").asString()).isEqualTo("records");
    JsonNode evidence = McpClientE2eTest.error(call(c, ReaTools.IMPORT, Map.of("evidence", asMap(rec))));
    assertThat(evidence.path("constraint").asString()).isEqualTo("bad_argument");

    // The same record wrapped in a bundle imports.
    JsonNode imported = ok(call(c, ReaTools.IMPORT, Map.of("bundle", bundle)));
    assertThat(imported.path("evidence_ids")).hasSize(1);
    assertThat(imported.path("evidence_ids").get(0).asString()).isEqualTo(id);
  }

  @Test
  void retainedBudgetRefusalIsTyped() throws Exception {
    Path p = TinyGguf.write(dir.resolve("budget.gguf"), 2, 400, 0);
    McpSyncClient c = client(Map.of("rea.test.retainedBudget", "65536"));
    JsonNode e = McpClientE2eTest.error(call(c, ReaTools.INSPECT, Map.of("path", p.toString())));
    assertThat(e.path("code").asString()).isEqualTo("resource_exhausted");
    assertThat(e.path("constraint").asString()).isEqualTo("retained_budget");
    // Complete detail is not retained, so it is still delivered.
    JsonNode rec = ok(call(c, ReaTools.INSPECT, Map.of("path", p.toString(), "detail", "complete")));
    assertThat(rec.path("tensors")).hasSize(400);
  }
}
