package dev.rea.cli.scan;

import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * The scan's counts, updated by the walker and the workers: units by status, units kept from an
 * earlier output ({@code --resume}), bytes read, and whether any unit carries a warning. Thread
 * safe; reading while others update gives a close, not an exact, snapshot.
 */
public final class Tally {
  private final java.util.Map<UnitStatus, LongAdder> byStatus =
      new java.util.EnumMap<>(UnitStatus.class);
  private final LongAdder kept = new LongAdder();
  private final LongAdder bytesRead = new LongAdder();
  private final LongAdder files = new LongAdder();
  private final LongAdder warnings = new LongAdder();
  private final LongAdder limitations = new LongAdder();
  private final LongAdder lfsPointers = new LongAdder();
  private final long startNanos = System.nanoTime();

  /** A new tally; its clock starts now. */
  public Tally() {
    for (UnitStatus s : UnitStatus.values()) {
      byStatus.put(s, new LongAdder());
    }
  }

  /**
   * Counts one unit or skipped entry.
   *
   * @param status its status
   * @param warning whether its Evidence carries a warning
   */
  public void count(UnitStatus status, boolean warning) {
    count(status, warning, false);
  }

  /**
   * Counts one unit.
   *
   * @param status its status
   * @param warning whether its Evidence carries a warning
   * @param limitation whether its Evidence carries a limitation
   */
  public void count(UnitStatus status, boolean warning, boolean limitation) {
    adder(status).increment();
    files.increment();
    if (warning) {
      warnings.increment();
    }
    if (limitation) {
      limitations.increment();
    }
  }

  private LongAdder adder(UnitStatus status) {
    LongAdder a = byStatus.get(status);
    if (a == null) {
      throw new IllegalStateException("no count for " + status);
    }
    return a;
  }

  /** Counts one unit kept from the earlier output, with its status there. */
  public void kept(UnitStatus status, boolean warning, boolean limitation) {
    kept.increment();
    count(status, warning, limitation);
  }

  /**
   * Counts one skipped file that is a Git LFS pointer: a model whose content was never fetched,
   * which the closing line names apart from the other files that are not models. Only pointers
   * probed in this run are counted: a skipped line kept by {@code --resume --list-skipped} is
   * counted as skipped alone.
   */
  public void lfsPointer() {
    lfsPointers.increment();
  }

  /** @return skipped files that are Git LFS pointers */
  public long lfsPointers() {
    return lfsPointers.sum();
  }

  /** @param n bytes read from files (probes and inspections) */
  public void read(long n) {
    bytesRead.add(n);
  }

  /** @return how many have the status */
  public long count(UnitStatus status) {
    return adder(status).sum();
  }

  /** @return units kept from the earlier output */
  public long kept() {
    return kept.sum();
  }

  /** @return bytes read */
  public long bytesRead() {
    return bytesRead.sum();
  }

  /** @return units whose Evidence carries a warning */
  public long withWarnings() {
    return warnings.sum();
  }

  /** @return units whose Evidence carries a limitation */
  public long withLimitations() {
    return limitations.sum();
  }

  /** @return whether any unit is partial, rejected or failed */
  public boolean anyTrouble() {
    for (UnitStatus s : UnitStatus.values()) {
      if (s.troubles() && count(s) > 0) {
        return true;
      }
    }
    return false;
  }

  /** @return seconds since the tally started */
  public double seconds() {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  /** @return units (not skipped) counted so far */
  public long units() {
    long n = 0;
    for (UnitStatus s : UnitStatus.values()) {
      if (s != UnitStatus.SKIPPED) {
        n += count(s);
      }
    }
    return n;
  }

  /**
   * @return the progress line's text: {@code "rea scan: 1234 units, 2345 files (5678/s), 1.2
   *     MiB read"}
   */
  public String progress() {
    long f = files.sum();
    double s = seconds();
    return String.format(
        Locale.ROOT,
        "rea scan: %d units, %d files (%.0f/s), %s read",
        units(),
        f,
        s > 0 ? f / s : 0.0,
        human(bytesRead()));
  }

  /**
   * The closing line on stderr (CONTRACT section 10: units by status, bytes read and seconds),
   * e.g. {@code rea scan: 9000 complete, 0 partial, 500 rejected, 500 failed, 1000 skipped;
   * 0 kept from the earlier output; 2203344 bytes read in 3.41 s}, then, when any unit carries a
   * warning, {@code ; 12 units carry warnings (--fail-on warnings fails on them)}, and when a
   * skipped file is a Git LFS pointer, {@code ; 3 skipped files are Git LFS pointers, not models
   * (fetch the content, for example with git lfs pull)}.
   */
  public String closing() {
    StringBuilder sb = new StringBuilder("rea scan: ");
    for (UnitStatus st : UnitStatus.values()) {
      sb.append(count(st)).append(' ').append(st.wire());
      sb.append(st == UnitStatus.SKIPPED ? "; " : ", ");
    }
    sb.append(kept()).append(" kept from the earlier output; ");
    sb.append(bytesRead()).append(" bytes read in ");
    sb.append(String.format(Locale.ROOT, "%.2f s", seconds()));
    long w = withWarnings();
    if (w > 0) {
      // A warning does not fail a scan unless asked: said here, where a person looks.
      sb.append("; ").append(w).append(w == 1 ? " unit carries" : " units carry")
          .append(" warnings (--fail-on warnings fails on them)");
    }
    long lfs = lfsPointers();
    if (lfs > 0) {
      // A repository cloned without its LFS content scans with every model skipped and exit 0:
      // the one place a person reading the run can learn that nothing was inspected.
      sb.append("; ").append(lfs)
          .append(lfs == 1 ? " skipped file is a Git LFS pointer" : " skipped files are Git LFS pointers")
          .append(", not ").append(lfs == 1 ? "a model" : "models")
          .append(" (fetch the content, for example with git lfs pull)");
    }
    return sb.toString();
  }

  private static String human(long bytes) {
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
}
