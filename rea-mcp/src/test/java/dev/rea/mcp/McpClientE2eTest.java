package dev.rea.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ListToolsResult;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * End to end: the server runs as a separate process ({@link TestServerMain} from the test class
 * path) and the MCP Java SDK client drives it over stdio.
 */
class McpClientE2eTest {
  @TempDir Path dir;

  private final List<McpSyncClient> clients = new CopyOnWriteArrayList<>();
  private final List<ProgressNotification> progress = new CopyOnWriteArrayList<>();

  private McpSyncClient client(Class<?> main, Map<String, String> props) {
    StdioClientTransport transport =
        new StdioClientTransport(ServerCommand.parameters(main, props), McpJsonDefaults.getMapper());
    transport.setStdErrorHandler(line -> {});
    McpSyncClient c =
        McpClient.sync(transport)
            .requestTimeout(Duration.ofSeconds(60))
            .initializationTimeout(Duration.ofSeconds(30))
            .progressConsumer(progress::add)
            .build();
    clients.add(c);
    assertThat(c.initialize().protocolVersion()).isEqualTo("2025-11-25");
    return c;
  }

  private McpSyncClient client() {
    return client(TestServerMain.class, Map.of());
  }

  @AfterEach
  void close() {
    for (McpSyncClient c : clients) {
      c.closeGracefully();
    }
  }

  static JsonNode structured(CallToolResult r) {
    JsonNode node = RawSession.JSON.valueToTree(r.structuredContent());
    // The text content carries the same JSON.
    assertThat(r.content()).hasSize(1);
    String text = ((TextContent) r.content().get(0)).text();
    assertThat(RawSession.JSON.readTree(text)).isEqualTo(node);
    return node;
  }

  static JsonNode error(CallToolResult r) {
    assertThat(r.isError()).as("isError").isTrue();
    return structured(r).path("error");
  }

  private Path model(int kv, int tensors, long minSize) throws IOException {
    return TinyGguf.write(dir.resolve("m-" + kv + "-" + tensors + ".gguf"), kv, tensors, minSize);
  }

