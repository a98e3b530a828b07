package dev.rea.mcp;

import dev.rea.core.inspect.ModelInspector;

/**
 * The real server ({@link McpMain#serveStdio}) with test settings taken from system properties,
 * started as a separate process by the end-to-end tests:
 *
 * <ul>
 *   <li>{@code rea.test.hashDelayMillis}: sleep this long before each 1 MiB read of a full hash,
 *       so a hash stays running while the test acts;
 *   <li>{@code rea.test.lineCap}: the inbound line cap in bytes;
 *   <li>{@code rea.test.retainedBudget}: the retained-Evidence budget in bytes.
 * </ul>
 */
public final class TestServerMain {
  private TestServerMain() {}

  public static void main(String[] args) throws Exception {
    ReaMcpServer.Config config = ReaMcpServer.Config.standard().version("test");
    long delay = Long.getLong("rea.test.hashDelayMillis", 0);
    if (delay > 0) {
      config.testHook(
          new ModelInspector.Listener() {
            @Override
            public void beforeHashRead(long offset) {
              try {
                Thread.sleep(delay);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
          });
    }
    Integer cap = Integer.getInteger("rea.test.lineCap");
    if (cap != null) {
      config.lineCap(cap);
    }
    Long budget = Long.getLong("rea.test.retainedBudget");
    if (budget != null) {
      config.retainedBudget(budget);
    }
    System.exit(McpMain.serveStdio(config));
  }
}
