package dev.rea.mcp;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Rewrites one accepted {@code tools/call} line so that {@code params._meta} carries the request's
 * id key under {@link InboundFilter#REQUEST_ID_META}. The MCP handler API does not expose the
 * JSON-RPC id; this is how the inspection handler learns which id a later {@code
 * notifications/cancelled} will name. Other {@code _meta} members (the progress token) are kept.
 */
final class MetaInjector {
  private static final JsonMapper MAPPER =
      JsonMapper.builder()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
          .build();

  private MetaInjector() {}

  /**
   * @param line the line's bytes (already checked by {@link LineScanner}: one JSON object whose
   *     {@code params} is an object)
   * @param length how many bytes of {@code line} are the line
   * @param id the request id
   * @return the rewritten line, ending with a line feed
   */
  static byte[] withRequestId(byte[] line, int length, RpcId id) {
    JsonNode root = MAPPER.readTree(line, 0, length);
    ObjectNode params = (ObjectNode) root.get("params");
    JsonNode meta = params.get("_meta");
    ObjectNode target;
    if (meta instanceof ObjectNode o) {
      target = o;
    } else {
      target = params.putObject("_meta");
    }
    target.put(InboundFilter.REQUEST_ID_META, id.key());
    byte[] json = MAPPER.writeValueAsBytes(root);
    byte[] out = java.util.Arrays.copyOf(json, json.length + 1);
    out[json.length] = '\n';
    return out;
  }
}
