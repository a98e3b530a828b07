package dev.rea.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.testing.SetFixtures;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The {@code format} argument of {@code inspect_model_artifact} and {@code inspect_model_set}
 * (CONTRACT section 13) end to end, through the MCP Java SDK client (which checks each result
 * against the tool's output schema): an in-toto envelope whose subject digests are computed here
 * and which the server reads back as saved Evidence, a CycloneDX BOM, a set's of both, and the
 * refusals (summary detail, a view, in-toto without a full hash, an unknown format).
 */
class StandardFormatsE2eTest {
  @TempDir Path dir;

  private McpSyncClient client;

  private McpSyncClient client() {
    StdioClientTransport transport = new StdioClientTransport(
        ServerCommand.parameters(TestServerMain.class, Map.of()), McpJsonDefaults.getMapper());
    transport.setStdErrorHandler(line -> {});
    client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60))
        .initializationTimeout(Duration.ofSeconds(30)).build();
    client.initialize();
    return client;
  }

  @AfterEach
  void close() {
    if (client != null) {
      client.closeGracefully();
    }
  }

  private static JsonNode statement(JsonNode envelope) {
    assertThat(envelope.path("payloadType").asString()).isEqualTo("application/vnd.in-toto+json");
    return RawSession.JSON.readTree(Base64.getDecoder().decode(envelope.path("payload").asString()));
  }

  @Test
  void aFileAsAnAttestationThatReadsBackAndAsABom() throws Exception {
    Path m = TinyGguf.write(dir.resolve("tiny.gguf"), 3, 4, 0);
    McpSyncClient mcp = client();
    CallToolResult r = mcp.callTool(new CallToolRequest(ReaTools.INSPECT,
        Map.of("path", m.toString(), "hash", "full", "format", "in-toto")));
    assertThat(r.isError()).as(String.valueOf(r.content())).isFalse();
    JsonNode envelope = McpClientE2eTest.structured(r);
    JsonNode statement = statement(envelope);
    assertThat(statement.path("predicateType").asString()).isEqualTo("urn:rea:evidence:v1");
    assertThat(statement.path("subject").get(0).path("name").asString()).isEqualTo("tiny.gguf");
    assertThat(statement.path("subject").get(0).path("digest").path("sha256").asString())
        .isEqualTo(sha256(m));
    String id = statement.path("predicate").path("evidence_id").asString();

    // Saved, the envelope is Evidence the server verifies and pages.
    Path saved = Files.writeString(dir.resolve("tiny.intoto.json"),
        ((TextContent) r.content().get(0)).text(), StandardCharsets.UTF_8);
    JsonNode page = McpClientE2eTest.structured(mcp.callTool(new CallToolRequest(ReaTools.VIEW,
        Map.of("source", Map.of("kind", "evidence-file", "path", saved.toString()),
            "view", Map.of("kind", "model-artifact", "collection", "tensors")))));
    assertThat(page.path("total_matches").asInt()).isEqualTo(4);
    assertThat(page.path("source").path("evidence_id").asString()).isEqualTo(id);

    // The envelope is also imported, by path and inline: its one record is retained.
    CallToolResult byPath = mcp.callTool(new CallToolRequest(ReaTools.IMPORT,
        Map.of("path", saved.toString())));
    assertThat(byPath.isError()).as(String.valueOf(byPath.content())).isFalse();
    assertThat(McpClientE2eTest.structured(byPath).path("evidence_ids").get(0).asString())
        .isEqualTo(id);
    mcp.callTool(new CallToolRequest(ReaTools.RELEASE, Map.of("evidence_id", id)));
    CallToolResult inline = mcp.callTool(new CallToolRequest(ReaTools.IMPORT,
        Map.of("bundle", RawSession.JSON.convertValue(envelope, Map.class))));
    assertThat(inline.isError()).as(String.valueOf(inline.content())).isFalse();
    assertThat(McpClientE2eTest.structured(inline).path("evidence_ids")).hasSize(1);
    JsonNode retained = McpClientE2eTest.structured(mcp.callTool(new CallToolRequest(ReaTools.VIEW,
        Map.of("source", Map.of("kind", "retained-evidence", "evidence_id", id),
            "view", Map.of("kind", "model-artifact", "collection", "tensors")))));
    assertThat(retained.path("total_matches").asInt()).isEqualTo(4);

    JsonNode bom = McpClientE2eTest.structured(mcp.callTool(new CallToolRequest(ReaTools.INSPECT,
        Map.of("path", m.toString(), "format", "cyclonedx"))));
    assertThat(bom.path("specVersion").asString()).isEqualTo("1.6");
    JsonNode component = bom.path("components").get(0);
    assertThat(component.path("type").asString()).isEqualTo("machine-learning-model");
    assertThat(component.path("name").asString()).isEqualTo("tiny.gguf");
    assertThat(component.has("hashes")).isFalse();
  }

  @Test
  void aSetAsAnAttestationAndAsABom() throws Exception {
    List<Path> members = SetFixtures.ggufSplit(dir, "Tiny", 3, 1, 2);
    McpSyncClient mcp = client();
    JsonNode envelope = McpClientE2eTest.structured(mcp.callTool(new CallToolRequest(SetTool.NAME,
        Map.of("path", members.get(2).toString(), "hash", "full", "format", "in-toto"))));
    JsonNode statement = statement(envelope);
    assertThat(statement.path("subject")).hasSize(3);
    for (int i = 0; i < 3; i++) {
      JsonNode s = statement.path("subject").get(i);
      assertThat(s.path("name").asString()).isEqualTo(members.get(i).getFileName().toString());
      assertThat(s.path("digest").path("sha256").asString()).isEqualTo(sha256(members.get(i)));
    }
    JsonNode records = statement.path("predicate").path("records");
    assertThat(records).hasSize(4);
    assertThat(records.get(0).path("schema").asString()).isEqualTo("rea.model-set.v1");

    // Saved, the set's envelope is imported as the set: its members page from the server.
    String setId = records.get(0).path("evidence_id").asString();
    mcp.callTool(new CallToolRequest(ReaTools.RELEASE, Map.of("evidence_id", setId)));
    Path saved = Files.writeString(dir.resolve("set.intoto.json"), envelope.toString(),
        StandardCharsets.UTF_8);
    CallToolResult imported = mcp.callTool(new CallToolRequest(ReaTools.IMPORT,
        Map.of("path", saved.toString())));
    assertThat(imported.isError()).as(String.valueOf(imported.content())).isFalse();
    assertThat(McpClientE2eTest.structured(imported).toString()).contains(setId);
    JsonNode page = McpClientE2eTest.structured(mcp.callTool(new CallToolRequest(ReaTools.VIEW,
        Map.of("source", Map.of("kind", "retained-evidence", "evidence_id", setId),
            "view", Map.of("kind", "model-artifact", "collection", "members")))));
    assertThat(page.path("total_matches").asInt()).isEqualTo(3);

    JsonNode bom = McpClientE2eTest.structured(mcp.callTool(new CallToolRequest(SetTool.NAME,
        Map.of("path", dir.toString(), "format", "cyclonedx", "detail", "complete"))));
    JsonNode parent = bom.path("components").get(0);
    assertThat(parent.path("name").asString()).isEqualTo("Tiny");
    assertThat(parent.path("components")).hasSize(3);
    for (int i = 0; i < 3; i++) {
      assertThat(parent.path("components").get(i).path("name").asString())
          .isEqualTo(members.get(i).getFileName().toString());
    }
  }

  @Test
  void aStandardFormatIsCompleteEvidenceOnly() throws Exception {
    Path m = TinyGguf.write(dir.resolve("tiny.gguf"), 1, 1, 0);
    List<Path> set = SetFixtures.ggufSplit(dir.resolve("set"), "S", 2, 1, 1);
    McpSyncClient mcp = client();
    record Case(String tool, Map<String, Object> args, String constraint, String says) {}
    for (Case c : List.of(
        new Case(ReaTools.INSPECT, Map.of("path", m.toString(), "format", "cyclonedx", "detail", "summary"),
            "conflicting_choices", "detail: \"summary\""),
        new Case(ReaTools.INSPECT, Map.of("path", m.toString(), "format", "cyclonedx",
            "view", Map.of("collection", "tensors")), "conflicting_choices", "view"),
        new Case(ReaTools.INSPECT, Map.of("path", m.toString(), "format", "in-toto"),
            "conflicting_choices", "hash: \"full\""),
        new Case(SetTool.NAME, Map.of("path", set.get(0).toString(), "format", "in-toto"),
            "conflicting_choices", "hash: \"full\""),
        new Case(SetTool.NAME, Map.of("path", set.get(0).toString(), "format", "sarif"),
            "bad_argument", "format"))) {
      JsonNode error = McpClientE2eTest.error(mcp.callTool(new CallToolRequest(c.tool(), c.args())));
      assertThat(error.path("code").asString()).as(c.toString()).isEqualTo("invalid_input");
      assertThat(error.path("constraint").asString()).as(c.toString()).isEqualTo(c.constraint());
      assertThat(error.path("message").asString()).as(c.toString()).contains(c.says());
    }
  }

  private static String sha256(Path p) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
  }
}
