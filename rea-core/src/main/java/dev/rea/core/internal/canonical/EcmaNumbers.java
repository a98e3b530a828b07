package dev.rea.core.internal.canonical;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import org.jspecify.annotations.Nullable;

/**
 * A double as ECMAScript's Number::toString writes it, the number form RFC 8785 prescribes
 * (section 3.2.2.3, which defers to ECMA-262 section 6.1.6.1.20, Number::toString, with the
 * recommendation of its Note 2: of the shortest digit strings, the one closest to the value,
 * the even one on a tie).
 *
 * <p>The digits are found with {@link BigDecimal}: the length that {@link Double#toString} uses
 * is an upper bound (its text reads back as the same double, but on Java 17 it is not always the
 * shortest), and for each length the two nearest decimals of that many significant digits, one
 * below and one above the exact binary value, are the only candidates (any other decimal of
 * that length that reads back lies beyond one of them, in the same rounding interval). Reading
 * back is {@link BigDecimal#doubleValue}, which rounds correctly, so the asymmetric intervals at
 * powers of two and the ties-to-even rule of reading need no special case. Slow next to the
 * integer paths of {@link CanonicalSink} (microseconds per number); floating-point values are
 * rare in Evidence (FLOAT32 and FLOAT64 metadata values only).
 *
 * <p>Stateless and thread-safe.
 */
public final class EcmaNumbers {
  /** Integers up to this magnitude are their own decimal digits in ECMAScript form. */
  static final long EXACT_INTEGER = 1L << 53;

  private EcmaNumbers() {}

  /**
   * The ECMAScript Number::toString text of a finite double: {@code "0"} for both zeros; integer
   * digits for magnitudes in [1, 10^21) whose shortest digits allow it (trailing zeros where
   * they are not significant, {@code 1e+21} and above in exponent form); {@code 0.000001} down
   * to 10^-6, and exponent form below ({@code 1e-7}); exponents written {@code e+N} or {@code
   * e-N}.
   *
   * @param d a finite double
   * @return ASCII text, at most 25 characters
   * @throws IllegalArgumentException for NaN and the infinities, which have no JSON number form
   *     (REA writes them as the strings of CONTRACT section 2)
   */
  public static String toString(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      throw new IllegalArgumentException("NaN and the infinities are not JSON numbers: " + d);
    }
    if (d == 0) {
      return "0";
    }
    double a = Math.abs(d);
    String sign = d < 0 ? "-" : "";
    if (a <= EXACT_INTEGER && a == Math.rint(a)) {
      return sign + (long) a;
    }
    BigDecimal digits = shortest(a);
    String s = digits.unscaledValue().toString();
    // value = s x 10^(-scale) = 0.s x 10^n, with n as ECMA-262 names it
    return sign + layout(s, s.length() - digits.scale());
  }

  /**
   * The shortest decimal that reads back as {@code a}, the closest to it of those, the even one
   * on a tie (ECMA-262 Number::toString, Note 2).
   *
   * @param a a finite positive double
   * @return that decimal without trailing zeros in its unscaled value
   */
  static BigDecimal shortest(double a) {
    BigDecimal exact = new BigDecimal(a);
    // Double.toString reads back as a (its specification), so its length is an upper bound.
    int upper = new BigDecimal(Double.toString(a)).stripTrailingZeros().precision();
    @Nullable BigDecimal best = closestWithDigits(exact, a, upper);
    for (int p = upper - 1; p >= 1; p--) {
      BigDecimal shorter = closestWithDigits(exact, a, p);
      if (shorter == null) {
        // Decimals that read back exist for every length from the shortest one up.
        break;
      }
      best = shorter;
    }
    if (best == null) {
      throw new IllegalStateException("no decimal of " + upper + " digits reads back as " + a);
    }
    return best.stripTrailingZeros();
  }

  /**
   * @return of the decimals with {@code p} significant digits nearest below and above {@code
   *     exact}, the one that reads back as {@code a} (the closer, the even on a tie, when both
   *     do), or null when neither does
   */
  private static @Nullable BigDecimal closestWithDigits(BigDecimal exact, double a, int p) {
    BigDecimal below = exact.round(new MathContext(p, RoundingMode.FLOOR));
    BigDecimal above = exact.round(new MathContext(p, RoundingMode.CEILING));
    boolean belowReads = below.doubleValue() == a;
    boolean aboveReads = above.doubleValue() == a;
    if (belowReads && aboveReads) {
      int c = exact.subtract(below).compareTo(above.subtract(exact));
      if (c != 0) {
        return c < 0 ? below : above;
      }
      return below.unscaledValue().testBit(0) ? above : below;
    }
    if (belowReads) {
      return below;
    }
    return aboveReads ? above : null;
  }

  /**
   * ECMA-262 Number::toString steps 6 to 10: the digits {@code s} (k of them, no trailing zero)
   * placed for the decimal exponent {@code n} (value = 0.s x 10^n).
   */
  static String layout(String s, int n) {
    int k = s.length();
    StringBuilder out = new StringBuilder(k + 8);
    if (k <= n && n <= 21) {
      out.append(s);
      for (int i = k; i < n; i++) {
        out.append('0');
      }
    } else if (0 < n && n <= 21) {
      out.append(s, 0, n).append('.').append(s, n, k);
    } else if (-6 < n && n <= 0) {
      out.append("0.");
      for (int i = n; i < 0; i++) {
        out.append('0');
      }
      out.append(s);
    } else {
      out.append(s.charAt(0));
      if (k > 1) {
        out.append('.').append(s, 1, k);
      }
      int e = n - 1;
      out.append('e').append(e > 0 ? '+' : '-').append(Math.abs(e));
    }
    return out.toString();
  }
}
