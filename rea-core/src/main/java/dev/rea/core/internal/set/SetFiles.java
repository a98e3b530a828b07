package dev.rea.core.internal.set;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.Limits;
import java.io.IOException;
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
   * Opens an index for reading, after refusing one over the header ceiling (or not a regular
   * file) before anything is read.
   *
   * @throws ReaException {@code header_ceiling}, {@code not_regular_file}, or the host's failure,
   *     naming the path
   */
  SafetensorsIndexReader.IndexSource indexSource(String name) throws ReaException;

  /** @return the limits the index reader works under */
  Limits limits();

  /**
   * Reads and parses an index in one pass ({@link SafetensorsIndexReader#read(
   * SafetensorsIndexReader.IndexSource, Limits, boolean)}), with its size and SHA-256.
   *
   * @throws ReaException the reader's refusal, or the read's failure, naming the path
   */
  default SafetensorsIndex readIndex(String name) throws ReaException {
    return readIndex(name, source -> SafetensorsIndexReader.read(source, limits(), true));
  }

  /**
   * Reads an index again with every name kept ({@link SafetensorsIndexReader#readExact}), to
   * name the contradictions of a set whose members disagree with it.
   *
   * @param expected the index as read first: a file that changed since is refused
   * @throws ReaException as {@link #readIndex}; {@code target_changed} when the file changed
   */
  default SafetensorsIndex readIndexExact(String name, SafetensorsIndex expected)
      throws ReaException {
    return readIndex(name, source -> SafetensorsIndexReader.readExact(source, limits(), expected));
  }

  /** One way of reading an index from its source. */
  @FunctionalInterface
  interface IndexRead {
    SafetensorsIndex read(SafetensorsIndexReader.IndexSource source)
        throws ReaException, IOException;
  }

  /** Reads the named index one way, its failures naming its path. */
  private SafetensorsIndex readIndex(String name, IndexRead how) throws ReaException {
    SafetensorsIndexReader.IndexSource source = indexSource(name);
    try {
      return how.read(source);
    } catch (IOException e) {
      throw PathSetFiles.failure(pathOf(name), e, "reading the index failed");
    } catch (ReaException e) {
      throw e.withPath(pathOf(name));
    }
  }

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
