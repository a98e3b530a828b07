package dev.rea.core.internal.set;

import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.io.Background;

/**
 * The SHA-256 of a safetensors index's bytes (the set record's {@code set.index.sha256}, CONTRACT
 * section 9), computed on its own thread while the index is parsed when the index is large and the
 * machine has a second core: an 8.8 MB index (DeepSeek-V3's) takes about 0.25 s to hash at the
 * launcher's first-tier compiler, as long as a good part of its parse. The bytes are the ones
 * parsed; they are not changed while hashed. Thread-safe.
 */
final class IndexDigest {
  /** Below this many bytes the hash is computed when asked for, on the caller's thread. */
  static final int THREAD_BYTES = 1 << 20;

  private final Background<String> digest;

  private IndexDigest(Background<String> digest) {
    this.digest = digest;
  }

  /** @return the digest of {@code bytes}, started on a daemon thread when worth it */
  static IndexDigest start(byte[] bytes) {
    return new IndexDigest(
        Background.start(
            () -> EvidenceIds.sha256Hex(bytes),
            "rea-index-digest",
            bytes.length >= THREAD_BYTES && Runtime.getRuntime().availableProcessors() > 1));
  }

  /** @return the lower-case hex SHA-256, waiting for it (or computing it here) */
  String hex() {
    return digest.join("hashing the index");
  }
}
