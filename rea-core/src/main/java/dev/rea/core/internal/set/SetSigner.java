package dev.rea.core.internal.set;

import dev.rea.core.evidence.Authentication;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.internal.auth.EvidenceSigner;
import dev.rea.core.internal.auth.KeyRing;
import dev.rea.core.internal.evidence.EvidenceIds;
import java.util.Base64;
import java.util.Objects;

/**
 * Gives a set record its identity and Ed25519 signature (CONTRACT sections 5 and 9), as {@link
 * EvidenceSigner} does for file records: the signature is over the RFC 8785 form of the record
 * without {@code evidence_id} and {@code authentication}. Thread-safe.
 */
public final class SetSigner {
  private final KeyRing ring;

  /** @param ring the provider's key ring */
  public SetSigner(KeyRing ring) {
    this.ring = Objects.requireNonNull(ring, "ring");
  }

  /**
   * @param r any set record (its own id and signature are replaced)
   * @return the record with {@code evidence_id} and {@code authentication} set
   */
  public ModelSetRecord sign(ModelSetRecord r) {
    EvidenceIds.Identity id = SetRecordJson.identity(r);
    String signature = Base64.getEncoder().encodeToString(ring.sign(id.canonical()));
    return r.withEvidenceId(id.evidenceId())
        .withAuthentication(new Authentication(EvidenceSigner.SCHEME, ring.keyId(), signature));
  }
}
