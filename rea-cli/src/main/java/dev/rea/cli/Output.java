package dev.rea.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.StandardCharsets;

/** Writes JSON documents to the command's stdout: one document, then a newline. */
final class Output {
  private Output() {}

  /** Writes one UTF-8 JSON document to a stream. */
  interface JsonWriting {
    /** Writes the document to {@code out}, without flushing or closing it. */
    void writeTo(OutputStream out) throws IOException;
  }

  /**
   * Prints a JSON document as one line, written straight to stdout as it is made (a bundle of
   * megabytes is never held whole).
   */
  static void printJson(PrintWriter out, JsonWriting json) {
    OutputStream bytes = bytes(out);
    try {
      json.writeTo(bytes);
      bytes.write('\n');
      bytes.flush();
    } catch (IOException | UncheckedIOException e) {
      lost(out);
    }
  }

  /**
   * Records that stdout lost a document (a full device, a closed descriptor): the writer then
   * reports an error, as it does for text it failed to print, and {@code ReaMain.outputChecked}
   * turns the run's status into {@code execution_failure}. A broken pipe never gets here (the
   * process has exited with 141).
   */
  private static void lost(PrintWriter out) {
    if (out instanceof Stdout s) {
      s.lost();
    }
  }

  /** Prints UTF-8 JSON bytes as one line. */
  static void printJson(PrintWriter out, byte[] json) {
    printJson(out, stream -> stream.write(json));
  }

  /**
   * A byte stream onto the command's writer, for UTF-8 documents of megabytes (a set bundle is
   * 23 MB for 163 members): the process's own stdout ({@link Stdout}) is handed over as bytes,
   * after what was printed before is flushed; another writer (a test's) gets the bytes decoded.
   * Close nothing: flush the stream when done.
   */
  static OutputStream bytes(PrintWriter out) {
    if (out instanceof Stdout s) {
      return s.bytes();
    }
    return new WriterStream(out);
  }

  /**
   * The process's stdout as a {@link PrintWriter} (UTF-8, flushed on each line) that also gives
   * its byte stream to {@link #bytes}: decoding 23 MB of UTF-8 into characters only to encode them
   * back took a quarter of a set bundle's writing time.
   */
  static final class Stdout extends PrintWriter {
    private final OutputStream raw;

    Stdout(OutputStream raw) {
      super(new OutputStreamWriter(raw, StandardCharsets.UTF_8), true);
      this.raw = raw;
    }

    /** Marks the stream as failed: {@link #checkError()} is true from now on. */
    void lost() {
      setError();
    }

    /** @return the byte stream, after flushing the characters printed so far */
    OutputStream bytes() {
      flush();
      return new OutputStream() {
        @Override
        public void write(int b) throws IOException {
          raw.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          raw.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
          raw.flush();
        }
      };
    }
  }

  /** UTF-8 bytes into a writer, without holding a whole document as text. */
  private static final class WriterStream extends OutputStream {
    private final PrintWriter out;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder();
    private final ByteBuffer pending = ByteBuffer.allocate(8192);
    private final CharBuffer chars = CharBuffer.allocate(8192);

    WriterStream(PrintWriter out) {
      this.out = out;
    }

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      while (len > 0) {
        int n = Math.min(len, pending.remaining());
        pending.put(b, off, n);
        off += n;
        len -= n;
        drain();
      }
    }

    private void drain() {
      pending.flip();
      decoder.decode(pending, chars, false);
      chars.flip();
      out.append(chars);
      chars.clear();
      pending.compact();
    }

    @Override
    public void flush() {
      drain();
      out.flush();
    }
  }
}
