package dev.rea.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A client that sends without reading its answers: the server's writes block, and it stops
 * reading input once {@link ServerState#MAX_UNWRITTEN} messages wait to be written, instead of
 * queueing every later answer in memory (a hostile trial grew the server to 1.7 GB with a
 * million unread answers). Once the client reads again, every request is answered.
 */
class BackpressureTest {
  private static final int PINGS = 20_000;

  @Test
  @Timeout(120)
  void aClientThatDoesNotReadMakesTheServerStopReading() throws Exception {
    StringBuilder input = new StringBuilder();
    input.append("{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{")
        .append("\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},")
        .append("\"clientInfo\":{\"name\":\"raw\",\"version\":\"0\"}}}\n")
        .append("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    for (int i = 0; i < PINGS; i++) {
      input.append("{\"jsonrpc\":\"2.0\",\"id\":").append(i).append(",\"method\":\"ping\"}\n");
    }
    byte[] bytes = input.toString().getBytes(StandardCharsets.UTF_8);
    AtomicLong consumed = new AtomicLong();
    InputStream in =
        new FilterInputStream(new ByteArrayInputStream(bytes)) {
          @Override
          public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
              consumed.addAndGet(n);
            }
            return n;
          }
        };
    CountDownLatch reading = new CountDownLatch(1);
    ByteArrayOutputStream answers = new ByteArrayOutputStream();
    OutputStream out =
        new OutputStream() {
          @Override
          public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
          }

          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            try {
              // The client is not reading: the pipe is full until it starts.
              reading.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw new java.io.InterruptedIOException();
            }
            synchronized (answers) {
              answers.write(b, off, len);
            }
          }
        };
    ReaMcpServer server =
        new ReaMcpServer(ReaMcpServer.Config.standard().drainTimeout(Duration.ofSeconds(60)));
    Thread serving =
        new Thread(
            () -> {
              try {
                server.serve(in, out);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "backpressure-server");
    serving.start();

    // Reading starts, then stops: what is consumed settles well short of the input.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (consumed.get() == 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    long before;
    long after = consumed.get();
    do {
      before = after;
      Thread.sleep(500);
      after = consumed.get();
    } while (after != before);
    assertThat(after).as("bytes of input read while no answer could be written")
        .isPositive()
        .isLessThan(bytes.length / 4);
    assertThat(serving.isAlive()).isTrue();

    reading.countDown();
    serving.join(TimeUnit.SECONDS.toMillis(90));
    assertThat(serving.isAlive()).as("the session ended with its input").isFalse();
    assertThat(consumed.get()).isEqualTo(bytes.length);
    String text;
    synchronized (answers) {
      text = answers.toString(StandardCharsets.UTF_8);
    }
    long lines = text.chars().filter(c -> c == '\n').count();
    assertThat(lines).as("one answer per request").isEqualTo(PINGS + 1);
    assertThat(text).contains("\"id\":" + (PINGS - 1) + ",").contains("\"id\":\"init\"");
  }

  /**
   * Requests sent after {@code initialize} and before {@code notifications/initialized} are held
   * by the SDK until that notification: they must not stop the reading that brings it (a trial
   * hung the server for good with 256 of them). Past {@link
   * InboundFilter#MAX_HELD_BEFORE_INITIALIZED} they are refused instead; the rest, and what
   * follows the notification, are answered, and the session ends with its input.
   */
  @Test
  @Timeout(120)
  void requestsBeforeInitializedNeverStopTheReadingThatReleasesThem() throws Exception {
    int early = 300;
    StringBuilder input = new StringBuilder();
    input.append("{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{")
        .append("\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},")
        .append("\"clientInfo\":{\"name\":\"raw\",\"version\":\"0\"}}}\n");
    for (int i = 0; i < early; i++) {
      input.append("{\"jsonrpc\":\"2.0\",\"id\":").append(i).append(",\"method\":\"ping\"}\n");
    }
    input.append("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
        .append("{\"jsonrpc\":\"2.0\",\"id\":\"last\",\"method\":\"ping\"}\n");
    ByteArrayOutputStream answers = new ByteArrayOutputStream();
    OutputStream out =
        new OutputStream() {
          @Override
          public void write(int b) {
            synchronized (answers) {
              answers.write(b);
            }
          }

          @Override
          public void write(byte[] b, int off, int len) {
            synchronized (answers) {
              answers.write(b, off, len);
            }
          }
        };
    Thread serving =
        new Thread(
            () -> {
              try {
                new ReaMcpServer(ReaMcpServer.Config.standard())
                    .serve(
                        new ByteArrayInputStream(input.toString().getBytes(StandardCharsets.UTF_8)),
                        out);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "early-requests-server");
    serving.start();
    serving.join(TimeUnit.SECONDS.toMillis(90));
    assertThat(serving.isAlive()).as("the session ended with its input").isFalse();
    String text;
    synchronized (answers) {
      text = answers.toString(StandardCharsets.UTF_8);
    }
    long lines = text.chars().filter(c -> c == '\n').count();
    assertThat(lines).as("one answer per request").isEqualTo(early + 2);
    long refused = text.lines().filter(l -> l.contains("not initialized yet")).count();
    // initialize is the first of the held requests: 127 pings are held, the rest refused.
    assertThat(refused).isEqualTo(early - (InboundFilter.MAX_HELD_BEFORE_INITIALIZED - 1));
    assertThat(text).contains("\"id\":\"last\"");
  }
}
