package dev.rea.core.internal.view;

import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.view.Glob;
import dev.rea.core.view.ViewRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;
import java.util.Set;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;

/**
 * The rows a view selects, in row-index order, without materialising them: all rows (a range),
 * an explicit sorted list (from names, keys, labels, indices or name patterns, filtered by the
 * other filters), or the union of disjoint sorted index arrays (type label x storage state).
 * {@link #from} finds the k-th match by binary search, so a page costs O(m log^2 n + page) for m
 * arrays, not a scan. A name pattern ({@code name_glob}, {@code key_glob}) is the exception: it
 * scans the collection's names once, in time linear in their total length.
 */
final class Selection {
  private final int total;
  private final int rangeEnd; // for ranges
  private final int @Nullable [] explicit; // for explicit lists
  private final int @Nullable [][] arrays; // for unions of disjoint arrays
  private final List<String> unmatched;
  private final String unmatchedWhat;
  private final int unmatchedOf;

  private Selection(
      int total, int rangeEnd, int @Nullable [] explicit, int @Nullable [][] arrays,
      List<String> unmatched,
      String unmatchedWhat, int unmatchedOf) {
    this.total = total;
    this.rangeEnd = rangeEnd;
    this.explicit = explicit;
    this.arrays = arrays;
    this.unmatched = unmatched;
    this.unmatchedWhat = unmatchedWhat;
    this.unmatchedOf = unmatchedOf;
  }

  /** @return filtered matches */
  int total() {
    return total;
  }

  /** @return requested names, keys, labels or indices that matched no row (distinct, in order) */
  List<String> unmatched() {
    return unmatched;
  }

  /** @return what {@link #unmatched()} lists, e.g. {@code "names"} */
  String unmatchedWhat() {
    return unmatchedWhat;
  }

  /** @return how many distinct values the filter that produced {@link #unmatched()} had */
  int unmatchedOf() {
    return unmatchedOf;
  }

  /** @return the matches from the {@code offset}-th (0-based) on, in index order */
  PrimitiveIterator.OfInt from(int offset) {
    if (offset >= total) {
      return new ArrayIterator(new int[0], 0);
    }
    if (explicit != null) {
      return new ArrayIterator(explicit, offset);
    }
    if (arrays == null) {
      return new PrimitiveIterator.OfInt() {
        int next = offset;

        @Override
        public boolean hasNext() {
          return next < rangeEnd;
        }

        @Override
        public int nextInt() {
          if (next >= rangeEnd) {
            throw new NoSuchElementException();
          }
          return next++;
        }
      };
    }
    return new MergeIterator(arrays, kth(arrays, offset));
  }

