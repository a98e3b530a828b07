package dev.rea.core.internal.set;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.io.PipelinedDigest;
import dev.rea.core.options.Limits;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One directory as {@link SetInspector} sees it: names in, facts and inspections out. The
 * adapters are {@link PathSetFiles} (local paths) and {@link SourceSetFiles} (a caller's {@link
 * dev.rea.core.source.SetSource}, e.g. Hadoop). Every name is a plain file name in the directory.
 */
interface SetFiles {
  /** @return the directory as recorded (no trailing separator) */
  String directory();

  /** @return the recorded path of a file of the directory */
  String pathOf(String name);

  /**
   * @return the directory's regular files, each with its model format by content
   * @throws ReaException when the directory cannot be listed
   */
  List<SetGrouping.Listed> listing() throws ReaException;

  /**
   * @return the file's model format by content ({@code "gguf"}, {@code "safetensors"}), or null
   *     when it is not a model file or cannot be read (its inspection then says why)
   */
  @Nullable String modelFormat(String name);

  /**
   * @return the file's size in bytes
   * @throws ReaException {@code target_unavailable} ({@code not_found}, ...) naming its path
   */
  long size(String name) throws ReaException;

  /**
   * Reads and parses an index in one pass ({@link SafetensorsIndexReader}), with its size and
   * SHA-256, refusing one over the header ceiling before reading.
   *
   * @throws ReaException {@code header_ceiling}, the reader's refusal, or the read's failure,
   *     naming the path
   */
  SafetensorsIndex readIndex(String name) throws ReaException;

  /**
   * Parses an index from a stream, hashing it with SHA-256 on a second thread while it is parsed
   * when it is at least {@value #DIGEST_THREAD_BYTES} bytes and the machine has a second core
   * (an 8.8 MB index, DeepSeek-V3's, takes about 0.08 s to hash at the launcher's first-tier
   * compiler, as long as its parse).
   *
   * @param in the file's bytes
   * @param size the file's size as listed (chooses the thread; the bytes read are what count)
   */
  static SafetensorsIndex parseIndex(InputStream in, long size, Limits limits)
      throws ReaException, IOException {
    boolean thread =
        size >= DIGEST_THREAD_BYTES && Runtime.getRuntime().availableProcessors() > 1;
    try (PipelinedDigest sha256 = new PipelinedDigest(EvidenceIds.sha256(), thread)) {
      return SafetensorsIndexReader.read(in, limits, sha256);
    }
  }

  /** Smallest index hashed on a second thread while parsed. */
  int DIGEST_THREAD_BYTES = 1 << 20;

  /**
   * @return whether {@link #inspect} may run for several members at once on different threads
   *     (then {@link Ahead} inspects members ahead of the one checked)
   */
  default boolean concurrent() {
    return false;
  }

  /** Inspects one member with the file operation. */
  Inspection inspect(String name, HashMode hash, ModelInspector.Listener listener,
      Cancellation cancellation);
}
