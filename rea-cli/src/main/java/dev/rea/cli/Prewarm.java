package dev.rea.cli;

import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.evidence.EvidenceJson;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.EdECPrivateKeySpec;
import java.security.spec.NamedParameterSpec;
import tools.jackson.core.JsonGenerator;

/**
 * Start-up warm-up for one-shot commands: while the main thread builds picocli's command model
 * and inspects the file, a daemon thread on the second core loads and initializes what the end
 * of every inspection needs (the JSON generator, the RFC 8785 canonicalizer, SHA-256, the
 * Ed25519 provider and its field arithmetic), so the main thread finds them ready. It signs a
 * fixed message with a throw-away all-zero key held only in memory: no file is read or written,
 * nothing is printed, and a failure only means no warm-up. Measured on {@code ./rea
 * inspect-model-artifact llama3-like.gguf --json} (2 cores): 4 to 22 ms less median wall time
 * over four sets of 21 to 41 alternating runs ({@code docs/performance.md}).
 */
final class Prewarm {
  private Prewarm() {}

  /** Commands whose run ends by writing, canonicalizing and signing or verifying Evidence. */
  static boolean worthIt(String[] args, int processors) {
    if (processors < 2 || args.length == 0) {
      return false;
    }
    return "inspect-model-artifact".equals(args[0]) || "inspect-analysis-view".equals(args[0]);
  }

  /** Starts the warm-up thread when {@link #worthIt} says so. */
  static void startFor(String[] args) {
    if (worthIt(args, Runtime.getRuntime().availableProcessors())) {
      Thread t = new Thread(Prewarm::run, "rea-prewarm");
      t.setDaemon(true);
      t.start();
    }
  }

  /**
   * Runs the warm-up on the calling thread.
   *
   * @return true when every step ran (a 64-byte signature came out); false when one failed
   */
  static boolean run() {
    try {
      ByteArrayOutputStream json = new ByteArrayOutputStream();
      try (JsonGenerator g = EvidenceJson.generator(json)) {
        g.writeStartObject();
        g.writeStringProperty("b", "\u00e9");
        g.writeNumberProperty("a", 1L);
        g.writeEndObject();
      }
      byte[] canonical = EvidenceIds.canonicalize(json.toByteArray());
      EvidenceIds.sha256Hex(canonical);
      PrivateKey key =
          KeyFactory.getInstance("Ed25519")
              .generatePrivate(new EdECPrivateKeySpec(NamedParameterSpec.ED25519, new byte[32]));
      Signature signature = Signature.getInstance("Ed25519");
      signature.initSign(key);
      signature.update(canonical);
      return signature.sign().length == 64
          && new String(canonical, StandardCharsets.UTF_8).equals("{\"a\":1,\"b\":\"\u00e9\"}");
    } catch (Throwable e) {
      // Only a warm-up: the command itself reports whatever goes wrong when it gets there, and
      // nothing may reach stderr from this thread.
      return false;
    }
  }
}
