package dev.rea.core.internal.format;

import dev.rea.core.internal.io.RetainedBudget;
import dev.rea.core.options.LayoutAssumption;
import dev.rea.core.options.Limits;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a format reader needs besides its input.
 *
 * @param limits the limits in force
 * @param budget the retained representation budget of this inspection
 * @param partial where a reader whose header is cancelled before it ends leaves the declarations
 *     it completed ({@link PartialHeader})
 * @param layout the layout the caller states for GGUF types whose layout the header does not
 *     establish (CONTRACT section 12)
 */
public record ReadContext(
    Limits limits, RetainedBudget budget, PartialHeader partial, LayoutAssumption layout) {
  public ReadContext {
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(partial, "partial");
    Objects.requireNonNull(layout, "layout");
  }

  /** A context without a layout assumption. */
  public ReadContext(Limits limits, RetainedBudget budget, PartialHeader partial) {
    this(limits, budget, partial, LayoutAssumption.NONE);
  }

  /** @return a context with fresh budget for the given limits, without a layout assumption */
  public static ReadContext of(Limits limits) {
    return of(limits, LayoutAssumption.NONE);
  }

  /** @return a context with fresh budget for the given limits and layout assumption */
  public static ReadContext of(Limits limits, LayoutAssumption layout) {
    return new ReadContext(
        limits, new RetainedBudget(limits.retainedBudgetBytes()), new PartialHeader(), layout);
  }

  /**
   * The declarations a reader completed before its read was cancelled (specification, "Facts and
   * selected queries": "Cancellation retains completed declarations"). GGUF declares its header
   * piece by piece, so a cancelled GGUF read leaves one; a safetensors header is parsed whole
   * ("Safetensors header parsing is atomic"), so it never does.
   */
  public static final class PartialHeader {
    private @Nullable ParsedHeader header;

    /**
     * @param completed the completed declarations; its {@code headerLength} is the offset just
     *     after the last of them
     */
    public void set(ParsedHeader completed) {
      header = completed;
    }

    /** @return what the reader left, or null */
    public @Nullable ParsedHeader get() {
      return header;
    }
  }
}
