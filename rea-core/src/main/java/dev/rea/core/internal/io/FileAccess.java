package dev.rea.core.internal.io;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;

/**
 * The file-system seam: how REA looks at and opens the selected path. The default {@link
 * #system()} uses {@code java.nio.file}; tests substitute channels that fail, pause, or change
 * the file at a chosen byte.
 */
public interface FileAccess {

  /**
   * Reads the selected path's attributes, following symbolic links.
   *
   * @throws java.nio.file.NoSuchFileException when the path does not exist
   * @throws java.nio.file.AccessDeniedException when it cannot be examined
   * @throws IOException on any other host failure
   */
  FileSnapshot stat(Path path) throws IOException;

  /**
   * Opens the path for reading, positioned at byte 0.
   *
   * @throws IOException as {@link java.nio.file.Files#newByteChannel} does
   */
  SeekableByteChannel open(Path path) throws IOException;

  /** @return the access through {@code java.nio.file} */
  static FileAccess system() {
    return SystemFileAccess.INSTANCE;
  }
}
