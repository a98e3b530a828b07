package dev.rea.mcp;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The server's own diagnostics, on standard error through SLF4J (never on the protocol stream). */
final class Log {
  private static final Logger LOG = LoggerFactory.getLogger("dev.rea.mcp");

  private Log() {}

  static void warn(String message) {
    LOG.warn(message);
  }

  static void warn(String message, Throwable t) {
    LOG.warn(message, t);
  }
}
