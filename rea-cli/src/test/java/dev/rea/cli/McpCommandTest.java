package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rea mcp} through the command line entry point ({@link ReaMain}), as a separate process
 * driven by the MCP Java SDK client: the subcommand serves MCP on stdio.
 */
class McpCommandTest {
  @TempDir Path dir;

  @Test
  void reaMcpServesTheFiveTools() throws Exception {
    Path home = Files.createDirectories(dir.resolve("home"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ServerParameters params =
        ServerParameters.builder(java)
            .args("-cp", System.getProperty("java.class.path"), ReaMain.class.getName(), "mcp")
            .env(Map.of("REA_HOME", home.toString()))
            .build();
    StdioClientTransport transport = new StdioClientTransport(params, McpJsonDefaults.getMapper());
    transport.setStdErrorHandler(line -> {});
    McpSyncClient c =
        McpClient.sync(transport)
            .requestTimeout(Duration.ofSeconds(60))
            .initializationTimeout(Duration.ofSeconds(30))
            .build();
    try {
      assertThat(c.initialize().serverInfo().name()).isEqualTo("rea");
      assertThat(c.listTools().tools())
          .extracting(Tool::name)
          .containsExactlyInAnyOrder(
              "inspect_model_artifact",
              "inspect_model_set",
              "inspect_analysis_view",
              "import_evidence_bundle",
              "release_evidence");
      CallToolResult r =
          c.callTool(
              new CallToolRequest("inspect_model_artifact", Map.of("path", "not/absolute.gguf")));
      assertThat(r.isError()).isTrue();
      @SuppressWarnings("unchecked")
      Map<String, Object> error =
          (Map<String, Object>) ((Map<String, Object>) r.structuredContent()).get("error");
      assertThat(error.get("constraint")).isEqualTo("relative_path");
    } finally {
      c.closeGracefully();
    }
  }
}
