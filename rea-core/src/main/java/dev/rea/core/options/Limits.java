package dev.rea.core.options;


/**
 * The resource limits both readers enforce, and the Evidence import bound, as one immutable value
 * (specification, "Bounds and unsupported inputs"; CONTRACT section 8). Build a custom value with {@link #builder()}; every
 * setter checks its argument at once.
 *
 * <p>Every refusal names the limit it hit and by how much (see {@code ReaException.diagnostics}:
 * {@code limit} plus the limit and the amount requested, e.g. {@code limit_bytes}, {@code
 * requested_bytes}, {@code over_bytes} for the header ceiling, {@code limit_levels}, {@code
 * requested_levels} for nesting).
 */
public final class Limits {
  /** Header ceiling in bytes: 100,000,000 (GGUF: whole header; safetensors: JSON bytes only). */
  public static final long DEFAULT_HEADER_CEILING_BYTES = 100_000_000L;

  /**
   * Longest path accepted from a command line or a tool call, in UTF-8 bytes: Linux's {@code
   * PATH_MAX} (4,096, including the terminating NUL of the C string, so 4,095 usable). A longer
   * path cannot be opened; refusing it early keeps it out of messages and Evidence.
   */
  public static final int PATH_MAX_BYTES = 4095;

  /**
   * Refuses a path longer than {@link #PATH_MAX_BYTES}.
   *
   * @param field the argument that gave the path
   * @param text the path as given
   * @throws dev.rea.core.error.ReaException {@code invalid_input} / {@code bad_argument} naming
   *     the field; the message does not repeat the path
   */
  public static void checkPathLength(String field, String text)
      throws dev.rea.core.error.ReaException {
    if (text.length() > PATH_MAX_BYTES / 3) {
      int bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
      if (bytes > PATH_MAX_BYTES) {
        throw dev.rea.core.error.ReaException.builder(
                dev.rea.core.error.Constraint.BAD_ARGUMENT,
                field
                    + ": the path is "
                    + bytes
                    + " bytes long; a path has at most "
                    + PATH_MAX_BYTES
                    + " bytes (PATH_MAX)")
            .field(field)
            .build();
      }
    }
  }

  /**
   * Retained representation budget in bytes: 32 MiB. It bounds both what an inspection keeps and
   * the JSON of the signed bundle it writes (see {@code dev.rea.core.internal.io.RetainedBudget}).
   */
  public static final long DEFAULT_RETAINED_BUDGET_BYTES = 32L * 1024 * 1024;

  /** Nesting limit: 32 levels (GGUF ARRAY levels; safetensors JSON containers). */
  public static final int DEFAULT_NESTING_LIMIT = 32;

  /** Preview elements kept per metadata array: 8. */
  public static final int DEFAULT_PREVIEW_ELEMENTS = 8;

  /**
   * Largest Evidence JSON (record or bundle) accepted for import, in bytes: 64 MiB. Twice the
   * default retained budget, which bounds the signed bundle an inspection writes, so REA's own
   * Evidence can always be imported back.
   */
  public static final long DEFAULT_EVIDENCE_INPUT_BYTES = 64L * 1024 * 1024;

  private static final Limits DEFAULTS = builder().build();

  private final long headerCeilingBytes;
  private final long retainedBudgetBytes;
  private final int nestingLimit;
  private final int previewElements;
  private final long evidenceInputBytes;

  private Limits(Builder b) {
    this.headerCeilingBytes = b.headerCeilingBytes;
    this.retainedBudgetBytes = b.retainedBudgetBytes;
    this.nestingLimit = b.nestingLimit;
    this.previewElements = b.previewElements;
    this.evidenceInputBytes = b.evidenceInputBytes;
  }

  /** @return the limits of the specification */
  public static Limits defaults() {
    return DEFAULTS;
  }

  /** @return a builder starting from the defaults */
  public static Builder builder() {
    return new Builder();
  }

  /** @return the header ceiling in bytes; default {@value #DEFAULT_HEADER_CEILING_BYTES} */
  public long headerCeilingBytes() {
    return headerCeilingBytes;
  }

  /** @return the retained representation budget in bytes; default 32 MiB */
  public long retainedBudgetBytes() {
    return retainedBudgetBytes;
  }

