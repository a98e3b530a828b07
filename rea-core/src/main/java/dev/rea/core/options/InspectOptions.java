package dev.rea.core.options;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * How to inspect: hash mode, limits, cancellation, progress and layout assumption (CONTRACT
 * sections 12 and 14). Immutable;
 * build with {@link #builder()}, or take {@link #defaults()}: header hash, the front door's
 * limits (the specification's unless it was built with others), never cancelled, no progress.
 */
public final class InspectOptions {
  private static final InspectOptions DEFAULTS = builder().build();

  private final HashMode hash;
  private final @Nullable Limits limits;
  private final Cancellation cancellation;
  private final ProgressListener progress;
  private final LayoutAssumption layout;

  private InspectOptions(Builder b) {
    this.layout = b.layout;
    this.hash = b.hash;
    this.limits = b.limits;
    this.cancellation = b.cancellation;
    this.progress = b.progress;
  }

  /** @return header hash, default limits, no cancellation, no progress */
  public static InspectOptions defaults() {
    return DEFAULTS;
  }

  /** @return a builder starting from {@link #defaults()} */
  public static Builder builder() {
    return new Builder();
  }

  /** @return a builder starting from these options */
  public Builder toBuilder() {
    Builder b =
        new Builder().hash(hash).cancellation(cancellation).progress(progress).layout(layout);
    b.limits = limits;
    return b;
  }

  /** @return {@link HashMode#HEADER} (read and hash the header only) or {@link HashMode#FULL} */
  public HashMode hash() {
    return hash;
  }

  /**
   * @return the header ceiling, retained budget and other bounds of this inspection, or empty
   *     for the front door's
   */
  public Optional<Limits> limits() {
    return Optional.ofNullable(limits);
  }

  /** @return the token checked between reads; cancelling it ends the inspection as cancelled */
  public Cancellation cancellation() {
    return cancellation;
  }

  /** @return where full-hash progress goes */
  public ProgressListener progress() {
    return progress;
  }

  /**
   * @return the layout the caller states for GGUF tensor types whose layout the header does not
   *     establish ({@link LayoutAssumption#NONE} by default; CONTRACT section 12)
   */
  public LayoutAssumption layout() {
    return layout;
  }

  /** Builder of {@link InspectOptions}; not thread-safe. */
  public static final class Builder {
    private HashMode hash = HashMode.HEADER;
    private @Nullable Limits limits;
    private Cancellation cancellation = Cancellation.none();
    private ProgressListener progress = ProgressListener.NONE;
    private LayoutAssumption layout = LayoutAssumption.NONE;

    private Builder() {}

    /** Sets the layout assumption (default {@link LayoutAssumption#NONE}). */
    public Builder layout(LayoutAssumption value) {
      this.layout = Objects.requireNonNull(value, "layout");
      return this;
    }

    /** Sets the hash mode (default {@link HashMode#HEADER}). */
    public Builder hash(HashMode value) {
      this.hash = Objects.requireNonNull(value, "hash");
      return this;
    }

    /** Sets the limits (default: the front door's). */
    public Builder limits(Limits value) {
      this.limits = Objects.requireNonNull(value, "limits");
      return this;
    }

    /** Sets the cancellation token (default: never cancelled). */
    public Builder cancellation(Cancellation value) {
      this.cancellation = Objects.requireNonNull(value, "cancellation");
      return this;
    }

    /** Sets the progress listener of a full hash (default: none). */
    public Builder progress(ProgressListener value) {
      this.progress = Objects.requireNonNull(value, "progress");
      return this;
    }

    /** @return the options */
    public InspectOptions build() {
      return new InspectOptions(this);
    }
  }
}
