package dev.rea.core.internal.set;

import dev.rea.core.internal.evidence.EvidenceIds;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

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

  private final FutureTask<String> task;

  private IndexDigest(byte[] bytes) {
    this.task = new FutureTask<>(() -> EvidenceIds.sha256Hex(bytes));
  }

  /** @return the digest of {@code bytes}, started on a daemon thread when worth it */
  static IndexDigest start(byte[] bytes) {
    IndexDigest d = new IndexDigest(bytes);
    if (bytes.length >= THREAD_BYTES && Runtime.getRuntime().availableProcessors() > 1) {
      Thread t = new Thread(d.task, "rea-index-digest");
      t.setDaemon(true);
      t.start();
    }
    return d;
  }

  /** @return the lower-case hex SHA-256, waiting for it (or computing it here) */
  String hex() {
    task.run(); // computes here unless started (or done) on the thread
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return task.get();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException("hashing the index failed", cause);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
