package dev.rea.core.internal.formats;

import dev.rea.core.internal.auth.KeyRing;
import java.util.Objects;

/**
 * What signs a DSSE envelope ({@link Dsse}): an Ed25519 key and its REA key ID. The message it is
 * given is the DSSE pre-authentication encoding ({@link Dsse#pae}), never the bare payload.
 */
public interface DsseSigner {
  /**
   * @return the key's ID as CONTRACT section 5 spells it, {@code "sha256:" + hex(SHA-256 of the
   *     DER SubjectPublicKeyInfo)}; written as the signature's {@code keyid}
   */
  String keyId();

  /**
   * @param message the bytes to sign
   * @return the signature (64 bytes for Ed25519)
   */
  byte[] sign(byte[] message);

  /**
   * @param ring a key ring that can sign ({@link KeyRing#canSign()})
   * @return a signer backed by the provider's key of {@code ring}
   * @throws IllegalStateException when the ring has no key pair
   */
  static DsseSigner of(KeyRing ring) {
    Objects.requireNonNull(ring, "ring");
    String id = ring.keyId();
    return new DsseSigner() {
      @Override
      public String keyId() {
        return id;
      }

      @Override
      public byte[] sign(byte[] message) {
        return ring.sign(message);
      }
    };
  }
}
