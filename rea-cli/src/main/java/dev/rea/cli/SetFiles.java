package dev.rea.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/** Tells a path that names a model set from one that names a file. */
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

}
