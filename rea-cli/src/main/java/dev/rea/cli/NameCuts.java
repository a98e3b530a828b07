package dev.rea.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Cuts the names of one table column (tensor names, member files) to a width so that names that
 * differ stay told apart. A name that does not fit keeps its beginning and its end around
 * {@code ...}; of the splits that fit, the one nearest the middle is taken whose beginning
 * reaches past where the name departs from each other name, or whose end reaches back past
 * where their common ending starts. So at 30 columns {@code
 * model.layers.10.self_attn.k_norm.weight}, beside the same name of layer 11 and the {@code
 * k_proj} of layer 10, becomes {@code model.layers.10..._norm.weight}, where cutting the end would
 * have made three equal rows. A cut never falls between two digits, and a point beside the
 * {@code ...} is avoided where another split does as well. When no split tells a name from every
 * other one (a width too small for the differences), the split nearest the middle is taken.
 *
 * <p>Names are compared with every other distinct name of the column up to {@value #PAIRWISE}
 * of them; past that, with their neighbours in sorted order only (whose common beginnings are
 * the longest), so a table of many rows costs linear time per name.
 */
final class NameCuts {
  /** Up to this many distinct names, each name is compared with every other one. */
  static final int PAIRWISE = 512;

  private NameCuts() {}

  /**
   * @param names the column's cells (already printable: {@link TerminalText#printable})
   * @param max the column's width in terminal columns ({@link TextTable#columns})
   * @return each name whole when it fits, else cut as the class says
   */
  static String[] cut(String[] names, int max) {
    List<String> sorted = new ArrayList<>(new TreeSet<>(List.of(names)));
    String[] out = new String[names.length];
    for (int i = 0; i < names.length; i++) {
      String t = names[i];
      out[i] = TextTable.columns(t) <= max ? t : cutOne(t, others(sorted, t), max);
    }
    return out;
  }

  /** @return the names {@code t} must stay told apart from */
  private static List<String> others(List<String> sorted, String t) {
    if (sorted.size() <= PAIRWISE) {
      List<String> all = new ArrayList<>(sorted);
      all.remove(t);
      return all;
    }
    int at = java.util.Collections.binarySearch(sorted, t);
    List<String> near = new ArrayList<>(2);
    if (at > 0) {
      near.add(sorted.get(at - 1));
    }
    if (at + 1 < sorted.size()) {
      near.add(sorted.get(at + 1));
    }
    return near;
  }

  private static String cutOne(String t, List<String> others, int max) {
    int[] cp = t.codePoints().toArray();
    int n = cp.length;
    int room = Math.max(0, max - 3);
    int[][] other = new int[others.size()][];
    for (int k = 0; k < other.length; k++) {
      other[k] = others.get(k).codePoints().toArray();
    }
    int middle = 0;
    for (int w = 0; middle < n && w + TextTable.width(cp[middle]) <= room / 2; middle++) {
      w += TextTable.width(cp[middle]);
    }
    String fallback = null;
    String dotted = null;
    // Beginnings of middle, middle + 1, middle - 1, middle + 2, ... code points.
    for (int k = 0; k <= 2 * n + 1; k++) {
      int h = k % 2 == 0 ? middle - k / 2 : middle + (k + 1) / 2;
      if (h < 0 || h > n || splitsNumber(cp, h) || TextTable.splitsEscape(cp, h)) {
        continue;
      }
      int r = tail(cp, h, room);
      if (r < 0) {
        continue;
      }
      if (fallback == null) {
        fallback = join(cp, h, r);
      }
      if (apart(cp, h, r, other)) {
        // A point beside the "..." reads as part of it ("model.layers....k_proj"): taken only
        // when no other split keeps the names apart.
        boolean besideDots = (h > 0 && cp[h - 1] == '.') || (r > 0 && cp[n - r] == '.');
        if (!besideDots) {
          return join(cp, h, r);
        }
        if (dotted == null) {
          dotted = join(cp, h, r);
        }
      }
    }
    if (dotted != null) {
      return dotted;
    }
    return fallback != null ? fallback : TextTable.cut(t, max);
  }

  /**
   * @return how many code points of the end fit beside a beginning of {@code h} code points in
   *     {@code room} columns, not starting between two digits; -1 when the beginning alone is
   *     too wide
   */
  private static int tail(int[] cp, int h, int room) {
    int used = 0;
    for (int i = 0; i < h; i++) {
      used += TextTable.width(cp[i]);
    }
    if (used > room) {
      return -1;
    }
    int r = 0;
    while (h + r < cp.length && used + TextTable.width(cp[cp.length - 1 - r]) <= room) {
      used += TextTable.width(cp[cp.length - 1 - r]);
      r++;
    }
    while (r > 0
        && (splitsNumber(cp, cp.length - r) || TextTable.splitsEscape(cp, cp.length - r))) {
      r--;
    }
    return r;
  }

  /** @return whether a cut before code point {@code at} falls between two digits */
  private static boolean splitsNumber(int[] cp, int at) {
    return at > 0 && at < cp.length && Character.isDigit(cp[at - 1]) && Character.isDigit(cp[at]);
  }

  /**
   * @return whether the beginning of {@code h} and end of {@code r} code points keep, against
   *     each other name, a code point past their common beginning or before their common end
   */
  private static boolean apart(int[] cp, int h, int r, int[][] others) {
    for (int[] u : others) {
      int common = 0;
      while (common < cp.length && common < u.length && cp[common] == u[common]) {
        common++;
      }
      int ending = 0;
      while (ending < cp.length
          && ending < u.length
          && cp[cp.length - 1 - ending] == u[u.length - 1 - ending]) {
        ending++;
      }
      if (h <= common && r <= ending) {
        return false;
      }
    }
    return true;
  }

  private static String join(int[] cp, int h, int r) {
    return new String(cp, 0, h) + "..." + new String(cp, cp.length - r, r);
  }
}
