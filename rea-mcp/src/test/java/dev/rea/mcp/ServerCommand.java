package dev.rea.mcp;

import dev.rea.core.testing.ScratchDirectories;
import io.modelcontextprotocol.client.transport.ServerParameters;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The command line that starts a server process from the test class path. Every server gets
 * {@code REA_HOME} set to one temporary directory per test JVM, so signing keys are created there
 * and never in the user's configuration directory; the directory is deleted when the test JVM
 * ends.
 */
final class ServerCommand {
  private static Path reaHome;

  private ServerCommand() {}

  /**
   * @return the REA home the test servers use (created on first call, deleted with the signing
   *     keys the servers made in it when the test JVM ends)
   */
  static synchronized Path reaHome() {
    if (reaHome == null) {
      reaHome = ScratchDirectories.createDeletedAtExit("rea-mcp-test-home");
    }
    return reaHome;
  }

  /** @return the environment entries added for a server process */
  static Map<String, String> env() {
    return Map.of("REA_HOME", reaHome().toString());
  }

  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** @return arguments after the java executable: JVM flags, -cp, main class */
  static List<String> args(Class<?> main, Map<String, String> props) {
    List<String> a = new ArrayList<>();
    a.add("-XX:+UseSerialGC");
    a.add("-XX:TieredStopAtLevel=1");
    a.add("-Xshare:auto");
    props.forEach((k, v) -> a.add("-D" + k + "=" + v));
    a.add("-cp");
    a.add(System.getProperty("java.class.path"));
    a.add(main.getName());
    return a;
  }

  static List<String> command(Class<?> main, Map<String, String> props) {
    List<String> c = new ArrayList<>();
    c.add(java());
    c.addAll(args(main, props));
    return c;
  }

  static ServerParameters parameters(Class<?> main, Map<String, String> props) {
    return ServerParameters.builder(java()).args(args(main, props)).env(env()).build();
  }
}
