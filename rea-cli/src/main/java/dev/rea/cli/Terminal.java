package dev.rea.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether stderr is a terminal. The launcher passes {@code -Drea.stderr.tty=true|false} (from
 * the shell's {@code [ -t 2 ]}); without it, Linux's {@code /proc/self/fd/2} link is examined.
 * Progress goes to stderr only when it is a terminal (CONTRACT section 1).
 */
final class Terminal {
  private Terminal() {}

  /** @return true when stderr is a terminal */
  static boolean stderrIsTerminal() {
    String prop = System.getProperty("rea.stderr.tty");
    if (prop != null && !prop.isEmpty()) {
      return Boolean.parseBoolean(prop);
    }
    return isTerminal(2);
  }

  /** @return true when stdin is a terminal (Linux {@code /proc/self/fd/0}; false elsewhere) */
  static boolean stdinIsTerminal() {
    return isTerminal(0);
  }

  private static boolean isTerminal(int fd) {
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return false;
    }
  }
}
