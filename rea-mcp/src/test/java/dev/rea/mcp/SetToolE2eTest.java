package dev.rea.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.testing.SetFixtures;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code inspect_model_set} end to end (CONTRACT section 9): the MCP Java SDK client for the
 * summary and pages over members and over tensors with {@code member}; raw stdio lines for a
 * cancel during a set's full hash (the SDK client cannot send {@code notifications/cancelled}).
 */
class SetToolE2eTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

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

  /** @return the signed bundle of a new split set of {@code count} members, as the server made it */
  private JsonNode completeSplitBundle(McpSyncClient mcp, String prefix, int count) {
    List<Path> m = SetFixtures.ggufSplit(dir, prefix, count, 1, 1);
    return McpClientE2eTest.structured(mcp.callTool(new CallToolRequest(SetTool.NAME,
        Map.of("path", m.get(0).toString(), "detail", "complete"))));
  }

  @AfterEach
  void close() {
    if (client != null) {
      client.closeGracefully();
    }
  }

  @Test
  void summaryThenPagesOverMembersAndTensors() {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 4, 3);
    McpSyncClient mcp = client();
    assertThat(mcp.listTools().tools()).extracting(Tool::name).contains(SetTool.NAME);
    CallToolResult r = mcp.callTool(new CallToolRequest(SetTool.NAME,
        Map.of("path", c.index.toString())));
    assertThat(r.isError()).as(String.valueOf(r.content())).isFalse();
    JsonNode s = McpClientE2eTest.structured(r);
    assertThat(s.path("kind").asString()).isEqualTo("model-set-summary");
    assertThat(s.path("set").path("kind").asString()).isEqualTo("safetensors_index");
    assertThat(s.path("set").path("member_count").asInt()).isEqualTo(4);
    assertThat(s.path("totals").path("tensor_count").asInt()).isEqualTo(12);
    String id = s.path("parent_evidence_id").asString();

    JsonNode members = McpClientE2eTest.structured(mcp.callTool(new CallToolRequest(
        ReaTools.VIEW, Map.of("source", Map.of("kind", "retained-evidence", "evidence_id", id),
            "view", Map.of("kind", "model-artifact", "collection", "members", "limit", 2)))));
    assertThat(members.path("total_matches").asInt()).isEqualTo(4);
    assertThat(members.path("next_offset").asInt()).isEqualTo(2);
    assertThat(members.path("rows").get(1).path("path").asString())
        .isEqualTo(c.shards.get(1).toString());

    JsonNode tensors = McpClientE2eTest.structured(mcp.callTool(new CallToolRequest(
        ReaTools.VIEW, Map.of("source", Map.of("kind", "retained-evidence", "evidence_id", id),
            "view", Map.of("kind", "model-artifact", "collection", "tensors", "offset", 4,
                "limit", 3, "fields", List.of("name"))))));
    assertThat(tensors.path("rows").toString()).isEqualTo(
        "[{\"index\":1,\"member\":1,\"name\":\"model.layers.4.mlp.weight\"},"
            + "{\"index\":2,\"member\":1,\"name\":\"model.layers.5.mlp.weight\"},"
            + "{\"index\":0,\"member\":2,\"name\":\"model.layers.6.mlp.weight\"}]");

    // The inline view comes with the summary; release frees the set.
    JsonNode inline = McpClientE2eTest.structured(mcp.callTool(new CallToolRequest(SetTool.NAME,
        Map.of("path", c.dir.toString(), "view", Map.of("collection", "members")))));
    assertThat(inline.path("page").path("rows")).hasSize(4);
    CallToolResult released = mcp.callTool(new CallToolRequest(ReaTools.RELEASE,
        Map.of("evidence_id", id)));
    assertThat(released.isError()).isFalse();
    assertThat(McpClientE2eTest.error(mcp.callTool(new CallToolRequest(ReaTools.VIEW,
        Map.of("source", Map.of("kind", "retained-evidence", "evidence_id", id),
            "view", Map.of("kind", "model-artifact", "collection", "members")))))
        .path("constraint").asString()).isEqualTo("unknown_evidence");
  }

  /**
   * Releasing one holder never takes a record from another: a member imported on its own before
   * stays after its set is released, and a member only the set holds is not released alone
   * (which would leave the set unusable).
   */
  @Test
  void releasingASetKeepsWhatAnotherHolderRetained() throws Exception {
    McpSyncClient mcp = client();
    JsonNode b = completeSplitBundle(mcp, "rel", 2);
    String setId = b.path("records").get(0).path("evidence_id").asString();
    String first = b.path("records").get(1).path("evidence_id").asString();
    String second = b.path("records").get(2).path("evidence_id").asString();
    Path saved = java.nio.file.Files.writeString(dir.resolve("set.json"), b.toString());
    assertThat(mcp.callTool(new CallToolRequest(ReaTools.IMPORT, Map.of("path", saved.toString())))
        .isError()).isFalse();

    // Only the set holds its members: releasing one alone is refused, naming the set.
    JsonNode refused = McpClientE2eTest.error(mcp.callTool(new CallToolRequest(ReaTools.RELEASE,
        Map.of("evidence_id", second))));
    assertThat(refused.path("constraint").asString()).isEqualTo("bad_argument");
    assertThat(refused.path("message").asString()).contains(setId);

    // The first member's record, also imported on its own in a bundle.
    Map<String, Object> bundle = Map.of("schema", "rea.bundle.v1", "records",
        List.of(RawSession.JSON.convertValue(b.path("records").get(1), Map.class)));
    CallToolResult imported = mcp.callTool(new CallToolRequest(ReaTools.IMPORT,
        Map.of("bundle", bundle)));
    assertThat(imported.isError()).as(String.valueOf(imported.content())).isFalse();

    assertThat(mcp.callTool(new CallToolRequest(ReaTools.RELEASE, Map.of("evidence_id", setId)))
        .isError()).isFalse();
    Map<String, Object> tensors = Map.of("kind", "model-artifact", "collection", "tensors");
    CallToolResult kept = mcp.callTool(new CallToolRequest(ReaTools.VIEW, Map.of("source",
        Map.of("kind", "retained-evidence", "evidence_id", first), "view", tensors)));
    assertThat(kept.isError()).as(String.valueOf(kept.content())).isFalse();
    assertThat(McpClientE2eTest.error(mcp.callTool(new CallToolRequest(ReaTools.VIEW,
        Map.of("source", Map.of("kind", "retained-evidence", "evidence_id", second),
            "view", tensors)))).path("constraint").asString()).isEqualTo("unknown_evidence");
  }

  @Test
  void completeDetailIsTheSignedSetBundle() {
    List<Path> m = SetFixtures.ggufSplit(dir, "c", 3, 1, 1);
    JsonNode b = McpClientE2eTest.structured(client().callTool(new CallToolRequest(SetTool.NAME,
        Map.of("path", m.get(1).toString(), "detail", "complete"))));
    assertThat(b.path("records")).hasSize(4);
    assertThat(b.path("records").get(0).path("schema").asString()).isEqualTo("rea.model-set.v1");
  }

  @Test
  void aSavedSetBundleIsImportedAsASet() throws Exception {
    McpSyncClient mcp = client();
    JsonNode b = completeSplitBundle(mcp, "imp", 3);
    String setId = b.path("records").get(0).path("evidence_id").asString();
    mcp.callTool(new CallToolRequest(ReaTools.RELEASE, Map.of("evidence_id", setId)));
    Path saved = java.nio.file.Files.writeString(dir.resolve("set.json"), b.toString());

    CallToolResult imported = mcp.callTool(new CallToolRequest(ReaTools.IMPORT,
        Map.of("path", saved.toString())));

    assertThat(imported.isError()).as(String.valueOf(imported.content())).isFalse();
    JsonNode ids = McpClientE2eTest.structured(imported);
    assertThat(ids.toString()).contains(setId);
    JsonNode members = McpClientE2eTest.structured(mcp.callTool(new CallToolRequest(
        ReaTools.VIEW, Map.of("source", Map.of("kind", "retained-evidence", "evidence_id", setId),
            "view", Map.of("kind", "model-artifact", "collection", "members")))));
    assertThat(members.path("total_matches").asInt()).isEqualTo(3);

    // The same file given as an evidence-file source is paged as the set, without importing.
    JsonNode fromFile = McpClientE2eTest.structured(mcp.callTool(new CallToolRequest(
        ReaTools.VIEW, Map.of("source", Map.of("kind", "evidence-file", "path", saved.toString()),
            "view", Map.of("kind", "model-artifact", "collection", "tensors")))));
    assertThat(fromFile.path("source").path("kind").asString()).isEqualTo("evidence-file");
    assertThat(fromFile.path("total_matches").asInt()).isEqualTo(3);
    assertThat(fromFile.path("rows").get(2).path("member").asInt()).isEqualTo(2);
  }

  @Test
  void aCancelDuringASetsFullHashReturnsThePartialSetRecord() throws Exception {
    // 3 members of 8 MiB of tensor data each, hashed at 100 ms per read.
    List<Path> m = SetFixtures.ggufSplit(dir, "big", 3, 1, 1,
        (no, b) -> b.tensor("big." + no, 0, 1024, 2048));
    try (RawSession s = RawSession.initialized(TestServerMain.class,
        Map.of("rea.test.hashDelayMillis", "100"))) {
      ObjectNode args = RawSession.JSON.createObjectNode();
      args.put("path", m.get(0).toString());
      args.put("hash", "full");
      s.send(RawSession.toolCall("s1", SetTool.NAME, args, "p1"));
      JsonNode first = s.next(WAIT);
      assertThat(first.path("method").asString()).isEqualTo("notifications/progress");
      // One stream over the whole set: the total is every member's bytes.
      long total = 0;
      for (Path p : m) {
        total += java.nio.file.Files.size(p);
      }
      assertThat(first.path("params").path("total").asLong()).isEqualTo(total);
      // Cancel once the first member is hashed: the partial set record holds it.
      long firstSize = java.nio.file.Files.size(m.get(0));
      JsonNode n = first;
      while (n.path("params").path("progress").asLong() <= firstSize) {
        n = s.next(WAIT);
        assertThat(n.path("method").asString()).isEqualTo("notifications/progress");
      }
      s.send(RawSession.cancel("s1"));
      JsonNode response = s.awaitResponse("s1", WAIT);
      JsonNode result = response.path("result");
      assertThat(result.path("isError").asBoolean()).isTrue();
      JsonNode body = result.path("structuredContent");
      assertThat(body.path("error").path("code").asString()).isEqualTo("cancelled");
      JsonNode partial = body.path("partial_evidence");
      assertThat(partial.path("schema").asString()).isEqualTo("rea.model-set.v1");
      assertThat(partial.path("status").asString()).isEqualTo("partial");
      assertThat(partial.path("members").size()).isBetween(1, 2);
      assertThat(partial.path("members").get(0).path("path").asString())
          .isEqualTo(m.get(0).toString());
      assertThat(partial.path("coverage").path("digest").asString()).isEqualTo("unknown");
      assertThat(s.badLines).isEmpty();
    }
  }
}
