package dev.rea.cli.scan;

import dev.rea.core.ModelUnits;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.FileIdentity;
import dev.rea.core.options.LayoutAssumption;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.BitSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What {@code rea scan --resume} knows of an earlier output FILE (CONTRACT section 10: "units of
 * an existing FILE whose identity is unchanged are kept and the rest inspected"), read once,
 * held compactly, and used to rewrite FILE at the end.
 *
 * <p><b>Reading.</b> FILE is read once, line by line. Each whole line (ending with {@code \n})
 * must be a scan line in the exact shape {@link ScanLine} writes ({@link ResumeLine} says what is
 * checked); anything else is {@code invalid_input} / {@code bad_argument} naming the line and
 * the field, since FILE is then not a scan output this command wrote (or was edited). A last
 * line without its {@code \n} is what a process killed while writing leaves: it is dropped
 * ({@link #validLength()} ends before it; the command cuts FILE there before appending) and its
 * unit inspected again, whatever its length: past {@link #MAX_LINE_BYTES} its bytes are skipped,
 * not held (a whole line that long is refused). When a path has several lines (an interrupted
 * resume appended a new line for a changed file), the last one counts.
 *
 * <p><b>Memory.</b> Per path, the index keeps 21 bytes in open-addressed arrays: 8 bytes of the
 * SHA-256 of the path (the key), 8 bytes of the SHA-256 of the path and the identity
 * ({@code device}, {@code inode}, {@code size}, {@code modified}) as the line gives it, the line's
 * number (4 bytes) and its status and flags (1 byte). Tables double at three quarters full, so a
 * million lines take 2^21 slots: 44 MB, whatever the paths' lengths (a map of path strings to
 * identity objects would take about 250 MB). A unit is kept only when both digests match: a
 * path taken for another needs two 64-bit collisions at once.
 *
 * <p><b>Keeping.</b> Lines with status {@code complete} or {@code rejected} are kept when the
 * walk finds their path with the same identity; {@code skipped} lines too when {@code
 * --list-skipped} is given again (otherwise skipped files are not listed). {@code partial} and
 * {@code failed} lines are never kept: their units are inspected again, since what failed (an
 * I/O error, a file changed while read, a permission) may be gone.
 *
 * <p><b>Rewriting.</b> New lines are appended to FILE as the scan goes, so an interrupted resume
 * keeps its progress. When the scan finishes, the lines that were not kept (superseded,
 * changed, re-inspected, or of files no longer there) are dropped by {@link #compact}: FILE is
 * rewritten to a temporary file beside it and renamed over it, so the finished output holds
 * exactly the lines of an uninterrupted scan (in another order).
 *
 * <p>Not thread-safe: loaded, queried and compacted from one thread (the walking thread).
 */
public final class ResumeIndex {
  /** Longest line accepted: far above what a summary, an error and a path can take. */
  static final int MAX_LINE_BYTES = 16 * 1024 * 1024;

  private static final int STATUS_MASK = 0x07;
  private static final int WARNING = 0x08;
  private static final int KEEPABLE = 0x10;
  private static final int KEPT = 0x20;
  private static final int LIMITATION = 0x40;

  private final boolean listSkipped;
  private final MessageDigest sha = sha256();
  private long[] keys = new long[1024];
  private long[] checks = new long[1024];
  private int[] lineNumbers = new int[1024];
  private byte[] flags = new byte[1024];
  private int size;
  private int lines;
  private int keptLines;
  private long validLength;
  private boolean droppedTail;

  /** Whether this scan hashes whole files: a complete line is kept only when made the same way. */
  private boolean fullHash;
  /** This scan's layout assumption's wire name, or null for none. */
  private @Nullable String layout;
  /** This scan's {@code --bundles} directory, or null. */
  private @Nullable Path bundles;

  private ResumeIndex(boolean listSkipped) {
    this.listSkipped = listSkipped;
  }

  /**
   * Reads an earlier output.
   *
   * @param file FILE
   * @param listSkipped whether skipped lines may be kept ({@code --list-skipped})
   * @return the index
   * @throws IOException when FILE cannot be read
   * @throws ReaException {@code invalid_input} / {@code bad_argument} when a whole line of it is
   *     not a scan line
   */
  public static ResumeIndex load(Path file, boolean listSkipped) throws IOException, ReaException {
    return load(file, listSkipped, false, LayoutAssumption.NONE);
  }

  /**
   * Reads an earlier output for a scan that hashes whole files or not, under a layout assumption
   * or not: a complete line is kept only when it was made the same way (its summary has a full
   * {@code sha256} exactly when {@code fullHash}), and a complete or rejected line only when its
   * {@code assume_layout} is this scan's (absent for none), so that the resumed output is the
   * one an uninterrupted scan with these options writes.
   *
   * @param file FILE
   * @param listSkipped whether skipped lines may be kept ({@code --list-skipped})
   * @param fullHash whether this scan is {@code --hash full}
   * @param layout this scan's layout assumption ({@code --assume-layout})
   * @return the index
   * @throws IOException when FILE cannot be read
   * @throws ReaException as {@link #load(Path, boolean)}
   */
  public static ResumeIndex load(
      Path file, boolean listSkipped, boolean fullHash, LayoutAssumption layout)
      throws IOException, ReaException {
    return load(file, listSkipped, fullHash, layout, null);
  }

  /**
   * As {@link #load(Path, boolean, boolean, LayoutAssumption)}, for a scan that writes bundles:
   * a complete line is kept only when its bundle ({@code <evidence_id hex>.json}) is in {@code
   * bundles}, so that after the scan every complete line's Evidence is there (a line whose bundle
   * is missing, because the earlier scan wrote none or elsewhere, is inspected again).
   *
   * @param bundles this scan's {@code --bundles} directory, or null
   */
  public static ResumeIndex load(
      Path file,
      boolean listSkipped,
      boolean fullHash,
      LayoutAssumption layout,
      @Nullable Path bundles)
      throws IOException, ReaException {
    ResumeIndex index = new ResumeIndex(listSkipped);
    index.fullHash = fullHash;
    index.layout = layout.wire();
    index.bundles = bundles;
    try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
      index.read(in, file);
    }
    return index;
  }

  private void read(InputStream in, Path file) throws IOException, ReaException {
    byte[] chunk = new byte[1 << 16];
    byte[] line = new byte[8192];
    int length = 0;
    // The line being read is past MAX_LINE_BYTES: its bytes are no longer kept. Whole, it is
    // refused when its newline comes; cut (the end of FILE first), it is dropped like any cut
    // last line.
    boolean overlong = false;
    int n;
    while ((n = in.read(chunk)) > 0) {
      int start = 0;
      for (int i = 0; i < n; i++) {
        if (chunk[i] != '\n') {
          continue;
        }
        if (overlong || (long) length + (i - start) > MAX_LINE_BYTES) {
          throw notScanOutput(file, lines + 1, "it is longer than " + MAX_LINE_BYTES + " bytes");
        }
        line = append(line, length, chunk, start, i - start);
        length += i - start;
        ResumeLine parsed;
        try {
          parsed = ResumeLine.parse(line, length);
        } catch (IllegalArgumentException e) {
          throw notScanOutput(file, lines + 1, String.valueOf(e.getMessage()));
        }
        add(parsed);
        validLength += length + 1;
        length = 0;
        start = i + 1;
      }
      if (overlong) {
        continue;
      }
      if ((long) length + (n - start) > MAX_LINE_BYTES) {
        overlong = true;
        line = new byte[0];
        continue;
      }
      line = append(line, length, chunk, start, n - start);
      length += n - start;
    }
    droppedTail = overlong || length > 0;
  }

  /** @return {@code line} (or a larger copy) with {@code count} bytes of {@code from} added */
  private static byte[] append(byte[] line, int length, byte[] from, int offset, int count) {
    if (length + count > line.length) {
      line = java.util.Arrays.copyOf(
          line, Math.min(MAX_LINE_BYTES, Math.max(line.length * 2, length + count)));
    }
    System.arraycopy(from, offset, line, length, count);
    return line;
  }

  private static ReaException notScanOutput(Path file, int lineNumber, String why) {
    return ReaException.builder(
            Constraint.BAD_ARGUMENT,
            "--resume: line "
                + lineNumber
                + " of "
                + file
                + " is not a rea scan line ("
                + why
                + "); --resume continues only an output that rea scan wrote")
        .field("--output")
        .path(file.toString())
        .build();
  }

  /** @return whether a complete line's bundle is in this scan's bundles directory (or none is asked) */
  private boolean bundleThere(ResumeLine l) {
    String id = l.evidenceId();
    if (bundles == null) {
      return true;
    }
    if (id == null || !id.startsWith("sha256:")) {
      return false;
    }
    return Files.isRegularFile(bundles.resolve(id.substring("sha256:".length()) + ".json"));
  }

  private void add(ResumeLine l) {
    long key = key(l.path());
    int slot = slot(key);
    if (keys[slot] == 0) {
      keys[slot] = key;
      size++;
    }
    boolean sameLayout = java.util.Objects.equals(l.assumeLayout(), layout);
    boolean keepable =
        (l.status() == UnitStatus.COMPLETE && l.hashed() == fullHash && sameLayout
                && bundleThere(l))
            || (l.status() == UnitStatus.REJECTED && sameLayout)
            || (l.status() == UnitStatus.SKIPPED && listSkipped);
    checks[slot] = check(l.path(), l.identityText());
    lineNumbers[slot] = lines++;
    flags[slot] =
        (byte)
            (l.status().code()
                | (l.warnings() ? WARNING : 0)
                | (l.limitations() ? LIMITATION : 0)
                | (keepable ? KEEPABLE : 0));
    if (size * 4L > keys.length * 3L) {
      grow();
    }
  }

  /** What the earlier output says of a unit that is kept. */
  public record Kept(UnitStatus status, boolean warnings, boolean limitations) {}

  /**
   * Keeps the earlier line of the unit's path when its identity equals the one the walk observed
   * (for a set, also every file of the set: {@link #identityText(ScanUnit)}) and its status may
   * be kept; each line is kept at most once. A set some of whose files could not be examined
   * ({@link ScanUnit#membersKnown()} false) is never kept. A file unit is also compared as a set
   * of one (itself its only member), the line a file that is one member of a model by its own
   * account gets ({@link SetUnitWork#inspectAlone}), and that line is kept only when complete. A
   * file named as a shard is kept only that way, and only while no index lies beside it: what its
   * line says depends on the indexes of its directory, which its identity does not show.
   *
   * @param unit the unit as the walk found it
   * @return what the kept line says, or null when the unit must be inspected
   */
  public @Nullable Kept keep(ScanUnit unit) {
    if (!unit.membersKnown()) {
      return null;
    }
    Path name = unit.path().getFileName();
    if (unit.kind() == ScanUnit.Kind.SET && name != null
        && name.toString().endsWith(".safetensors")) {
      // A file the walk read as a set because an index beside it could not be read
      // (DirectorySets): its line is that index's failure, which its identity does not show.
      return null;
    }
    if (unit.kind() == ScanUnit.Kind.FILE && name != null
        && ModelUnits.isShardName(name.toString())) {
      // A shard's line depends on the indexes beside it, which its identity does not show: it
      // is kept only as a complete set of one (no index claimed it), while still none is there.
      return indexBeside(unit.path()) ? null : keep(unit.path().toString(),
          identityText(ScanUnit.set(unit.path(), unit.members(), true)), true);
    }
    Kept kept = keep(unit.path().toString(), identityText(unit), false);
    if (kept == null && unit.kind() == ScanUnit.Kind.FILE) {
      // A file the earlier scan wrote as a set of one (SetUnitWork#inspectAlone): its line lists
      // the file itself as its only member, so it is compared as that set of one. Only a
      // complete one: a failed one is the failure of an index beside the file, whose change the
      // file's identity does not show.
      kept = keep(unit.path().toString(),
          identityText(ScanUnit.set(unit.path(), unit.members(), true)), true);
    }
    return kept;
  }

  /** @return whether a safetensors index name is in the file's directory (true when unknown) */
  private static boolean indexBeside(Path file) {
    Path dir = file.toAbsolutePath().getParent();
    if (dir == null) {
      return true;
    }
    try {
      return ModelUnits.holdsIndexName(dir);
    } catch (IOException | SecurityException e) {
      return true;
    }
  }

  /**
   * As {@link #keep(ScanUnit)}, for an entry that is no unit (a skipped file).
   *
   * @param path the entry's path
   * @param identity its identity
   * @return as {@link #keep(ScanUnit)}
   */
  public @Nullable Kept keep(String path, FileIdentity identity) {
    return keep(path, identityText(identity), false);
  }

  private @Nullable Kept keep(String path, String identityText, boolean completeOnly) {
    long key = key(path);
    int slot = slot(key);
    if (keys[slot] == 0 || (flags[slot] & (KEEPABLE | KEPT)) != KEEPABLE) {
      return null;
    }
    if (completeOnly && UnitStatus.ofCode(flags[slot] & STATUS_MASK) != UnitStatus.COMPLETE) {
      return null;
    }
    if (checks[slot] != check(path, identityText)) {
      return null;
    }
    flags[slot] |= KEPT;
    keptLines++;
    return new Kept(
        UnitStatus.ofCode(flags[slot] & STATUS_MASK),
        (flags[slot] & WARNING) != 0,
        (flags[slot] & LIMITATION) != 0);
  }

  /** @return bytes of FILE that hold whole lines (FILE is cut there before lines are appended) */
  public long validLength() {
    return validLength;
  }

  /** @return whether FILE ended with a line cut short (dropped) */
  public boolean droppedTail() {
    return droppedTail;
  }

  /** @return whole lines read from FILE */
  public int lines() {
    return lines;
  }

  /** @return lines kept so far */
  public int keptLines() {
    return keptLines;
  }

  /** @return slots in the table (a power of two, at most three quarters full) */
  int slots() {
    return keys.length;
  }

  /** @return bytes the table's arrays hold (their elements: 21 per slot) */
  long bytesHeld() {
    return (long) keys.length * (Long.BYTES + Long.BYTES + Integer.BYTES + 1);
  }

  /** @return whether some earlier line was not kept, so that {@link #compact} must rewrite FILE */
  public boolean needsCompaction() {
    return keptLines < lines;
  }

  /**
   * Rewrites FILE without the earlier lines that were not kept, keeping every line appended
   * after them: to a temporary file in FILE's directory (with FILE's permissions), forced to
   * the device, then renamed over FILE (atomically where the file system can). Call it only
   * after a finished scan, with FILE closed.
   *
   * @param file FILE
   * @throws IOException when it cannot be rewritten (FILE is then left as it was)
   */
  public void compact(Path file) throws IOException {
    BitSet keep = new BitSet(lines);
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] != 0 && (flags[i] & KEPT) != 0) {
        keep.set(lineNumbers[i]);
      }
    }
    Path dir = file.toAbsolutePath().getParent();
    Path tmp = Files.createTempFile(dir, "." + file.getFileName() + ".", ".tmp");
    try {
      try {
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
        Files.setPosixFilePermissions(tmp, perms);
      } catch (UnsupportedOperationException | IOException e) {
        // Not a POSIX file system: the temporary file's permissions stay.
      }
      try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
          OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
        byte[] chunk = new byte[1 << 16];
        int lineNumber = 0;
        boolean copying = lines == 0 || keep.get(0);
        int n;
        while ((n = in.read(chunk)) > 0) {
          int start = 0;
          for (int i = 0; i < n; i++) {
            if (chunk[i] == '\n') {
              if (copying) {
                out.write(chunk, start, i + 1 - start);
              }
              start = i + 1;
              lineNumber++;
              copying = lineNumber >= lines || keep.get(lineNumber);
            }
          }
          if (copying) {
            out.write(chunk, start, n - start);
          }
        }
      }
      try (java.nio.channels.FileChannel ch =
          java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
        ch.force(true);
      }
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (java.nio.file.AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  private int slot(long key) {
    int mask = keys.length - 1;
    int i = (int) key & mask;
    while (keys[i] != 0 && keys[i] != key) {
      i = (i + 1) & mask;
    }
    return i;
  }

  private void grow() {
    long[] oldKeys = keys;
    long[] oldChecks = checks;
    int[] oldLines = lineNumbers;
    byte[] oldFlags = flags;
    int n = oldKeys.length * 2;
    keys = new long[n];
    checks = new long[n];
    lineNumbers = new int[n];
    flags = new byte[n];
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != 0) {
        int s = slot(oldKeys[i]);
        keys[s] = oldKeys[i];
        checks[s] = oldChecks[i];
        lineNumbers[s] = oldLines[i];
        flags[s] = oldFlags[i];
      }
    }
  }

  /** The identity as compared: the line's four fields, null spelled {@code -}. */
  static String identityText(FileIdentity id) {
    return identityText(id.device(), id.inode(), Long.toString(id.size()), id.modified());
  }

  /**
   * What is compared of a unit: its identity, and for a set each file the walk found of it
   * (path and identity), so that a changed, added or removed member makes the set's line stale.
   */
  static String identityText(ScanUnit unit) {
    StringBuilder s = new StringBuilder(identityText(unit.identity()));
    if (unit.kind() == ScanUnit.Kind.SET) {
      for (ListedFile m : unit.members()) {
        FileIdentity id = m.identity();
        s.append(memberText(m.path().toString(), id.device(), id.inode(),
            Long.toString(id.size()), id.modified()));
      }
    }
    return s.toString();
  }

  static String memberText(String path, @Nullable String device, @Nullable String inode,
      String size, String modified) {
    return "\0\0" + path + '\0' + identityText(device, inode, size, modified);
  }

  static String identityText(
      @Nullable String device, @Nullable String inode, String size, String modified) {
    return (device == null ? "-" : device)
        + '\0'
        + (inode == null ? "-" : inode)
        + '\0'
        + size
        + '\0'
        + modified;
  }

  private long key(String path) {
    sha.reset();
    long k = first8(sha.digest(path.getBytes(StandardCharsets.UTF_8)));
    return k == 0 ? 1 : k;
  }

  private long check(String path, String identity) {
    sha.reset();
    sha.update(path.getBytes(StandardCharsets.UTF_8));
    sha.update((byte) 0);
    return first8(sha.digest(identity.getBytes(StandardCharsets.UTF_8)));
  }

  private static long first8(byte[] d) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (d[i] & 0xFF);
    }
    return v;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
  }
}
