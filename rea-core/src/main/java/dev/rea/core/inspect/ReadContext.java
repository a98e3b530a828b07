package dev.rea.core.inspect;

import dev.rea.core.Limits;
import dev.rea.core.io.RetainedBudget;
import java.util.Objects;

/**
 * What a format reader needs besides its input.
 *
 * @param limits the limits in force
 * @param budget the retained representation budget of this inspection
 */
public record ReadContext(Limits limits, RetainedBudget budget) {
  public ReadContext {
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(budget, "budget");
  }

  /** @return a context with fresh budget for the given limits */
  public static ReadContext of(Limits limits) {
    return new ReadContext(limits, new RetainedBudget(limits.retainedBudgetBytes()));
  }
}