  /** @return the value of the k-th smallest element of the union of disjoint sorted arrays */
  private static int kth(int[][] arrays, int k) {
    int lo = 0;
    int hi = 0;
    for (int[] a : arrays) {
      if (a.length > 0) {
        hi = Math.max(hi, a[a.length - 1]);
      }
    }
    // smallest v with count(<= v) > k
    while (lo < hi) {
      int mid = lo + (hi - lo) / 2;
      long c = 0;
      for (int[] a : arrays) {
        c += upperBound(a, mid);
      }
      if (c > k) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /** @return the number of elements of sorted {@code a} that are {@code <= v} */
  private static int upperBound(int[] a, int v) {
    int lo = 0;
    int hi = a.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (a[mid] <= v) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private static final class ArrayIterator implements PrimitiveIterator.OfInt {
    private final int[] a;
    private int i;

    ArrayIterator(int[] a, int start) {
      this.a = a;
      this.i = start;
    }

    @Override
    public boolean hasNext() {
      return i < a.length;
    }

    @Override
    public int nextInt() {
      if (i >= a.length) {
        throw new NoSuchElementException();
      }
      return a[i++];
    }
  }

  /** Merges disjoint sorted arrays starting at the first element {@code >= start}. */
  private static final class MergeIterator implements PrimitiveIterator.OfInt {
    private final int[][] arrays;
    private final int[] pos;

    MergeIterator(int[][] arrays, int start) {
      this.arrays = arrays;
      this.pos = new int[arrays.length];
      for (int i = 0; i < arrays.length; i++) {
        pos[i] = upperBound(arrays[i], start - 1);
      }
    }

    @Override
    public boolean hasNext() {
      for (int i = 0; i < arrays.length; i++) {
        if (pos[i] < arrays[i].length) {
          return true;
        }
      }
      return false;
    }

    @Override
    public int nextInt() {
      int best = -1;
      for (int i = 0; i < arrays.length; i++) {
        if (pos[i] < arrays[i].length
            && (best < 0 || arrays[i][pos[i]] < arrays[best][pos[best]])) {
          best = i;
        }
      }
      if (best < 0) {
        throw new NoSuchElementException();
      }
      return arrays[best][pos[best]++];
    }
  }

  /** Builds the selection of a validated view over an indexed record. */
  static Selection of(IndexedEvidence ev, ViewRequest v) {
    switch (v.collection()) {
      case TENSORS:
        return tensors(ev, v);
      case METADATA:
        return metadata(ev, v);
      default:
        return types(ev, v);
    }
  }

  private static final class Unmatched {
    final List<String> values = new ArrayList<>();
    String what = "";
    int of;

    void note(String filter, Set<String> distinct, java.util.function.Predicate<String> found) {
      List<String> missing = new ArrayList<>();
      for (String s : distinct) {
        if (!found.test(s)) {
          missing.add(s);
        }
      }
      if (!missing.isEmpty() && values.isEmpty()) {
        values.addAll(missing);
        what = filter;
        of = distinct.size();
      }
    }
  }

  private static Selection tensors(IndexedEvidence ev, ViewRequest v) {
    int n = ev.record().tensors().size();
    Unmatched um = new Unmatched();
    Set<String> labels = v.types() == null ? null : new LinkedHashSet<>(v.types());
    if (labels != null) {
      um.note("types", labels, l -> ev.typeIndex(l) != null);
    }
    int[] explicit = null;
    if (v.names() != null) {
      Set<String> names = new LinkedHashSet<>(v.names());
      um.note("names", names, s -> ev.tensorIndex(s) != null);
      explicit = resolve(names, ev::tensorIndex);
    }
    if (v.nameGlob() != null) {
      explicit = intersect(explicit, globbed(v.nameGlob(), "name_glob", n,
          i -> ev.record().tensors().get(i).name(), um));
    }
    if (v.indices() != null) {
      explicit = intersect(explicit, indices(v.indices(), n, um));
    }
    Set<StorageValidation> states =
        v.storageValidation() == null ? null : Set.copyOf(v.storageValidation());
    if (explicit != null) {
      int[] kept = new int[explicit.length];
      int k = 0;
      for (int i : explicit) {
        var t = ev.record().tensors().get(i);
        if ((labels == null || labels.contains(t.type()))
            && (states == null || states.contains(t.storageValidation()))) {
          kept[k++] = i;
        }
      }
      return explicit(Arrays.copyOf(kept, k), um);
    }
    if (labels != null || states != null) {
      List<int[]> parts = new ArrayList<>();
      Iterable<String> ls = labels != null ? labels : allLabels(ev);
      for (String l : ls) {
        for (StorageValidation s : StorageValidation.values()) {
          if (states == null || states.contains(s)) {
            int[] a = ev.tensorsWith(l, s);
            if (a.length > 0) {
              parts.add(a);
            }
          }
        }
      }
      int total = 0;
      for (int[] a : parts) {
        total += a.length;
      }
      return new Selection(total, 0, null, parts.toArray(new int[0][]), um.values, um.what, um.of);
    }
    return range(n, um);
  }

  private static List<String> allLabels(IndexedEvidence ev) {
    List<String> out = new ArrayList<>();
    for (var t : ev.record().types()) {
      out.add(t.type());
    }
    return out;
  }

  private static Selection metadata(IndexedEvidence ev, ViewRequest v) {
    int n = ev.record().metadata().size();
    Unmatched um = new Unmatched();
    int[] explicit = null;
    if (v.keys() != null) {
      Set<String> keys = new LinkedHashSet<>(v.keys());
      um.note("keys", keys, s -> ev.metadataIndex(s) != null);
      explicit = resolve(keys, ev::metadataIndex);
    }
    if (v.keyGlob() != null) {
      explicit = intersect(explicit, globbed(v.keyGlob(), "key_glob", n,
          i -> ev.record().metadata().get(i).key(), um));
    }
    if (v.indices() != null) {
      explicit = intersect(explicit, indices(v.indices(), n, um));
    }
    return explicit != null ? explicit(explicit, um) : range(n, um);
  }

  private static Selection types(IndexedEvidence ev, ViewRequest v) {
    int n = ev.record().types().size();
    Unmatched um = new Unmatched();
    int[] explicit = null;
    if (v.types() != null) {
      Set<String> labels = new LinkedHashSet<>(v.types());
      um.note("types", labels, s -> ev.typeIndex(s) != null);
      explicit = resolve(labels, ev::typeIndex);
    }
    if (v.indices() != null) {
      explicit = intersect(explicit, indices(v.indices(), n, um));
    }
    return explicit != null ? explicit(explicit, um) : range(n, um);
  }

  private static Selection range(int n, Unmatched um) {
    return new Selection(n, n, null, null, um.values, um.what, um.of);
  }

  private static Selection explicit(int[] sorted, Unmatched um) {
    return new Selection(sorted.length, 0, sorted, null, um.values, um.what, um.of);
  }

  private static int[] resolve(
      Set<String> values, java.util.function.Function<String, @Nullable Integer> f) {
    int[] out = new int[values.size()];
    int k = 0;
    for (String s : values) {
      Integer i = f.apply(s);
      if (i != null) {
        out[k++] = i;
      }
    }
    int[] r = Arrays.copyOf(out, k);
    Arrays.sort(r);
    return r;
  }

  /**
   * @return the rows, in index order, whose name (or key) matches the whole pattern; one pass
   *     over the rows, each in time linear in its length ({@link Glob#matches})
   */
  private static int[] globbed(
      String pattern, String filter, int n, IntFunction<String> nameOf, Unmatched um) {
    Glob glob;
    try {
      glob = Glob.compile(pattern);
    } catch (Glob.SyntaxError e) {
      // validate() compiled it already; a view reaches a selection only through it.
      throw new IllegalStateException("unvalidated view: " + e.getMessage(), e);
    }
    int[] out = new int[8];
    int k = 0;
    for (int i = 0; i < n; i++) {
      if (glob.matches(nameOf.apply(i))) {
        if (k == out.length) {
          out = Arrays.copyOf(out, Math.min(n, out.length * 2));
        }
        out[k++] = i;
      }
    }
    int matched = k;
    um.note(filter, Set.of(pattern), s -> matched > 0);
    return Arrays.copyOf(out, k);
  }

  private static int[] indices(List<Integer> requested, int n, Unmatched um) {
    Set<String> distinct = new LinkedHashSet<>();
    for (Integer i : requested) {
      distinct.add(Integer.toString(i));
    }
    um.note("indices", distinct, s -> Integer.parseInt(s) < n);
    int[] out = requested.stream().mapToInt(Integer::intValue).filter(i -> i < n).sorted()
        .distinct().toArray();
    return out;
  }

  /** @return the intersection of two sorted distinct arrays (null means "all") */
  private static int[] intersect(int @Nullable [] a, int[] b) {
    if (a == null) {
      return b;
    }
    int[] out = new int[Math.min(a.length, b.length)];
    int i = 0;
    int j = 0;
    int k = 0;
    while (i < a.length && j < b.length) {
      if (a[i] < b[j]) {
        i++;
      } else if (a[i] > b[j]) {
        j++;
      } else {
        out[k++] = a[i];
        i++;
        j++;
      }
    }
    return Arrays.copyOf(out, k);
  }
}
