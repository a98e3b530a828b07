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
    // 1023.95 and up would print as "1024.0" of the smaller unit: move to the next one.
    while (v >= 1023.95 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }

  /** @return e.g. {@code 1,750,560 bytes (1.7 MiB)}; the unit part only from 1 KiB */
  static String bytes(long n) {
    return grouped(n) + " bytes" + (n >= 1024 ? " (" + human(n) + ")" : "");
  }

  /** @return the unsigned value with thousands separators, e.g. {@code 1,750,560} */
  static String grouped(long unsigned) {
    return grouped(new BigInteger(Long.toUnsignedString(unsigned)));
  }

  /**
   * The totals' words for a byte total that is not established: a tensor whose length rests on a
   * layout or type ID the header leaves open, or on a type REA does not know. The limitations say
   * which; the hint names the one statement that settles the layouts (CONTRACT section 12).
   *
   * @param layoutAssumed whether the inspection already ran under {@code --assume-layout}
   */
  static String unknownByteTotal(boolean layoutAssumed) {
    return layoutAssumed
        ? "byte total unknown (the limitations say why)"
        : "byte total unknown (the limitations say why; --assume-layout ggml-modern settles the"
            + " layouts a header leaves open)";
  }

  /** @return {@code "1 tensor"}, {@code "12 tensors"}: the count grouped, the noun agreeing */
  static String count(long n, String singular) {
    return grouped(n) + " " + (n == 1 ? singular : singular + "s");
  }

  /**
   * @return the value with thousands separators, as {@code String.format(Locale.ROOT, "%,d",
   *     value)} gives it (which builds a {@code DecimalFormat} for every number: a set's report
   *     prints thousands of them)
   */
  static String grouped(BigInteger value) {
    String digits = value.abs().toString();
    StringBuilder b = new StringBuilder(digits.length() + digits.length() / 3 + 1);
    if (value.signum() < 0) {
      b.append('-');
    }
    int first = digits.length() % 3 == 0 ? 3 : digits.length() % 3;
    b.append(digits, 0, first);
    for (int i = first; i < digits.length(); i += 3) {
      b.append(',').append(digits, i, i + 3);
    }
    return b.toString();
  }
}
