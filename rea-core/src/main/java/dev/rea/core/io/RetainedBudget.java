package dev.rea.core.io;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import java.util.function.Supplier;

/**
 * Accounts for the retained representation of one inspection against {@code
 * Limits.retainedBudgetBytes()} (32 MiB by default). Readers charge <em>before</em> they retain a
 * row or expand a string, so a refusal never follows the allocation it was meant to prevent.
 *
 * <p>Charging rule: a retained string costs its UTF-8 length in bytes plus {@link
 * #VALUE_OVERHEAD}; every retained row or preview element costs {@link #VALUE_OVERHEAD}.
 */
public final class RetainedBudget {
  /** Fixed charge in bytes per retained row, value or preview element. */
  public static final long VALUE_OVERHEAD = 64;

  private final long limit;
  private long used;

  /** @param limit the budget in bytes */
  public RetainedBudget(long limit) {
    this.limit = limit;
  }

  /**
   * Charges {@code bytes} against the budget.
   *
   * @param bytes bytes about to be retained (non-negative)
   * @param what the field being retained, for the error
   * @param offset absolute file offset of that field, for the error
   * @throws ReaException {@code resource_exhausted} / {@code retained_budget}, naming the limit,
   *     the amount already used, the amount requested and by how much it is over (diagnostics
   *     {@code limit}, {@code limit_bytes}, {@code used_bytes}, {@code requested_bytes}, {@code
   *     over_bytes}, decimal strings)
   */
  public void charge(long bytes, String what, long offset) throws ReaException {
    if (bytes < 0 || bytes > limit - used) {
      throw refusal(bytes, what, offset);
    }
    used += bytes;
  }

  /**
   * As {@link #charge(long, String, long)}, with the field description computed only when the
   * charge is refused (so hot paths build no strings).
   */
  public void charge(long bytes, Supplier<String> what, long offset) throws ReaException {
    if (bytes < 0 || bytes > limit - used) {
      throw refusal(bytes, what.get(), offset);
    }
    used += bytes;
  }

  private ReaException refusal(long bytes, String what, long offset) {
    return ReaException.builder(
            Constraint.RETAINED_BUDGET,
            "retaining "
                + what
                + " would exceed the retained representation budget of "
                + limit
                + " bytes ("
                + used
                + " bytes used, "
                + bytes
                + " more requested, "
                + (used + Math.max(bytes, 0) - limit)
                + " bytes over)")
        .field(what)
        .offset(offset)
        .diagnostic("limit", "retained_budget")
        .diagnostic("limit_bytes", Long.toString(limit))
        .diagnostic("used_bytes", Long.toString(used))
        .diagnostic("requested_bytes", Long.toString(bytes))
        .diagnostic("over_bytes", Long.toString(used + Math.max(bytes, 0) - limit))
        .build();
  }

  /** @return bytes charged so far */
  public long used() {
    return used;
  }

  /** @return the budget in bytes */
  public long limit() {
    return limit;
  }
}
