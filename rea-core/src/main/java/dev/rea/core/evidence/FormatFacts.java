package dev.rea.core.evidence;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Per-format header facts (CONTRACT section 3, {@code format_facts}). */
public sealed interface FormatFacts permits FormatFacts.Gguf, FormatFacts.Safetensors {

  /**
   * GGUF facts.
   *
   * @param version 2 or 3
   * @param byteOrder {@code "little"} or {@code "big"}
   * @param alignment alignment in bytes; null only in partial records where it is not yet known
   * @param alignmentSource {@code "default"} or {@code "metadata"}; null when alignment is null
   * @param tensorDataOffset absolute offset of the data section in bytes; null when not yet known
   */
  record Gguf(
      int version,
      String byteOrder,
      @Nullable Long alignment,
      @Nullable String alignmentSource,
      @Nullable Long tensorDataOffset)
      implements FormatFacts {
    public Gguf {
      Objects.requireNonNull(byteOrder, "byteOrder");
    }
  }

  /**
   * Safetensors facts.
   *
   * @param jsonLength the declared JSON length N in bytes (the u64 prefix)
   * @param dataOffset absolute offset of the byte buffer, {@code 8 + N}
   */
  record Safetensors(long jsonLength, long dataOffset) implements FormatFacts {}
}
