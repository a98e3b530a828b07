package dev.rea.core.internal.evidence;

import dev.rea.core.evidence.Coverage;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.Totals;
import dev.rea.core.evidence.TypeRow;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Per-type and whole-record totals derived from tensor declarations (specification, "Parameter
 * counts and per-type totals are derived from declarations"). Sums use exact arithmetic; a byte
 * total is null as soon as one contributing byte length is unknown.
 */
public final class Derivations {
  private Derivations() {}

  /**
   * One row per type label. GGUF rows (with a type ID) are ordered by type ID, then label;
   * safetensors rows by label in Unicode code-point order.
   */
  public static List<TypeRow> types(List<TensorRow> tensors) {
    Map<String, Acc> byLabel = new LinkedHashMap<>();
    Acc last = null;
    for (TensorRow t : tensors) {
      // Runs of one type are common: skip the map lookup for them.
      Acc a = last != null && last.label.equals(t.type()) ? last : null;
      if (a == null) {
        a = byLabel.computeIfAbsent(t.type(), k -> new Acc(t.type(), t.typeId()));
        last = a;
      }
      a.count++;
      a.params.add(t.parameterCount());
      if (a.bytesKnown) {
        if (t.byteLength() == null) {
          a.bytesKnown = false;
        } else {
          a.bytes.add(t.byteLength());
        }
      }
    }
    List<Acc> accs = new ArrayList<>(byLabel.values());
    accs.sort(
        Comparator.comparingLong((Acc a) -> a.typeId == null ? Long.MAX_VALUE : a.typeId)
            .thenComparing((Acc a) -> a.label, Derivations::compareCodePoints));
    List<TypeRow> rows = new ArrayList<>(accs.size());
    for (Acc a : accs) {
      rows.add(
          new TypeRow(
              a.label,
              a.typeId,
              a.count,
              a.params.value(),
              a.bytesKnown ? a.bytes.value() : null));
    }
    return rows;
  }

  /** @return totals over all tensors */
  public static Totals totals(List<TensorRow> tensors) {
    UnsignedSum params = new UnsignedSum();
    UnsignedSum bytes = new UnsignedSum();
    boolean bytesKnown = true;
    for (TensorRow t : tensors) {
      params.add(t.parameterCount());
      if (bytesKnown) {
        if (t.byteLength() == null) {
          bytesKnown = false;
        } else {
          bytes.add(t.byteLength());
        }
      }
    }
    return new Totals(tensors.size(), params.value(), bytesKnown ? bytes.value() : null);
  }

  /** @return true when every tensor's storage was validated */
  public static boolean storageComplete(List<TensorRow> tensors) {
    for (TensorRow t : tensors) {
      if (t.storageValidation() != StorageValidation.CONSISTENT) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code coverage.storage_sizes} (CONTRACT sections 3 and 12): {@code partial} when the header
   * was read in part or any storage check is unknown, else {@code assumed} when some length rests
   * on the request's layout assumption (a {@value TypeNotes#LAYOUT_ASSUMED} limitation), else
   * {@code complete}.
   */
  public static String storageCoverage(
      boolean headerComplete, List<TensorRow> tensors, List<Limitation> limitations) {
    if (!headerComplete || !storageComplete(tensors)) {
      return Coverage.PARTIAL;
    }
    for (Limitation l : limitations) {
      if (TypeNotes.LAYOUT_ASSUMED.equals(l.code())) {
        return Coverage.ASSUMED;
      }
    }
    return Coverage.COMPLETE;
  }

  /** @return true when every tensor's byte length (and so its range end) is known */
  public static boolean rangesComplete(List<TensorRow> tensors) {
    for (TensorRow t : tensors) {
      if (t.byteLength() == null) {
        return false;
      }
    }
    return true;
  }

  /** @return the unsigned value of {@code v} as a BigInteger */
  public static BigInteger unsigned(long v) {
    BigInteger b = BigInteger.valueOf(v);
    return v >= 0 ? b : b.add(BigInteger.ONE.shiftLeft(64));
  }

  /** Compares strings by Unicode code point (equal to UTF-8 byte order), not UTF-16 unit. */
  public static int compareCodePoints(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char ca = a.charAt(i);
      char cb = b.charAt(i);
      if (ca != cb) {
        // UTF-16 order equals code-point order except that surrogates (U+D800..U+DFFF, which
        // encode U+10000 and above) sort below U+E000..U+FFFF. Lift surrogates above the rest of
        // the BMP and shift E000..FFFF down to fix that (as ICU's code-point-order compare does).
        // Both strings agree before i, so a differing trail surrogate follows the same lead.
        if (ca >= 0xD800 && cb >= 0xD800) {
          ca = fixupForCodePointOrder(ca);
          cb = fixupForCodePointOrder(cb);
        }
        return Character.compare(ca, cb);
      }
    }
    return Integer.compare(a.length(), b.length());
  }

  private static char fixupForCodePointOrder(char c) {
    return (char) (c >= 0xE000 ? c - 0x800 : c + 0x2000);
  }

  /**
   * An exact sum of unsigned 64-bit values in two longs (at most 2^64 terms, so 128 bits never
   * overflow): the same value BigInteger additions give, without an object per term.
   */
  private static final class UnsignedSum {
    private long low;
    private long high;

    void add(long unsignedValue) {
      long sum = low + unsignedValue;
      if (Long.compareUnsigned(sum, low) < 0) {
        high++;
      }
      low = sum;
    }

    BigInteger value() {
      BigInteger v = unsigned(low);
      return high == 0 ? v : BigInteger.valueOf(high).shiftLeft(64).add(v);
    }
  }

  private static final class Acc {
    final String label;
    final @Nullable Long typeId;
    int count;
    final UnsignedSum params = new UnsignedSum();
    final UnsignedSum bytes = new UnsignedSum();
    boolean bytesKnown = true;

    Acc(String label, @Nullable Long typeId) {
      this.label = label;
      this.typeId = typeId;
    }
  }
}
