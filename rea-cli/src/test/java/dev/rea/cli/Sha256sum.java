package dev.rea.cli;

import dev.rea.core.internal.evidence.EvidenceIds;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

/**
 * An independent SHA-256 of a file: coreutils {@code sha256sum} when it is installed, otherwise
 * a plain {@link InputStream} loop (a different read path from REA's channel reader).
 */
final class Sha256sum {
  private Sha256sum() {}

  static String of(Path file) throws IOException, InterruptedException {
    try {
      Process p = new ProcessBuilder("sha256sum", file.toString()).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      if (p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0) {
        return out.substring(0, 64);
      }
    } catch (IOException e) {
      // sha256sum is not installed: fall through.
    }
    MessageDigest md = EvidenceIds.sha256();
    byte[] buf = new byte[1 << 20];
    try (InputStream in = Files.newInputStream(file)) {
      int n;
      while ((n = in.read(buf)) > 0) {
        md.update(buf, 0, n);
      }
    }
    return HexFormat.of().formatHex(md.digest());
  }
}
