package dev.rea.core;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.view.IndexedEvidence;
import java.util.Objects;

/**
 * One Evidence record that this process produced or authenticated, indexed once so that
 * summaries and view pages are answered without scanning it (CONTRACT sections 4 and 5). Obtain
 * it from {@link Rea#evidence(EvidenceRecord)} (a record REA just produced) or {@link
 * Rea#readEvidence} (saved Evidence, authenticated first).
 *
 * <p>Immutable; thread-safe.
 */
public final class Evidence {
  private final IndexedEvidence indexed;

  Evidence(IndexedEvidence indexed) {
    this.indexed = Objects.requireNonNull(indexed, "indexed");
  }

  /** @return the record */
  public EvidenceRecord record() {
    return indexed.record();
  }

  /** @return its {@code evidence_id}, {@code "sha256:<hex>"} */
  public String evidenceId() {
    return indexed.evidenceId();
  }

  /** @return the memory the index holds, as charged against a session's retained budget (bytes) */
  public long retainedBytes() {
    return indexed.retainedBytes();
  }

  IndexedEvidence indexed() {
    return indexed;
  }

  @Override
  public String toString() {
    return "Evidence{" + evidenceId() + "}";
  }
}
