package dev.rea.mcp;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import reactor.core.publisher.Mono;

/**
 * Wraps the SDK's stdio transport provider so that outbound messages are handed to the SDK one at
 * a time. SDK 2.1.0's stdio transport queues outbound messages in a Reactor unicast sink; with
 * many handler threads emitting at once (responses and progress notifications), the emission can
 * fail with {@code FAIL_NON_SERIALIZED}, which loses messages or ends the session ({@code
 * shared/notes/mcp-java-sdk.md} section 5, pitfall 1). Each {@code sendMessage} here enqueues the
 * message under one lock and waits until the SDK's Mono completes (it completes as soon as the
 * message is queued, not written).
 *
 * <p>The wrapper also reports every message it passes on, so the server knows which requests are
 * answered and how many lines are still to be written.
 */
final class SerializingTransportProvider implements McpServerTransportProvider {
  private final McpServerTransportProvider delegate;
  private final Consumer<McpSchema.JSONRPCMessage> onQueued;
  private final Object sendLock = new Object();

  /**
   * @param delegate the SDK provider
   * @param onQueued called with each message once the SDK has queued it for output
   */
  SerializingTransportProvider(
      McpServerTransportProvider delegate, Consumer<McpSchema.JSONRPCMessage> onQueued) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.onQueued = Objects.requireNonNull(onQueued, "onQueued");
  }

  @Override
  public void setSessionFactory(McpServerSession.Factory factory) {
    delegate.setSessionFactory(transport -> factory.create(new Serialized(transport)));
  }

  @Override
  public Mono<Void> notifyClients(String method, Object params) {
    return delegate.notifyClients(method, params);
  }

  @Override
  public Mono<Void> notifyClient(String sessionId, String method, Object params) {
    return delegate.notifyClient(sessionId, method, params);
  }

  @Override
  public Mono<Void> closeGracefully() {
    return delegate.closeGracefully();
  }

  @Override
  public void close() {
    delegate.close();
  }

  @Override
  public List<String> protocolVersions() {
    return delegate.protocolVersions();
  }

  private final class Serialized implements McpServerTransport {
    private final McpServerTransport transport;

    Serialized(McpServerTransport transport) {
      this.transport = transport;
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
      return Mono.defer(
          () -> {
            synchronized (sendLock) {
              try {
                transport.sendMessage(message).block();
              } catch (RuntimeException e) {
                return Mono.error(e);
              }
            }
            onQueued.accept(message);
            return Mono.empty();
          });
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
      return transport.unmarshalFrom(data, typeRef);
    }

    @Override
    public Mono<Void> closeGracefully() {
      return transport.closeGracefully();
    }

    @Override
    public void close() {
      transport.close();
    }

    @Override
    public List<String> protocolVersions() {
      return transport.protocolVersions();
    }
  }
}
