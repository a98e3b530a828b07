package dev.rea.mcp;

import dev.rea.core.Rea;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Builds tool results (CONTRACT section 7): the JSON as {@code structuredContent} and the same JSON
 * as one {@code TextContent} (for clients that read only text). Failures carry the CONTRACT
 * section 6 error object and {@code isError: true}.
 */
final class Results {
  private static final TypeRef<Map<String, Object>> MAP = new TypeRef<>() {};

  private final McpJsonMapper json;

  Results(McpJsonMapper json) {
    this.json = json;
  }

  /** @param bytes a JSON object (UTF-8) */
  CallToolResult success(byte[] bytes) {
    return result(bytes, false);
  }

  /**
   * @return an {@code isError} result holding {@code e}'s error object (and partial Evidence),
   *     with the tools' advice for a slip it recognises ({@link Advice#advise})
   */
  CallToolResult failure(ReaException e) {
    return failure(e, null);
  }

  /** As {@link #failure(ReaException)}, with the failure's partial Evidence (or null). */
  CallToolResult failure(ReaException e, @Nullable EvidenceRecord partial) {
    return result(Rea.errorJson(Advice.advise(e), partial), true);
  }

  /** @param bytes an error object already written (CONTRACT section 6), UTF-8 */
  CallToolResult failureJson(byte[] bytes) {
    return result(bytes, true);
  }

  private CallToolResult result(byte[] bytes, boolean error) {
    Map<String, Object> structured;
    try {
      structured = json.readValue(bytes, MAP);
    } catch (IOException e) {
      throw new UncheckedIOException("REA produced JSON it cannot read back", e);
    }
    return CallToolResult.builder()
        .content(List.of(new TextContent(new String(bytes, StandardCharsets.UTF_8))))
        .structuredContent(structured)
        .isError(error)
        .build();
  }
}
