package dev.rea.core.internal.auth;

import dev.rea.core.evidence.Authentication;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.evidence.EvidenceIds;
import java.util.Base64;
import java.util.Objects;

/**
 * Gives a record its identity and signature (CONTRACT section 5): {@code evidence_id = "sha256:"
 * + hex(SHA-256(C))} and {@code authentication = {"scheme": "ed25519", "key_id": <provider key
 * ID>, "signature": base64(Ed25519(C))}}, where C is the RFC 8785 canonical form of the record
 * without {@code evidence_id} and {@code authentication} ({@link EvidenceIds#canonicalBytes}).
 *
 * <p>Thread-safe.
 */
public final class EvidenceSigner {
  /** The only signature scheme. */
  public static final String SCHEME = "ed25519";

  private final KeyRing ring;

  /** @param ring the provider's key ring */
  public EvidenceSigner(KeyRing ring) {
    this.ring = Objects.requireNonNull(ring, "ring");
  }

  /**
   * Signs a record.
   *
   * @param record any record (its own {@code evidence_id} and {@code authentication} are
   *     ignored and replaced)
   * @return the record with {@code evidence_id} and {@code authentication} set
   */
  public EvidenceRecord sign(EvidenceRecord record) {
    EvidenceIds.Identity identity = EvidenceIds.identity(record);
    String signature = Base64.getEncoder().encodeToString(ring.sign(identity.canonical()));
    return record
        .withEvidenceId(identity.evidenceId())
        .withAuthentication(new Authentication(SCHEME, ring.keyId(), signature));
  }

  /** @return the key ring used */
  public KeyRing keyRing() {
    return ring;
  }
}
