package dev.rea.cli;

import dev.rea.core.Rea;

/**
 * Start-up warm-up for one-shot commands: while the main thread builds picocli's command model
 * and inspects the file, a daemon thread on the second core loads and initializes what the end
 * of every inspection needs ({@link Rea#warmUp}: an inspection of a tiny in-memory model, its
 * canonical form, SHA-256, the JSON writer and an Ed25519 signature with a throw-away key), so
 * the main thread finds them ready. No file is read or written, nothing is printed, and a
 * failure only means no warm-up. Measured on {@code ./rea
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
   * Runs the warm-up on the calling thread ({@link Rea#warmUp}).
   *
   * @return true when every step ran; false when one failed
   */
  static boolean run() {
    return Rea.warmUp();
  }
}
