package dev.rea.mcp;

import dev.rea.core.Rea;
import dev.rea.core.error.ReaException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Writes whole JSON-RPC lines to the protocol stream for messages the SDK never saw (answers to
 * malformed or oversized lines, requests before {@code initialize}). The SDK's stdio transport writes each message inside {@code
 * synchronized (outputStream)}; this writer locks the same object, so lines never interleave.
 */
final class ProtocolWriter {
  private final OutputStream out;
  private final Runnable beforeWrite;

  /**
   * @param out the protocol stream, the same object passed to the SDK transport
   * @param beforeWrite called before each line is written (counts expected lines)
   */
  ProtocolWriter(OutputStream out, Runnable beforeWrite) {
    this.out = Objects.requireNonNull(out, "out");
    this.beforeWrite = Objects.requireNonNull(beforeWrite, "beforeWrite");
  }

  /** Compact UTF-8 JSON; Jackson escapes control characters (thread-safe factory). */
  private static final JsonFactory JSON = JsonFactory.builder().build();

  private static JsonGenerator generator(ByteArrayOutputStream buf) {
    return JSON.createGenerator(ObjectWriteContext.empty(), buf);
  }

  /** Writes a JSON-RPC error response; {@code id} null writes {@code "id": null}. */
  void rpcError(@Nullable RpcId id, int code, String message) {
    ByteArrayOutputStream buf = new ByteArrayOutputStream(256);
    try (JsonGenerator g = generator(buf)) {
      g.writeStartObject();
      g.writeStringProperty("jsonrpc", "2.0");
      g.writeName("id");
      if (id == null) {
        g.writeNull();
      } else {
        id.write(g);
      }
      g.writeName("error");
      g.writeStartObject();
      g.writeNumberProperty("code", code);
      g.writeStringProperty("message", message);
      g.writeEndObject();
      g.writeEndObject();
    }
    writeLine(buf.toByteArray());
  }

  /** Writes a response whose result is the empty object (the answer to {@code ping}). */
  void emptyResult(RpcId id) {
    ByteArrayOutputStream buf = new ByteArrayOutputStream(64);
    try (JsonGenerator g = generator(buf)) {
      g.writeStartObject();
      g.writeStringProperty("jsonrpc", "2.0");
      g.writeName("id");
      id.write(g);
      g.writeName("result");
      g.writeStartObject();
      g.writeEndObject();
      g.writeEndObject();
    }
    writeLine(buf.toByteArray());
  }

  /** Writes a {@code tools/call} result with {@code isError: true} and the REA error object. */
  void toolError(RpcId id, ReaException error) {
    byte[] errorJson = Rea.errorJson(error, null);
    String text = new String(errorJson, StandardCharsets.UTF_8);
    ByteArrayOutputStream buf = new ByteArrayOutputStream(errorJson.length * 2 + 128);
    try (JsonGenerator g = generator(buf)) {
      g.writeStartObject();
      g.writeStringProperty("jsonrpc", "2.0");
      g.writeName("id");
      id.write(g);
      g.writeName("result");
      g.writeStartObject();
      g.writeName("content");
      g.writeStartArray();
      g.writeStartObject();
      g.writeStringProperty("type", "text");
      g.writeStringProperty("text", text);
      g.writeEndObject();
      g.writeEndArray();
      g.writeName("structuredContent");
      g.writeRawValue(text);
      g.writeBooleanProperty("isError", true);
      g.writeEndObject();
      g.writeEndObject();
    }
    writeLine(buf.toByteArray());
  }

  private void writeLine(byte[] json) {
    beforeWrite.run();
    synchronized (out) {
      try {
        out.write(json);
        out.write('\n');
        out.flush();
      } catch (IOException e) {
        Log.warn("could not write to the protocol stream: " + e);
      }
    }
  }
}
