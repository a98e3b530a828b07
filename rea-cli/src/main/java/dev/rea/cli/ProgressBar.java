package dev.rea.cli;

import java.io.PrintWriter;

/**
 * A one-line progress bar for the full hash, redrawn in place on a terminal's stderr at most
 * ten times a second: percentage, bytes done of total, throughput and an estimate of time left.
 */
final class ProgressBar {
  private static final int WIDTH = 30;
  private static final long REDRAW_NANOS = 100_000_000L;

  private final PrintWriter err;
  private final String label;
  private final long startNanos = System.nanoTime();
  private long lastDraw;
  private boolean drawn;

  ProgressBar(PrintWriter err, String label) {
    this.err = err;
    this.label = label;
  }

  /** Updates the bar; cheap when called often. */
  void update(long done, long total) {
    long now = System.nanoTime();
    if (done < total && now - lastDraw < REDRAW_NANOS) {
      return;
    }
    lastDraw = now;
    double fraction = total <= 0 ? 1.0 : Math.min(1.0, (double) done / total);
    int filled = (int) Math.round(fraction * WIDTH);
    double seconds = (now - startNanos) / 1e9;
    double rate = seconds > 0 ? done / seconds : 0;
    String eta = rate > 0 && done < total ? formatSeconds((total - done) / rate) + " left" : "";
    StringBuilder sb = new StringBuilder(100);
    sb.append('\r')
        .append(label)
        .append(" [")
        .append("#".repeat(filled))
        .append(" ".repeat(WIDTH - filled))
        .append("] ")
        .append(String.format("%5.1f%%", fraction * 100))
        .append(' ')
        .append(Sizes.human(done))
        .append(" / ")
        .append(Sizes.human(total))
        .append(", ")
        .append(Sizes.human((long) rate))
        .append("/s ")
        .append(eta)
        .append("\033[K");
    err.print(sb);
    err.flush();
    drawn = true;
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
