package dev.rea.core.internal.auth;


import dev.rea.core.evidence.Authentication;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.evidence.RecentRecords;
import dev.rea.core.internal.io.Background;
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
   * @return the record with {@code evidence_id} and {@code authentication} set: {@code record}
   *     itself when it is one {@link #signFresh} returned lately with the same key (Ed25519 is
   *     deterministic: signing it again would give the same fields)
   */
  public EvidenceRecord sign(EvidenceRecord record) {
    if (ring.keyId().equals(recent.of(record))) {
      return record;
    }
    EvidenceIds.Identity identity = EvidenceIds.identity(record);
    return signed(record, identity.evidenceId(), ring.sign(identity.canonical()));
  }

  /**
   * Below this many canonical bytes a record is identified and signed on the caller's thread
   * alone: a second thread costs more than the SHA-256 of a record of a few kilobytes.
   */
  static final int SECOND_THREAD_BYTES = 256 * 1024;

  /**
   * Signs a record whose evidence ID is not known yet: as {@link #sign}, but the canonical form
   * is written once, and its SHA-256 (the {@code evidence_id}) and its Ed25519 signature are
   * computed at the same time, the first on a second thread when the form has at least {@value
   * #SECOND_THREAD_BYTES} bytes. Both run over the same bytes, so on two cores an inspection
   * delivered signed waits for the longer of the two rather than their sum (the signature
   * hashes the form twice with SHA-512; a 20,000-tensor record is about 5 MB).
   *
   * @param record a record fresh from an inspection (its own id and authentication ignored)
   * @return the record with {@code evidence_id} and {@code authentication} set; equal to {@link
   *     #sign}'s result
   */
  public EvidenceRecord signFresh(EvidenceRecord record) {
    byte[] canonical = EvidenceIds.canonicalBytes(record);
    Background<String> id =
        Background.start(
            () -> EvidenceIds.idOfCanonical(canonical),
            "rea-evidence-id",
            canonical.length >= SECOND_THREAD_BYTES);
    byte[] signature = ring.sign(canonical);
    EvidenceRecord signed = signed(record, id.join("computing the evidence ID"), signature);
    recent.remember(signed, ring.keyId());
    return signed;
  }

  /**
   * The records {@link #signFresh} returned last, with the key that signed each: {@link #sign}
   * gives such a record back as it is (a set signs its members on the threads that inspect them,
   * and the bundle's writer then signs each member again in order).
   */
  private static final RecentRecords<String> recent = new RecentRecords<>();

  private EvidenceRecord signed(EvidenceRecord record, String evidenceId, byte[] signature) {
    return record
        .withEvidenceId(evidenceId)
        .withAuthentication(
            new Authentication(SCHEME, ring.keyId(), Base64.getEncoder().encodeToString(signature)));
  }

  /** @return the key ring used */
  public KeyRing keyRing() {
    return ring;
  }
}