  private static String sha256(Path p) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    md.update(Files.readAllBytes(p));
    return HexFormat.of().formatHex(md.digest());
  }

  @Test
  void listsToolsWithInputAndOutputSchemas() {
    ListToolsResult tools = client().listTools();
    assertThat(tools.tools()).extracting(Tool::name).contains(ReaTools.INSPECT);
    for (Tool t : tools.tools()) {
      assertThat(t.description()).hasSizeGreaterThan(200);
      assertThat(t.inputSchema().get("type")).isEqualTo("object");
      assertThat(t.outputSchema()).isNotNull();
      assertThat(t.outputSchema().get("$schema"))
          .isEqualTo("https://json-schema.org/draft/2020-12/schema");
    }
  }

  @Test
  void completeDetailReturnsTheWholeRecord() throws Exception {
    Path p = model(3, 5, 0);
    CallToolResult r =
        client()
            .callTool(
                new CallToolRequest(
                    ReaTools.INSPECT, Map.of("path", p.toString(), "detail", "complete")));
    assertThat(r.isError()).isFalse();
    JsonNode rec = structured(r);
    assertThat(rec.path("schema").asString()).isEqualTo("rea.evidence.v1");
    assertThat(rec.path("status").asString()).isEqualTo("complete");
    assertThat(rec.path("evidence_id").asString()).startsWith("sha256:");
    assertThat(rec.path("request").path("path").asString()).isEqualTo(p.toString());
    assertThat(rec.path("tensors")).hasSize(5);
    assertThat(rec.path("tensors").get(4).path("name").asString()).isEqualTo("blk.4.weight");
    assertThat(rec.path("metadata")).hasSize(3);
    assertThat(rec.path("metadata").get(2).path("value").asString()).isEqualTo("value-2");
    assertThat(rec.path("subject").isNull()).isTrue();
    assertThat(rec.path("artifact").path("file_size").asString())
        .isEqualTo(Long.toString(Files.size(p)));
  }

  @Test
  void relativePathIsInvalidInput() {
    JsonNode e =
        error(
            client()
                .callTool(
                    new CallToolRequest(
                        ReaTools.INSPECT, Map.of("path", "models/m.gguf", "detail", "complete"))));
    assertThat(e.path("code").asString()).isEqualTo("invalid_input");
    assertThat(e.path("category").asString()).isEqualTo("invalid_request");
    assertThat(e.path("constraint").asString()).isEqualTo("relative_path");
    assertThat(e.path("details").path("field").asString()).isEqualTo("path");
  }

  /** {@code m.gguf/} names a directory to the system: a file there is not_found, as ENOTDIR. */
  @Test
  void aFilePathWithATrailingSlashIsNotFound() throws Exception {
    String slashed = model(1, 1, 0) + "/";
    JsonNode e =
        error(
            client()
                .callTool(
                    new CallToolRequest(ReaTools.INSPECT, Map.of("path", slashed, "detail", "complete"))));
    assertThat(e.path("code").asString()).isEqualTo("target_unavailable");
    assertThat(e.path("constraint").asString()).isEqualTo("not_found");
    assertThat(e.path("details").path("field").asString()).isEqualTo("path");
    assertThat(e.path("details").path("path").asString()).isEqualTo(slashed);
  }

  @Test
  void badArgumentsGetTheReaErrorObject() {
    McpSyncClient c = client();
    JsonNode missing = error(c.callTool(new CallToolRequest(ReaTools.INSPECT, Map.of())));
    assertThat(missing.path("constraint").asString()).isEqualTo("bad_argument");
    assertThat(missing.path("details").path("field").asString()).isEqualTo("path");

    JsonNode hash =
        error(
            c.callTool(
                new CallToolRequest(ReaTools.INSPECT, Map.of("path", "/x", "hash", "sha1"))));
    assertThat(hash.path("code").asString()).isEqualTo("invalid_input");
    assertThat(hash.path("details").path("field").asString()).isEqualTo("hash");

    JsonNode extra =
        error(
            c.callTool(
                new CallToolRequest(ReaTools.INSPECT, Map.of("path", "/x", "colour", "red"))));
    assertThat(extra.path("details").path("field").asString()).isEqualTo("colour");

    JsonNode typed =
        error(c.callTool(new CallToolRequest(ReaTools.INSPECT, Map.of("path", 42))));
    assertThat(typed.path("constraint").asString()).isEqualTo("bad_argument");

    // A path longer than PATH_MAX is refused without being echoed back.
    String longPath = "/" + "p".repeat(100_000);
    JsonNode tooLong =
        error(c.callTool(new CallToolRequest(ReaTools.INSPECT, Map.of("path", longPath))));
    assertThat(tooLong.path("constraint").asString()).isEqualTo("bad_argument");
    assertThat(tooLong.path("message").asString()).contains("100001 bytes long").hasSizeLessThan(200);
    assertThat(tooLong.toString()).doesNotContain("ppppppppppppppppppppppppppppppppppppppppppppppppp");

    // A client that sends every argument as text (the MCP Inspector's --tool-arg) is told so.
    JsonNode textView =
        error(
            c.callTool(
                new CallToolRequest(
                    ReaTools.INSPECT,
                    Map.of("path", "/x", "view", "{\"collection\":\"tensors\"}"))));
    assertThat(textView.path("details").path("field").asString()).isEqualTo("view");
    assertThat(textView.path("message").asString())
        .contains("must be an object, not a string holding JSON");
  }

  @Test
  void viewWithCompleteDetailConflicts() {
    JsonNode e =
        error(
            client()
                .callTool(
                    new CallToolRequest(
                        ReaTools.INSPECT,
                        Map.of(
                            "path", "/abs/m.gguf",
                            "detail", "complete",
                            "view", Map.of("collection", "tensors")))));
    assertThat(e.path("constraint").asString()).isEqualTo("conflicting_choices");
    assertThat(e.path("code").asString()).isEqualTo("invalid_input");
  }

  @Test
  void missingFileIsTargetUnavailable() {
    JsonNode e =
        error(
            client()
                .callTool(
                    new CallToolRequest(
                        ReaTools.INSPECT,
                        Map.of("path", dir.resolve("absent.gguf").toString(), "detail", "complete"))));
    assertThat(e.path("code").asString()).isEqualTo("target_unavailable");
    assertThat(e.path("constraint").asString()).isEqualTo("not_found");
  }

  @Test
  void fullHashSendsProgressAndTheFileDigest() throws Exception {
    Path p = model(2, 3, 6L << 20);
    CallToolResult r =
        client()
            .callTool(
                CallToolRequest.builder(ReaTools.INSPECT)
                    .arguments(Map.of("path", p.toString(), "hash", "full", "detail", "complete"))
                    .progressToken("tok-1")
                    .build());
    JsonNode rec = structured(r);
    assertThat(r.isError()).isFalse();
    assertThat(rec.path("artifact").path("sha256").asString()).isEqualTo(sha256(p));
    assertThat(rec.path("subject").path("sha256").asString()).isEqualTo(sha256(p));
    // The Java client may deliver the last notification after callTool returned: poll.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (progress.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(progress).isNotEmpty();
    for (ProgressNotification n : progress) {
      assertThat(n.progressToken()).isEqualTo("tok-1");
      assertThat(n.total()).isEqualTo((double) Files.size(p));
      assertThat(n.progress()).isBetween(0.0, (double) Files.size(p));
    }
  }

  @Test
  void secondInspectionWhileOneRunsIsBusyAndOtherRequestsKeepAnswering() throws Exception {
    Path big = model(2, 3, 40L << 20);
    Path small = model(1, 1, 0);
    McpSyncClient c = client(TestServerMain.class, Map.of("rea.test.hashDelayMillis", "150"));
    CompletableFuture<CallToolResult> slow =
        CompletableFuture.supplyAsync(
            () ->
                c.callTool(
                    CallToolRequest.builder(ReaTools.INSPECT)
                        .arguments(
                            Map.of("path", big.toString(), "hash", "full", "detail", "complete"))
                        .progressToken("slow")
                        .build()));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (progress.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(progress).as("the slow hash has started").isNotEmpty();

    long t0 = System.nanoTime();
    JsonNode busy =
        error(
            c.callTool(
                new CallToolRequest(
                    ReaTools.INSPECT, Map.of("path", small.toString(), "detail", "complete"))));
    assertThat(busy.path("code").asString()).isEqualTo("resource_exhausted");
    assertThat(busy.path("constraint").asString()).isEqualTo("provider_busy");
    assertThat(busy.path("category").asString()).isEqualTo("resource_limit");
    // Refused at once, not queued behind the 6-second hash.
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(3));
    // Other requests keep answering while the hash runs.
    assertThat(c.listTools().tools()).isNotEmpty();
    c.ping();
    assertThat(slow.isDone()).isFalse();

    CallToolResult done = slow.get(60, TimeUnit.SECONDS);
    assertThat(done.isError()).isFalse();
    assertThat(structured(done).path("artifact").path("sha256").asString()).isEqualTo(sha256(big));
    // And the slot is free again.
    CallToolResult after =
        c.callTool(
            new CallToolRequest(
                ReaTools.INSPECT, Map.of("path", small.toString(), "detail", "complete")));
    assertThat(after.isError()).isFalse();
  }

  @Test
  void productionMainServesTheSameTools() {
    McpSyncClient c = client(McpMain.class, Map.of());
    assertThat(c.listTools().tools()).extracting(Tool::name).contains(ReaTools.INSPECT);
    JsonNode e =
        error(
            c.callTool(new CallToolRequest(ReaTools.INSPECT, Map.of("path", "relative.gguf"))));
    assertThat(e.path("constraint").asString()).isEqualTo("relative_path");
  }
}
