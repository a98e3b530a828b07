package dev.rea.cli.scan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The PATHs of {@code rea scan}, each file walked once (CONTRACT section 10: "one JSON line per
 * unit"). A PATH is left out when its real path ({@link Path#toRealPath}: links resolved) is
 * that of an earlier PATH, or lies inside a directory PATH's real path: the walk of that
 * directory reaches it (the walk follows no link below a PATH, but a real path inside the
 * directory is reached without one). So {@code rea scan c c c/a.gguf} walks {@code c} once and
 * writes each unit under {@code c} once, spelled as reached from {@code c}.
 *
 * <p>Files are told apart by path, not by device and inode: two hard links, or a tree reachable
 * twice through a bind mount elsewhere than an ancestor, are different paths and get a line
 * each. A PATH whose real path cannot be found (it vanished after the arguments were checked,
 * a permission on the way) is kept: its walk reports it.
 */
public final class ScanRoots {
  private ScanRoots() {}

  /**
   * A PATH's spelling without {@code .} and {@code ..} ({@link Path#normalize}), when that
   * names the same file; otherwise the PATH as given. Each line of a scan names its unit by the
   * absolute path the walk reached it by, and {@code --resume} finds a unit's earlier line by
   * that name: a scan of {@code d} and a resumed scan of {@code ../d} from a subdirectory name the
   * same files only when both are spelled without the {@code ..}. The removal is lexical, and
   * below a symbolic link {@code link/..} is the link target's parent, not the directory holding
   * the link, so the shorter spelling is used only when both lead to the same file ({@link
   * Files#isSameFile}: device and inode); when either cannot be reached the PATH is kept as given
   * (its walk reports why).
   *
   * @param root a PATH, absolute
   * @return {@code root} normalized when that is the same file, else {@code root}
   */
  public static Path tidy(Path root) {
    Path normalized = root.normalize();
    if (normalized.equals(root)) {
      return root;
    }
    try {
      return Files.isSameFile(root, normalized) ? normalized : root;
    } catch (IOException | SecurityException e) {
      return root;
    }
  }

  /**
   * The directories a scan reads files through ({@link dev.rea.core.Rea.Builder#confinedTo},
   * which adds a Hugging Face snapshot's {@code blobs/} itself): its PATHs, each also by its real
   * path.
   * PATHs that are not directories are left out when the front door is built.
   *
   * @param roots the PATHs, absolute
   * @return the directories, in order, each once
   */
  public static List<Path> confinement(List<Path> roots) {
    java.util.LinkedHashSet<Path> out = new java.util.LinkedHashSet<>(roots);
    for (Path r : roots) {
      try {
        // A link inside may name its target by the real path (the walk's test, DirectorySets).
        out.add(r.toRealPath());
      } catch (IOException | SecurityException gone) {
        // Its walk reports it.
      }
    }
    return List.copyOf(out);
  }

  /**
   * @param roots the PATHs, absolute, as given
   * @param notice receives one sentence per PATH left out, naming the PATH that covers it
   * @return the PATHs to walk, in the order given, without those another covers
   */
  public static List<Path> distinct(List<Path> roots, Consumer<String> notice) {
    int n = roots.size();
    @Nullable Path[] real = new Path[n];
    boolean[] directory = new boolean[n];
    for (int i = 0; i < n; i++) {
      try {
        Path r = roots.get(i).toRealPath();
        real[i] = r;
        directory[i] = Files.isDirectory(r);
      } catch (IOException | SecurityException e) {
        real[i] = null;
      }
    }
    List<Path> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int cover = cover(real, directory, i);
      if (cover < 0) {
        out.add(roots.get(i));
        continue;
      }
      notice.accept("PATH " + roots.get(i)
          + (java.util.Objects.equals(real[i], real[cover]) ? " is the same as PATH " : " is inside PATH ")
          + roots.get(cover) + ": scanned once, as part of " + roots.get(cover));
    }
    return out;
  }

  /**
   * @return the PATH that covers PATH {@code i}, or -1: the outermost directory PATH whose real
   *     path holds it, the earliest of equal ones (itself when that is {@code i}, then -1), or
   *     else the earliest PATH of the same real path
   */
  private static int cover(@Nullable Path[] real, boolean[] directory, int i) {
    Path ri = real[i];
    if (ri == null) {
      return -1;
    }
    int best = -1;
    for (int j = 0; j < real.length; j++) {
      Path rj = real[j];
      if (rj == null || !(directory[j] || rj.equals(ri)) || !ri.startsWith(rj)) {
        continue;
      }
      Path rb = best < 0 ? null : real[best];
      if (rb == null || rj.getNameCount() < rb.getNameCount()) {
        best = j; // outermost first; among equal real paths the earliest (j ascends)
      }
    }
    return best == i ? -1 : best;
  }
}
