package dev.rea.mcp;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.auth.EvidenceSigner;
import dev.rea.core.internal.auth.EvidenceVerifier;
import dev.rea.core.internal.auth.KeyRing;
import dev.rea.core.internal.auth.ReaHome;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.internal.view.EvidenceLoader;
import dev.rea.core.internal.view.IndexedEvidence;
import dev.rea.core.internal.view.RetainedEvidenceStore;
import dev.rea.core.options.Limits;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The session's Evidence: the retained store (indexed once, bounded by the 32 MiB retained budget
 * of {@link Limits}, released explicitly) and the provider's key ring for signing what the server
 * hands out and verifying what it is given. All of it is {@code rea-core}
 * ({@link RetainedEvidenceStore}, {@link EvidenceLoader}, {@link EvidenceSigner}); this class
 * only holds one of each for the server process. The key ring is opened on first use (it may
 * create the key pair in the REA home directory) and kept; a failure to open it is reported to
 * the call that needed it and retried by the next.
 *
 * <p>Thread-safe.
 */
final class EvidenceDesk {
  private final RetainedEvidenceStore store;
  private final Supplier<Path> home;
  private @Nullable KeyRing ring;

  /**
   * @param retainedBudget bytes of retained Evidence (the specification's 32 MiB by default,
   *     {@link Limits#DEFAULT_RETAINED_BUDGET_BYTES})
   * @param home the REA home directory (resolved when first needed)
   */
  EvidenceDesk(long retainedBudget, Supplier<Path> home) {
    this.store = new RetainedEvidenceStore(retainedBudget);
    this.home = Objects.requireNonNull(home, "home");
  }

  /** @return a desk on the REA home the environment selects ({@link ReaHome}) */
  static EvidenceDesk standard(long retainedBudget) {
    return new EvidenceDesk(retainedBudget, ReaHome::resolveFromSystem);
  }

  RetainedEvidenceStore store() {
    return store;
  }

  /** @throws ReaException {@code execution_failure} when the key ring cannot be opened */
  synchronized KeyRing ring() throws ReaException {
    if (ring == null) {
      ring = KeyRing.open(home.get());
      for (String problem : ring.problems()) {
        Log.warn("key ring: " + problem);
      }
    }
    return ring;
  }

  /** @return {@code record} signed with the provider's key */
  EvidenceRecord sign(EvidenceRecord record) throws ReaException {
    return new EvidenceSigner(ring()).sign(record);
  }

  /** @return partial Evidence of {@code e} signed when a key is at hand; {@code e} otherwise */
  ReaException signPartial(ReaException e) {
    if (e.partialEvidence() == null) {
      return e;
    }
    try {
      return e.withPartialEvidence(sign(e.partialEvidence()));
    } catch (ReaException | RuntimeException signingFailed) {
      Log.warn("could not sign partial Evidence: " + signingFailed.getMessage());
      return e;
    }
  }

  /** @return a loader that authenticates with the provider's and trusted keys */
  private EvidenceLoader loader() throws ReaException {
    return new EvidenceLoader(EvidenceVerifier.standard(ring()));
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

  /** A load of Evidence under {@link #loading}. */
  private interface Load {
    EvidenceLoader.Loaded run(EvidenceLoader loader) throws ReaException;
  }

  private EvidenceLoader.Loaded loadOneAtATime(Load load) throws ReaException {
    EvidenceLoader loader = loader();
    loading.lock();
    try {
      int now = loadsNow.incrementAndGet();
      mostLoadsAtOnce = Math.max(mostLoadsAtOnce, now);
      try {
        return load.run(loader);
      } finally {
        loadsNow.decrementAndGet();
      }
    } finally {
      loading.unlock();
    }
  }

  /** Authenticates and indexes Evidence given as JSON text ({@link EvidenceLoader#load}). */
  EvidenceLoader.Loaded load(byte[] json) throws ReaException {
    return loadOneAtATime(l -> l.load(json));
  }

  /** Same, from a file ({@link EvidenceLoader#loadFile}). */
  EvidenceLoader.Loaded loadFile(Path path) throws ReaException {
    return loadOneAtATime(l -> l.loadFile(path));
  }

  /** @return the most loads that ran at once so far (tests: never more than one) */
  int mostLoadsAtOnce() {
    return mostLoadsAtOnce;
  }

  /** Retains Evidence this server produced (indexed once here). */
  IndexedEvidence retainProduced(EvidenceRecord record) throws ReaException {
    return store.retain(IndexedEvidence.of(record));
  }

  /**
   * Authenticates, indexes and retains every record of the bundle {@code json} (all or nothing).
   * Only a bundle is taken (CONTRACT section 7: {@code import_evidence_bundle} takes {@code path}
   * or {@code bundle}); a single record is refused.
   *
   * @return the records' evidence IDs in bundle order
   * @throws ReaException {@code invalid_input} / {@code evidence_rejected} when the input is not
   *     a bundle or any record fails; {@code resource_exhausted} / {@code retained_budget}
   */
  List<String> importBundle(byte[] json) throws ReaException {
    return retainBundle(load(json), null);
  }

  /** Same, from a bundle file; also {@code target_unavailable} when it cannot be read. */
  List<String> importBundleFile(Path path) throws ReaException {
    return retainBundle(loadFile(path), path);
  }

  private List<String> retainBundle(EvidenceLoader.Loaded loaded, @Nullable Path path)
      throws ReaException {
    if (!loaded.bundle()) {
      throw wrongKind(
          "import_evidence_bundle takes a bundle ({\"schema\": \""
              + EvidenceJson.BUNDLE_SCHEMA
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
    return ids(store.retainAll(loaded.records()));
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
  static IndexedEvidence singleRecord(EvidenceLoader.Loaded loaded, @Nullable Path path)
      throws ReaException {
    if (loaded.bundle()) {
      throw wrongKind(
          (path == null ? "source.evidence" : "this file")
              + " is a bundle (schema "
              + EvidenceJson.BUNDLE_SCHEMA
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
    return EvidenceLoader.select(loaded, null);
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

  private static List<String> ids(List<IndexedEvidence> evs) {
    List<String> out = new ArrayList<>(evs.size());
    for (IndexedEvidence e : evs) {
      out.add(e.evidenceId());
    }
    return out;
  }
}
