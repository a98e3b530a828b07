package dev.rea.core.internal.auth;

import dev.rea.core.error.ReaException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Child-JVM entry point of {@link LargeEvidenceTest}: reads and authenticates one evidence file
 * under a small heap. Arguments: the file, the REA home whose keys are trusted. Exit 0 when it
 * verifies, {@link #EXIT_REJECTED} on a typed refusal (its constraint, field and message printed),
 * {@link #EXIT_OUT_OF_MEMORY} when the heap runs out.
 */
public final class LargeEvidenceChild {
  /** Exit status for a typed refusal. */
  public static final int EXIT_REJECTED = 3;

  /** Exit status when the heap ran out. */
  public static final int EXIT_OUT_OF_MEMORY = 99;

  private LargeEvidenceChild() {}

  public static void main(String[] args) throws Exception {
    try {
      KeyRing ring = KeyRing.openForReading(Path.of(args[1]));
      EvidenceVerifier.Verified v =
          EvidenceVerifier.standard(ring).importVerified(Files.readAllBytes(Path.of(args[0])));
      System.out.println("verified: " + v.records().get(0).tensors().size() + " tensors");
      System.exit(0);
    } catch (ReaException e) {
      System.out.println(
          "rejected: " + e.constraint().wireName() + " at " + e.field() + ": " + e.getMessage());
      System.exit(EXIT_REJECTED);
    } catch (OutOfMemoryError e) {
      System.out.println("out of memory: " + e.getMessage());
      System.exit(EXIT_OUT_OF_MEMORY);
    }
  }
}
