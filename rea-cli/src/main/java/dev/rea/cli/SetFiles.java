package dev.rea.cli;

import dev.rea.core.Rea;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Tells a saved set bundle (inspect-model-set's Evidence) from other Evidence by its start. */
final class SetFiles {
  private SetFiles() {}

  /** @return whether the file's first bytes show a set bundle; false when unreadable */
  static boolean isSetBundle(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return Rea.isSetBundle(in.readNBytes(256));
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }
}