  /** @return the deepest accepted nesting level; default {@value #DEFAULT_NESTING_LIMIT} */
  public int nestingLimit() {
    return nestingLimit;
  }

  /** @return preview elements kept per array; default {@value #DEFAULT_PREVIEW_ELEMENTS} */
  public int previewElements() {
    return previewElements;
  }

  /**
   * @return the largest Evidence JSON accepted for import, in bytes (checked before anything is
   *     parsed; also Jackson's document and string length limits); default 64 MiB
   */
  public long evidenceInputBytes() {
    return evidenceInputBytes;
  }

  /** @return a builder initialised with these values */
  public Builder toBuilder() {
    return new Builder()
        .headerCeilingBytes(headerCeilingBytes)
        .retainedBudgetBytes(retainedBudgetBytes)
        .nestingLimit(nestingLimit)
        .previewElements(previewElements)
        .evidenceInputBytes(evidenceInputBytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Limits l
        && headerCeilingBytes == l.headerCeilingBytes
        && retainedBudgetBytes == l.retainedBudgetBytes
        && nestingLimit == l.nestingLimit
        && previewElements == l.previewElements
        && evidenceInputBytes == l.evidenceInputBytes;
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(
        headerCeilingBytes, retainedBudgetBytes, nestingLimit, previewElements, evidenceInputBytes);
  }

  @Override
  public String toString() {
    return "Limits{header_ceiling="
        + headerCeilingBytes
        + ", retained_budget="
        + retainedBudgetBytes
        + ", nesting="
        + nestingLimit
        + ", preview="
        + previewElements
        + ", evidence_input="
        + evidenceInputBytes
        + "}";
  }

  /** Builder for {@link Limits}. */
  public static final class Builder {
    private long headerCeilingBytes = DEFAULT_HEADER_CEILING_BYTES;
    private long retainedBudgetBytes = DEFAULT_RETAINED_BUDGET_BYTES;
    private int nestingLimit = DEFAULT_NESTING_LIMIT;
    private int previewElements = DEFAULT_PREVIEW_ELEMENTS;
    private long evidenceInputBytes = DEFAULT_EVIDENCE_INPUT_BYTES;

    private Builder() {}

    /** Sets the header ceiling in bytes (must be positive). Default 100,000,000. */
    public Builder headerCeilingBytes(long value) {
      if (value <= 0) {
        throw new IllegalArgumentException("headerCeilingBytes must be positive: " + value);
      }
      this.headerCeilingBytes = value;
      return this;
    }

    /** Sets the retained representation budget in bytes (must be positive). Default 32 MiB. */
    public Builder retainedBudgetBytes(long value) {
      if (value <= 0) {
        throw new IllegalArgumentException("retainedBudgetBytes must be positive: " + value);
      }
      this.retainedBudgetBytes = value;
      return this;
    }

    /** Sets the nesting limit (1 to 1000). Default 32. */
    public Builder nestingLimit(int value) {
      if (value < 1 || value > 1000) {
        throw new IllegalArgumentException("nestingLimit must be in [1, 1000]: " + value);
      }
      this.nestingLimit = value;
      return this;
    }

    /** Sets the preview elements per array (0 to 256). Default 8. */
    public Builder previewElements(int value) {
      if (value < 0 || value > 256) {
        throw new IllegalArgumentException("previewElements must be in [0, 256]: " + value);
      }
      this.previewElements = value;
      return this;
    }

    /** Sets the largest Evidence JSON accepted for import (must be positive). Default 64 MiB. */
    public Builder evidenceInputBytes(long value) {
      if (value <= 0) {
        throw new IllegalArgumentException("evidenceInputBytes must be positive: " + value);
      }
      this.evidenceInputBytes = value;
      return this;
    }

    /**
     * @return the immutable limits
     * @throws IllegalArgumentException when the retained budget exceeds the Evidence input limit
     *     (the Evidence an inspection writes could then not be imported back)
     */
    public Limits build() {
      if (retainedBudgetBytes > evidenceInputBytes) {
        throw new IllegalArgumentException(
            "the retained budget ("
                + retainedBudgetBytes
                + " bytes) bounds the Evidence an inspection writes and must not exceed the"
                + " Evidence input limit ("
                + evidenceInputBytes
                + " bytes)");
      }
      return new Limits(this);
    }
  }
}
