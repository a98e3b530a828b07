package dev.rea.cli;

import dev.rea.mcp.McpMain;
import dev.rea.mcp.ReaMcpServer;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code rea mcp}: the MCP server over standard input and output (CONTRACT sections 1 and 7).
 * Standard output carries only JSON-RPC; diagnostics go to standard error. Returns 0 when the
 * client closes standard input.
 */
@Command(
    name = "mcp",
    mixinStandardHelpOptions = true,
    versionProvider = ReaMain.Version.class,
    usageHelpAutoWidth = true,
    header = "Serve REA to agents over MCP (stdio).",
    description = {
      "Serves the Model Context Protocol over stdin/stdout for agents. Tools: "
          + ReaMcpServer.TOOL_NAMES
          + ". Register it with an MCP client as the command `rea mcp` (see "
          + "README). It exits when stdin is closed."})
public final class McpCommand implements Callable<Integer> {
  @Override
  public Integer call() throws InterruptedException {
    if (Terminal.stdinIsTerminal()) {
      // Started by hand: say what this is, since a server waiting for JSON-RPC prints nothing.
      System.err.println(
          "rea mcp: an MCP server on stdin/stdout, waiting for a client's JSON-RPC messages."
              + " Register it with an MCP client (see README); Ctrl-D stops it.");
    }
    String v = ReaMain.class.getPackage().getImplementationVersion();
    return McpMain.serveStdio(
        ReaMcpServer.Config.standard().version(v == null ? "development build" : v));
  }
}
