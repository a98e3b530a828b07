package dev.rea.core.evidence;

import org.jspecify.annotations.Nullable;

/**
 * A record that carries the two fields its canonical form leaves out (CONTRACT section 5):
 * {@code evidence_id} and {@code authentication}. Implemented by {@link EvidenceRecord} and
 * {@link ModelSetRecord}, which each give {@link #withIdentity} and share the two one-field copies
 * here.
 *
 * @param <R> the record type itself
 */
public interface SignableRecord<R extends SignableRecord<R>> {
  /** @return {@code "sha256:<hex>"} of the canonical form; null before it is computed */
  @Nullable String evidenceId();

  /** @return the signature, or null when unsigned */
  @Nullable Authentication authentication();

  /**
   * @param evidenceId the evidence ID, or null
   * @param authentication the signature, or null
   * @return a copy with every other field the same and these two replaced
   */
  R withIdentity(@Nullable String evidenceId, @Nullable Authentication authentication);

  /** @return a copy with the given evidence ID */
  default R withEvidenceId(@Nullable String id) {
    return withIdentity(id, authentication());
  }

  /** @return a copy with the given authentication */
  default R withAuthentication(@Nullable Authentication auth) {
    return withIdentity(evidenceId(), auth);
  }
}
