package dev.rea.core.evidence;

import java.math.BigInteger;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Whole-record totals derived from the declarations (not measurements).
 *
 * @param tensorCount number of tensor rows
 * @param parameterCount sum of all parameter counts, in elements (shared weights not deduplicated)
 * @param byteLength sum of all byte lengths, or null when any is unknown
 */
public record Totals(int tensorCount, BigInteger parameterCount, @Nullable BigInteger byteLength) {
  public Totals {
    Objects.requireNonNull(parameterCount, "parameterCount");
  }
}
