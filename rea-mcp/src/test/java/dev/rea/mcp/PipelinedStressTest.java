package dev.rea.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * 1,000 {@code tools/call} requests with progress tokens, written in one burst without waiting
 * for answers (half full-hash inspections, a quarter views of retained Evidence, a quarter
 * refused in the handler): every request gets exactly one response and the session survives. Concurrent
 * handlers send responses and progress notifications at once, which is what breaks SDK 2.1.0's
 * stdio transport without {@link SerializingTransportProvider} ({@code
 * shared/notes/mcp-java-sdk.md} section 5, pitfall 1).
 */
class PipelinedStressTest {
  private static final int CALLS = 1000;

  @TempDir Path dir;

  @Test
  @Timeout(180)
  void thousandPipelinedCallsWithProgressAllGetOneResponse() throws Exception {
    Path file = TinyGguf.write(dir.resolve("stress.gguf"), 2, 3, 3L << 20);
    try (RawSession s = RawSession.initialized(TestServerMain.class, Map.of())) {
      ObjectNode first = RawSession.JSON.createObjectNode();
      first.put("path", file.toString());
      s.send(RawSession.toolCall("summary", ReaTools.INSPECT, first, null));
      String retainedId =
          s.awaitResponse("summary", Duration.ofSeconds(30))
              .path("result")
              .path("structuredContent")
              .path("parent_evidence_id")
              .asString();
      assertThat(retainedId).startsWith("sha256:");
      ByteArrayOutputStream burst = new ByteArrayOutputStream();
      for (int i = 1; i <= CALLS; i++) {
        ObjectNode args = RawSession.JSON.createObjectNode();
        String tool = ReaTools.INSPECT;
        if (i % 4 == 0) {
          // Cheap calls that fail in the handler: they answer concurrently with the others.
          args.put("path", "relative/" + i);
        } else if (i % 4 == 1) {
          // Views of retained Evidence answer while inspections run.
          tool = ReaTools.VIEW;
          ObjectNode source = args.putObject("source");
          source.put("kind", "retained-evidence");
          source.put("evidence_id", retainedId);
          ObjectNode view = args.putObject("view");
          view.put("kind", "model-artifact");
          view.put("collection", "tensors");
          view.put("offset", i % 3);
          view.put("limit", 1);
        } else {
          args.put("path", file.toString());
          args.put("hash", "full");
          args.put("detail", "complete");
        }
        String line = RawSession.toolCall(i, tool, args, "p" + i);
        burst.write(line.getBytes(StandardCharsets.UTF_8));
        burst.write('\n');
      }
      long t0 = System.nanoTime();
      // Written from another thread: if the server stopped reading, the write would block and
      // this thread must still be able to fail on its timeouts.
      Thread writer =
          new Thread(
              () -> {
                try {
                  s.sendBytes(burst.toByteArray());
                } catch (java.io.IOException e) {
                  // the assertions below report the missing responses
                }
              },
              "burst-writer");
      writer.setDaemon(true);
      writer.start();

      Map<Long, JsonNode> responses = new HashMap<>();
      int progress = 0;
      int duplicates = 0;
      Set<String> progressTokens = new TreeSet<>();
      while (responses.size() < CALLS) {
        JsonNode m = s.next(Duration.ofSeconds(60));
        assertThat(m)
            .as("message after " + responses.size() + " responses; stderr:\n" + s.stderrText())
            .isNotNull();
        if ("notifications/progress".equals(m.path("method").asString())) {
          progress++;
          progressTokens.add(m.path("params").path("progressToken").asString());
          continue;
        }
        long id = m.path("id").asLong();
        if (responses.put(id, m) != null) {
          duplicates++;
        }
      }
      Duration took = Duration.ofNanos(System.nanoTime() - t0);
      assertThat(duplicates).isZero();
      assertThat(responses.keySet()).hasSize(CALLS);
      assertThat(responses.keySet()).allMatch(id -> id >= 1 && id <= CALLS);

      int complete = 0;
      int busy = 0;
      int relative = 0;
      int pages = 0;
      for (Map.Entry<Long, JsonNode> e : responses.entrySet()) {
        JsonNode result = e.getValue().path("result");
        assertThat(e.getValue().has("error")).as("JSON-RPC error for " + e.getKey()).isFalse();
        JsonNode sc = result.path("structuredContent");
        if (e.getKey() % 4 == 1) {
          assertThat(result.path("isError").asBoolean()).as("view " + e.getKey()).isFalse();
          assertThat(sc.path("kind").asString()).isEqualTo("model-artifact-page");
          assertThat(sc.path("rows").get(0).path("index").asLong()).isEqualTo(e.getKey() % 3);
          pages++;
        } else if (!result.path("isError").asBoolean()) {
          assertThat(sc.path("status").asString()).isEqualTo("complete");
          complete++;
        } else if ("provider_busy".equals(sc.path("error").path("constraint").asString())) {
          busy++;
        } else {
          assertThat(sc.path("error").path("constraint").asString()).isEqualTo("relative_path");
          assertThat(e.getKey() % 4).isZero();
          relative++;
        }
      }
      assertThat(relative).isEqualTo(CALLS / 4);
      assertThat(complete).isGreaterThanOrEqualTo(1);
      assertThat(pages).isEqualTo(CALLS / 4);
      assertThat(complete + busy).isEqualTo(CALLS / 2);
      assertThat(progress).isGreaterThanOrEqualTo(complete);
      assertThat(took).isLessThan(Duration.ofSeconds(150));
      System.out.printf(
          "stress: %d responses (%d complete, %d busy, %d relative, %d pages), %d progress, %d ms%n",
          responses.size(), complete, busy, relative, pages, progress, took.toMillis());

      // The session is alive.
      s.send("{\"jsonrpc\":\"2.0\",\"id\":\"after\",\"method\":\"ping\"}");
      assertThat(s.awaitResponse("after", Duration.ofSeconds(30)).has("result")).isTrue();
      assertThat(s.badLines).isEmpty();
    }
  }
}
