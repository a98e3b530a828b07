package dev.rea.mcp;

import dev.rea.core.error.ReaException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The input stream the SDK's stdio transport reads: it frames the real standard input into lines
 * and hands the SDK only lines that are single, well-formed JSON-RPC 2.0 messages. It works
 * around two SDK 2.1.0 defects ({@code shared/notes/mcp-java-sdk.md} section 5, pitfalls 2 and
 * 7): a line the SDK cannot deserialise ends its read loop, and so the session; and a line over
 * the SDK's size cap does the same.
 *
 * <ul>
 *   <li>Malformed JSON, or more than one JSON value on a line: answered with a JSON-RPC error
 *       -32700 (id null) and dropped.
 *   <li>Valid JSON that is not a JSON-RPC 2.0 request or notification the SDK can take (a batch,
 *       a scalar, a bad {@code jsonrpc}/{@code method}/{@code params}, an {@code id} that is not a
 *       string or a 64-bit integer, duplicate member names; see {@link LineScanner}): -32600,
 *       with the id when the line has exactly one usable id, else with id null; dropped.
 *   <li>A response (no {@code method}; {@code result} or {@code error}) the SDK cannot take:
 *       dropped with a warning on stderr, never answered.
 *   <li>A {@code tools/call} whose params cannot form a CallToolRequest: -32602, dropped.
 *   <li>Before the first {@code initialize} request: {@code ping} is answered here with an empty
 *       result (the SDK would hold it until the session is initialized); any other request is
 *       answered -32600 (the SDK would hold it, unanswered, for good if no {@code initialize}
 *       followed); notifications and responses pass.
 *   <li>A line of more than {@link #lineCap} bytes (excluding the line feed): its bytes are
 *       scanned as they stream past, without being kept, to find its id and method; a {@code
 *       tools/call} is answered with a tool result carrying the REA error object ({@code
 *       resource_exhausted} / {@code request_size}), any other request with -32600; a
 *       notification is dropped.
 *   <li>A line that opens more JSON objects and arrays than {@link #FREE_CONTAINERS} plus one per
 *       {@link #BYTES_PER_CONTAINER} bytes (the SDK would build a map or list for each): answered
 *       as a line over the size limit is ({@code resource_exhausted} / {@code request_size} for a
 *       {@code tools/call}, -32600 for another request), never handed to the SDK.
 *   <li>A line starting with a UTF-8 byte order mark: -32700 (the SDK's parser does not skip it).
 *   <li>Blank lines are dropped; a carriage return inside a line is JSON whitespace and becomes a
 *       space (the SDK would split the line there); a final line without a line feed still
 *       counts.
 * </ul>
 *
 * <p>Every accepted request and cancellation is reported to the {@link Listener} before the SDK
 * can see it; a {@code tools/call} of {@link #INSPECT_TOOL} is rewritten to carry its own
 * request id in {@code params._meta["dev.rea/request_id"]}, so that its handler can be matched
 * with a later {@code notifications/cancelled}. At end of input the listener decides when the SDK
 * sees the end ({@link Listener#onEndOfInput()} may wait for pending answers).
 *
 * <p>Used by one thread, the SDK's stdio reader.
 */
final class InboundFilter extends InputStream {
  /** The tool whose requests carry their id in {@code _meta}. */
  static final String INSPECT_TOOL = "inspect_model_artifact";

  /** The set inspection tool (CONTRACT section 9): an inspection like {@link #INSPECT_TOOL}. */
  static final String SET_TOOL = "inspect_model_set";

  /** @return whether the tool runs an inspection (holds the slot, can be cancelled) */
  static boolean inspects(@Nullable String tool) {
    return INSPECT_TOOL.equals(tool) || SET_TOOL.equals(tool);
  }

  /** The MCP lifecycle's first request. */
  static final String INITIALIZE = "initialize";

  /** The notification that ends the MCP initialization phase. */
  static final String INITIALIZED = "notifications/initialized";

  /**
   * Requests after {@code initialize} and before {@link #INITIALIZED} that are handed on: the SDK
   * holds them until that notification arrives, so they are not counted as unanswered (which
   * would stop reading before it) but capped here instead.
   */
  static final int MAX_HELD_BEFORE_INITIALIZED = 128;

  /** The one request MCP allows before {@code initialize}. */
  static final String PING = "ping";

  /** The {@code _meta} key holding the request's id key ({@link RpcId#key()}). */
  static final String REQUEST_ID_META = "dev.rea/request_id";

  /** Callbacks, all on the reading thread. */
  interface Listener {
    /** A request the SDK is about to receive. */
    void onRequest(RpcId id, String method, @Nullable String toolName);

    /** {@code notifications/cancelled} for {@code requestId} (the SDK ignores it). */
    void onCancel(RpcId requestId);

    /** The real input ended; return when the SDK may see the end. */
    void onEndOfInput();

    /** {@code notifications/initialized} after {@code initialize} is about to reach the SDK. */
    default void onInitialized() {}

    /**
     * Called before each line is read: returns once the server may take another message, so that
     * a client that sends without reading the answers is made to wait instead of filling memory.
     *
     * @throws InterruptedIOException when interrupted while waiting
     */
    default void awaitRoom() throws InterruptedIOException {}
  }

  private final InputStream in;
  private final ProtocolWriter out;
  private final Listener listener;
  private final int lineCap;
  private final byte[] chunk = new byte[64 * 1024];
  private int chunkPos;
  private int chunkEnd;
  private boolean inputEnded;
  private boolean endReported;
  /** Whether an {@code initialize} request was handed to the SDK. */
  private boolean initializeSeen;
  /** Whether {@link #INITIALIZED} followed it. */
  private boolean initializedSeen;
  /** Requests handed on between the two. */
  private int heldBeforeInitialized;

  /** A line buffer grown beyond this is dropped before the next line. */
  private static final int SHRINK_ABOVE = 1 << 20;

  private byte[] line = new byte[8192];
  private int lineLength;

  private byte @Nullable [] ready;
  private int readyPos;

  /**
   * @param in the real standard input
   * @param out writes answers to lines the SDK never sees
   * @param listener request, cancellation and end-of-input callbacks
   * @param lineCap the longest accepted line in bytes, without its line feed
   */
  InboundFilter(InputStream in, ProtocolWriter out, Listener listener, int lineCap) {
    this.in = Objects.requireNonNull(in, "in");
    this.out = Objects.requireNonNull(out, "out");
    this.listener = Objects.requireNonNull(listener, "listener");
    if (lineCap < 1024) {
      throw new IllegalArgumentException("lineCap too small: " + lineCap);
    }
    this.lineCap = lineCap;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    while (ready == null || readyPos == ready.length) {
      ready = null;
      if (!nextAcceptedLine()) {
        if (!endReported) {
          endReported = true;
          listener.onEndOfInput();
        }
        return -1;
      }
    }
    int n = Math.min(len, ready.length - readyPos);
    System.arraycopy(ready, readyPos, b, off, n);
    readyPos += n;
    return n;
  }

  @Override
  public int available() {
    return ready == null ? 0 : ready.length - readyPos;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  /** Reads lines until one is accepted (into {@link #ready}); false at end of input. */
  private boolean nextAcceptedLine() throws IOException {
    while (true) {
      if (chunkPos == chunkEnd && inputEnded) {
        return false;
      }
      listener.awaitRoom();
      LineScanner scanner = new LineScanner();
      lineLength = 0;
      if (line.length > SHRINK_ABOVE) {
        // Do not keep a large inline-Evidence buffer alive between messages.
        line = new byte[8192];
      }
      long total = 0;
      boolean ended = false;
      while (!ended) {
        if (chunkPos == chunkEnd) {
          int n = inputEnded ? -1 : in.read(chunk, 0, chunk.length);
          if (n < 0) {
            inputEnded = true;
            if (total == 0) {
              return false;
            }
            break;
          }
          chunkPos = 0;
          chunkEnd = n;
        }
        int start = chunkPos;
        int stop = start;
        while (stop < chunkEnd && chunk[stop] != '\n') {
          stop++;
        }
        ended = stop < chunkEnd;
        int segment = stop - start;
        scanner.feed(chunk, start, segment);
        if (total + segment <= lineCap) {
          append(chunk, start, segment);
        }
        total += segment;
        chunkPos = ended ? stop + 1 : stop;
      }
      scanner.finish();
      byte[] accepted;
      try {
        accepted = judge(scanner, total);
      } catch (RuntimeException e) {
        // A defect here must not end the SDK's read loop (and so the session).
        Log.warn("internal error handling an inbound line", e);
        RpcId id = scanner.id();
        if (id != null && scanner.kind() == LineScanner.Kind.REQUEST) {
          out.rpcError(id, -32603, "Internal error: " + e);
        }
        accepted = null;
      }
      if (accepted != null) {
        ready = accepted;
        readyPos = 0;
        return true;
      }
    }
  }

  private void append(byte[] src, int off, int len) {
    if (lineLength + len > line.length) {
      int want = Math.max(line.length * 2, lineLength + len);
      line = Arrays.copyOf(line, Math.min(want, lineCap + 1));
    }
    System.arraycopy(src, off, line, lineLength, len);
    lineLength += len;
  }

  /**
   * Objects and arrays a line may open: {@value #FREE_CONTAINERS}, plus one per {@value
   * #BYTES_PER_CONTAINER} bytes. The SDK builds a map or list for each (about 100 to 200 bytes
   * of heap), so a line of empty arrays ({@code [],} is 3 bytes) would cost 40 to 50 times its
   * size: 2.75 GB for a 60 MB ping. REA's Evidence opens one per 110 to 125 bytes (the records of
   * the benchmark corpus' Llama-3-like, MoE-like and 20,439-tensor files) and a tensor row at
   * least one per 40 bytes, well within the limit.
   */
  static final long FREE_CONTAINERS = 4096;

  /** See {@link #FREE_CONTAINERS}. */
  static final long BYTES_PER_CONTAINER = 24;

  /** @return the bytes to hand the SDK (with the line feed), or null when the line was answered */
  private byte @Nullable [] judge(LineScanner s, long total) {
    LineScanner.Kind kind = s.kind();
    if (refusedForSize(s, kind, total)) {
      return null;
    }
    switch (kind) {
      case BLANK -> {
        return null;
      }
      case MALFORMED -> {
        out.rpcError(null, -32700, "Parse error: " + s.problem());
        return null;
      }
      case INVALID -> {
        out.rpcError(s.id(), -32600, "Invalid Request: " + s.problem());
        return null;
      }
      case BAD_RESPONSE -> {
        Log.warn("dropped an inbound response the SDK cannot take: " + s.problem());
        return null;
      }
      case REQUEST -> {
        return request(s);
      }
      case NOTIFICATION -> {
        RpcId target = s.cancelRequestId();
        if ("notifications/cancelled".equals(s.method()) && target != null) {
          listener.onCancel(target);
          // Handled here; the SDK has no handler for it and would only log a warning.
          return null;
        }
        if (INITIALIZED.equals(s.method()) && initializeSeen) {
          initializedSeen = true;
          listener.onInitialized();
        }
        return forward();
      }
      case RESPONSE -> {
        return forward();
      }
    }
    return null;
  }

  /** A request the scanner accepted: handed on, or answered here before initialization. */
  private byte @Nullable [] request(LineScanner s) {
    RpcId id = Objects.requireNonNull(s.id());
    String method = Objects.requireNonNull(s.method());
    if (!initializeSeen) {
      if (INITIALIZE.equals(method)) {
        initializeSeen = true;
      } else if (PING.equals(method)) {
        // The SDK would hold a ping until the session is initialized; MCP allows pings at any
        // time, so it is answered here.
        out.emptyResult(id);
        return null;
      } else {
        out.rpcError(
            id,
            -32600,
            "Invalid Request: the server is not initialized; the first request must be"
                + " \"initialize\" (only \"ping\" is answered before it), not "
                + quote(method));
        return null;
      }
    }
    if (!initializedSeen && ++heldBeforeInitialized > MAX_HELD_BEFORE_INITIALIZED) {
      // The SDK holds these until notifications/initialized: bounded, and never a reason
      // to stop reading (that notification must still get through).
      out.rpcError(
          id,
          -32600,
          "Invalid Request: the session is not initialized yet; send"
              + " \"notifications/initialized\" (at most " + MAX_HELD_BEFORE_INITIALIZED
              + " requests are held until it arrives)");
      return null;
    }
    String tool = null;
    if ("tools/call".equals(method)) {
      String problem = s.toolCallProblem();
      if (problem != null) {
        out.rpcError(id, -32602, "Invalid params: " + problem);
        return null;
      }
      tool = s.toolName();
    }
    listener.onRequest(id, method, tool);
    if (inspects(tool)) {
      return MetaInjector.withRequestId(line, lineLength, id);
    }
    return forward();
  }

  /**
   * Answers a line too large for the SDK: over the byte limit, past a JSON read limit, or with
   * too many containers.
   *
   * @return whether the line was answered here (and must not reach the SDK)
   */
  private boolean refusedForSize(LineScanner s, LineScanner.Kind scanned, long total) {
    LineScanner.Kind kind = scanned;
    if (s.overLimits() && s.id() != null && s.method() != null) {
      // Valid as far as it was read, and too large: answered to its id, as a request.
      kind = LineScanner.Kind.REQUEST;
    }
    if (total > lineCap) {
      tooLarge(s, kind, total);
      return true;
    }
    if (s.overLimits()) {
      refuse(
          s,
          kind,
          "the message is over a JSON read limit ("
              + Failures.readLimit(String.valueOf(s.problem()))
              + "): "
              + s.problem(),
          Failures.requestOverReadLimits(String.valueOf(s.problem())));
      return true;
    }
    long containerCap = FREE_CONTAINERS + total / BYTES_PER_CONTAINER;
    if (kind != LineScanner.Kind.MALFORMED && s.containers() > containerCap) {
      tooDense(s, kind, total, containerCap);
      return true;
    }
    return false;
  }

  private void tooLarge(LineScanner s, LineScanner.Kind kind, long total) {
    refuse(
        s,
        kind,
        "the message is " + total + " bytes, over the " + lineCap + "-byte line limit",
        Failures.requestTooLarge(total, lineCap));
  }

  private void tooDense(LineScanner s, LineScanner.Kind kind, long total, long cap) {
    refuse(
        s,
        kind,
        "the message opens "
            + s.containers()
            + " JSON objects and arrays, over the limit of "
            + cap
            + " for a message of "
            + total
            + " bytes",
        Failures.requestTooDense(s.containers(), cap, total));
  }

  /**
   * Answers a line that is not handed to the SDK because of its size or shape: a {@code
   * tools/call} gets {@code toolError} as a tool result, another request -32600, a malformed line
   * -32700, a notification or response nothing (a warning on stderr).
   *
   * @param what why, for the JSON-RPC error message and the warning
   */
  private void refuse(LineScanner s, LineScanner.Kind kind, String what, ReaException toolError) {
    RpcId id = s.id();
    if (kind == LineScanner.Kind.REQUEST && id != null && "tools/call".equals(s.method())) {
      out.toolError(id, toolError);
    } else if (kind == LineScanner.Kind.REQUEST && id != null) {
      out.rpcError(id, -32600, "Invalid Request: " + what);
    } else if (kind == LineScanner.Kind.MALFORMED) {
      out.rpcError(null, -32700, "Parse error: " + what + ", and not valid JSON");
    } else if (kind == LineScanner.Kind.INVALID) {
      out.rpcError(id, -32600, "Invalid Request: " + what);
    } else {
      // A notification or a response (also one the SDK could not take) gets no answer.
      Log.warn("dropped an inbound " + kind.name().toLowerCase(java.util.Locale.ROOT) + ": " + what);
    }
  }

  private static String quote(String method) {
    String m = method.length() > 64 ? method.substring(0, 64) + "..." : method;
    return "\"" + m + "\"";
  }

  private byte[] forward() {
    byte[] b = Arrays.copyOf(line, lineLength + 1);
    for (int i = 0; i < lineLength; i++) {
      if (b[i] == '\r') {
        b[i] = ' ';
      }
    }
    b[lineLength] = '\n';
    return b;
  }
}
