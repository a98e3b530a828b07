package dev.rea.core.internal.io;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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

  /**
   * Lists a directory.
   *
   * @param dir the directory
   * @return each entry as {@code dir} joined with its name (the name's bytes kept), in the
   *     directory's order
   * @throws IOException as {@link java.nio.file.Files#newDirectoryStream(Path)} does, or its
   *     iteration
   */
  default List<Path> list(Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path p : ds) {
        out.add(p);
      }
    } catch (DirectoryIteratorException e) {
      throw e.getCause();
    }
    return out;
  }

  /** @return the access through {@code java.nio.file} */
  static FileAccess system() {
    return SystemFileAccess.INSTANCE;
  }
}
