package dev.rea.core.detect;

/** The model formats REA inspects. {@link #wire()} is the {@code artifact.format} spelling. */
public enum DetectedFormat {
  GGUF("gguf"),
  SAFETENSORS("safetensors");

  private final String wire;

  DetectedFormat(String wire) {
    this.wire = wire;
  }

  /** @return {@code "gguf"} or {@code "safetensors"} */
  public String wire() {
    return wire;
  }
}
