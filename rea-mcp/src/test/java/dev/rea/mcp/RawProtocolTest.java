package dev.rea.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * End to end over raw stdio lines: malformed and oversized input, cancellation with partial
 * Evidence, end of input right after a request, and stdout hygiene.
 */
class RawProtocolTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;

  private static ObjectNode args(Object... kv) {
    ObjectNode n = RawSession.JSON.createObjectNode();
    for (int i = 0; i < kv.length; i += 2) {
      n.putPOJO((String) kv[i], kv[i + 1]);
    }
    return n;
  }

  private static JsonNode toolError(JsonNode response) {
    JsonNode result = response.path("result");
    assertThat(result.path("isError").asBoolean()).as("isError in " + response).isTrue();
    JsonNode structured = result.path("structuredContent");
    assertThat(RawSession.JSON.readTree(result.path("content").get(0).path("text").asString()))
        .isEqualTo(structured);
    return structured;
  }

  @Test
  void malformedLinesAreAnsweredAndTheSessionGoesOn() throws Exception {
    try (RawSession s = RawSession.initialized(TestServerMain.class, Map.of())) {
      s.send("this is not json");
      JsonNode parse = s.next(WAIT);
      assertThat(parse.path("error").path("code").asInt()).isEqualTo(-32700);
      assertThat(parse.get("id").isNull()).isTrue();

      s.send("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"} {\"extra\":1}");
      assertThat(s.next(WAIT).path("error").path("code").asInt()).isEqualTo(-32700);

      s.send("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"");
      assertThat(s.next(WAIT).path("error").path("code").asInt()).isEqualTo(-32700);

      s.send("[{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}]");
      JsonNode batch = s.next(WAIT);
      assertThat(batch.path("error").path("code").asInt()).isEqualTo(-32600);

      s.send("{\"jsonrpc\":\"1.0\",\"id\":10,\"method\":\"ping\"}");
      JsonNode version = s.next(WAIT);
      assertThat(version.path("error").path("code").asInt()).isEqualTo(-32600);
      assertThat(version.path("id").asInt()).isEqualTo(10);

      s.send("{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"ping\"}");
      assertThat(s.next(WAIT).path("error").path("code").asInt()).isEqualTo(-32600);

      s.send("{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\",\"params\":{\"name\":"
          + "\"inspect_model_artifact\",\"arguments\":[1]}}");
      JsonNode params = s.awaitResponse(11, WAIT);
      assertThat(params.path("error").path("code").asInt()).isEqualTo(-32602);

      // Protocol-level mistakes are JSON-RPC errors from the SDK, not tool results (README).
      s.send("{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"tools/call\",\"params\":{\"name\":"
          + "\"no_such_tool\",\"arguments\":{}}}");
      JsonNode unknownTool = s.awaitResponse(13, WAIT);
      assertThat(unknownTool.has("result")).isFalse();
      assertThat(unknownTool.path("error").path("code").asInt()).isEqualTo(-32602);
      assertThat(unknownTool.path("error").path("message").asString()).startsWith("Unknown tool");
      s.send("{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"no/such/method\"}");
      assertThat(s.awaitResponse(14, WAIT).path("error").path("code").asInt()).isEqualTo(-32601);

      s.send("42");
      assertThat(s.next(WAIT).path("error").path("code").asInt()).isEqualTo(-32600);
      s.send("   ");
      s.send("{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"ping\"}\r");
      JsonNode pong = s.awaitResponse(12, WAIT);
      assertThat(pong.has("result")).isTrue();

      // A CR inside a line is JSON whitespace: still one message.
      s.send("{\"jsonrpc\":\"2.0\",\r\"id\":13,\"method\":\"ping\"}");
      assertThat(s.awaitResponse(13, WAIT).has("result")).isTrue();
      // Invalid UTF-8 inside a string does not end the session either.
      byte[] bad =
          "{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"ping\",\"params\":{\"x\":\"\u00ff\u00fe\"}}\n"
              .getBytes(StandardCharsets.ISO_8859_1);
      s.sendBytes(bad);
      JsonNode afterBad = s.next(WAIT);
      assertThat(afterBad).isNotNull();
      s.send("{\"jsonrpc\":\"2.0\",\"id\":15,\"method\":\"tools/list\"}");
      JsonNode list = s.awaitResponse(15, WAIT);
      assertThat(list.path("result").path("tools").size()).isGreaterThanOrEqualTo(1);
      assertThat(s.badLines).isEmpty();
    }
  }

  @Test
  void numbersOutOfEveryRangeInAViewAreNamedAsNumbers() throws Exception {
    // The SDK reads 1e400 as a double (Infinity); the view must still say it got a number.
    Path p = TinyGguf.write(dir.resolve("v.gguf"), 2, 3, 0);
    String path = RawSession.JSON.writeValueAsString(p.toString());
    try (RawSession s = RawSession.initialized(TestServerMain.class, Map.of())) {
      String[] limits = {"1e400", "-1e400", "1e20", "1.5", "99999999999999999999999"};
      int id = 40;
      for (String limit : limits) {
        s.send(
            "{\"jsonrpc\":\"2.0\",\"id\":"
                + id
                + ",\"method\":\"tools/call\",\"params\":{\"name\":\"inspect_model_artifact\","
                + "\"arguments\":{\"path\":"
                + path
                + ",\"view\":{\"collection\":\"tensors\",\"limit\":"
                + limit
                + "}}}}");
        JsonNode error = toolError(s.awaitResponse(id, WAIT)).path("error");
        assertThat(error.path("code").asString()).as(limit).isEqualTo("invalid_input");
        assertThat(error.path("details").path("field").asString()).as(limit).isEqualTo("view.limit");
        assertThat(error.path("message").asString())
            .as(limit)
            .doesNotContain("string")
            .containsAnyOf("number", "integer");
        id++;
      }
    }
  }

  @Test
  void theTestersReproGetsInvalidRequestAndTheNextPingIsAnswered() throws Exception {
    // The adversarial tester's repro, byte for byte, in one write: a ping with id 1.5 used to
    // end the SDK's read loop, so the ping with id 2 was never answered.
    try (RawSession s = new RawSession(TestServerMain.class, Map.of())) {
      s.sendBytes(
          String.join(
                  "\n",
                  "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
                      + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                      + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}",
                  "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                  "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}",
                  "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}",
                  "")
              .getBytes(StandardCharsets.UTF_8));
      List<JsonNode> seen = new ArrayList<>();
      JsonNode refused = s.awaitResponse(null, WAIT, seen);
      assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32600);
      assertThat(refused.get("id").isNull()).isTrue();
      JsonNode pong = s.awaitResponse(2, WAIT, seen);
      assertThat(pong.path("result").isObject()).isTrue();
      assertThat(pong.has("error")).isFalse();
      JsonNode init =
          seen.stream().filter(m -> RawSession.idMatches(m.path("id"), 0)).findFirst().orElse(null);
      if (init == null) {
        init = s.awaitResponse(0, WAIT);
      }
      assertThat(init.path("result").path("protocolVersion").asString()).isEqualTo("2025-06-18");
      assertThat(s.badLines).isEmpty();
    }
  }

  @Test
  void badIdsDuplicateKeysAndBadResponsesNeverStopTheReadLoop() throws Exception {
    // Each line, sent to the real SDK: the answer the filter gives (code and id; null code: no
    // answer at all), then a ping that must still be answered.
    Object[][] cases = {
      {"{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}", -32600, null},
      {"{\"jsonrpc\":\"2.0\",\"id\":1.0,\"method\":\"ping\"}", -32600, null},
      {"{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}", -32600, null},
      {"{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}", -32600, null},
      {"{\"jsonrpc\":\"2.0\",\"id\":[],\"method\":\"ping\"}", -32600, null},
      {"{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", -32600, null},
      {"{\"jsonrpc\":\"2.0\",\"id\":9223372036854775808,\"method\":\"ping\"}", -32600, null},
      {"{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"ping\"}", -32600, null},
      {"{\"jsonrpc\":\"2.0\",\"id\":77,\"method\":\"ping\",\"method\":\"tools/list\"}", -32600, 77},
      {"{\"jsonrpc\":\"2.0\",\"jsonrpc\":\"2.0\",\"id\":78,\"method\":\"ping\"}", -32600, 78},
      {"[{\"jsonrpc\":\"2.0\",\"id\":79,\"method\":\"ping\"}]", -32600, null},
      {"\"ping\"", -32600, null},
      {"{\"jsonrpc\":\"2.0\",\"id\":80,", -32700, null},
      {"{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":null}", null, null},
      {"{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"code\":\"x\",\"message\":\"m\"}}", null, null},
      {"{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"message\":\"m\"}}", null, null},
    };
    try (RawSession s = RawSession.initialized(TestServerMain.class, Map.of())) {
      long pingId = 1000;
      for (Object[] c : cases) {
        String line = (String) c[0];
        s.send(line);
        s.send("{\"jsonrpc\":\"2.0\",\"id\":" + pingId + ",\"method\":\"ping\"}");
        List<JsonNode> before = new ArrayList<>();
        JsonNode pong = s.awaitResponse(pingId, WAIT, before);
        assertThat(pong.path("result").isObject()).as("ping after " + line).isTrue();
        if (c[1] == null) {
          assertThat(before).as("answers to " + line).isEmpty();
        } else {
          assertThat(before).as("answers to " + line).hasSize(1);
          JsonNode e = before.get(0);
          assertThat(e.path("error").path("code").asInt()).as(line).isEqualTo((Integer) c[1]);
          // Jackson's own location descriptions stay out of the message.
          assertThat(e.path("error").path("message").asString()).as(line).doesNotContain("[Source");
          if (c[2] == null) {
            assertThat(e.get("id").isNull()).as(line).isTrue();
          } else {
            assertThat(e.get("id").asInt()).as(line).isEqualTo((Integer) c[2]);
          }
        }
        pingId++;
      }
      assertThat(s.badLines).isEmpty();
    }
  }

  @Test
  void beforeInitializePingIsAnsweredOtherRequestsAreRefused() throws Exception {
    try (RawSession s = new RawSession(TestServerMain.class, Map.of())) {
      s.send("{\"jsonrpc\":\"2.0\",\"id\":\"early\",\"method\":\"ping\"}");
      JsonNode pong = s.awaitResponse("early", WAIT);
      assertThat(pong.path("result").isObject()).isTrue();
      assertThat(pong.path("result").size()).isZero();

      s.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
      JsonNode refused = s.awaitResponse(1, WAIT);
      assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32600);
      assertThat(refused.path("error").path("message").asString())
          .contains("not initialized");
      s.send(
          RawSession.toolCall(
              2, ReaTools.RELEASE, args("evidence_id", "sha256:" + "0".repeat(64)), null));
      assertThat(s.awaitResponse(2, WAIT).path("error").path("code").asInt()).isEqualTo(-32600);

      // The normal handshake still works afterwards, and so do the same requests.
      s.send(
          "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{"
              + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
              + "\"clientInfo\":{\"name\":\"raw\",\"version\":\"0\"}}}");
      assertThat(s.awaitResponse("init", WAIT).path("result").path("serverInfo").path("name").asString())
          .isEqualTo("rea");
      s.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
      s.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}");
      JsonNode tools = s.awaitResponse(3, WAIT).path("result").path("tools");
      assertThat(tools).hasSize(5);
      // One title per tool: the annotations repeat the tool's own, and the hints are as declared.
      Map<String, String> hints = new java.util.HashMap<>();
      for (JsonNode t : tools) {
        JsonNode a = t.path("annotations");
        assertThat(a.path("title").asString()).isEqualTo(t.path("title").asString()).isNotEmpty();
        hints.put(
            t.path("name").asString(),
            a.path("readOnlyHint").asBoolean() + "," + a.path("destructiveHint").asBoolean() + ","
                + a.path("idempotentHint").asBoolean() + "," + a.path("openWorldHint").asBoolean());
      }
      assertThat(hints)
          .containsExactlyInAnyOrderEntriesOf(
              Map.of(
                  ReaTools.INSPECT, "true,false,false,false",
                  SetTool.NAME, "true,false,false,false",
                  ReaTools.VIEW, "true,false,true,false",
                  ReaTools.IMPORT, "false,false,true,false",
                  ReaTools.RELEASE, "false,true,false,false"));
      assertThat(s.badLines).isEmpty();
    }
  }

  @Test
  void linesOverTheCapGetTypedAnswers() throws Exception {
    int cap = 64 * 1024;
    try (RawSession s =
        RawSession.initialized(TestServerMain.class, Map.of("rea.test.lineCap", "" + cap))) {
      String filler = "x".repeat(cap + 10);
      s.send(
          RawSession.toolCall(
              21,
              ReaTools.INSPECT,
              args("path", "/abs/" + filler, "detail", "complete"),
              null));
      JsonNode e = toolError(s.awaitResponse(21, WAIT)).path("error");
      assertThat(e.path("code").asString()).isEqualTo("resource_exhausted");
      assertThat(e.path("constraint").asString()).isEqualTo("request_size");
      // Byte sizes are decimal strings (CONTRACT section 2), never JSON numbers.
      JsonNode diagnostics = e.path("details").path("diagnostics");
      assertThat(diagnostics.path("limit_bytes").isString()).as(diagnostics.toString()).isTrue();
      assertThat(diagnostics.path("limit_bytes").asString()).isEqualTo(Integer.toString(cap));
      assertThat(diagnostics.path("requested_bytes").isString()).isTrue();
      assertThat(Long.parseLong(diagnostics.path("requested_bytes").asString())).isGreaterThan(cap);

      s.send("{\"jsonrpc\":\"2.0\",\"id\":22,\"method\":\"ping\",\"params\":{\"pad\":\"" + filler
          + "\"}}");
      assertThat(s.awaitResponse(22, WAIT).path("error").path("code").asInt()).isEqualTo(-32600);

      // An oversized notification gets no answer; the next request is answered normally.
      s.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\",\"params\":{\"pad\":\"" + filler
          + "\"}}");
      s.send("{\"jsonrpc\":\"2.0\",\"id\":23,\"method\":\"ping\"}");
      List<JsonNode> others = new ArrayList<>();
      assertThat(s.awaitResponse(23, WAIT, others).has("result")).isTrue();
      assertThat(others).isEmpty();

      // Exactly at the cap is accepted.
      String head = "{\"jsonrpc\":\"2.0\",\"id\":24,\"method\":\"ping\",\"params\":{\"pad\":\"";
      String tail = "\"}}";
      String exact = head + "y".repeat(cap - head.length() - tail.length()) + tail;
      assertThat(exact.length()).isEqualTo(cap);
      s.send(exact);
      assertThat(s.awaitResponse(24, WAIT).has("result")).isTrue();
      assertThat(s.badLines).isEmpty();
    }
  }

  @Test
  void cancellationStopsTheHashAndReturnsPartialEvidence() throws Exception {
    Path big = TinyGguf.write(dir.resolve("big.gguf"), 2, 4, 64L << 20);
    try (RawSession s =
        RawSession.initialized(TestServerMain.class, Map.of("rea.test.hashDelayMillis", "100"))) {
      s.send(
          RawSession.toolCall(
              "c1",
              ReaTools.INSPECT,
              args("path", big.toString(), "hash", "full", "detail", "complete"),
              "p1"));
      JsonNode first = s.next(WAIT);
      assertThat(first.path("method").asString()).isEqualTo("notifications/progress");
      assertThat(first.path("params").path("progressToken").asString()).isEqualTo("p1");
      long t0 = System.nanoTime();
      s.send(RawSession.cancel("c1"));
      List<JsonNode> others = new ArrayList<>();
      JsonNode response = s.awaitResponse("c1", WAIT, others);
      // 64 MiB at 100 ms per MiB would take over 6 s more; cancellation stops within a chunk.
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(4));
      JsonNode body = toolError(response);
      assertThat(body.path("error").path("code").asString()).isEqualTo("cancelled");
      assertThat(body.path("error").path("constraint").asString()).isEqualTo("cancelled");
      JsonNode partial = body.path("partial_evidence");
      assertThat(partial.path("status").asString()).isEqualTo("partial");
      assertThat(partial.path("coverage").path("header").asString()).isEqualTo("complete");
      assertThat(partial.path("coverage").path("digest").asString()).isEqualTo("unknown");
      assertThat(partial.path("coverage").path("final_identity").asString())
          .isEqualTo("unverified");
      assertThat(partial.path("artifact").path("sha256").isNull()).isTrue();
      assertThat(partial.path("tensors")).hasSize(4);
      assertThat(partial.path("metadata")).hasSize(2);
      for (JsonNode o : others) {
        assertThat(o.path("method").asString()).isEqualTo("notifications/progress");
      }

      // The slot is free: a new inspection runs.
      Path small = TinyGguf.write(dir.resolve("small.gguf"), 1, 1, 0);
      s.send(RawSession.toolCall("c2", ReaTools.INSPECT, args("path", small.toString(), "detail", "complete"), null));
      JsonNode ok = s.awaitResponse("c2", WAIT);
      assertThat(ok.path("result").path("isError").asBoolean()).isFalse();
      assertThat(s.badLines).isEmpty();
    }
  }

  @Test
  void cancellingAnotherRequestIdLeavesTheInspectionRunning() throws Exception {
    Path p = TinyGguf.write(dir.resolve("mid.gguf"), 1, 1, 8L << 20);
    try (RawSession s =
        RawSession.initialized(TestServerMain.class, Map.of("rea.test.hashDelayMillis", "30"))) {
      s.send(
          RawSession.toolCall(
              31, ReaTools.INSPECT, args("path", p.toString(), "hash", "full", "detail", "complete"), 5));
      s.send(RawSession.cancel(999));
      s.send(RawSession.cancel("31"));
      JsonNode r = s.awaitResponse(31, WAIT);
      assertThat(r.path("result").path("isError").asBoolean()).isFalse();
      assertThat(r.path("result").path("structuredContent").path("status").asString())
          .isEqualTo("complete");
    }
  }

  @Test
  void answersArriveEvenWhenInputEndsRightAfterTheRequest() throws Exception {
    Path p = TinyGguf.write(dir.resolve("eof.gguf"), 1, 2, 0);
    RawSession s = RawSession.initialized(TestServerMain.class, Map.of());
    try {
      s.send(RawSession.toolCall(41, ReaTools.INSPECT, args("path", p.toString(), "detail", "complete"), null));
      s.send("{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"ping\"}");
      s.closeInput();
      List<JsonNode> before = new ArrayList<>();
      JsonNode a = s.awaitResponse(41, WAIT, before);
      assertThat(a.path("result").path("structuredContent").path("tensors")).hasSize(2);
      JsonNode pong =
          before.stream()
              .filter(m -> RawSession.idMatches(m.path("id"), 42))
              .findFirst()
              .orElseGet(
                  () -> {
                    try {
                      return s.awaitResponse(42, WAIT);
                    } catch (InterruptedException e) {
                      throw new AssertionError(e);
                    }
                  });
      assertThat(pong.has("result")).isTrue();
      assertThat(s.process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      assertThat(s.process.exitValue()).isZero();
      assertThat(s.badLines).isEmpty();
    } finally {
      s.close();
    }
  }

  @Test
  void inputEndCancelsARunningHashAndStillAnswersIt() throws Exception {
    Path big = TinyGguf.write(dir.resolve("eof-big.gguf"), 1, 1, 64L << 20);
    RawSession s =
        RawSession.initialized(TestServerMain.class, Map.of("rea.test.hashDelayMillis", "100"));
    try {
      s.send(
          RawSession.toolCall(
              51, ReaTools.INSPECT, args("path", big.toString(), "hash", "full", "detail", "complete"), "t"));
      assertThat(s.next(WAIT).path("method").asString()).isEqualTo("notifications/progress");
      s.closeInput();
      JsonNode r = s.awaitResponse(51, WAIT);
      assertThat(toolError(r).path("error").path("code").asString()).isEqualTo("cancelled");
      assertThat(s.process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    } finally {
      s.close();
    }
  }

  @Test
  void strayPrintsGoToStderrNotTheProtocolStream() throws Exception {
    Path p = TinyGguf.write(dir.resolve("stray.gguf"), 1, 1, 3L << 20);
    try (RawSession s =
        RawSession.initialized(TestServerMain.class, Map.of("rea.test.strayStdout", "true"))) {
      s.send(
          RawSession.toolCall(
              61, ReaTools.INSPECT, args("path", p.toString(), "hash", "full", "detail", "complete"), "t"));
      JsonNode r = s.awaitResponse(61, WAIT);
      assertThat(r.path("result").path("isError").asBoolean()).isFalse();
      s.closeInput();
      assertThat(s.process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      assertThat(s.badLines).isEmpty();
      assertThat(s.stderrText()).contains("stray output from a handler");
    }
  }

  @Test
  void aCancelRightBehindTheRequestStillCancelsIt() throws Exception {
    Path big = TinyGguf.write(dir.resolve("early.gguf"), 1, 1, 32L << 20);
    try (RawSession s =
        RawSession.initialized(TestServerMain.class, Map.of("rea.test.hashDelayMillis", "200"))) {
      // Both lines in one write: the cancel may be read before the handler has started.
      String call =
          RawSession.toolCall(
              71, ReaTools.INSPECT, args("path", big.toString(), "hash", "full", "detail", "complete"), null);
      s.sendBytes((call + "\n" + RawSession.cancel(71) + "\n").getBytes(StandardCharsets.UTF_8));
      long t0 = System.nanoTime();
      JsonNode e = toolError(s.awaitResponse(71, WAIT)).path("error");
      assertThat(e.path("code").asString()).isEqualTo("cancelled");
      // 32 MiB at 200 ms per MiB would take 6.4 s; cancelled work stops within a chunk.
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(4));
    }
  }
}
