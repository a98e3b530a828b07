package dev.rea.spark;

import dev.rea.core.ModelUnits;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.options.Limits;
import dev.rea.spark.hadoop.HadoopSource;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Plans one directory's units as {@code rea scan} and {@code inspect-model-set} group them
 * (CONTRACT sections 9 and 10, {@link ModelUnits#group}): a safetensors index with its members
 * and a GGUF split set are one {@code set} unit each, and so is a lone file named as a shard (a
 * set of one); every other file is a {@code file} unit. A
 * plan is a line of text, so that plans travel as a {@code Dataset<String>}:
 *
 * <ul>
 *   <li>{@code F<TAB>path}: a file, inspected alone ({@link FileInspector});
 *   <li>{@code S<TAB>directory<TAB>name}: the set named by {@code name} (its index or first
 *       split member) in {@code directory}, inspected over the directory ({@link SetUnitInspector});
 *       {@code name/member} when the first split member is missing: the set is read through a
 *       member that is there (a file name holds no {@code /}), as {@code rea scan} reads it.
 * </ul>
 *
 * <p>Reads: each index (refused over the header ceiling before it is read), and the first bytes
 * of each file named like a split member ({@code PREFIX-NNNNN-of-MMMMM.gguf}: a split set is
 * GGUF by content). Nothing else. An index or probe that fails leaves the grouping to the set's
 * inspection, which reports why. Memory: one directory's names.
 */
final class UnitPlanner {
  static final String FILE = "F";
  static final String SET = "S";
  private static final char TAB = '\t';

  private UnitPlanner() {}

  /** @return the parent directory of a file's path (the key paths are grouped by) */
  static String parentOf(String path) {
    Path parent = new Path(path).getParent();
    return parent == null ? path : parent.toString();
  }

  /**
   * Plans one directory.
   *
   * @param dir the directory (a key of {@link #parentOf})
   * @param paths the files listed in it
   * @param conf the Hadoop configuration
   * @return the plans, in code-point order of the units' anchors
   */
  static Iterator<String> plan(String dir, Iterator<String> paths, Configuration conf) {
    Map<String, String> byName = new LinkedHashMap<>();
    while (paths.hasNext()) {
      String p = paths.next();
      byName.put(new Path(p).getName(), p);
    }
    boolean mayGroup = false;
    for (String n : byName.keySet()) {
      mayGroup |= ModelUnits.isIndexName(n) || ModelUnits.isSplitName(n);
    }
    List<String> out = new ArrayList<>(byName.size());
    if (!mayGroup) {
      byName.forEach((n, p) -> out.add(alone(dir, n, p, false)));
      return out.iterator();
    }
    Path directory = new Path(dir);
    FileSystem fs;
    try {
      fs = HadoopSource.fileSystem(directory, conf);
    } catch (IOException e) {
      // The inspections will say why the file system cannot be reached, file by file.
      byName.values().forEach(p -> out.add(FILE + TAB + p));
      return out.iterator();
    }
    Limits limits = Limits.defaults();
    List<ModelUnits.Unit> units =
        ModelUnits.group(
            new ArrayList<>(byName.keySet()),
            n -> gguf(fs, new Path(directory, n)),
            n -> readIndex(fs, new Path(directory, n), limits),
            limits);
    java.util.function.Predicate<String> readAsSet = ModelUnits.besideUnreadableIndex(units);
    for (ModelUnits.Unit u : units) {
      if (u.set()) {
        String via = "";
        if (!byName.containsKey(u.anchor())) {
          for (String n : u.names()) {
            if (byName.containsKey(n)) {
              via = "/" + n;
              break;
            }
          }
        }
        out.add(SET + TAB + dir + TAB + u.anchor() + via);
      } else {
        String p = byName.get(u.anchor());
        out.add(
            alone(dir, u.anchor(), p == null ? new Path(directory, u.anchor()).toString() : p,
                readAsSet.test(u.anchor())));
      }
    }
    return out.iterator();
  }

  /**
   * The plan of a file no index or split set claims: a file unit, but a set of one when it is
   * named as a checkpoint's shard ({@link ModelUnits#isShardName}), so that its row carries the
   * set's {@code shard_without_index} warning as {@code rea scan}'s line does (docs/scale.md),
   * and when {@code besideUnreadableIndex} (a safetensors file beside an index that could not be
   * read: {@link ModelUnits#besideUnreadableIndex}), so that its row carries that index's
   * failure.
   */
  private static String alone(
      String dir, String name, String path, boolean besideUnreadableIndex) {
    boolean set = ModelUnits.isShardName(name) || besideUnreadableIndex;
    return set ? SET + TAB + dir + TAB + name : FILE + TAB + path;
  }

  /**
   * @return the fields of a plan: kind, then the path (file), or the directory, the name and the
   *     member to read the set through (set; the name itself when it is there)
   */
  static String[] fields(String plan) {
    int a = plan.indexOf(TAB);
    if (plan.startsWith(SET)) {
      int b = plan.lastIndexOf(TAB);
      String name = plan.substring(b + 1);
      int slash = name.indexOf('/');
      String via = slash < 0 ? name : name.substring(slash + 1);
      name = slash < 0 ? name : name.substring(0, slash);
      return new String[] {SET, plan.substring(a + 1, b), name, via};
    }
    return new String[] {FILE, plan.substring(a + 1)};
  }

  private static boolean gguf(FileSystem fs, Path p) {
    try {
      FileStatus s = fs.getFileStatus(p);
      try (HadoopSource src =
          HadoopSource.open(fs, s, dev.rea.core.options.HashMode.HEADER, 0)) {
        return src.probe().modelFormat().filter("gguf"::equals).isPresent();
      }
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static InputStream readIndex(FileSystem fs, Path p, Limits limits)
      throws ReaException {
    try {
      long len = fs.getFileStatus(p).getLen();
      if (len > limits.headerCeilingBytes()) {
        throw ReaException.builder(
                Constraint.HEADER_CEILING, "the safetensors index is over the header ceiling")
            .path(p.toString())
            .build();
      }
      return fs.open(p);
    } catch (IOException e) {
      throw ReaException.builder(Constraint.IO_ERROR, "reading the index failed: " + p)
          .path(p.toString())
          .cause(e)
          .build();
    }
  }
}
