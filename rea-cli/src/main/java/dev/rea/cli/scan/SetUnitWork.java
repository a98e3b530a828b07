package dev.rea.cli.scan;

import dev.rea.core.Rea;
import dev.rea.core.SetSpool;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.evidence.SetInspection;
import dev.rea.core.evidence.Warning;
import dev.rea.core.options.InspectOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a worker does with a set unit ({@link ScanUnit.Kind#SET}): inspects it through the front
 * door exactly as {@code inspect-model-set ANCHOR} does ({@link Rea#inspectSet(Path,
 * InspectOptions, SetInspection.MemberSink)}), and writes its line: for a complete set, the set
 * record's {@code evidence_id} and the set summary ({@code inspect-model-set --detail summary
 * --json}); for a failed one, the error as {@code inspect-model-set --json} reports it ({@code
 * set_rejected} for contradictions between members, a member's own failure naming the member).
 *
 * <p>Status: {@code complete}, or {@link UnitStatus#ofFailure} of the set's error without
 * partial Evidence: a set's failure is the set's verdict (a member missing is {@code failed}, a
 * contradiction or a member refused is {@code rejected}), never a {@code partial} line, since a
 * set record that misses members describes no model. The line's identity is the walk's of the
 * anchor (of the first member present when a split set's first member is missing), and {@code
 * member_identities} the walk's of every file of the set (what {@code
 * --resume} compares). Members go to a {@link SetSpool} with {@code --bundles} (the set bundle is
 * written as {@code DIR/<evidence_id hex>.json}) and are otherwise dropped once checked: memory
 * is that of one member.
 *
 * <p>Thread-safe (one instance serves every worker).
 */
final class SetUnitWork {
  private final Rea rea;
  private final InspectOptions options;
  private final ScanEngine.Settings settings;
  private final LineSink sink;
  private final Tally tally;
  private final UnitListener listener;

  SetUnitWork(
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
  }

  /**
   * Inspects one set and writes its line; a {@linkplain ScanUnit#refusal refused} set is not
   * read, and its line is the refusal.
   *
   * @throws IOException when the line cannot be written: the scan fails
   * @throws ReaException when the bundle cannot be signed or written: the scan fails
   */
  void inspect(ScanUnit unit) throws IOException, ReaException {
    ReaException refusal = unit.refusal();
    if (refusal != null) {
      // Never opened: the set's inspection would read the file outside the PATHs.
      write(unit, UnitStatus.ofFailure(refusal, false), null, null, refusal, List.of(), false,
          java.util.Map.of());
      return;
    }
    run(unit, false);
  }

  /**
   * Inspects a file unit that is one member of a model by its own account (a shard named {@code
   * NAME-0000k-of-0000n.safetensors} that no index of the walk claimed, a file declaring {@code
   * split.count} of two or more) as {@code inspect-model-set FILE} does: a set of one, kind
   * {@code single_file}, whose warning ({@code shard_without_index}, {@code split_member_alone})
   * says its totals are not the model's. Writes that set's line, whose {@code member_identities}
   * is the file alone, when the set inspection is complete and of kind {@code single_file}, or
   * when it failed (an index beside the file that cannot be read, or one that claims it and is
   * contradicted: the file is then that failed set's member, not a model of its own); when it is
   * complete as another set (an index beside a shard given as a PATH claims it) writes nothing
   * and returns false, and the caller writes the file's own line.
   *
   * @param file the file unit, already inspected complete as one file
   * @return whether the unit is done (its set line written, or the inspection cancelled)
   * @throws IOException when the line cannot be written: the scan fails
   * @throws ReaException when the bundle cannot be signed or written: the scan fails
   */
  boolean inspectAlone(ScanUnit file) throws IOException, ReaException {
    return run(ScanUnit.set(file.path(), file.members(), file.membersKnown()), true);
  }

