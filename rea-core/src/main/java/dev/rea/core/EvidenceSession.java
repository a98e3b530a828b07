package dev.rea.core;

import dev.rea.core.error.ReaException;
import dev.rea.core.internal.view.IndexedEvidence;
import dev.rea.core.internal.view.RetainedEvidenceStore;
import java.util.ArrayList;
import java.util.List;

/**
 * Evidence a long-running caller (the MCP server) keeps by ID until it releases it
 * (specification: "The session owns validated indexes until that Evidence is released"; CONTRACT
 * section 7). Memory is charged against a budget ({@code Limits.retainedBudgetBytes()}, 32 MiB
 * by default); retaining what does not fit is refused with {@code resource_exhausted} / {@code
 * retained_budget}, and nothing is evicted implicitly. Retaining Evidence already held charges
 * nothing.
 *
 * <p>Thread-safe.
 */
public final class EvidenceSession {
  private final RetainedEvidenceStore store;

  EvidenceSession(long budgetBytes) {
    this.store = new RetainedEvidenceStore(budgetBytes);
  }

  /**
   * @return the Evidence now retained (the one already held under the same ID, if any)
   * @throws ReaException {@code retained_budget} when it does not fit in what is left
   */
  public Evidence retain(Evidence ev) throws ReaException {
    IndexedEvidence held = store.retain(ev.indexed());
    return held == ev.indexed() ? ev : new Evidence(held);
  }

  /**
   * Retains all or none.
   *
   * @return the retained Evidence, in the given order
   * @throws ReaException {@code retained_budget} when they do not fit together
   */
  public List<Evidence> retainAll(List<Evidence> evs) throws ReaException {
    List<IndexedEvidence> in = new ArrayList<>(evs.size());
    for (Evidence e : evs) {
      in.add(e.indexed());
    }
    List<IndexedEvidence> held = store.retainAll(in);
    List<Evidence> out = new ArrayList<>(held.size());
    for (int i = 0; i < held.size(); i++) {
      out.add(held.get(i) == in.get(i) ? evs.get(i) : new Evidence(held.get(i)));
    }
    return out;
  }

  /**
   * @return the retained Evidence with that ID
   * @throws ReaException {@code invalid_input} / {@code unknown_evidence}
   */
  public Evidence get(String evidenceId) throws ReaException {
    return new Evidence(store.get(evidenceId));
  }

  /**
   * Releases the Evidence with that ID and its memory.
   *
   * @throws ReaException {@code invalid_input} / {@code unknown_evidence}
   */
  public void release(String evidenceId) throws ReaException {
    store.release(evidenceId);
  }

  /** @return whether Evidence with that ID is retained */
  public boolean contains(String evidenceId) {
    return store.contains(evidenceId);
  }

  /** @return the retained IDs, oldest first */
  public List<String> ids() {
    return store.ids();
  }

  /** @return bytes charged now */
  public long usedBytes() {
    return store.usedBytes();
  }

  /** @return the budget in bytes */
  public long budgetBytes() {
    return store.budgetBytes();
  }
}
