package dev.rea.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A server process driven over raw stdio lines, for what the Java SDK client cannot do: send
 * {@code notifications/cancelled}, malformed or oversized lines, pipelined requests. Every stdout
 * line must parse as JSON (anything else fails the test: stdout hygiene).
 */
final class RawSession implements AutoCloseable {
  static final JsonMapper JSON = JsonMapper.builder().build();

  final Process process;
  private final OutputStream stdin;
  private final BlockingQueue<JsonNode> messages = new LinkedBlockingQueue<>();
  final List<String> badLines = java.util.Collections.synchronizedList(new ArrayList<>());
  final Path stderr;
  private final Thread reader;

  RawSession(Class<?> main, Map<String, String> props) throws IOException {
    stderr = Files.createTempFile("rea-mcp-stderr", ".txt");
    ProcessBuilder pb =
        new ProcessBuilder(ServerCommand.command(main, props)).redirectError(stderr.toFile());
    pb.environment().putAll(ServerCommand.env());
    process = pb.start();
    stdin = process.getOutputStream();
    reader =
        new Thread(
            () -> {
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  try {
                    messages.add(JSON.readTree(line));
                  } catch (RuntimeException e) {
                    badLines.add(line);
                  }
                }
              } catch (IOException e) {
                // process ended
              }
            },
            "raw-session-reader");
    reader.setDaemon(true);
    reader.start();
  }

  /** Starts a session and completes the initialize handshake. */
  static RawSession initialized(Class<?> main, Map<String, String> props) throws Exception {
    RawSession s = new RawSession(main, props);
    s.send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"raw\",\"version\":\"0\"}}}");
    JsonNode init = s.awaitResponse("init", Duration.ofSeconds(30));
    assertThat(init.path("result").path("serverInfo").path("name").asString()).isEqualTo("rea");
    s.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    return s;
  }

  synchronized void send(String line) throws IOException {
    stdin.write(line.getBytes(StandardCharsets.UTF_8));
    stdin.write('\n');
    stdin.flush();
  }

  void sendBytes(byte[] bytes) throws IOException {
    synchronized (this) {
      stdin.write(bytes);
      stdin.flush();
    }
  }

  void closeInput() throws IOException {
    stdin.close();
  }

  /** A tools/call line. */
  static String toolCall(Object id, String tool, ObjectNode arguments, Object progressToken) {
    ObjectNode m = JSON.createObjectNode();
    m.put("jsonrpc", "2.0");
    putId(m, "id", id);
    m.put("method", "tools/call");
    ObjectNode p = m.putObject("params");
    p.put("name", tool);
    p.set("arguments", arguments);
    if (progressToken != null) {
      putId(p.putObject("_meta"), "progressToken", progressToken);
    }
    return JSON.writeValueAsString(m);
  }

  static String cancel(Object requestId) {
    ObjectNode m = JSON.createObjectNode();
    m.put("jsonrpc", "2.0");
    m.put("method", "notifications/cancelled");
    ObjectNode p = m.putObject("params");
    putId(p, "requestId", requestId);
    p.put("reason", "test");
    return JSON.writeValueAsString(m);
  }

  private static void putId(ObjectNode n, String name, Object id) {
    if (id instanceof Number num) {
      n.put(name, num.longValue());
    } else {
      n.put(name, String.valueOf(id));
    }
  }

  /** @return the next message, or null after the timeout */
  JsonNode next(Duration timeout) throws InterruptedException {
    return messages.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Waits for the response with this id, keeping other messages in {@code others} order. */
  JsonNode awaitResponse(Object id, Duration timeout) throws InterruptedException {
    return awaitResponse(id, timeout, new ArrayList<>());
  }

  JsonNode awaitResponse(Object id, Duration timeout, List<JsonNode> others)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      JsonNode m = left > 0 ? messages.poll(left, TimeUnit.NANOSECONDS) : null;
      if (m == null) {
        throw new AssertionError(
            "no response to id " + id + " within " + timeout + "; stderr:\n" + stderrText());
      }
      if (m.has("id") && !m.has("method") && idMatches(m.get("id"), id)) {
        return m;
      }
      others.add(m);
    }
  }

  static boolean idMatches(JsonNode node, Object id) {
    if (id == null) {
      return node.isNull();
    }
    if (id instanceof Number n) {
      return node.isNumber() && node.asLong() == n.longValue();
    }
    return node.isString() && node.asString().equals(id);
  }

  String stderrText() {
    try {
      return Files.readString(stderr);
    } catch (IOException e) {
      return "(stderr unreadable: " + e + ")";
    }
  }

  @Override
  public void close() throws Exception {
    try {
      stdin.close();
    } catch (IOException ignored) {
      // already closed
    }
    if (!process.waitFor(15, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      process.waitFor(5, TimeUnit.SECONDS);
    }
    Files.deleteIfExists(stderr);
  }
}
