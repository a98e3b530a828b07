package dev.rea.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether stderr and stdout are terminals, and how wide the terminal is. The launcher passes
 * {@code -Drea.stderr.tty=true|false} and {@code -Drea.stdout.tty=true|false} (from the shell's
 * {@code [ -t 2 ]} and {@code [ -t 1 ]}); without them, Linux's {@code /proc/self/fd/N} links are
 * examined. Progress goes to stderr only when it is a terminal (CONTRACT section 1); readable
 * output on a terminal is laid out to its width ({@link Screen}).
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

  /**
   * Set by {@link ReaMain#main} only: stdout and stderr are this process's own descriptors, not
   * writers a caller (a test) passed to {@link ReaMain#run}, so asking whether they are terminals
   * makes sense.
   */
  static volatile boolean processStreams;

  /** Width assumed when a terminal's cannot be found, in columns. */
  static final int DEFAULT_COLUMNS = 80;

  private static volatile int ttyColumns;

  /**
   * @return true when stdout is this process's own and a terminal: the launcher passes {@code
   *     -Drea.stdout.tty=true|false} (from the shell's {@code [ -t 1 ]}); without it, Linux's
   *     {@code /proc/self/fd/1} link is examined
   */
  static boolean stdoutIsTerminal() {
    if (!processStreams) {
      return false;
    }
    String prop = System.getProperty("rea.stdout.tty");
    if (prop != null && !prop.isEmpty()) {
      return Boolean.parseBoolean(prop);
    }
    return isTerminal(1);
  }

  /**
   * The terminal's width: {@code COLUMNS} from the environment when it is a whole number from 20
   * to 10,000 (shells set it, though most do not export it), else what {@code stty size} says
   * for the controlling terminal ({@code /dev/tty}; one short process, run once), else {@value
   * #DEFAULT_COLUMNS}.
   *
   * @param env the environment
   * @return columns
   */
  static int columns(java.util.Map<String, String> env) {
    String c = env.get("COLUMNS");
    if (c != null && c.matches("[0-9]{2,5}")) {
      int n = Integer.parseInt(c);
      if (n >= 20 && n <= 10_000) {
        return n;
      }
    }
    if (ttyColumns == 0) {
      int n = sttyColumns();
      ttyColumns = n >= 20 && n <= 10_000 ? n : DEFAULT_COLUMNS;
    }
    return ttyColumns;
  }

  /** @return the columns {@code stty size} reports for {@code /dev/tty}, or 0 */
  private static int sttyColumns() {
    java.io.File tty = new java.io.File("/dev/tty");
    if (!tty.exists()) {
      return 0;
    }
    try {
      Process p =
          new ProcessBuilder("stty", "size")
              .redirectInput(tty)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      byte[] out = p.getInputStream().readNBytes(64);
      if (!p.waitFor(2, java.util.concurrent.TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return 0;
      }
      // "rows columns"
      String[] parts = new String(out, java.nio.charset.StandardCharsets.US_ASCII).trim().split(" ");
      return parts.length == 2 && parts[1].matches("[0-9]{1,5}") ? Integer.parseInt(parts[1]) : 0;
    } catch (IOException | RuntimeException e) {
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
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
