package dev.rea.mcp;

import dev.rea.core.Rea;
import dev.rea.core.options.Limits;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * REA's MCP server over one pair of streams (CONTRACT section 7), on the MCP Java SDK 2.1.0 sync
 * server with concurrent dispatch (each {@code tools/call} on a worker thread).
 *
 * <p>Below the SDK: {@link InboundFilter} hands the SDK only well-formed JSON-RPC lines of at most
 * {@link Config#lineCap} bytes (answering the rest itself), reports requests and {@code
 * notifications/cancelled} to {@link ServerState}, and holds back end-of-input until pending
 * answers are written; {@link SerializingTransportProvider} serialises outbound messages. Input
 * validation by the SDK is off: handlers check their arguments and answer with REA's error object.
 */
public final class ReaMcpServer {
  /**
   * Default inbound line cap: 16 MiB. Inline Evidence ({@code inspect_analysis_view} source {@code
   * inline}) and inline bundles arrive in one line, and the SDK builds a tree of maps, lists and
   * strings from every line it is given, at 15 to 35 times the line's size (a 64 MB line of
   * small objects took 2.1 GB). 16 MiB holds the Evidence of a header of about 60,000 tensors;
   * larger Evidence is passed by path (an evidence-file source, or import_evidence_bundle's
   * path), which the importer reads up to its 64 MiB bound without the SDK's tree.
   */
  public static final int DEFAULT_LINE_CAP = 16 << 20;

  /**
   * The tools this server lists ({@code tools/list}, CONTRACT section 7), in that order, joined
   * by {@code ", "}: for a front end's help text, which can then not fall behind the server.
   */
  public static final String TOOL_NAMES =
      ReaTools.INSPECT
          + ", "
          + SetTool.NAME
          + ", "
          + ReaTools.VIEW
          + ", "
          + ReaTools.IMPORT
          + ", "
          + ReaTools.RELEASE;

  /** Server name in {@code initialize}. */
  public static final String NAME = "rea";

  /** Server settings. */
  public static final class Config {
    UnaryOperator<Rea.Builder> frontDoor = UnaryOperator.identity();
    int lineCap = DEFAULT_LINE_CAP;
    long retainedBudget = Limits.DEFAULT_RETAINED_BUDGET_BYTES;
    Duration drainTimeout = Duration.ofSeconds(10);
    String version = "development build";

    /** @return the standard settings */
    public static Config standard() {
      return new Config();
    }

    /**
     * Adjusts the front door before it is built (tests: an inspector with stub readers, limits or
     * hooks in the full-hash loop).
     */
    public Config frontDoor(UnaryOperator<Rea.Builder> value) {
      this.frontDoor = Objects.requireNonNull(value);
      return this;
    }

    /** Sets the inbound line cap in bytes. */
    public Config lineCap(int value) {
      this.lineCap = value;
      return this;
    }

    /** Sets the retained-Evidence budget in bytes (default 32 MiB, the specification's). */
    public Config retainedBudget(long value) {
      this.retainedBudget = value;
      return this;
    }

    /** Sets how long end-of-input waits for pending answers. */
    public Config drainTimeout(Duration value) {
      this.drainTimeout = Objects.requireNonNull(value);
      return this;
    }

    /** Sets the version reported in {@code initialize}. */
    public Config version(String value) {
      this.version = Objects.requireNonNull(value);
      return this;
    }
  }

  private final Config config;

  /** @param config the settings */
  public ReaMcpServer(Config config) {
    this.config = Objects.requireNonNull(config, "config");
  }

  /**
   * Serves one MCP session over {@code in}/{@code out} until {@code in} ends.
   *
   * @param in the client's messages (standard input)
   * @param out the protocol stream (the real standard output); nothing else may write to it
   * @throws InterruptedException if interrupted while waiting for the session to end
   */
  public void serve(InputStream in, OutputStream out) throws InterruptedException {
    McpJsonMapper json = McpJsonDefaults.getMapper();
    ServerState state = new ServerState(config.drainTimeout);
    CountingOutputStream protocol = new CountingOutputStream(out);
    state.output(protocol);
    ProtocolWriter writer = new ProtocolWriter(protocol, state::onWrittenDirectly);
    InboundFilter filter = new InboundFilter(in, writer, state, config.lineCap);
    // The SDK counts characters; a line that passed the filter has at most lineCap of them.
    StdioServerTransportProvider sdk =
        new StdioServerTransportProvider(json, filter, protocol, config.lineCap + 16);
    SerializingTransportProvider transport = new SerializingTransportProvider(sdk, state::onQueued);
    Rea rea =
        config
            .frontDoor
            .apply(
                Rea.builder()
                    .keyNotices(
                        new Rea.KeyNotices() {
                          @Override
                          public void problem(String problem) {
                            Log.warn("key ring: " + problem);
                          }
                        }))
            .build();
    EvidenceDesk desk = new EvidenceDesk(rea, config.retainedBudget);
    ReaTools tools = new ReaTools(json, rea, state.inspections, desk);
    McpSyncServer server =
        McpServer.sync(transport)
            .serverInfo(NAME, config.version)
            .instructions(Descriptions.SERVER)
            .capabilities(ServerCapabilities.builder().tools(false).logging().build())
            .immediateExecution(false)
            .validateToolInputs(false)
            .tools(tools.specifications())
            .build();
    try {
      state.awaitInputEnd();
    } finally {
      server.closeGracefully();
    }
  }
}
