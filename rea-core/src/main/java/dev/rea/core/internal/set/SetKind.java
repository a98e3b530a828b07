package dev.rea.core.internal.set;

import org.jspecify.annotations.Nullable;

/** The {@code set.kind} of a set record (CONTRACT section 9). */
public enum SetKind {
  /** A safetensors index and the files its {@code weight_map} names. */
  SAFETENSORS_INDEX("safetensors_index"),
  /** A GGUF split set, {@code PREFIX-NNNNN-of-MMMMM.gguf}, as llama.cpp's gguf-split writes it. */
  GGUF_SPLIT("gguf_split"),
  /** One model file: a set of one. */
  SINGLE_FILE("single_file");

  private final String wire;

  SetKind(String wire) {
    this.wire = wire;
  }

  /** @return the JSON spelling */
  public String wire() {
    return wire;
  }

  /** @return the kind of a JSON spelling, or null */
  public static @Nullable SetKind fromWire(String text) {
    for (SetKind k : values()) {
      if (k.wire.equals(text)) {
        return k;
      }
    }
    return null;
  }
}
