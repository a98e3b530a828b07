package dev.rea.cli.scan;

import dev.rea.core.FileProbe;
import dev.rea.core.HubCache;
import dev.rea.core.ModelUnits;
import dev.rea.core.Rea;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.FileIdentity;
import dev.rea.core.options.Limits;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The set grouping of {@code rea scan} (CONTRACT section 10: "groups them as section 9 would: an
 * index with its members, a split set, each other model file alone"): holds a directory's
 * regular files until its listing ends, then groups their names with {@link ModelUnits#group}
 * (what {@code inspect-model-set} uses) and hands over one {@link ScanUnit.Kind#SET} unit per
 * safetensors index or GGUF split set and one {@link ScanUnit.Kind#FILE} unit per other file. A
 * member of a set is never a unit of its own.
 *
 * <p>Reads on the walking thread: each index, streamed (refused when it passes the header
 * ceiling, never held whole; an index that cannot be read becomes a set unit all the same, whose
 * inspection reports why), and the first 512 bytes of each file named like a split member (a split set is
 * GGUF by content). Other files are read only by the workers.
 *
 * <p><b>Memory.</b> A directory's files are held until its listing ends: a path and an identity
 * each, about 300 bytes. Since the walk is depth first, the directories on the current path
 * from the root hold theirs at once. Past {@link #HELD} files in one directory, a file whose name
 * cannot make it a set member by the usual names ({@code *.safetensors.index.json}, {@code
 * *.safetensors}, {@code PREFIX-NNNNN-of-MMMMM.gguf}) is handed over at once as a file unit, so
 * only such names are held beyond that (a directory of a million other files holds {@value
 * #HELD}); an index in such a directory naming a member of another name would see that member
 * also scanned alone.
 *
 * <p><b>Links out of the PATHs.</b> A set's index or member may be a symbolic link (a Hugging
 * Face snapshot's files are); the set inspection reads through it. One whose real target lies
 * outside every scanned PATH (a directory PATH, or the directory of a file PATH) is not read,
 * and nothing of its target is written: an upload that links {@code model-00002-of-00002
 * .safetensors} to {@code /etc/shadow} must not make a registry's scan open that file or record
 * its size and inode. Its set becomes a {@link ScanUnit#refused} unit (a {@code failed} line,
 * {@code not_regular_file} naming the link). A Hugging Face snapshot's link to its repository's
 * blob ({@link HubCache}) is read through wherever the PATH starts, as the walk takes it.
 */
public final class DirectorySets implements UnitGrouping {
  /** Files one directory holds before handing over those that cannot be set members. */
  public static final int HELD = 65_536;

  private final Limits limits;
  private final int held;
  /** The real paths a link's target must lie under to be read through. */
  private final List<Path> roots;

  /**
   * @param limits the limits indexes are read with (the header ceiling bounds an index)
   * @param paths the scan's PATHs: a link of a set is read through only when its real target
   *     lies under one of them (a directory PATH, or the directory of a file PATH)
   */
  public DirectorySets(Limits limits, List<Path> paths) {
    this(limits, paths, HELD, null);
  }

  /**
   * As {@link #DirectorySets(Limits, List)}, reading indexes and first bytes through {@code
   * rea} ({@link Rea#openForReading}, {@link Rea#probe}): a scan's front door, confined to its
   * PATHs, so that these reads too are bounded in time and stay inside them.
   */
  public DirectorySets(Limits limits, List<Path> paths, Rea rea) {
    this(limits, paths, HELD, rea);
  }

  /** Test seam: a smaller bound. */
  DirectorySets(Limits limits, List<Path> paths, int held) {
    this(limits, paths, held, null);
  }

  private DirectorySets(Limits limits, List<Path> paths, int held, @Nullable Rea rea) {
    this.limits = limits;
    this.held = held;
    this.roots = realRoots(paths);
    this.rea = rea;
  }

  /** Reads indexes and first bytes, or null to read them by path. */
  private final @Nullable Rea rea;

  private static List<Path> realRoots(List<Path> paths) {
    List<Path> out = new ArrayList<>();
    for (Path p : paths) {
      try {
        Path real = p.toRealPath();
        Path parent = p.toAbsolutePath().getParent();
        if (Files.isDirectory(real)) {
          out.add(real);
        } else if (parent != null) {
          out.add(parent.toRealPath());
        }
      } catch (IOException | SecurityException e) {
        // A PATH that cannot be resolved holds nothing to read through; its walk reports it.
      }
    }
    return List.copyOf(out);
  }

  @Override
  public DirectoryUnits directory(Path directory) {
    return new Held(directory, false);
  }

  /**
   * Files given as PATHs: a given {@code *.safetensors} file is a shard when an index beside it
   * names it, and is then scanned as that index's set (as {@code rea check} and {@code
   * inspect-model-set} take it: a shard alone would hide the checkpoint's missing shards and its
   * index's warnings). The indexes beside are read for this; a set unit that holds no given
   * file is not handed over (the PATHs did not ask for it).
   */
  @Override
  public DirectoryUnits givenFiles(Path directory) {
    return new Held(directory, true);
  }

  /** One directory's held files. */
  private final class Held implements DirectoryUnits {
    private final Path directory;
    /** The names of the files given as PATHs, when they, not a listing, are held. */
    private final @Nullable List<String> given;
    private final Map<String, ListedFile> files = new HashMap<>();
    /**
     * Index names whose entry is not a regular file ({@link #other}), each with whether it leads
     * to one (a link read through) or not (an index that cannot be read, never opened).
     */
    private final Map<String, Boolean> otherIndexes = new HashMap<>();
    /** Index names that are links out of the PATHs, each with its refusal. */
    private final Map<String, ReaException> outsideIndexes = new HashMap<>();

    Held(Path directory, boolean given) {
      this.directory = directory;
      this.given = given ? new ArrayList<>() : null;
    }

    @Override
    public void file(ListedFile file, UnitSink units) throws InterruptedException {
      String name = file.name();
      if (files.size() >= held && !mayBeMember(name)) {
        units.unit(ScanUnit.file(file));
        return;
      }
      files.put(name, file);
      if (given != null) {
        given.add(name);
      }
    }

    /**
     * Takes an index that is a symbolic link or not a file at all, so that the shards beside it
     * are not taken for lone files: a link to a regular file is read through, as {@code
     * inspect-model-set} reads it (its identity is the target's, as a linked member's is);
     * anything else is an index that cannot be read, whose set line says why.
     */
    @Override
    public boolean other(Path entry, FileIdentity identity) {
      Path name = entry.getFileName();
      // A link to a directory stays a skipped link: read through, the directory would be taken
      // for a model's directory; the shards beside it get "the index is a directory".
      if (name == null || !ModelUnits.isIndexName(name.toString()) || Files.isDirectory(entry)) {
        return false;
      }
      ReaException outside = outside(entry);
      if (outside != null) {
        outsideIndexes.put(name.toString(), outside);
        otherIndexes.put(name.toString(), false);
        files.put(name.toString(), new ListedFile(entry, identity));
        return true;
      }
      ListedFile target = examine(name.toString()).file;
      otherIndexes.put(name.toString(), target != null);
      files.put(name.toString(), target != null ? target : new ListedFile(entry, identity));
      return true;
    }

    @Override
    public void end(UnitSink units) throws InterruptedException {
      if (files.isEmpty()) {
        return;
      }
      List<String> givenNames = given;
      if (givenNames != null && givenNames.stream().anyMatch(n -> n.endsWith(".safetensors"))) {
        holdIndexesBeside();
      }
      List<ModelUnits.Unit> grouped =
          ModelUnits.group(new ArrayList<>(files.keySet()), this::gguf, this::readIndex, limits);
      Set<String> ambiguous = givenNames == null ? Set.of() : claimedTwice(grouped, givenNames);
      java.util.function.Predicate<String> readAsSet = ModelUnits.besideUnreadableIndex(grouped);
      // A file read as a set looks for the index beside it, and would read one that leads out.
      ReaException besideOutside = outsideIndexes.values().stream().findFirst().orElse(null);
      for (ModelUnits.Unit u : grouped) {
        if (givenNames != null && u.set() && u.names().stream().noneMatch(givenNames::contains)) {
          continue;
        }
        if (u.set() && u.names().stream().anyMatch(ambiguous::contains)) {
          continue;
        }
        if (!u.set()) {
          ListedFile f = files.get(u.anchor());
          if (f != null && readAsSet.test(u.anchor()) && besideOutside != null) {
            units.unit(ScanUnit.refused(f.path(), List.of(f), besideOutside));
          } else if (f != null && readAsSet.test(u.anchor())) {
            units.unit(ScanUnit.set(f.path(), List.of(f), true));
          } else if (f != null) {
            units.unit(ScanUnit.file(f));
          }
          continue;
        }
        List<ListedFile> present = new ArrayList<>();
        boolean known = true;
        ReaException refusal = null;
        for (String n : u.names()) {
          ListedFile f = files.get(n);
          ReaException outside = outsideIndexes.get(n);
          if (f == null) {
            Examined e = examine(n);
            known &= e != Examined.UNKNOWN;
            f = e.file;
            outside = e.outside;
          }
          if (outside != null && refusal == null) {
            refusal = outside;
          }
          if (f != null && outside == null) {
            present.add(f);
          }
        }
        Path anchor = directory.resolve(u.anchor());
        units.unit(
            refusal != null
                ? ScanUnit.refused(anchor, present, refusal)
                : ScanUnit.set(anchor, present, known));
      }
      for (String n : ambiguous) {
        // Read alone, the shard's inspection finds both indexes and says so (ambiguous_set), as
        // rea check SHARD and inspect-model-set SHARD do.
        ListedFile f = files.get(n);
        if (f != null) {
          units.unit(ScanUnit.file(f));
        }
      }
      files.clear();
      otherIndexes.clear();
      outsideIndexes.clear();
    }

    /** @return the given names that two or more sets claim */
    private Set<String> claimedTwice(List<ModelUnits.Unit> grouped, List<String> givenNames) {
      Map<String, Integer> claims = new HashMap<>();
      for (ModelUnits.Unit u : grouped) {
        if (u.set()) {
          for (String n : u.names()) {
            if (givenNames.contains(n)) {
              claims.merge(n, 1, Integer::sum);
            }
          }
        }
      }
      Set<String> out = new java.util.TreeSet<>();
      claims.forEach((n, c) -> {
        if (c > 1) {
          out.add(n);
        }
      });
      return out;
    }

    /**
     * Holds the entries beside the given files that are named as safetensors indexes, each as
     * the listing would have held it (a regular file, or through {@link #other}). A directory
     * that cannot be listed holds none: each shard is then a file unit, whose inspection looks
     * for its index again and reports what it finds.
     */
    private void holdIndexesBeside() {
      try (DirectoryStream<Path> entries =
          Files.newDirectoryStream(
              directory,
              p -> p.getFileName() != null && ModelUnits.isIndexName(p.getFileName().toString()))) {
        for (Path entry : entries) {
          String name = String.valueOf(entry.getFileName());
          if (files.containsKey(name)) {
            continue;
          }
          FileStat stat = FileStat.of(entry, false);
          if (stat.type() == FileStat.Type.REGULAR) {
            files.put(name, new ListedFile(entry, stat.identity()));
          } else {
            other(entry, stat.identity());
          }
        }
      } catch (IOException | DirectoryIteratorException | SecurityException e) {
        // Left to the shard's own inspection, as the Javadoc says.
      }
    }

    /**
     * A member the listing did not hand over as a regular file: a symbolic link (a Hugging Face
     * cache's snapshot links each file to {@code ../blobs/}), or a file beside a PATH that is one
     * file of a set. The set inspection opens the member by its path and so follows a link:
     * what {@code --resume} must compare is the identity of the file it reads, the link's
     * target ({@code stat}, not {@code lstat}). A member missing, or not a regular file, is
     * absent (its set's inspection fails on it); one that cannot be examined makes the set's
     * files {@link Examined#UNKNOWN}, so its line is never kept by a resume.
     */
    private Examined examine(String name) {
      Path p = directory.resolve(name);
      ReaException outside = outside(p);
      if (outside != null) {
        return new Examined(null, outside);
      }
      try {
        FileStat s = FileStat.of(p, true);
        if (s.type() != FileStat.Type.REGULAR) {
          return Examined.ABSENT;
        }
        if (rea != null) {
          // Observed again through the scan's directories: a directory on the link's way
          // swapped for a link to elsewhere must not lend the line an outside file's identity.
          dev.rea.core.evidence.FileIdentity inside = rea.observeRegularFile(p);
          if (inside == null
              || !java.util.Objects.equals(inside.device(), s.identity().device())
              || !java.util.Objects.equals(inside.inode(), s.identity().inode())) {
            return Examined.UNKNOWN;
          }
        }
        return new Examined(new ListedFile(p, s.identity()), null);
      } catch (NoSuchFileException | NotDirectoryException gone) {
        return Examined.ABSENT;
      } catch (IOException | SecurityException e) {
        return Examined.UNKNOWN;
      }
    }

    /**
     * @param p an index or member of a set, in this directory
     * @return why it is not read through, when it is a symbolic link whose real target lies
     *     outside every scanned PATH (and is not a Hugging Face snapshot's link to its own blob);
     *     else null (not a link, a link inside, or one that leads nowhere: left to {@link
     *     #examine})
     */
    private @Nullable ReaException outside(Path p) {
      Path real;
      try {
        if (!Files.isSymbolicLink(p) || HubCache.blobOf(p) != null) {
          return null;
        }
        real = p.toRealPath();
      } catch (IOException | SecurityException e) {
        return null;
      }
      for (Path root : roots) {
        if (real.startsWith(root)) {
          return null;
        }
      }
      String target = TreeWalker.linkTarget(p);
      return ReaException.builder(
              Constraint.NOT_REGULAR_FILE,
              "a symbolic link to "
                  + target
                  + ", outside the scanned PATHs: rea scan reads no file outside them, so the"
                  + " set was not read (give the target's directory as a PATH too, or inspect"
                  + " the set with inspect-model-set)")
          .path(p.toString())
          .diagnostic("link_target", target)
          .build();
    }

    private boolean gguf(String name) {
      try {
        Path p = directory.resolve(name);
        FileProbe probe = rea != null ? rea.probe(p) : FileProbe.of(p);
        return probe.modelFormat().filter("gguf"::equals).isPresent();
      } catch (IOException | SecurityException e) {
        return false;
      }
    }

    private InputStream readIndex(String name) throws ReaException {
      Path p = directory.resolve(name);
      ReaException outside = outsideIndexes.get(name);
      if (outside != null) {
        throw outside;
      }
      Boolean leadsToFile = otherIndexes.get(name);
      if (Boolean.FALSE.equals(leadsToFile)) {
        // Never opened: a FIFO would block the walk. Its set's inspection says what it is.
        throw ReaException.builder(
                Constraint.NOT_REGULAR_FILE, "the safetensors index is not a regular file")
            .path(p.toString())
            .build();
      }
      LinkOption[] follow =
          leadsToFile != null ? new LinkOption[0] : new LinkOption[] {LinkOption.NOFOLLOW_LINKS};
      try {
        // Through the scan's front door, bounded: a FIFO swapped in would block the walk.
        return rea != null ? rea.openForReading(p) : Files.newInputStream(p, follow);
      } catch (IOException e) {
        throw ReaException.builder(Constraint.IO_ERROR, "reading the index failed: " + p)
            .path(p.toString())
            .cause(e)
            .build();
      }
    }
  }

  /** What {@link Held#examine} found of a member: the file, or why there is none. */
  private static final class Examined {
    static final Examined ABSENT = new Examined(null, null);
    static final Examined UNKNOWN = new Examined(null, null);

    final @Nullable ListedFile file;
    /** Set for a link out of the PATHs, which is not examined further. */
    final @Nullable ReaException outside;

    Examined(@Nullable ListedFile file, @Nullable ReaException outside) {
      this.file = file;
      this.outside = outside;
    }
  }

  /** @return whether a name is one a set member or index usually has */
  static boolean mayBeMember(String name) {
    return ModelUnits.isIndexName(name)
        || ModelUnits.isSplitName(name)
        || name.endsWith(".safetensors");
  }
}
