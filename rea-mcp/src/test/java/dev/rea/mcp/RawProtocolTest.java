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
      assertThat(e.path("details").path("diagnostics").path("limit_value").asLong())
          .isEqualTo(cap);
      assertThat(e.path("details").path("diagnostics").path("requested").asLong())
          .isGreaterThan(cap);

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
