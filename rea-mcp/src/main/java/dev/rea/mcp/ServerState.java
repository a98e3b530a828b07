package dev.rea.mcp;

import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * What the server knows below the SDK: requests seen on input and not yet answered, which of them
 * are inspections, the inspection slot, and how many messages were queued for output. It joins
 * the {@link InboundFilter} (input side) with the {@link SerializingTransportProvider} (output
 * side).
 *
 * <p>At end of input ({@link #onEndOfInput()}) pending requests get {@link #GRACE} to finish; then
 * the running inspection is cancelled (the client is shutting the server down: MCP stdio
 * transport, "Shutdown"). The input's end is held back from the SDK until every pending request
 * has been answered and every queued message written, or the drain timeout has passed: the SDK stops writing once it sees the end, which would
 * otherwise lose answers to the last requests ({@code shared/notes/mcp-java-sdk.md} pitfall 3).
 */
final class ServerState implements InboundFilter.Listener {
  /** How long requests received before end of input may run before inspections are cancelled. */
  static final Duration GRACE = Duration.ofSeconds(2);

  /** Most requests handed to the SDK and not yet answered before reading pauses. */
  static final int MAX_UNANSWERED = 256;

  /** Most messages queued for output and not yet written before reading pauses. */
  static final int MAX_UNWRITTEN = 64;

  final Inspections inspections = new Inspections();
  private final Set<String> pending = new HashSet<>();
  private final Set<String> pendingInspections = new HashSet<>();
  private final AtomicLong queued = new AtomicLong();
  private volatile boolean initialized;
  private final CountDownLatch inputEnded = new CountDownLatch(1);
  private final Duration drainTimeout;
  private @Nullable CountingOutputStream output;

  ServerState(Duration drainTimeout) {
    this.drainTimeout = drainTimeout;
  }

  void output(CountingOutputStream out) {
    this.output = out;
  }

  @Override
  public synchronized void onRequest(RpcId id, String method, @Nullable String toolName) {
    pending.add(id.key());
    if (InboundFilter.inspects(toolName)) {
      pendingInspections.add(id.key());
    }
  }

  @Override
  public void onCancel(RpcId requestId) {
    String key = requestId.key();
    boolean inspection;
    synchronized (this) {
      inspection = pendingInspections.contains(key);
    }
    if (inspection) {
      inspections.cancel(key);
    }
  }

  /** A message was queued for output by the SDK. */
  void onQueued(McpSchema.JSONRPCMessage message) {
    queued.incrementAndGet();
    if (message instanceof McpSchema.JSONRPCResponse r && r.id() != null) {
      onResponse(r.id());
    }
  }

  /** A message was written directly by {@link ProtocolWriter}. */
  void onWrittenDirectly() {
    queued.incrementAndGet();
  }

  /** A response to {@code id} was queued. */
  synchronized void onResponse(Object id) {
    String key = RpcId.keyOf(id);
    pending.remove(key);
    pendingInspections.remove(key);
    notifyAll();
  }

  @Override
  public void onEndOfInput() {
    long start = System.nanoTime();
    try {
      // Requests already received are answered normally if they finish within the grace period
      // (a shell pipeline closes input right after its last request) ...
      awaitPending(start + GRACE.toNanos());
      // ... then a running inspection is cancelled: the client is shutting the server down.
      inspections.close();
      long deadline = start + GRACE.toNanos() + drainTimeout.toNanos();
      if (!awaitPending(deadline)) {
        synchronized (this) {
          Log.warn("input ended; " + pending.size() + " request(s) still unanswered");
        }
      }
      if (output != null && !output.awaitLines(queued.get(), deadline)) {
        Log.warn("input ended; some queued messages were not written in time");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      inputEnded.countDown();
    }
  }

  private synchronized boolean awaitPending(long deadlineNanos) throws InterruptedException {
    while (!pending.isEmpty()) {
      long left = deadlineNanos - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return true;
  }

  /** From now on unanswered requests count toward {@link #awaitRoom}'s pause. */
  @Override
  public void onInitialized() {
    initialized = true;
  }

  /**
   * Backpressure on the input: waits while {@value #MAX_UNANSWERED} requests are unanswered or
   * {@value #MAX_UNWRITTEN} messages wait to be written to the output (a client that never reads
   * its answers blocks the server's writes; the SDK would queue every later answer in memory).
   * Reading stops instead, and the client's own writes block once the pipe is full.
   */
  @Override
  public void awaitRoom() throws java.io.InterruptedIOException {
    try {
      synchronized (this) {
        // Written lines are counted under the output's lock: poll, briefly, only while full.
        // Before notifications/initialized the SDK holds requests unanswered until it arrives:
        // they must not stop the reading that brings it (InboundFilter caps them instead).
        while ((initialized && pending.size() >= MAX_UNANSWERED)
            || unwritten() >= MAX_UNWRITTEN) {
          wait(5);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while the output was full");
    }
  }

  /** @return messages queued (by the SDK or written directly) and not yet written out */
  private long unwritten() {
    CountingOutputStream o = output;
    return o == null ? 0 : queued.get() - o.lines();
  }

  /** Waits until the input has ended and pending answers were written. */
  void awaitInputEnd() throws InterruptedException {
    inputEnded.await();
  }
}
