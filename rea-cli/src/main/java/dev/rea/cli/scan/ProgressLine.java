package dev.rea.cli.scan;

import java.io.PrintWriter;

/**
 * The scan's progress on a terminal's stderr: one line ({@link Tally#progress}: units, files per
 * second, bytes read) redrawn in place with {@code \r} four times a second, clipped to the
 * terminal's width less one column so it never wraps, and cleared when the scan ends, before the
 * closing count. Drawn by a daemon thread.
 */
public final class ProgressLine implements AutoCloseable {
  private static final long PERIOD_MILLIS = 250;

  private final PrintWriter err;
  private final Tally tally;
  private final int width;
  private final Thread thread;
  private volatile boolean running = true;
  private boolean drawn;

  private ProgressLine(PrintWriter err, Tally tally, int width) {
    this.err = err;
    this.tally = tally;
    this.width = width;
    this.thread = new Thread(this::loop, "rea-scan-progress");
    this.thread.setDaemon(true);
  }

  /**
   * Starts drawing.
   *
   * @param err the terminal's stderr (written raw: the text is REA's own)
   * @param tally what to show
   * @param columns the terminal's width (at least 20; the command's {@code Terminal.columns}:
   *     {@code COLUMNS}, else {@code stty size}, else 80)
   * @return the running progress line
   */
  public static ProgressLine start(PrintWriter err, Tally tally, int columns) {
    ProgressLine p = new ProgressLine(err, tally, Math.max(20, columns));
    p.thread.start();
    return p;
  }

  /** @return {@code text} cut to fit {@code width - 1} columns (the text is ASCII) */
  static String clip(String text, int width) {
    return text.length() <= width - 1 ? text : text.substring(0, width - 1);
  }

  private void loop() {
    while (running) {
      try {
        Thread.sleep(PERIOD_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
      draw();
    }
  }

  private synchronized void draw() {
    if (!running) {
      return;
    }
    String text = clip(tally.progress(), width);
    err.print("\r" + text + " ".repeat(width - 1 - text.length()) + "\r" + text);
    err.flush();
    drawn = true;
  }

  /** Stops drawing and clears the line. */
  @Override
  public void close() {
    synchronized (this) {
      running = false;
      if (drawn) {
        err.print("\r" + " ".repeat(width - 1) + "\r");
        err.flush();
      }
    }
    thread.interrupt();
  }
}
