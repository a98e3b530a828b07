package dev.rea.core.evidence;

import dev.rea.core.error.ReaException;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of inspecting one model file: the complete Evidence record, or a failure with the
 * partial Evidence retained before it (CONTRACT sections 3 and 6; specification, "Identity and
 * reads": "If full-file hashing fails or is cancelled after either format's header has been
 * validated, partial Evidence retains the parsed metadata and tensor directory").
 *
 * <p>A value, not an exception, so that a caller cannot drop the partial Evidence by catching.
 */
public sealed interface Inspection permits Inspection.Complete, Inspection.Failed {

  /**
   * @return the complete record
   * @throws ReaException the failure, when the inspection failed (its partial Evidence, if any,
   *     stays with {@link Failed})
   */
  EvidenceRecord orThrow() throws ReaException;

  /** @return the failure, or empty for a complete record */
  Optional<ReaException> failure();

  /** @return the partial Evidence of a failure, or empty (complete, or failed before any) */
  Optional<EvidenceRecord> partialEvidence();

  /**
   * A complete record ({@code status: "complete"}).
   *
   * @param record the record, with its {@code evidence_id}
   */
  record Complete(EvidenceRecord record) implements Inspection {
    public Complete {
      Objects.requireNonNull(record, "record");
    }

    @Override
    public EvidenceRecord orThrow() {
      return record;
    }

    @Override
    public Optional<ReaException> failure() {
      return Optional.empty();
    }

    @Override
    public Optional<EvidenceRecord> partialEvidence() {
      return Optional.empty();
    }
  }

  /**
   * A failure.
   *
   * @param error the typed failure (CONTRACT section 6)
   * @param partial every validated row, {@code status: "partial"}, digests unknown and final
   *     identity unverified; null when the failure came before anything was validated
   */
  record Failed(ReaException error, @Nullable EvidenceRecord partial) implements Inspection {
    public Failed {
      Objects.requireNonNull(error, "error");
    }

    @Override
    public EvidenceRecord orThrow() throws ReaException {
      throw error;
    }

    @Override
    public Optional<ReaException> failure() {
      return Optional.of(error);
    }

    @Override
    public Optional<EvidenceRecord> partialEvidence() {
      return Optional.ofNullable(partial);
    }
  }
}
