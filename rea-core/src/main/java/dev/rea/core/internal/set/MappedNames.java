package dev.rea.core.internal.set;

import dev.rea.core.internal.evidence.Derivations;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What a safetensors index's {@code weight_map} says of each member file, without its names: how
 * many tensors it maps to the file, and a keyed digest of their names (two independent
 * SipHash-2-4 values of each name's UTF-8 bytes, summed modulo 2^64 per lane). The digest of a
 * set of names does not depend on their order, so a member whose tensor names are exactly the
 * names the index maps to it gives the same count and digest ({@link #matches}).
 *
 * <p>Why not the names: an index maps every tensor of the model (91,991 names for
 * DeepSeek-V3), and the set's memory should stay that of its largest member's header (CONTRACT
 * section 9, issue 18), not hold the model's whole name list while every member is read. Why it
 * is sound: the keys are drawn at random for each index read and never leave this object, so
 * whoever wrote the index and the members cannot choose names whose digests agree by accident;
 * for names that differ, equal 128-bit digests happen with probability about 2^-128 (SipHash is
 * a pseudorandom function under a secret key). When the digests differ, {@link SetChecks} reads
 * the index again whole ({@link WeightMap}) and names every contradiction exactly; equal digests
 * are the only case decided without the names.
 *
 * <p>Immutable once built ({@link Builder}); thread-safe.
 */
public final class MappedNames {
  private final long a0;
  private final long a1;
  private final long b0;
  private final long b1;
  private final List<String> files;
  private final Map<String, Integer> fileNumbers;
  private final int[] counts;
  private final long[] sumA;
  private final long[] sumB;
  private final int total;

  private MappedNames(Builder b, List<String> files, int[] counts, long[] sumA, long[] sumB) {
    this.a0 = b.a0;
    this.a1 = b.a1;
    this.b0 = b.b0;
    this.b1 = b.b1;
    this.files = List.copyOf(files);
    Map<String, Integer> numbers = new HashMap<>();
    for (int i = 0; i < files.size(); i++) {
      numbers.put(files.get(i), i);
    }
    this.fileNumbers = numbers;
    this.counts = counts;
    this.sumA = sumA;
    this.sumB = sumB;
    this.total = b.total;
  }

  /** @return the distinct member files, in code-point order */
  public List<String> files() {
    return files;
  }

  /** @return the number of tensor names the index maps */
  public int size() {
    return total;
  }

  /** @return how many tensors the index maps to {@code file} (0 for a file it does not name) */
  public int count(String file) {
    Integer i = fileNumbers.get(file);
    return i == null ? 0 : counts[i];
  }

  /**
   * @param file a member file
   * @param names the member's tensor names (each once, as a safetensors header holds them)
   * @return whether they are, but for a chance of about 2^-128, exactly the names the index maps
   *     to {@code file}
   */
  public boolean matches(String file, List<String> names) {
    Integer i = fileNumbers.get(file);
    if (i == null || counts[i] != names.size()) {
      return false;
    }
    long sa = 0;
    long sb = 0;
    for (String n : names) {
      byte[] b = n.getBytes(StandardCharsets.UTF_8);
      sa += SipHash.hash(a0, a1, b, 0, b.length);
      sb += SipHash.hash(b0, b1, b, 0, b.length);
    }
    return sa == sumA[i] && sb == sumB[i];
  }

  /**
   * Collects the digest while an index is read, one mapping at a time. Also remembers each name's
   * first lane, to tell whether two names may be the same ({@link #mayRepeat}); that array is
   * dropped by {@link #build}. Not thread-safe.
   */
  static final class Builder {
    private final long a0;
    private final long a1;
    private final long b0;
    private final long b1;
    private final List<String> files = new ArrayList<>();
    private final Map<String, Integer> ids = new HashMap<>();
    private int[] counts = new int[4];
    private long[] sumA = new long[4];
    private long[] sumB = new long[4];
    private long[] firstLanes = new long[256];
    private int total;

    Builder() {
      ThreadLocalRandom r = ThreadLocalRandom.current();
      a0 = r.nextLong();
      a1 = r.nextLong();
      b0 = r.nextLong();
      b1 = r.nextLong();
    }

    /** @return the file's number, given on first sight */
    int fileId(String file) {
      Integer id = ids.get(file);
      if (id == null) {
        id = files.size();
        files.add(file);
        ids.put(file, id);
        if (id == counts.length) {
          counts = Arrays.copyOf(counts, id * 2);
          sumA = Arrays.copyOf(sumA, id * 2);
          sumB = Arrays.copyOf(sumB, id * 2);
        }
      }
      return id;
    }

    /** Adds one mapping: {@code name[0..length)} (UTF-8) to the file numbered {@code file}. */
    void add(byte[] name, int length, int file) {
      long a = SipHash.hash(a0, a1, name, 0, length);
      sumA[file] += a;
      sumB[file] += SipHash.hash(b0, b1, name, 0, length);
      counts[file]++;
      if (total == firstLanes.length) {
        firstLanes = Arrays.copyOf(firstLanes, total * 2);
      }
      firstLanes[total++] = a;
    }

    /** @return the number of mappings added */
    int size() {
      return total;
    }

    /**
     * @return whether two of the names added may be the same: false means they are all distinct
     *     (equal names have equal digests); true is a duplicate, or, with a chance of about
     *     n^2/2^65 for n names, two names whose first lanes agree
     */
    boolean mayRepeat() {
      long[] lanes = Arrays.copyOf(firstLanes, total);
      Arrays.sort(lanes);
      for (int i = 1; i < lanes.length; i++) {
        if (lanes[i] == lanes[i - 1]) {
          return true;
        }
      }
      return false;
    }

    MappedNames build() {
      List<String> sorted = new ArrayList<>(files);
      sorted.sort(Derivations::compareCodePoints);
      int n = sorted.size();
      int[] c = new int[n];
      long[] sa = new long[n];
      long[] sb = new long[n];
      for (int i = 0; i < n; i++) {
        int id = java.util.Objects.requireNonNull(ids.get(sorted.get(i)), "numbered");
        c[i] = counts[id];
        sa[i] = sumA[id];
        sb[i] = sumB[id];
      }
      firstLanes = new long[0];
      return new MappedNames(this, sorted, c, sa, sb);
    }
  }
}
