package dev.rea.mcp;

import dev.rea.core.internal.inspect.ModelInspector;

/**
 * The real server ({@link McpMain#serveStdio}) with test settings taken from system properties,
 * started as a separate process by the end-to-end tests:
 *
 * <ul>
 *   <li>{@code rea.test.hashDelayMillis}: sleep this long before each 1 MiB read of a full hash,
 *       so a hash stays running while the test acts;
 *   <li>{@code rea.test.strayStdout}: print to {@code System.out} during full hashes (it must
 *       reach stderr, never the protocol stream);
 *   <li>{@code rea.test.lineCap}: the inbound line cap in bytes;
 *   <li>{@code rea.test.retainedBudget}: the retained-Evidence budget in bytes.
 * </ul>
 */
public final class TestServerMain {
  private TestServerMain() {}

  public static void main(String[] args) throws Exception {
    ReaMcpServer.Config config = ReaMcpServer.Config.standard().version("test");
    long delay = Long.getLong("rea.test.hashDelayMillis", 0);
    boolean stray = Boolean.getBoolean("rea.test.strayStdout");
    ModelInspector.Listener hook =
        new ModelInspector.Listener() {
          @Override
          public void onHashProgress(long done, long total) {
            if (stray) {
              // What a careless library might do inside a handler: must land on stderr.
              System.out.println("stray output from a handler");
            }
          }

          @Override
          public void beforeHashRead(long offset) {
            if (delay > 0) {
              try {
                Thread.sleep(delay);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
          }
        };
    config.frontDoor(b -> b.inspector(ModelInspector.standard().withHook(hook)));
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
