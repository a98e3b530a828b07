package dev.rea.cli.scan;

import dev.rea.core.evidence.FileIdentity;
import java.nio.file.Path;

/**
 * The seam between the walk and the inspection: turns one directory's listing into scan units
 * (CONTRACT section 10: "groups them as section 9 would: an index with its members, a split set,
 * each other model file alone").
 *
 * <p>The walk calls {@link #directory} when it starts listing a directory, then {@link
 * DirectoryUnits#file} for each regular file in listing order (which is the file system's, not
 * sorted), then {@link DirectoryUnits#end} once the listing ended (also when it failed part way:
 * the directory's own line says so). Subdirectories are walked after their parent's listing
 * ends only as far as the walk is depth first: entries of a subdirectory may come between two
 * {@code file} calls of its parent, each directory with its own {@link DirectoryUnits}.
 *
 * <p>An implementation may hand a unit over at once (memory stays bounded by the workers, not
 * by the directory) or hold files until {@code end} (a set grouping must see every name of the
 * directory before it knows which files are members: it then holds the listing of one directory
 * at a time, at most). A file it hands over in no unit is not scanned at all; so a grouping must
 * hand over every file that is not a member of a set it hands over.
 *
 * <p>{@link #EACH_FILE}, the grouping in use, makes every regular file a unit of its own; the
 * unit's worker reads its first bytes ({@code dev.rea.core.FileProbe}) and skips it when it is
 * not a model. A set grouping (pure, over the directory's names) plugs in here.
 */
public interface UnitGrouping {
  /**
   * @param directory the directory about to be listed
   * @return the grouping of its listing
   */
  DirectoryUnits directory(Path directory);

  /**
   * The grouping of regular files given as PATHs, all in {@code directory}: not a listing of it,
   * so a grouping may look beside them for what claims them (a safetensors index naming a given
   * shard, CONTRACT section 9) and hand over only units that hold a given file. By default, as
   * a listing's.
   *
   * @param directory the directory the files are in
   * @return the grouping of those files
   */
  default DirectoryUnits givenFiles(Path directory) {
    return directory(directory);
  }

  /** The grouping of one directory's listing. Called from the walking thread only. */
  interface DirectoryUnits {
    /**
     * A regular file of the directory (not a link, not a directory).
     *
     * @param file the file and the identity the walk observed
     * @param units where units go
     * @throws InterruptedException when handing a unit over was interrupted
     */
    void file(ListedFile file, UnitSink units) throws InterruptedException;

    /**
     * An entry of the directory that is neither a regular file nor a directory: a symbolic
     * link or a special file.
     *
     * @param entry the entry
     * @param identity its own identity (of the link itself, for a link)
     * @return whether the grouping takes it as a unit's file (a safetensors index that is a link
     *     or not a file at all: its set's line says what it is), so that the walk does not also
     *     report it as skipped
     */
    default boolean other(Path entry, FileIdentity identity) {
      return false;
    }

    /**
     * The listing ended.
     *
     * @param units where the units still held go
     * @throws InterruptedException when handing a unit over was interrupted
     */
    void end(UnitSink units) throws InterruptedException;
  }

  /** Receives units: the scan queues them for its workers (blocking while the queue is full). */
  @FunctionalInterface
  interface UnitSink {
    /**
     * @param unit a unit to inspect
     * @throws InterruptedException when the wait for room in the queue was interrupted
     */
    void unit(ScanUnit unit) throws InterruptedException;
  }

  /** Every regular file is a unit of its own ({@link ScanUnit#file}), handed over at once. */
  UnitGrouping EACH_FILE =
      directory ->
          new DirectoryUnits() {
            @Override
            public void file(ListedFile file, UnitSink units) throws InterruptedException {
              units.unit(ScanUnit.file(file));
            }

            @Override
            public void end(UnitSink units) {
              // Nothing held.
            }
          };
}
