package dev.rea.cli.scan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The layout of a Hugging Face hub cache ({@code huggingface_hub}'s {@code file_download.py}):
 * each repository is a directory {@code models--ORG--NAME} (or {@code datasets--}, {@code
 * spaces--}) holding {@code blobs/} (every file's content, named by its hash) and {@code
 * snapshots/REVISION/} (the repository's file names, each a symbolic link to its blob). A walk
 * that follows no link would see the models only as hash-named blobs, a checkpoint's shards as
 * files of their own beside the set its index reads through the links: {@code rea scan} counted
 * such a model twice. So in a cache, and only there, the walk reads a repository through its
 * snapshots: a link in {@code snapshots/} to a regular file in the same repository's {@code
 * blobs/} is an entry under the link's name, and {@code blobs/} itself is not walked (docs/
 * scale.md, "A Hugging Face cache").
 */
final class HfCache {
  private HfCache() {}

  /** A repository directory of the cache. */
  private static final Pattern REPOSITORY = Pattern.compile("(?:models|datasets|spaces)--.+");

  /**
   * @param dir a directory met by the walk
   * @return whether it is a cache repository's {@code blobs/} (its parent is named as a
   *     repository and holds a {@code snapshots/} directory)
   */
  static boolean isBlobs(Path dir) {
    Path name = dir.getFileName();
    Path repo = dir.getParent();
    return name != null
        && name.toString().equals("blobs")
        && repo != null
        && isRepository(repo)
        && Files.isDirectory(repo.resolve("snapshots"), LinkOption.NOFOLLOW_LINKS);
  }

  /**
   * @param link a symbolic link met by the walk in directory {@code dir}
   * @param dir the directory listing it
   * @return the status ({@code lstat}) of the blob it names, when {@code dir} lies under a
   *     repository's {@code snapshots/}, the link's target, taken lexically from the link's own
   *     text, is in that repository's {@code blobs/}, and that blob is a regular file (a blob
   *     that is itself a link could lead out of the repository); else null, also when the blob
   *     cannot be read (it changed meanwhile: the caller reports the link as the link it is)
   */
  static @Nullable FileStat blobOf(Path link, Path dir) {
    Path repo = repositoryAbove(dir);
    if (repo == null) {
      return null;
    }
    Path target;
    try {
      Path parent = link.getParent();
      target = (parent == null ? link : parent.resolve(Files.readSymbolicLink(link))).normalize();
    } catch (IOException | UnsupportedOperationException | SecurityException unreadable) {
      return null;
    }
    if (!repo.resolve("blobs").normalize().equals(target.getParent())) {
      return null;
    }
    try {
      FileStat blob = FileStat.of(target, false);
      return blob.type() == FileStat.Type.REGULAR ? blob : null;
    } catch (IOException | SecurityException changedMeanwhile) {
      return null;
    }
  }

  /** @return the repository whose {@code snapshots/} holds {@code dir}, or null */
  private static @Nullable Path repositoryAbove(Path dir) {
    for (Path p = dir; p != null; p = p.getParent()) {
      Path name = p.getFileName();
      Path repo = p.getParent();
      if (name != null && name.toString().equals("snapshots") && repo != null) {
        return isRepository(repo) ? repo : null;
      }
    }
    return null;
  }

  private static boolean isRepository(Path dir) {
    Path name = dir.getFileName();
    return name != null && REPOSITORY.matcher(name.toString()).matches();
  }
}
