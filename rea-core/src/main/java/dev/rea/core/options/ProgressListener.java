package dev.rea.core.options;


/**
 * Progress of a full hash ({@code hash: "full"}), in bytes: how much of the file (or, for a
 * model set, of all its members together) has been read and hashed so far.
 *
 * <p>Called on the inspecting thread, often (once per buffer of about 1 MiB): implementations
 * must be quick and must not throw.
 */
@FunctionalInterface
public interface ProgressListener {
  /** A listener that does nothing. */
  ProgressListener NONE = (done, total) -> {};

  /**
   * @param doneBytes bytes hashed so far, from 0 to {@code totalBytes}
   * @param totalBytes bytes to hash in all (the file size)
   */
  void progress(long doneBytes, long totalBytes);
}
