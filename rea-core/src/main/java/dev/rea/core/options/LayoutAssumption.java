package dev.rea.core.options;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * A storage layout the caller states for tensor types whose layout a GGUF header does not
 * establish (CONTRACT section 12, "Layout assumption"; specification "Facts and selected
 * queries" on Q8_1, the K quantizations and IDs 16-25). Only someone who knows which writer made
 * a file can say this; the record then says that it rests on the statement ({@code
 * request.assume_layout}, {@code coverage.storage_sizes: "assumed"}, the {@code layout_assumed}
 * limitation). Safetensors files are unaffected.
 */
public enum LayoutAssumption {
  /** No assumption (the default): such tensors keep unknown byte lengths. */
  NONE(null),

  /**
   * Modern ggml's layouts: Q8_1 (ID 9) 36 bytes per 32 elements, the K types (IDs 10-15) in
   * 256-element blocks, IDs 16-25 their modern names (IQ2_XXS ... IQ4_XS, I8, I16; upstream
   * llama.cpp PR 6050). Wire name {@code ggml-modern}.
   */
  GGML_MODERN("ggml-modern");

  private final @Nullable String wire;

  LayoutAssumption(@Nullable String wire) {
    this.wire = wire;
  }

  /** @return the wire name ({@code ggml-modern}), or null for {@link #NONE} */
  public @Nullable String wire() {
    return wire;
  }

  /**
   * @param name a wire name, case-insensitive ({@code ggml-modern}), or {@code none}
   * @return the assumption
   * @throws IllegalArgumentException for any other name
   */
  public static LayoutAssumption parse(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    if (n.equals("none")) {
      return NONE;
    }
    for (LayoutAssumption a : values()) {
      if (n.equals(a.wire)) {
        return a;
      }
    }
    throw new IllegalArgumentException(
        "unknown layout assumption '" + name + "'; the one defined is ggml-modern");
  }
}
