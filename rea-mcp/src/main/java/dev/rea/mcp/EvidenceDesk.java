package dev.rea.mcp;

import dev.rea.core.Evidence;
import dev.rea.core.EvidenceSession;
import dev.rea.core.LoadedEvidence;
import dev.rea.core.Rea;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The session's Evidence: the retained Evidence ({@link EvidenceSession}: indexed once, bounded
 * by the retained budget, 32 MiB by default, released explicitly) and the front door ({@link
 * Rea}) that signs what the server hands out and authenticates what it is given. The key ring is
 * opened by the front door on first use (it may create the key pair in the REA home directory);
 * a failure to open it is reported to the call that needed it and retried by the next.
 *
 * <p>Thread-safe.
 */
final class EvidenceDesk {
  private final Rea rea;
  private final EvidenceSession session;

  /**
   * @param rea the front door
   * @param retainedBudget bytes of retained Evidence (the specification's 32 MiB by default)
   */
  EvidenceDesk(Rea rea, long retainedBudget) {
    this.rea = Objects.requireNonNull(rea, "rea");
    this.session = rea.newSession(retainedBudget);
  }

  EvidenceSession store() {
    return session;
  }

  /** @return {@code record} signed with the provider's key */
  EvidenceRecord sign(EvidenceRecord record) throws ReaException {
    return rea.sign(record);
  }

  /** @return partial Evidence signed when a key is at hand; as it is otherwise (or null) */
  @Nullable EvidenceRecord signPartial(@Nullable EvidenceRecord partial) {
    if (partial == null) {
      return null;
    }
    try {
      return sign(partial);
    } catch (ReaException | RuntimeException signingFailed) {
      Log.warn("could not sign partial Evidence: " + signingFailed.getMessage());
      return partial;
    }
  }

  /**
   * Evidence is read and authenticated one input at a time: that takes memory in proportion to
   * the input (a few hundred MB for the largest accepted, 64 MiB), so calls that arrive together
   * wait for each other instead of adding up. Fair, so none waits behind later ones.
   */
  private final java.util.concurrent.locks.ReentrantLock loading =
      new java.util.concurrent.locks.ReentrantLock(true);

  /** Loads held at once (at most 1); and the most seen, for tests. */
  private final java.util.concurrent.atomic.AtomicInteger loadsNow =
      new java.util.concurrent.atomic.AtomicInteger();

  private volatile int mostLoadsAtOnce;

  /** Loads run under the lock so far, for tests. */
  private final java.util.concurrent.atomic.AtomicInteger loadsRun =
      new java.util.concurrent.atomic.AtomicInteger();

  /** A load of Evidence, and what is done with it, under {@link #loading}. */
  private interface Load<T> {
    T run() throws ReaException;
  }

  /**
   * Runs {@code load} while no other load runs. An import keeps the lock until its records are
   * retained or refused, so that no loaded input waits, held, for its turn to be retained while
   * the next one loads (a hostile trial piped 30 imports of a 57 MB bundle and saw 2.4 GB).
   */
  private <T> T loadOneAtATime(Load<T> load) throws ReaException {
    loading.lock();
    try {
      loadsRun.incrementAndGet();
      int now = loadsNow.incrementAndGet();
      mostLoadsAtOnce = Math.max(mostLoadsAtOnce, now);
      try {
        return load.run();
      } finally {
        loadsNow.decrementAndGet();
      }
    } finally {
      loading.unlock();
    }
  }

  /** Authenticates and indexes Evidence given as JSON text ({@link Rea#readEvidence(byte[])}). */
  LoadedEvidence load(byte[] json) throws ReaException {
    return loadOneAtATime(() -> rea.readEvidence(json));
  }

  /** Same, from a file ({@link Rea#readEvidence(Path)}). */
  LoadedEvidence loadFile(Path path) throws ReaException {
    return loadOneAtATime(() -> rea.readEvidence(path));
  }

  /** @return how many loads ran one at a time so far (tests: every import and source is one) */
  int loadsRun() {
    return loadsRun.get();
  }

  /** @return the most loads that ran at once so far (tests: never more than one) */
  int mostLoadsAtOnce() {
    return mostLoadsAtOnce;
  }

  /** Sets retained by their set record's evidence_id; their members are in the session. */
  private final java.util.Map<String, dev.rea.core.evidence.ModelSetRecord> sets =
      new java.util.HashMap<>();

  /**
   * Who holds each retained record, so that releasing one holder never takes a record from
   * another: how many retained sets list it as a member, and whether it was also retained on its
   * own (produced by {@code inspect_model_artifact}, or imported in a bundle). Guarded by {@code
   * this}, with {@link #sets}.
   */
  private final java.util.Map<String, Integer> setHolds = new java.util.HashMap<>();

