package dev.rea.core.internal.detect;


/** The model formats REA inspects. {@link #wire()} is the {@code artifact.format} spelling. */
public enum DetectedFormat {
  /** GGUF v2 or v3, either byte order (magic {@code GGUF}). */
  GGUF("gguf", "GGUF"),
  /** safetensors: an 8-byte little-endian JSON length, then the JSON header. */
  SAFETENSORS("safetensors", "safetensors");

  private final String wire;
  private final String displayName;

  DetectedFormat(String wire, String displayName) {
    this.wire = wire;
    this.displayName = displayName;
  }

  /** @return the name in messages: {@code "GGUF"} or {@code "safetensors"} */
  public String displayName() {
    return displayName;
  }

  /** @return {@code "gguf"} or {@code "safetensors"} */
  public String wire() {
    return wire;
  }
}
