package dev.rea.core.options;

import org.jspecify.annotations.Nullable;

/** How much of the file is hashed (specification, "Identity and reads"). */
public enum HashMode {
  /** Read and hash only the header (the default). */
  HEADER("header"),
  /** Also stream the rest of the file through SHA-256. */
  FULL("full");

  private final String wire;

  HashMode(String wire) {
    this.wire = wire;
  }

  /** @return {@code "header"} or {@code "full"} */
  public String wire() {
    return wire;
  }

  /** @return the mode for a wire spelling, or null */
  public static @Nullable HashMode fromWire(String text) {
    for (HashMode m : values()) {
      if (m.wire.equals(text)) {
        return m;
      }
    }
    return null;
  }
}
