package dev.rea.mcp;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;

/**
 * {@code rea mcp}: serves MCP over standard input and output until standard input ends
 * (CONTRACT sections 1 and 7). Nothing but protocol reaches standard output: the real stdout is
 * kept for JSON-RPC and {@code System.out} is pointed at standard error before anything else
 * runs; SLF4J (slf4j-simple) logs to standard error at WARN unless configured otherwise.
 */
public final class McpMain {
  private McpMain() {}

  /** Entry point when run directly ({@code java -cp ... dev.rea.mcp.McpMain}). */
  public static void main(String[] args) throws InterruptedException {
    System.exit(serveStdio(ReaMcpServer.Config.standard()));
  }

  /**
   * Serves one session on the process's standard streams.
   *
   * @param config server settings
   * @return the exit status: 0 when the input ended
   * @throws InterruptedException if interrupted while serving
   */
  public static int serveStdio(ReaMcpServer.Config config) throws InterruptedException {
    OutputStream protocol = protocolStdout();
    configureLogging();
    new ReaMcpServer(config).serve(System.in, protocol);
    return 0;
  }

  /**
   * Takes the real standard output for the protocol and points {@code System.out} at standard
   * error, so no stray print can corrupt the JSON-RPC stream.
   *
   * @return the protocol stream
   */
  public static OutputStream protocolStdout() {
    OutputStream protocol =
        new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16);
    System.out.flush();
    System.setOut(System.err);
    return protocol;
  }

  /** Sets slf4j-simple to log to standard error at WARN, unless set on the command line. */
  public static void configureLogging() {
    setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    setIfAbsent("org.slf4j.simpleLogger.logFile", "System.err");
    setIfAbsent("org.slf4j.simpleLogger.showDateTime", "true");
  }

  private static void setIfAbsent(String key, String value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, value);
    }
  }
}
