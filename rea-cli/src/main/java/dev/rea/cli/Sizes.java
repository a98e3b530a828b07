package dev.rea.cli;

import java.math.BigInteger;
import java.util.Locale;

/** Human formatting of byte counts and large integers. */
final class Sizes {
  private Sizes() {}

  /** @return e.g. {@code 1.7 MiB}, {@code 512 B} */
  static String human(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = bytes;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }

  /** @return the unsigned value with thousands separators, e.g. {@code 1,750,560} */
  static String grouped(long unsigned) {
    return grouped(new BigInteger(Long.toUnsignedString(unsigned)));
  }

  /** @return the value with thousands separators */
  static String grouped(BigInteger value) {
    return String.format(Locale.ROOT, "%,d", value);
  }
}