  private final java.util.Set<String> ownHolds = new java.util.HashSet<>();

  /**
   * Retains a set this server produced: every member record in the session (charged to the
   * retained budget, all or none) and the set record beside them.
   *
   * @return the retained set
   * @throws ReaException {@code resource_exhausted} / {@code retained_budget}
   */
  dev.rea.core.SetEvidence retainSet(
      dev.rea.core.evidence.ModelSetRecord set, List<EvidenceRecord> members) throws ReaException {
    List<Evidence> evs = new ArrayList<>(members.size());
    for (EvidenceRecord r : members) {
      evs.add(rea.evidence(r));
    }
    synchronized (this) {
      List<Evidence> held = session.retainAll(evs);
      if (sets.put(set.evidenceId(), set) == null) {
        for (Evidence m : held) {
          setHolds.merge(m.evidenceId(), 1, Integer::sum);
        }
      }
      return dev.rea.core.SetEvidence.of(set, held);
    }
  }

  /** @return the retained set with that ID, or null when the ID names no retained set */
  synchronized dev.rea.core.@Nullable SetEvidence set(String evidenceId) throws ReaException {
    dev.rea.core.evidence.ModelSetRecord set = sets.get(evidenceId);
    if (set == null) {
      return null;
    }
    List<Evidence> members = new ArrayList<>(set.members().size());
    for (dev.rea.core.evidence.ModelSetRecord.Member m : set.members()) {
      members.add(session.get(m.evidenceId()));
    }
    return dev.rea.core.SetEvidence.of(set, members);
  }

  /**
   * Releases what {@code release_evidence} names: a retained set with its members, or one
   * record. A member stays retained while another retained set lists it or it was also retained
   * on its own; a record that only a retained set holds is released with that set.
   *
   * @throws ReaException {@code unknown_evidence} when nothing is retained under the ID; {@code
   *     invalid_input} / {@code bad_argument} (field {@code evidence_id}) for a record that only a
   *     retained set holds, naming that set
   */
  synchronized void release(String evidenceId) throws ReaException {
    dev.rea.core.evidence.ModelSetRecord set = sets.remove(evidenceId);
    if (set != null) {
      for (dev.rea.core.evidence.ModelSetRecord.Member m : set.members()) {
        String id = m.evidenceId();
        Integer n = setHolds.get(id);
        if (n != null && n > 1) {
          setHolds.put(id, n - 1);
          continue;
        }
        setHolds.remove(id);
        if (!ownHolds.contains(id) && session.contains(id)) {
          session.release(id);
        }
      }
      return;
    }
    if (setHolds.containsKey(evidenceId)) {
      if (ownHolds.remove(evidenceId)) {
        return; // its own hold ends; the sets that list it keep it
      }
      throw ReaException.builder(
              Constraint.BAD_ARGUMENT,
              "evidence " + ReaException.truncateForMessage(evidenceId) + " is a member of the"
                  + " retained set " + holderOf(evidenceId) + ", which needs it: release the"
                  + " set, which releases its members")
          .field("evidence_id")
          .build();
    }
    ownHolds.remove(evidenceId);
    session.release(evidenceId);
  }

  /** @return the ID of a retained set listing the member */
  private String holderOf(String memberId) {
    for (java.util.Map.Entry<String, dev.rea.core.evidence.ModelSetRecord> e : sets.entrySet()) {
      for (dev.rea.core.evidence.ModelSetRecord.Member m : e.getValue().members()) {
        if (m.evidenceId().equals(memberId)) {
          return e.getKey();
        }
      }
    }
    return "(none)";
  }

  /** Retains Evidence this server produced (indexed once here). */
  Evidence retainProduced(EvidenceRecord record) throws ReaException {
    Evidence ev = rea.evidence(record);
    synchronized (this) {
      Evidence held = session.retain(ev);
      ownHolds.add(held.evidenceId());
      return held;
    }
  }

  /**
   * Authenticates, indexes and retains every record of the bundle {@code json} (all or nothing).
   * Only a bundle or an in-toto envelope (of a bundle, a set or one file's record; CONTRACT
   * section 13) is taken (CONTRACT section 7: {@code import_evidence_bundle} takes {@code path}
   * or {@code bundle}); a single bare record is refused.
   *
   * @return the records' evidence IDs in bundle order
   * @throws ReaException {@code invalid_input} / {@code evidence_rejected} when the input is not
   *     a bundle or any record fails; {@code resource_exhausted} / {@code retained_budget}
   */
  List<String> importBundle(byte[] json) throws ReaException {
    return loadOneAtATime(
        () ->
            Rea.isSetEvidence(json)
                ? retainSetBundle(rea.readSetEvidence(json))
                : retainBundle(rea.readEvidence(json), null));
  }

