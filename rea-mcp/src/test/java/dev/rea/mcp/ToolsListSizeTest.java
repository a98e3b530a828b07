package dev.rea.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.ListToolsResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What {@code tools/list} costs an agent's context (issue 19: about 41 KB, output schemas 21 KB,
 * some 10,000 tokens before the first call). Budget: at most {@value #BUDGET_BYTES} bytes for
 * every tool REA serves (issue 19); the four tools served before {@code inspect_model_set} are
 * printed apart, for comparison with the 41 KB they took then. Sizes are the UTF-8 bytes of the
 * result as the SDK client received it, serialized compactly with the SDK's JSON mapper; the test
 * prints them.
 */
class ToolsListSizeTest {
  /** Every tool REA serves, in bytes. */
  static final int BUDGET_BYTES = 16 * 1024;

  @Test
  void toolsListStaysWithinItsBudget() throws Exception {
    StdioClientTransport transport =
        new StdioClientTransport(
            ServerCommand.parameters(TestServerMain.class, Map.of()), McpJsonDefaults.getMapper());
    transport.setStdErrorHandler(line -> {});
    McpSyncClient client =
        McpClient.sync(transport)
            .requestTimeout(Duration.ofSeconds(60))
            .initializationTimeout(Duration.ofSeconds(30))
            .build();
    try {
      client.initialize();
      ListToolsResult result = client.listTools();
      McpJsonMapper json = McpJsonDefaults.getMapper();
      int total = bytes(json, result);
      int four = 0;
      Set<String> today = Set.of(ReaTools.INSPECT, ReaTools.VIEW, ReaTools.IMPORT, ReaTools.RELEASE);
      for (Tool t : result.tools()) {
        int size = bytes(json, t);
        System.out.printf(
            "tools/list: %-24s %5d bytes (description %d, input schema %d, output schema %d)%n",
            t.name(), size, t.description().length(), bytes(json, t.inputSchema()),
            bytes(json, t.outputSchema()));
        if (today.contains(t.name())) {
          four += size;
        }
      }
      System.out.printf(
          "tools/list: %d tools, %d bytes in all (budget %d); the four first tools %d bytes%n",
          result.tools().size(), total, BUDGET_BYTES, four);
      assertThat(result.tools()).extracting(Tool::name).containsAll(today);
      // The list the CLI's help (rea help mcp) gives is the server's own.
      assertThat(String.join(", ", result.tools().stream().map(Tool::name).toList()))
          .isEqualTo(ReaMcpServer.TOOL_NAMES);
      assertThat(total).isLessThanOrEqualTo(BUDGET_BYTES);
      // Still a description that says when to call each tool, and schemas for both directions.
      for (Tool t : result.tools()) {
        assertThat(t.description()).startsWith("Call ");
        assertThat(t.outputSchema()).containsEntry("type", "object");
        if (t.name().equals(ReaTools.INSPECT)) {
          // An agent inspecting one shard must learn that the totals are not the model's.
          assertThat(t.description())
              .contains("Totals are this file's only")
              .contains("split.count")
              .contains("call inspect_model_set");
        }
      }
    } finally {
      client.closeGracefully();
    }
  }

  private static int bytes(McpJsonMapper json, Object value) throws Exception {
    return json.writeValueAsString(value).getBytes(StandardCharsets.UTF_8).length;
  }
}
