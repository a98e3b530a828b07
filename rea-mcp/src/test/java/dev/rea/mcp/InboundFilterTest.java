package dev.rea.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * {@link InboundFilter} in process, over byte streams: which lines reach the SDK (read back
 * through the filter as the SDK's line reader would) and what the filter answers itself (the
 * {@link ProtocolWriter}'s output). Every case is followed by a valid request, which must still be
 * handed on: a line the SDK cannot deserialise would end its read loop, so the filter must never
 * pass one.
 */
class InboundFilterTest {
  private static final String INIT =
      "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
          + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
  private static final String INITIALIZED =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
  private static final String NEXT = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}";

  /** What one filtered input produced. */
  record Run(List<String> forwarded, List<JsonNode> answers, List<String> requests) {}

  private static Run run(String... lines) throws IOException {
    return run((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
  }

  private static Run run(byte[] in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<String> requests = new ArrayList<>();
    InboundFilter.Listener listener =
        new InboundFilter.Listener() {
          @Override
          public void onRequest(RpcId id, String method, @Nullable String toolName) {
            requests.add(id.key() + " " + method);
          }

          @Override
          public void onCancel(RpcId requestId) {}

          @Override
          public void onEndOfInput() {}
        };
    InboundFilter filter =
        new InboundFilter(
            new ByteArrayInputStream(in), new ProtocolWriter(out, () -> {}), listener, 64 * 1024);
    List<String> forwarded = new ArrayList<>();
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(filter, StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        forwarded.add(line);
      }
    }
    List<JsonNode> answers = new ArrayList<>();
    for (String a : out.toString(StandardCharsets.UTF_8).split("\n")) {
      if (!a.isEmpty()) {
        answers.add(RawSession.JSON.readTree(a));
      }
    }
    return new Run(forwarded, answers, requests);
  }

  /** Runs initialize, initialized, {@code bad}, then {@link #NEXT}. */
  private static Run afterHandshake(String bad) throws IOException {
    return run(INIT, INITIALIZED, bad, NEXT);
  }

  /** Asserts one error answer with this code and id, and that only the good lines were passed. */
  private static JsonNode assertRefused(Run r, int code, @Nullable Long id) {
    assertThat(r.answers()).as("answers").hasSize(1);
    JsonNode a = r.answers().get(0);
    assertThat(a.path("jsonrpc").asString()).isEqualTo("2.0");
    assertThat(a.path("error").path("code").asInt()).as(a.toString()).isEqualTo(code);
    assertThat(a.has("id")).isTrue();
    if (id == null) {
      assertThat(a.get("id").isNull()).as(a.toString()).isTrue();
    } else {
      assertThat(a.get("id").asLong()).as(a.toString()).isEqualTo(id);
    }
    assertThat(r.forwarded()).containsExactly(INIT, INITIALIZED, NEXT);
    assertThat(r.requests()).containsExactly("n:0 initialize", "n:2 ping");
    return a;
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "1.5",
        "1.0",
        "1e2",
        "-2.5E-3",
        "true",
        "false",
        "null",
        "{}",
        "{\"a\":1}",
        "[]",
        "[1]",
        "9223372036854775808",
        "-9223372036854775809",
        "123456789012345678901234567890",
        // Lone surrogates, escaped: the SDK answered them under the id "?" (hostile-input trial).
        "\"\\ud800\"",
        "\"a\\udfffb\"",
        "\"\\udc00\\ud800\""
      })
  void requestIdsTheSdkCannotTakeAreRefusedWithIdNull(String id) throws IOException {
    JsonNode a =
        assertRefused(
            afterHandshake("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}"),
            -32600,
            null);
    assertThat(a.path("error").path("message").asString())
        .isEqualTo(
            "Invalid Request: \"id\" must be a string of whole characters or an integer from -2^63"
                + " to 2^63-1");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "9223372036854775807", "-9223372036854775808", "0", "-1", "\"\"", "\"x y\"",
        "\"\\ud83d\\ude00\""
      })
  void stringAndSixtyFourBitIntegerIdsPass(String id) throws IOException {
    String line = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}";
    Run r = afterHandshake(line);
    assertThat(r.answers()).isEmpty();
    assertThat(r.forwarded()).containsExactly(INIT, INITIALIZED, line, NEXT);
    assertThat(r.requests()).hasSize(3);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "[]",
        "[{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}]",
        "42",
        "\"ping\"",
        "true",
        "null"
      })
  void messagesThatAreNotObjectsAreInvalidRequests(String line) throws IOException {
    assertRefused(afterHandshake(line), -32600, null);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{",
        "not json",
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",}",
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"} {}",
        "{'jsonrpc':'2.0'}",
        "{\"jsonrpc\":\"2.0\",\"id\":01,\"method\":\"ping\"}"
      })
  void invalidJsonIsAParseErrorWithIdNull(String line) throws IOException {
    assertRefused(afterHandshake(line), -32700, null);
  }

  /**
   * A line that is not well-formed UTF-8 is -32700 with id null and never reaches the SDK, whose
   * parser would decode an overlong form: here {@code C0 AE} twice and {@code C0 AF} spell
   * {@code ../} inside a path.
   */
  @Test
  void aLineWithAnOverlongUtf8FormIsAParseError() throws IOException {
    ByteArrayOutputStream in = new ByteArrayOutputStream();
    in.writeBytes((INIT + "\n" + INITIALIZED + "\n").getBytes(StandardCharsets.UTF_8));
    in.writeBytes(
        ("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"inspect_model_artifact\",\"arguments\":{\"path\":\"/tmp/a/")
            .getBytes(StandardCharsets.US_ASCII));
    in.writeBytes(new byte[] {(byte) 0xC0, (byte) 0xAE, (byte) 0xC0, (byte) 0xAE, (byte) 0xC0, (byte) 0xAF});
    in.writeBytes(("b.gguf\"}}}\n" + NEXT + "\n").getBytes(StandardCharsets.US_ASCII));
    JsonNode a = assertRefused(run(in.toByteArray()), -32700, null);
    assertThat(a.path("error").path("message").asString())
        .startsWith("Parse error: the line is not well-formed UTF-8");
  }

  /**
   * A string value holding an escaped unpaired surrogate has no UTF-8 form: the SDK wrote it back
   * as '?' (a view of evidence_id "\ud800" answered about "?"). Such a request is -32600 with its
   * id; a pair passes.
   */
  @ParameterizedTest
  @ValueSource(strings = {"\\ud800", "a\\udfffb", "\\udc00\\ud800"})
  void aStringValueWithAnUnpairedSurrogateIsAnInvalidRequest(String escaped) throws IOException {
    String line =
        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":"
            + "\"release_evidence\",\"arguments\":{\"evidence_id\":\"" + escaped + "\"}}}";
    JsonNode a = assertRefused(afterHandshake(line), -32600, 4L);
    assertThat(a.path("error").path("message").asString())
        .isEqualTo(
            "Invalid Request: a string holds an unpaired surrogate escape (such as \\ud800),"
                + " which no UTF-8 text can carry");
    String pair = line.replace(escaped, "\\ud83d\\ude00");
    Run ok = afterHandshake(pair);
    assertThat(ok.answers()).isEmpty();
    assertThat(ok.forwarded()).contains(pair);
  }

  /**
   * A line starting with a UTF-8 byte order mark is -32700 and not passed on (the SDK's parser
   * fails on U+FEFF and its read loop would end); a BOM later on the line was already malformed.
   */
  @Test
  void aLineStartingWithAByteOrderMarkIsAParseErrorAndTheSessionGoesOn() throws IOException {
    JsonNode a = assertRefused(afterHandshake("\uFEFF{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"), -32700, null);
    assertThat(a.path("error").path("message").asString())
        .isEqualTo("Parse error: the line starts with a byte order mark (U+FEFF), which is not JSON-RPC");
    assertRefused(afterHandshake(" \uFEFF{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"), -32700, null);
    // Before initialize too: the initialize line itself.
    Run r = run("\uFEFF" + INIT, INIT, INITIALIZED, NEXT);
    assertThat(r.answers()).hasSize(1);
    assertThat(r.answers().get(0).path("error").path("code").asInt()).isEqualTo(-32700);
    assertThat(r.forwarded()).containsExactly(INIT, INITIALIZED, NEXT);
  }

  /**
   * A line opening more objects and arrays than 4,096 plus one per 24 bytes is answered as too
   * large and never reaches the SDK (which builds a map or list for each); a line at the limit
   * passes.
   */
  @Test
  void aLineOfManyEmptyContainersIsRefusedAndOneAtTheLimitPasses() throws IOException {
    String head = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":[";
    String tail = "[]]}}";
    // 2 containers (params, x) + 1 root + n inner ones; the line is head + 3n - 1 + tail bytes.
    int n = 9_000;
    String dense = head + "[],".repeat(n - 1) + tail;
    JsonNode a = assertRefused(afterHandshake(dense), -32600, 1L);
    assertThat(a.path("error").path("message").asString())
        .isEqualTo(
            "Invalid Request: the message opens "
                + (n + 3)
                + " JSON objects and arrays, over the limit of "
                + (4096 + dense.length() / 24)
                + " for a message of "
                + dense.length()
                + " bytes");
    // Exactly at the limit: padding keeps n + 3 <= 4096 + length / 24.
    int fine = 4_000;
    String sparse = head + "[],".repeat(fine - 1) + tail;
    assertThat(fine + 3).isLessThanOrEqualTo(4096 + sparse.length() / 24);
    Run ok = afterHandshake(sparse);
    assertThat(ok.answers()).isEmpty();
    assertThat(ok.forwarded()).containsExactly(INIT, INITIALIZED, sparse, NEXT);
    // A tools/call gets the REA error object as a tool result.
    String call =
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":"
            + "\"release_evidence\",\"arguments\":{\"x\":[" + "[],".repeat(n) + "[]]}}}";
    Run t = afterHandshake(call);
    assertThat(t.answers()).hasSize(1);
    JsonNode result = t.answers().get(0).path("result");
    assertThat(result.path("isError").asBoolean()).isTrue();
    JsonNode e = result.path("structuredContent").path("error");
    assertThat(e.path("constraint").asString()).isEqualTo("request_size");
    assertThat(e.path("details").path("diagnostics").path("limit").asString())
        .isEqualTo("inbound_message_containers");
    assertThat(e.path("details").path("diagnostics").path("requested_containers").asLong())
        .isGreaterThan(e.path("details").path("diagnostics").path("limit_containers").asLong());
    assertThat(t.forwarded()).containsExactly(INIT, INITIALIZED, NEXT);
  }

  /**
   * A message nested deeper than the 500 levels the SDK's parser takes is valid JSON: it is
   * answered to its id (a tools/call with the request_size tool error), not as a parse error
   * with id null (a trial's 100,000-deep tools/call got -32700 and no answer to its id).
   */
  @Test
  void aMessageNestedPastTheParsersLimitIsAnsweredToItsId() throws IOException {
    String deep = "[".repeat(600) + "]".repeat(600);
    String call =
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":"
            + "\"release_evidence\",\"arguments\":{\"x\":" + deep + "}}}";
    Run t = afterHandshake(call);
    assertThat(t.answers()).hasSize(1);
    assertThat(t.answers().get(0).path("id").asLong()).isEqualTo(5);
    JsonNode e = t.answers().get(0).path("result").path("structuredContent").path("error");
    assertThat(e.path("constraint").asString()).isEqualTo("request_size");
    assertThat(e.path("details").path("diagnostics").path("limit").asString())
        .isEqualTo("inbound_json_nesting");
    assertThat(t.forwarded()).containsExactly(INIT, INITIALIZED, NEXT);
    // A number too long for the parser is named as such, not as nesting.
    String longNumber =
        "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":"
            + "\"release_evidence\",\"arguments\":{\"x\":" + "9".repeat(5000) + "}}}";
    JsonNode n = afterHandshake(longNumber).answers().get(0)
        .path("result").path("structuredContent").path("error");
    assertThat(n.path("constraint").asString()).isEqualTo("request_size");
    assertThat(n.path("details").path("diagnostics").path("limit").asString())
        .isEqualTo("inbound_json_number");
    assertThat(n.path("message").asString())
        .contains("a number longer than the parser takes")
        .doesNotContain("nesting");

    String ping = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\",\"params\":{\"x\":" + deep + "}}";
    JsonNode a = assertRefused(afterHandshake(ping), -32600, 7L);
    assertThat(a.path("error").path("message").asString()).contains("nesting deeper than 500");
    // Nesting past the limit before any id is read stays a parse error with id null.
    assertRefused(afterHandshake(deep), -32700, null);
  }

  @Test
  void duplicateIdIsRefusedWithIdNull() throws IOException {
    JsonNode a =
        assertRefused(
            afterHandshake("{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":3,\"method\":\"ping\"}"),
            -32600,
            null);
    assertThat(a.path("error").path("message").asString())
        .isEqualTo(
            "Invalid Request: duplicate member name at /id (each name may appear once per"
                + " object)");
    // The same value twice is still a duplicate.
    assertRefused(
        afterHandshake("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"ping\",\"id\":\"a\"}"),
        -32600,
        null);
  }

  @Test
  void duplicateMethodOrJsonrpcIsRefusedWithTheRequestsId() throws IOException {
    JsonNode m =
        assertRefused(
            afterHandshake(
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"method\":\"tools/list\"}"),
            -32600,
            3L);
    assertThat(m.path("error").path("message").asString()).contains("at /method");
    JsonNode j =
        assertRefused(
            afterHandshake(
                "{\"jsonrpc\":\"2.0\",\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}"),
            -32600,
            4L);
    assertThat(j.path("error").path("message").asString()).contains("at /jsonrpc");
    // Names are compared after unescaping; the id after the duplicate is still found.
    JsonNode escaped =
        assertRefused(
            afterHandshake(
                "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"\\u006dethod\":\"ping\",\"id\":5}"),
            -32600,
            5L);
    assertThat(escaped.path("error").path("message").asString()).contains("at /method");
  }

  @Test
  void duplicatesAtAnyDepthAreRefused() throws IOException {
    JsonNode a =
        assertRefused(
            afterHandshake(
                "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":"
                    + "\"release_evidence\",\"arguments\":{\"a\":1,\"b\":2,\"c\":3,\"d\":4,"
                    + "\"c\":5}}}"),
            -32600,
            6L);
    assertThat(a.path("error").path("message").asString()).contains("at /params/arguments/c");
    assertRefused(
        afterHandshake("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\",\"method\":\"y\"}"),
        -32600,
        null);
  }

  @Test
  void equalNamesInDifferentObjectsAreNotDuplicates() throws IOException {
    String line =
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":"
            + "\"release_evidence\",\"arguments\":{\"name\":\"x\",\"id\":1,\"v\":[{\"id\":1},"
            + "{\"id\":1}]},\"_meta\":{\"name\":1}}}";
    Run r = afterHandshake(line);
    assertThat(r.answers()).isEmpty();
    assertThat(r.forwarded()).containsExactly(INIT, INITIALIZED, line, NEXT);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":null}",
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"code\":\"x\",\"message\":\"m\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"code\":1.5,\"message\":\"m\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"code\":4294967296,\"message\":\"m\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"message\":\"m\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"code\":1}}",
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"code\":1,\"message\":{}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":null}",
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"m\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"result\":{}}",
        "{\"jsonrpc\":\"2.0\",\"result\":{}}",
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{},\"error\":{\"code\":1,\"message\":\"m\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"id\":6,\"result\":{}}"
      })
  void responsesTheSdkCannotTakeAreDroppedUnanswered(String line) throws IOException {
    Run r = afterHandshake(line);
    assertThat(r.answers()).isEmpty();
    assertThat(r.forwarded()).containsExactly(INIT, INITIALIZED, NEXT);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"jsonrpc\":\"2.0\",\"id\":\"r\",\"result\":{}}",
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"code\":-32601,\"message\":\"m\",\"data\":[1]}}"
      })
  void wellFormedResponsesPass(String line) throws IOException {
    Run r = afterHandshake(line);
    assertThat(r.answers()).isEmpty();
    assertThat(r.forwarded()).containsExactly(INIT, INITIALIZED, line, NEXT);
  }

  @Test
  void toolsCallWithMetaThatIsNotAnObjectIsInvalidParams() throws IOException {
    assertRefused(
        afterHandshake(
            "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"release_evidence\",\"arguments\":{},\"_meta\":5}}"),
        -32602,
        8L);
  }

  @Test
  void beforeInitializeOnlyPingIsAnsweredAndTheRestIsRefused() throws IOException {
    String ping = "{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\"}";
    String list = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}";
    String call =
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":"
            + "\"release_evidence\",\"arguments\":{}}}";
    String note = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"}";
    String listAgain = "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}";
    Run r = run(ping, list, call, note, INIT, INITIALIZED, listAgain, NEXT);

    assertThat(r.answers()).hasSize(3);
    JsonNode pong = r.answers().get(0);
    assertThat(pong.path("id").asString()).isEqualTo("p");
    assertThat(pong.path("result").isObject()).isTrue();
    assertThat(pong.path("result").size()).isZero();
    assertThat(pong.has("error")).isFalse();
    for (int i = 1; i < 3; i++) {
      JsonNode e = r.answers().get(i);
      assertThat(e.path("error").path("code").asInt()).isEqualTo(-32600);
      assertThat(e.path("error").path("message").asString())
          .contains("the server is not initialized");
    }
    assertThat(r.answers().get(1).path("id").asLong()).isEqualTo(1);
    assertThat(r.answers().get(2).path("id").asLong()).isEqualTo(3);
    // Notifications pass; once initialize was handed on, every request passes.
    assertThat(r.forwarded()).containsExactly(note, INIT, INITIALIZED, listAgain, NEXT);
    assertThat(r.requests()).containsExactly("n:0 initialize", "n:4 tools/list", "n:2 ping");
  }

  @Test
  void theTestersReproIsAnsweredAndTheNextPingPasses() throws IOException {
    Run r = afterHandshake("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}");
    assertRefused(r, -32600, null);
  }
}
