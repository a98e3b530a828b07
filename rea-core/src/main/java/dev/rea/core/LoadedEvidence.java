package dev.rea.core;

import dev.rea.core.error.ReaException;
import dev.rea.core.internal.view.EvidenceLoader;
import dev.rea.core.internal.view.IndexedEvidence;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Saved Evidence read by {@link Rea#readEvidence}: every record authenticated (identity,
 * signature by a trusted key, schema, positional indices, uniqueness; CONTRACT section 5) and
 * indexed, in input order.
 *
 * <p>Immutable; thread-safe.
 */
public final class LoadedEvidence {
  private final EvidenceLoader.Loaded loaded;
  private final List<Evidence> records;

  LoadedEvidence(EvidenceLoader.Loaded loaded) {
    this.loaded = Objects.requireNonNull(loaded, "loaded");
    List<Evidence> out = new ArrayList<>(loaded.records().size());
    for (IndexedEvidence ev : loaded.records()) {
      out.add(new Evidence(ev));
    }
    this.records = List.copyOf(out);
  }

  /** @return true when the input was a bundle ({@code rea.bundle.v1}), false for one record */
  public boolean bundle() {
    return loaded.bundle();
  }

  /**
   * @return true when the input was an in-toto attestation (a DSSE envelope, CONTRACT section
   *     13) whose predicate held the records; {@link #bundle()} says what the predicate was
   */
  public boolean envelope() {
    return loaded.envelope();
  }

  /** @return the records, in input order (a bundle may hold none) */
  public List<Evidence> records() {
    return records;
  }

  /**
   * Chooses one record: the one whose {@code evidence_id} is given, or the only one.
   *
   * @param evidenceId the wanted ID, or null to take the only record
   * @param howToChoose how the caller's user names a record, ending "choose one ..." in the
   *     message for a bundle of several records given without an ID (e.g. {@code "by its
   *     evidence_id"})
   * @return the record
   * @throws ReaException {@code invalid_input}: {@code bad_argument} (no ID, several records)
   *     or {@code unknown_evidence} (no record has that ID)
   */
  public Evidence select(@Nullable String evidenceId, String howToChoose) throws ReaException {
    return new Evidence(EvidenceLoader.select(loaded, evidenceId, howToChoose));
  }
}
