package dev.rea.core.evidence;

import java.util.Objects;

/**
 * An Ed25519 signature over the record's canonical bytes (CONTRACT section 5).
 *
 * @param scheme always {@code "ed25519"}
 * @param keyId {@code "sha256:" + hex(SHA-256(public key encoding))}
 * @param signature base64 signature
 */
public record Authentication(String scheme, String keyId, String signature) {
  public Authentication {
    Objects.requireNonNull(scheme, "scheme");
    Objects.requireNonNull(keyId, "keyId");
    Objects.requireNonNull(signature, "signature");
  }
}
