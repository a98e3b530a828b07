package dev.rea.cli.scan;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;

/**
 * Where scan lines go: each line is written whole, by one caller at a time, and flushed to the
 * operating system before {@link #write} returns, so lines never interleave and a process killed
 * at any moment leaves only whole lines (at most a last line cut short, when one {@code write}
 * system call did not take it all: {@code --resume} drops such a line, see {@link
 * ResumeIndex}). Thread-safe.
 */
public interface LineSink extends AutoCloseable {
  /**
   * @param line one line, UTF-8, ending with {@code \n}
   * @throws IOException when it could not be written (the scan then fails)
   */
  void write(byte[] line) throws IOException;

  /**
   * Makes everything written durable where the sink can, and releases it.
   *
   * @throws IOException when that failed
   */
  @Override
  void close() throws IOException;

  /** Drops every line (when the scan's output is made from its units another way). */
  LineSink DISCARD =
      new LineSink() {
        @Override
        public void write(byte[] line) {}

        @Override
        public void close() {}
      };

  /**
   * A file's channel, positioned at its end: one {@code write} system call per line (the channel
   * loops only if the kernel took part of it). {@link #close} forces the file to the device.
   *
   * @param channel an open, writable channel, positioned where lines go
   * @return the sink
   */
  static LineSink of(FileChannel channel) {
    return new LineSink() {
      @Override
      public synchronized void write(byte[] line) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(line);
        while (b.hasRemaining()) {
          channel.write(b);
        }
      }

      @Override
      public synchronized void close() throws IOException {
        try {
          channel.force(false);
        } finally {
          channel.close();
        }
      }
    };
  }

  /**
   * The command's stdout: each line printed and flushed at once.
   *
   * @param out stdout
   * @return the sink; its writes fail once {@code out} reported an error (a full device)
   */
  static LineSink of(PrintWriter out) {
    return new LineSink() {
      @Override
      public synchronized void write(byte[] line) throws IOException {
        out.write(new String(line, StandardCharsets.UTF_8));
        out.flush();
        if (out.checkError()) {
          throw new IOException("stdout could not be written (a full device or a closed descriptor)");
        }
      }

      @Override
      public synchronized void close() {
        out.flush();
      }
    };
  }
}
