package dev.rea.cli;

import dev.rea.core.FileProbe;
import dev.rea.core.Rea;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Tells a saved set bundle (inspect-model-set's Evidence) from other Evidence by its start, and a
 * path that names a model set from one that names a file.
 */
final class SetFiles {
  private SetFiles() {}

  /** llama.cpp gguf-split's member names: {@code NAME-00001-of-00003.gguf}. */
  private static final java.util.regex.Pattern SPLIT_MEMBER =
      java.util.regex.Pattern.compile(".+-(\\d{5})-of-(\\d{5})\\.gguf");

  /**
   * @param path a path a user gave
   * @return whether it names a model set (CONTRACT section 9): a directory, a file named {@code
   *     *.safetensors.index.json}, or a file named as a member of a GGUF split set of two or more
   */
  static boolean namesASet(Path path) {
    if (Files.isDirectory(path)) {
      return true;
    }
    Path name = path.getFileName();
    if (name == null) {
      return false;
    }
    String n = name.toString();
    if (n.endsWith(".safetensors.index.json")) {
      return true;
    }
    java.util.regex.Matcher m = SPLIT_MEMBER.matcher(n);
    return m.matches() && Integer.parseInt(m.group(2)) >= 2;
  }

  /** @return whether the file's first bytes show a set bundle; false when unreadable */
  static boolean isSetBundle(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] head = in.readNBytes(256);
      if (Rea.isSetBundle(head)) {
        return true;
      }
      // A set's in-toto envelope shows what it holds only in its payload: read the whole file
      // (within the Evidence input bound) when it starts as an envelope.
      if (head.length < 256 || !FileProbe.of(file).savedEvidence() || Files.size(file) > MAX_ENVELOPE) {
        return head.length < 256 && Rea.isSetEvidence(head);
      }
      return Rea.isSetEvidence(Files.readAllBytes(file));
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** The largest envelope read whole to tell a set's from a file's: 64 MiB of Evidence + 1 MiB. */
  private static final long MAX_ENVELOPE = (64L << 20) + (1 << 20);
}
