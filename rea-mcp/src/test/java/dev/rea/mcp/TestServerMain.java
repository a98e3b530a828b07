package dev.rea.mcp;

import dev.rea.core.Limits;
import dev.rea.core.detect.DetectedFormat;
import dev.rea.core.inspect.FormatReader;
import dev.rea.core.inspect.ModelInspector;
import dev.rea.core.io.FileAccess;
import java.time.Clock;
import java.util.EnumMap;
import java.util.Map;

/**
 * The real server ({@link McpMain#serveStdio}) with test settings taken from system properties,
 * started as a separate process by the end-to-end tests:
 *
 * <ul>
 *   <li>{@code rea.test.stubReaders} (default true): read GGUF with {@link TinyGguf.Reader}
 *       instead of the production reader;
 *   <li>{@code rea.test.hashDelayMillis}: sleep this long before each 1 MiB read of a full hash,
 *       so a hash stays running while the test acts;
 *   <li>{@code rea.test.lineCap}: the inbound line cap in bytes.
 * </ul>
 */
public final class TestServerMain {
  private TestServerMain() {}

  public static void main(String[] args) throws Exception {
    ReaMcpServer.Config config = ReaMcpServer.Config.standard().version("test");
    if (Boolean.parseBoolean(System.getProperty("rea.test.stubReaders", "true"))) {
      Map<DetectedFormat, FormatReader> readers = new EnumMap<>(DetectedFormat.class);
      readers.put(DetectedFormat.GGUF, new TinyGguf.Reader());
      readers.put(DetectedFormat.SAFETENSORS, new TinyGguf.Reader());
      config.inspector(
          new ModelInspector(Limits.defaults(), FileAccess.system(), Clock.systemUTC(), readers));
    }
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
    System.exit(McpMain.serveStdio(config));
  }
}
