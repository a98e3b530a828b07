package dev.rea.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** Writes JSON documents to the command's stdout: one document, then a newline. */
final class Output {
  private Output() {}

  /** Prints UTF-8 JSON bytes as one line. */
  static void printJson(PrintWriter out, byte[] json) {
    out.print(new String(json, StandardCharsets.UTF_8));
    out.print('\n');
    out.flush();
  }
}
