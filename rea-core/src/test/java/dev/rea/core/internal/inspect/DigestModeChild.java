package dev.rea.core.internal.inspect;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.options.HashMode;
import java.nio.file.Path;

/**
 * Child-JVM entry point of {@link DigestModesTest}: {@code ModelInspector} reads its {@code
 * rea.digest.thread} setting once, when the class loads, so each setting needs a JVM of its own.
 * Arguments: the file, then {@code header} or {@code full}. Prints {@code header_sha256=<hex>
 * sha256=<hex or null> status=<status>} and exits 0, or prints the failure and exits 3.
 */
public final class DigestModeChild {
  private DigestModeChild() {}

  public static void main(String[] args) {
    Path file = Path.of(args[0]).toAbsolutePath();
    HashMode mode = args[1].equals("full") ? HashMode.FULL : HashMode.HEADER;
    try {
      EvidenceRecord r = ModelInspector.standard().inspect(file, mode);
      System.out.println(
          "header_sha256="
              + r.artifact().headerSha256()
              + " sha256="
              + r.artifact().sha256()
              + " status="
              + r.status());
      System.exit(0);
    } catch (ReaException e) {
      System.out.println("rejected: " + e.constraint().wireName() + ": " + e.getMessage());
      System.exit(3);
    }
  }
}
