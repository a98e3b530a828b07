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
   *     *.safetensors.index.json}, or a file named as a member of a GGUF split set, {@code
   *     -00001-of-00001} included (section 9 names members by their names alone, and the set
   *     reader checks a set of one's split keys as any set's)
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
    return namesASplitMember(path);
  }

  /**
   * @param path a path a user gave
   * @return whether its file name is a member's of a GGUF split set ({@code
   *     NAME-00002-of-00003.gguf}, or {@code NAME-00001-of-00001.gguf}), whatever the file is
   */
  static boolean namesASplitMember(Path path) {
    Path name = path.getFileName();
    if (name == null) {
      return false;
    }
    java.util.regex.Matcher m = SPLIT_MEMBER.matcher(name.toString());
    return m.matches() && Integer.parseInt(m.group(2)) >= 1;
  }

  /**
   * Whether a safetensors file may be one shard of a checkpoint, so that what it says alone is not
   * the model's (CONTRACT section 9, PATH "any member"): it is named as a shard of two or more, or
   * a safetensors index lies beside it. The set reading then finds the index that claims it, or
   * takes it alone with {@code shard_without_index} when it is named as a shard.
   *
   * @param path a path a user gave, naming no set by {@link #namesASet}
   */
  static boolean mayBeAShard(Path path) {
    Path name = path.getFileName();
    if (name == null || !name.toString().endsWith(".safetensors")) {
      return false;
    }
    if (dev.rea.core.ModelUnits.isShardName(name.toString())) {
      return true;
    }
    Path dir = path.toAbsolutePath().getParent();
    if (dir == null) {
      return false;
    }
    try {
      return dev.rea.core.ModelUnits.holdsIndexName(dir);
    } catch (java.io.IOException | SecurityException unreadable) {
      return false; // the file's own inspection reports what it can
    }
  }

}
