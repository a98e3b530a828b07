package dev.rea.core;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.io.FileAccess;
import dev.rea.core.internal.view.ArrayElementPages;
import dev.rea.core.internal.view.IndexedEvidence;
import dev.rea.core.options.Cancellation;
import dev.rea.core.view.ArrayView;
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

  /**
   * One page of an array's elements, read again from the model file this Evidence names
   * ({@link ArrayView}; docs/evidence.md, "Array element pages"): the file must still have the
   * size, modification time and (where recorded) device and inode of {@code artifact.identity},
   * and the bytes read must have the record's {@code header_sha256} and the row's {@code
   * value_sha256}.
   *
   * @param view the array and the page wanted
   * @return the page ({@code kind: "model-artifact-array-page"}), UTF-8 JSON of at most 64 KiB
   * @throws ReaException {@code invalid_input} / {@code bad_view} (no such ARRAY key, not GGUF,
   *     Evidence saved without the row's {@code value_sha256}); {@code execution_failure} /
   *     {@code target_changed} when the file is not the one described; {@code io_error}
   */
  public byte[] arrayPage(ArrayView view) throws ReaException {
    return ArrayElementPages.answer(record(), view, FileAccess.system(), Cancellation.none());
  }

  IndexedEvidence indexed() {
    return indexed;
  }

  @Override
  public String toString() {
    return "Evidence{" + evidenceId() + "}";
  }
}
