package dev.rea.mcp;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The protocol stream: counts the line feeds written through it, that is the JSON-RPC messages
 * written (each message is one line, its own line feeds escaped). At end of input the server
 * waits until every message it queued has been written before letting the SDK shut down.
 */
final class CountingOutputStream extends FilterOutputStream {
  private long lines;

  CountingOutputStream(OutputStream out) {
    super(out);
  }

  @Override
  public void write(int b) throws IOException {
    out.write(b);
    if (b == '\n') {
      counted(1);
    }
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
    int n = 0;
    for (int i = off; i < off + len; i++) {
      if (b[i] == '\n') {
        n++;
      }
    }
    if (n > 0) {
      counted(n);
    }
  }

  private synchronized void counted(int n) {
    lines += n;
    notifyAll();
  }

  /** @return lines written so far */
  synchronized long lines() {
    return lines;
  }

  /** Waits until at least {@code target} lines were written, or the deadline (nanoTime) passes. */
  synchronized boolean awaitLines(long target, long deadlineNanos) throws InterruptedException {
    while (lines < target) {
      long left = deadlineNanos - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return true;
  }
}
