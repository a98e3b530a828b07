package dev.rea.core.internal.io;

import dev.rea.core.error.ReaException;

/**
 * What a reader may retain of a string it decodes, asked before the string exists: {@link
 * HeaderInput#utf8} calls {@link #beforeString} before it reads the first byte and {@link
 * #beforeEscapes} before it keeps a run of bytes that JSON escaping will lengthen, so a refusal
 * never follows the allocation it was meant to prevent (specification, "Bounds and unsupported
 * inputs": the budget applies "before retaining rows or expanding strings"). The retained
 * budget's owner implements it; the input knows nothing of what a string costs.
 */
public interface StringAllowance {
  /**
   * Charges a string of {@code utf8Length} bytes before any of them is read.
   *
   * @param utf8Length the string's declared length in bytes
   * @param at absolute file offset of its first byte
   * @return the bytes charged (the string's raw cost; its escapes come later)
   * @throws ReaException {@code resource_exhausted} / {@code retained_budget}
   */
  long beforeString(long utf8Length, long at) throws ReaException;

  /**
   * Charges the bytes JSON escaping adds to a run of the same string, before the run is kept.
   *
   * @param extra bytes escaping adds to the run ({@link JsonText#escapeExtra}), positive
   * @param chargedSoFar bytes charged for this string so far
   * @param at absolute file offset of the string's first byte
   * @throws ReaException {@code retained_budget}, reporting the string as a whole
   */
  void beforeEscapes(long extra, long chargedSoFar, long at) throws ReaException;
}
