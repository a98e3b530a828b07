package dev.rea.core.evidence;

import org.jspecify.annotations.Nullable;

/**
 * Whether a tensor's declared storage was checked against its type and shape (CONTRACT section
 * 3, {@code storage_validation}).
 */
public enum StorageValidation {
  /** The byte length derived from type and shape was checked against the declared range. */
  CONSISTENT("consistent"),
  /** The layout is unknown or ambiguous, so shape-to-storage validation was not possible. */
  UNKNOWN("unknown");

  private final String wire;

  StorageValidation(String wire) {
    this.wire = wire;
  }

  /** @return the JSON spelling */
  public String wire() {
    return wire;
  }

  /** @return the constant for a JSON spelling, or null */
  public static @Nullable StorageValidation fromWire(String text) {
    for (StorageValidation v : values()) {
      if (v.wire.equals(text)) {
        return v;
      }
    }
    return null;
  }
}
