package dev.rea.core.internal.view;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.options.Limits;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Authenticated, indexed Evidence kept by a serving process until released (specification: "The
 * session owns validated indexes until that Evidence is released"; CONTRACT section 7, {@code
 * import_evidence_bundle}, {@code release_evidence}, {@code source.kind: "retained-evidence"}).
 *
 * <p>Memory is accounted with {@link IndexedEvidence#retainedBytes()} against a budget (by
 * default {@link Limits#retainedBudgetBytes()}, 32 MiB). Retaining Evidence that would exceed the
 * budget is refused with {@code resource_exhausted} / {@code retained_budget} (nothing is
 * evicted implicitly: the caller releases what it no longer needs). Retaining Evidence already
 * held is a no-op that charges nothing. An unknown ID is {@code invalid_input} / {@code
 * unknown_evidence}.
 *
 * <p>There is no freshness claim: retained Evidence describes the file as it was observed.
 *
 * <p>Thread-safe: every method is atomic with respect to the others.
 */
public final class RetainedEvidenceStore {
  private final long budgetBytes;
  private final Map<String, IndexedEvidence> byId = new LinkedHashMap<>();
  private long usedBytes;

  /** @param budgetBytes the memory budget in bytes (positive) */
  public RetainedEvidenceStore(long budgetBytes) {
    if (budgetBytes <= 0) {
      throw new IllegalArgumentException("budgetBytes must be positive: " + budgetBytes);
    }
    this.budgetBytes = budgetBytes;
  }

  /** @return a store with the retained budget of {@code limits} */
  public static RetainedEvidenceStore of(Limits limits) {
    return new RetainedEvidenceStore(limits.retainedBudgetBytes());
  }

  /**
   * Retains indexed Evidence.
   *
   * @return the retained Evidence (the one already held when the ID was present)
   * @throws ReaException {@code retained_budget} when it does not fit in what is left
   */
  public synchronized IndexedEvidence retain(IndexedEvidence ev) throws ReaException {
    Objects.requireNonNull(ev, "ev");
    IndexedEvidence held = byId.get(ev.evidenceId());
    if (held != null) {
      return held;
    }
    long need = ev.retainedBytes();
    if (need > budgetBytes - usedBytes) {
      throw ReaException.builder(
              Constraint.RETAINED_BUDGET,
              "retaining evidence "
                  + ev.evidenceId()
                  + " needs "
                  + need
                  + " bytes, but only "
                  + (budgetBytes - usedBytes)
                  + " of the retained budget of "
                  + budgetBytes
                  + " bytes are free; release evidence that is no longer needed")
          .diagnostic("limit", "retained_budget")
          .diagnostic("limit_bytes", Long.toString(budgetBytes))
          .diagnostic("used_bytes", Long.toString(usedBytes))
          .diagnostic("requested_bytes", Long.toString(need))
          .diagnostic("evidence_id", ev.evidenceId())
          .build();
    }
    byId.put(ev.evidenceId(), ev);
    usedBytes += need;
    return ev;
  }

  /**
   * Retains several pieces of Evidence all or nothing (e.g. the records of one bundle).
   *
   * @return the retained Evidence, in order
   * @throws ReaException {@code retained_budget} when they do not all fit; nothing is retained
   */
  public synchronized List<IndexedEvidence> retainAll(List<IndexedEvidence> evs)
      throws ReaException {
    long need = 0;
    Map<String, IndexedEvidence> fresh = new LinkedHashMap<>();
    for (IndexedEvidence ev : evs) {
      if (!byId.containsKey(ev.evidenceId()) && fresh.put(ev.evidenceId(), ev) == null) {
        need += ev.retainedBytes();
      }
    }
    if (need > budgetBytes - usedBytes) {
      throw ReaException.builder(
              Constraint.RETAINED_BUDGET,
              "retaining "
                  + fresh.size()
                  + " evidence records needs "
                  + need
                  + " bytes, but only "
                  + (budgetBytes - usedBytes)
                  + " of the retained budget of "
                  + budgetBytes
                  + " bytes are free; release evidence that is no longer needed")
          .diagnostic("limit", "retained_budget")
          .diagnostic("limit_bytes", Long.toString(budgetBytes))
          .diagnostic("used_bytes", Long.toString(usedBytes))
          .diagnostic("requested_bytes", Long.toString(need))
          .build();
    }
    List<IndexedEvidence> out = new ArrayList<>(evs.size());
    for (IndexedEvidence ev : evs) {
      out.add(retain(ev));
    }
    return out;
  }

  /**
   * @return the retained Evidence with this ID
   * @throws ReaException {@code unknown_evidence} when none is retained under it
   */
  public synchronized IndexedEvidence get(String evidenceId) throws ReaException {
    IndexedEvidence ev = byId.get(evidenceId);
    if (ev == null) {
      throw unknown(evidenceId);
    }
    return ev;
  }

  /**
   * Releases retained Evidence and its memory.
   *
   * @throws ReaException {@code unknown_evidence} when none is retained under this ID
   */
  public synchronized void release(String evidenceId) throws ReaException {
    IndexedEvidence ev = byId.remove(evidenceId);
    if (ev == null) {
      throw unknown(evidenceId);
    }
    usedBytes -= ev.retainedBytes();
  }

  /** @return true when Evidence with this ID is retained */
  public synchronized boolean contains(String evidenceId) {
    return byId.containsKey(evidenceId);
  }

  /** @return the retained IDs in retention order */
  public synchronized List<String> ids() {
    return new ArrayList<>(byId.keySet());
  }

  /** The shape of every evidence_id REA writes (CONTRACT section 5). */
  private static final java.util.regex.Pattern ID_SHAPE =
      java.util.regex.Pattern.compile("sha256:[0-9a-f]{64}");

  /** @return bytes charged by the retained Evidence */
  public synchronized long usedBytes() {
    return usedBytes;
  }

  /** @return the budget in bytes */
  public long budgetBytes() {
    return budgetBytes;
  }

  private static ReaException unknown(String id) {
    // An id of another shape names nothing REA ever made: say so, not that it was released.
    boolean wellFormed = ID_SHAPE.matcher(id).matches();
    return ReaException.builder(
            Constraint.UNKNOWN_EVIDENCE,
            wellFormed
                ? "no evidence "
                    + ReaException.truncateForMessage(id)
                    + " is retained (it was never imported, or it was released)"
                : "'"
                    + ReaException.truncateForMessage(id)
                    + "' is no evidence_id: an evidence_id is \"sha256:\" and 64 lower-case"
                    + " hexadecimal digits, as a summary's parent_evidence_id gives it")
        .field("evidence_id")
        .diagnostic("evidence_id", ReaException.truncateForMessage(id))
        .build();
  }
}