  /** Same, from a bundle file; also {@code target_unavailable} when it cannot be read. */
  List<String> importBundleFile(Path path) throws ReaException {
    return loadOneAtATime(
        () ->
            Rea.isSetEvidence(path)
                ? retainSetBundle(rea.readSetEvidence(path))
                : retainBundle(rea.readEvidence(path), path));
  }

  /**
   * Authenticates a saved set bundle ({@link Rea#readSetEvidence(Path)}) one input at a time, as
   * {@link #loadFile} does a record or bundle.
   */
  dev.rea.core.SetEvidence loadSetFile(Path path) throws ReaException {
    return loadOneAtATime(() -> rea.readSetEvidence(path));
  }

  /**
   * A set bundle (what {@code inspect_model_set} and {@code inspect-model-set --json} write,
   * CONTRACT section 9) is retained as a set: its members in the session, the set beside them.
   *
   * @return the set record's evidence ID, then the members' in member order
   */
  private List<String> retainSetBundle(dev.rea.core.SetEvidence read) throws ReaException {
    dev.rea.core.SetEvidence held = retainSet(read.set(), read.memberRecords());
    List<String> ids = new ArrayList<>(1 + held.members().size());
    ids.add(held.evidenceId());
    for (Evidence m : held.members()) {
      ids.add(m.evidenceId());
    }
    return ids;
  }

  private List<String> retainBundle(LoadedEvidence loaded, @Nullable Path path)
      throws ReaException {
    // A file's attestation holds one record: an envelope is imported whatever it carries.
    if (!loaded.bundle() && !loaded.envelope()) {
      throw wrongKind(
          "import_evidence_bundle takes a bundle ({\"schema\": \""
              + Rea.BUNDLE_SCHEMA
              + "\", \"records\": [...]}), but "
              + (path == null ? "this" : "this file")
              + " is a single Evidence record (schema "
              + EvidenceRecord.SCHEMA
              + "). Wrap it in a bundle, or page through it directly with"
              + " inspect_analysis_view and source {kind: \"evidence-file\", path} or"
              + " {kind: \"inline\", evidence}.",
          "not a bundle",
          path);
    }
    synchronized (this) {
      List<String> ids = ids(session.retainAll(loaded.records()));
      ownHolds.addAll(ids);
      return ids;
    }
  }

  /**
   * The one record of an {@code evidence-file} or {@code inline} source. The specification
   * ("Facts and selected queries") takes "a single authenticated Evidence JSON record" there: "A
   * bundle is not a single Evidence record"; a bundle is imported with {@code
   * import_evidence_bundle} and queried as retained Evidence.
   *
   * @param path the evidence file, or null for inline Evidence
   * @throws ReaException {@code invalid_input} / {@code evidence_rejected} (field {@code
   *     schema}) for a bundle
   */
  static Evidence singleRecord(LoadedEvidence loaded, @Nullable Path path)
      throws ReaException {
    if (loaded.bundle()) {
      throw wrongKind(
          (path == null ? "source.evidence" : "this file")
              + " is a bundle (schema "
              + Rea.BUNDLE_SCHEMA
              + ", "
              + loaded.records().size()
              + (loaded.records().size() == 1 ? " record" : " records")
              + "), not a single Evidence record (schema "
              + EvidenceRecord.SCHEMA
              + "). Import it with import_evidence_bundle and query its records with"
              + " source {kind: \"retained-evidence\", evidence_id}, or save one record"
              + " of it as a standalone Evidence file.",
          "a bundle, not a record",
          path);
    }
    return loaded.select(null, "by its evidence_id");
  }

  /** {@code invalid_input} / {@code evidence_rejected} (field {@code schema}): the wrong kind. */
  private static ReaException wrongKind(String message, String reason, @Nullable Path path) {
    ReaException.Builder b =
        ReaException.builder(dev.rea.core.error.Constraint.EVIDENCE_REJECTED, message)
            .field("schema")
            .diagnostic("reason", reason);
    if (path != null) {
      b.path(path.toString());
    }
    return b.build();
  }

  private static List<String> ids(List<Evidence> evs) {
    List<String> out = new ArrayList<>(evs.size());
    for (Evidence e : evs) {
      out.add(e.evidenceId());
    }
    return out;
  }
}
