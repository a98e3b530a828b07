package dev.rea.cli.scan;

import dev.rea.core.FileProbe;
import dev.rea.core.ModelUnits;
import dev.rea.core.Rea;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FileIdentity;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.options.InspectOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * What a worker does with one unit (a set goes to {@link SetUnitWork}): reads the file's first bytes ({@link FileProbe}: at most 512)
 * and, for a model (by content, {@link FileProbe#candidateFormat}), inspects it through the
 * front door exactly as {@code inspect-model-artifact} does, then writes the unit's line. A file
 * that is not a model is counted as skipped (and listed, with the reason, under {@code
 * --list-skipped}). A cancelled inspection writes nothing: the unit is inspected again by {@code
 * --resume}.
 *
 * <p>A complete file that is one member of a model by its own account ({@link ModelUnits#isLoneMember}: a
 * shard named as one of several that no index claimed, a file declaring {@code split.count} of
 * two or more) is inspected again as a set of one ({@link SetUnitWork#inspectAlone}), so that its
 * line carries the set's warning ({@code shard_without_index}, {@code split_member_alone}) as
 * {@code inspect-model-set} and {@code check} report it.
 *
 * <p>The line's identity is the inspected record's {@code artifact.identity} when there is a
 * record (the version of the file that was read), else the identity the walk observed. With
 * {@code --bundles DIR}, the Evidence of a complete or partial unit is signed and written as
 * {@code DIR/<evidence_id hex>.json}, atomically, before the line.
 *
 * <p>Thread-safe (one instance serves every worker).
 */
final class UnitWork {
  private final Rea rea;
  private final InspectOptions options;
  private final ScanEngine.Settings settings;
  private final LineSink sink;
  private final Tally tally;
  private final UnitListener listener;
  private final SetUnitWork sets;

  UnitWork(
      Rea rea,
      InspectOptions options,
      ScanEngine.Settings settings,
      LineSink sink,
      Tally tally,
      UnitListener listener) {
    this.listener = listener;
    this.rea = rea;
    this.options = options;
    this.settings = settings;
    this.sink = sink;
    this.tally = tally;
    this.sets = new SetUnitWork(rea, options, settings, sink, tally, listener);
  }

  /**
   * Inspects one unit and writes its line (or counts it as skipped).
   *
   * @throws IOException when the line or the bundle cannot be written: the scan fails
   * @throws ReaException when the bundle cannot be signed (the REA home's key): the scan fails
   */
  void inspect(ScanUnit unit) throws IOException, ReaException {
    if (unit.kind() == ScanUnit.Kind.SET) {
      sets.inspect(unit);
      return;
    }
    Path path = unit.path();
    Optional<FileProbe> probe = probe(rea, path);
    if (probe.isPresent()) {
      tally.read(probe.get().text().length());
      if (probe.get().candidateFormat().isEmpty()) {
        ReaException why = probe.get().refusal().orElseThrow().withPath(path.toString());
        if ("git_lfs_pointer".equals(why.diagnostics().get("detected"))) {
          tally.lfsPointer();
        }
        if (settings.listSkipped()) {
          report(path, unit.identity(), UnitStatus.SKIPPED, why);
        } else {
          tally.count(UnitStatus.SKIPPED, false);
        }
        return;
      }
    }
    // A file whose first bytes could not be read is inspected all the same: the inspection
    // reports why (not_found, permission_denied, io_error) exactly as inspect-model-artifact does.
    Inspection result;
    try {
      result = rea.inspect(path, options);
    } catch (OutOfMemoryError e) {
      write(unit, UnitStatus.FAILED, unit.identity(), null, ReaException.heapExhausted(e));
      return;
    }
    EvidenceRecord read =
        result instanceof Inspection.Complete c0 ? c0.record() : ((Inspection.Failed) result).partial();
    if (read != null && !sameFile(read.artifact().identity(), unit.identity())) {
      // The file read is not the one the walk listed: a directory on its path was replaced (by a
      // link leading out of the PATHs) between the two. Nothing of what was read is written.
      write(unit, UnitStatus.FAILED, unit.identity(), null,
          ReaException.builder(
                  Constraint.TARGET_CHANGED,
                  "the file read is not the one the walk listed (device and inode differ): the file"
                      + " or a directory on its path was replaced meanwhile; not reported")
              .path(path.toString())
              .build());
      return;
    }
    if (result instanceof Inspection.Complete c) {
      EvidenceRecord r = c.record();
      // A file that is one member of a model by its own account is read again as inspect-model-set
      // reads it: a set of one whose warning says so, which --fail-on warnings then fails.
      Path name = path.getFileName();
      if (name != null
          && ModelUnits.isLoneMember(name.toString(), r)
          && sets.inspectAlone(unit)) {
        tally.read(r.artifact().bytesRead());
        return;
      }
      write(unit, UnitStatus.COMPLETE, r.artifact().identity(), r, null);
      return;
    }
    Inspection.Failed f = (Inspection.Failed) result;
    if (f.error().constraint() == Constraint.CANCELLED) {
      return;
    }
    EvidenceRecord partial = f.partial();
    UnitStatus status = UnitStatus.ofFailure(f.error(), partial != null);
    FileIdentity identity = partial != null ? partial.artifact().identity() : unit.identity();
    if (partial != null) {
      tally.read(partial.artifact().bytesRead());
    }
    write(unit, status, identity, status == UnitStatus.PARTIAL ? partial : null, f.error());
  }

  /** @return whether both identities name one file (device and inode; true when either is unknown) */
  private static boolean sameFile(FileIdentity read, FileIdentity listed) {
    if (read.device() == null || read.inode() == null || listed.device() == null
        || listed.inode() == null) {
      return true;
    }
    return read.device().equals(listed.device()) && read.inode().equals(listed.inode());
  }

  /**
   * Writes a line the walk decided on: a skipped link or special file, a directory that could
   * not be listed.
   *
   * @throws IOException when it cannot be written
   */
  void report(Path path, FileIdentity identity, UnitStatus status, ReaException why)
      throws IOException {
    ReaException advised = advice(why);
    sink.write(
        ScanLine.render(
            ScanUnit.Kind.FILE, path.toString(), status, identity, null, null, advised));
    tally.count(status, false);
    listener.finished(path.toString(), status, List.of(), advised);
  }

  private static Optional<FileProbe> probe(Rea rea, Path path) {
    try {
      return Optional.of(rea.probe(path));
    } catch (IOException | SecurityException e) {
      return Optional.empty();
    }
  }

  /** Writes a unit's line, with the record's summary (and bundle) when there is a record. */
  private void write(
      ScanUnit unit,
      UnitStatus status,
      FileIdentity identity,
      @Nullable EvidenceRecord record,
      @Nullable ReaException error)
      throws IOException, ReaException {
    byte[] summary = null;
    String evidenceId = null;
    boolean warnings = false;
    if (record != null) {
      if (status == UnitStatus.COMPLETE) {
        tally.read(record.artifact().bytesRead());
      }
      summary = rea.summaryJson(record);
      evidenceId = record.evidenceId();
      warnings = !record.warnings().isEmpty();
      Path bundles = settings.bundles();
      if (bundles != null) {
        writeBundle(record, bundles);
      }
    }
    ReaException advised = error == null ? null : advice(error);
    byte[] line =
        ScanLine.render(
            unit.kind(),
            unit.path().toString(),
            status,
            settings.layout().wire(),
            identity,
            null,
            java.util.Map.of(),
            evidenceId,
            summary,
            advised);
    sink.write(line);
    tally.count(status, warnings, record != null && !record.limitations().isEmpty());
    listener.finished(
        unit.path().toString(), status, record == null ? List.of() : record.warnings(), advised);
  }

  private ReaException advice(ReaException e) {
    UnaryOperator<ReaException> advice = settings.advice();
    return advice.apply(e);
  }

  private void writeBundle(EvidenceRecord record, Path dir) throws ReaException {
    EvidenceRecord signed = rea.sign(record);
    String id = java.util.Objects.requireNonNull(signed.evidenceId(), "a signed record's id");
    String hex = id.startsWith("sha256:") ? id.substring("sha256:".length()) : id;
    rea.writeEvidence(dir.resolve(hex + ".json"), List.of(signed));
  }
}
