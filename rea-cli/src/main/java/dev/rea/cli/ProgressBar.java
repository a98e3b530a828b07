package dev.rea.cli;

import java.io.PrintWriter;

/**
 * A one-line progress bar for the full hash, redrawn in place on a terminal's stderr at most
 * ten times a second: percentage, bytes done of total, throughput and an estimate of time left.
 *
 * <p>The line always fits the terminal ({@link Terminal#columns}), one column short of its width
 * (a character in the last column makes some terminals wrap), so a carriage return brings the
 * cursor back to its start and each redraw replaces it: a line that wrapped would leave its
 * first part behind on every update. On a narrow terminal the bar gets shorter (from 30 cells
 * down to 10), then the time left, the throughput and the byte counts are left out, in that
 * order; as a last resort the line is cut.
 */
final class ProgressBar {
  private static final int WIDTH = 30;
  private static final int LEAST_WIDTH = 10;
  private static final long REDRAW_NANOS = 100_000_000L;

  private final PrintWriter err;
  private final String label;
  private final int columns;
  private final long startNanos = System.nanoTime();
  private long lastDraw;
  private boolean drawn;

  /**
   * @param err the terminal's stream
   * @param label what is being done ("hashing")
   * @param columns the terminal's width
   */
  ProgressBar(PrintWriter err, String label, int columns) {
    this.err = err;
    this.label = label;
    this.columns = columns;
  }

  /** Updates the bar; cheap when called often. */
  void update(long done, long total) {
    long now = System.nanoTime();
    if (done < total && now - lastDraw < REDRAW_NANOS) {
      return;
    }
    lastDraw = now;
    double fraction = total <= 0 ? 1.0 : Math.min(1.0, (double) done / total);
    double seconds = (now - startNanos) / 1e9;
    double rate = seconds > 0 ? done / seconds : 0;
    String eta = rate > 0 && done < total ? formatSeconds((total - done) / rate) + " left" : "";
    err.print("\r" + line(fraction, done, total, rate, eta) + "\033[K");
    err.flush();
    drawn = true;
  }

  /**
   * @return the visible text of the bar for these values, at most {@code columns - 1} characters
   */
  String line(double fraction, long done, long total, double rate, String eta) {
    String percent = String.format("%5.1f%%", fraction * 100);
    String amounts = Sizes.human(done) + " / " + Sizes.human(total);
    String speed = Sizes.human((long) rate) + "/s";
    // The richest tail that leaves the bar at least its least width.
    String[] tails = {
      " " + percent + " " + amounts + ", " + speed + " " + eta,
      " " + percent + " " + amounts + ", " + speed,
      " " + percent + " " + amounts,
      " " + percent
    };
    int room = columns - 1;
    for (String tail : tails) {
      int bar = Math.min(WIDTH, room - label.length() - 3 - tail.length());
      if (bar >= LEAST_WIDTH || tail == tails[tails.length - 1]) {
        String line = label + " [" + cells(fraction, Math.max(0, bar)) + "]" + tail;
        return line.length() <= room ? line : line.substring(0, Math.max(0, room));
      }
    }
    throw new AssertionError("unreachable");
  }

  private static String cells(double fraction, int width) {
    int filled = (int) Math.round(fraction * width);
    return "#".repeat(filled) + " ".repeat(width - filled);
  }

  /** Ends the line, if anything was drawn. */
  void finish() {
    if (drawn) {
      err.print("\r\033[K");
      err.flush();
      drawn = false;
    }
  }

  private static String formatSeconds(double s) {
    long t = Math.round(s);
    if (t < 60) {
      return t + "s";
    }
    return (t / 60) + "m" + String.format("%02d", t % 60) + "s";
  }
}
