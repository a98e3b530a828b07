package dev.rea.core;

import dev.rea.core.internal.io.AtomicFiles;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes an output file whole or not at all, as REA writes Evidence files: to a temporary file
 * beside the target (created as any new file is, its mode from the umask), synced, then renamed
 * over the target, and the directory synced; a temporary file left by an interrupted write is
 * removed when the JVM exits. For front ends writing their own documents (a SARIF log).
 */
public final class OutputFiles {
  private OutputFiles() {}

  /**
   * Replaces (or creates) {@code target} with {@code content}.
   *
   * @param target the file; its parent directory must exist
   * @param content the complete new content, in bytes
   * @throws IOException when writing, syncing or renaming fails (the target is then unchanged),
   *     including {@link java.nio.file.AtomicMoveNotSupportedException} where the file system
   *     cannot rename atomically
   */
  public static void replace(Path target, byte[] content) throws IOException {
    AtomicFiles.write(target, content);
  }
}
