package dev.rea.core.internal.format.safetensors;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.HashMode;
import java.nio.file.Path;

/**
 * Child-JVM entry point of {@link SafetensorsLargeHeaderTest#theHeaderIsHeldOnceInMemory}: inspects
 * one file under a small heap. Arguments: the file, then {@code inspect} or {@code control}
 * ({@code control} first allocates a second array of the header's size, so the heap holds two
 * copies and must run out). Exit 0 on success, {@link #EXIT_REJECTED} on a typed failure, {@link
 * #EXIT_OUT_OF_MEMORY} when the heap runs out.
 */
public final class HugeHeaderChild {
  /** Exit status for a typed failure. */
  public static final int EXIT_REJECTED = 3;

  /** Exit status when the heap ran out. */
  public static final int EXIT_OUT_OF_MEMORY = 99;

  /** Keeps the control allocation reachable. */
  static volatile byte[] hold;

  private HugeHeaderChild() {}

  public static void main(String[] args) {
    Path file = Path.of(args[0]).toAbsolutePath();
    try {
      if (args[1].equals("control")) {
        hold = new byte[100_000_000];
      }
      EvidenceRecord r = ModelInspector.standard().inspect(file, HashMode.HEADER);
      System.out.println(
          "header_length="
              + r.artifact().headerLength()
              + " tensors="
              + r.tensors().size()
              + " metadata="
              + r.metadata().size()
              + (hold == null ? "" : " hold=" + hold.length));
      System.exit(0);
    } catch (ReaException e) {
      System.out.println("rejected: " + e.constraint().wireName() + ": " + e.getMessage());
      System.exit(EXIT_REJECTED);
    } catch (OutOfMemoryError e) {
      hold = null;
      System.out.println("out of memory: " + e.getMessage());
      System.exit(EXIT_OUT_OF_MEMORY);
    }
  }
}