  /**
   * @param alone whether the unit is a file taken as a set of one ({@link #inspectAlone})
   * @return whether a line was written or the inspection was cancelled
   */
  private boolean run(ScanUnit unit, boolean alone) throws IOException, ReaException {
    Path bundles = settings.bundles();
    EvidenceRecord[] first = new EvidenceRecord[1];
    long[] read = new long[1];
    long[] metadataRows = new long[1];
    try (SetSpool spool = bundles == null ? null : rea.newSetSpool()) {
      SetInspection result;
      try {
        SetInspection.MemberSink sink =
                (k, r) -> {
                  if (k == 0) {
                    first[0] = r;
                  }
                  read[0] += r.artifact().bytesRead();
                  metadataRows[0] += r.metadata().size();
                  if (spool != null) {
                    spool.accept(k, r);
                  }
                };
        // A split set whose first member is missing is read through a member that is there, so
        // that it is read as that set (and fails naming the missing member), not as a lone path.
        Path at = unit.path();
        if (!unit.members().isEmpty()
            && unit.members().stream().noneMatch(f -> f.path().equals(unit.path()))) {
          at = unit.members().get(0).path();
        }
        // With bundles, members are signed on the threads that inspect them.
        result = spool == null
            ? rea.inspectSet(at, options, sink)
            : rea.inspectSetSigned(at, options, sink);
      } catch (OutOfMemoryError e) {
        if (alone) {
          return false;
        }
        write(
            unit, UnitStatus.FAILED, null, null, ReaException.heapExhausted(e), List.of(),
            false, java.util.Map.of());
        return true;
      }
      tally.read(read[0]);
      if (result instanceof SetInspection.Failed f) {
        if (f.error().constraint() == Constraint.CANCELLED) {
          return true;
        }
        // Alone, the failure is the set's that claims the file (an index beside it that cannot
        // be read or contradicts it): the file is not a model of its own, as inspect-model-set
        // FILE says; --resume never keeps such a line (ResumeIndex#keep).
        write(
            unit, UnitStatus.ofFailure(f.error(), false), null, null, f.error(), List.of(),
            false, java.util.Map.of());
        return true;
      }
      ModelSetRecord set = ((SetInspection.Complete) result).set();
      if (alone && !set.set().kind().equals(SINGLE_FILE)) {
        return false;
      }
      if (spool != null && bundles != null) {
        ModelSetRecord signed = rea.sign(set);
        String id = Objects.requireNonNull(signed.evidenceId(), "a signed record's id");
        String hex = id.startsWith("sha256:") ? id.substring("sha256:".length()) : id;
        spool.writeBundle(bundles.resolve(hex + ".json"), signed);
      }
      byte[] summary = rea.setSummaryJson(set, first[0], metadataRows[0], null);
      java.util.Map<String, String> digests = new java.util.HashMap<>();
      for (ModelSetRecord.Member m : set.members()) {
        Path name = Path.of(m.path()).getFileName();
        if (m.sha256() != null && name != null) {
          digests.put(name.toString(), m.sha256());
        }
      }
      ModelSetRecord.IndexInfo index = set.set().index();
      Path indexName = index == null ? null : Path.of(index.path()).getFileName();
      if (index != null && indexName != null) {
        digests.put(indexName.toString(), index.sha256()); // read whole, so always known
      }
      write(unit, UnitStatus.COMPLETE, set.evidenceId(), summary, null, set.warnings(),
          !set.limitations().isEmpty(), digests);
      return true;
    }
  }

  /** The set kind of a file taken alone (CONTRACT section 9). */
  private static final String SINGLE_FILE = "single_file";

  private void write(
      ScanUnit unit,
      UnitStatus status,
      @Nullable String evidenceId,
      byte @Nullable [] summary,
      @Nullable ReaException error,
      List<Warning> warnings,
      boolean limitations,
      java.util.Map<String, String> memberSha256)
      throws IOException {
    ReaException advised = error == null ? null : settings.advice().apply(error);
    byte[] line =
        ScanLine.render(
            ScanUnit.Kind.SET,
            unit.path().toString(),
            status,
            settings.layout().wire(),
            unit.identity(),
            unit.members(),
            memberSha256,
            evidenceId,
            summary,
            advised);
    sink.write(line);
    tally.count(status, !warnings.isEmpty(), limitations);
    // A member's failure names the member: its offsets are in that file, not the anchor.
    String at =
        advised != null && advised.path() != null ? advised.path() : unit.path().toString();
    listener.finished(at, status, warnings, advised);
  }
}
