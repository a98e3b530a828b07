package dev.rea.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The layout of a Hugging Face hub cache, for front ends that walk directories ({@code rea scan},
 * the Spark job on the local file system: docs/scale.md, "A Hugging Face cache"). Source: {@code
 * huggingface_hub}'s {@code file_download.py}: each repository is a directory {@code
 * models--ORG--NAME} (or {@code datasets--}, {@code spaces--}) holding {@code blobs/} (every
 * file's content, named by its hash) and {@code snapshots/REVISION/} (the repository's file
 * names, each a symbolic link to its blob).
 *
 * <p>A walk that follows no link sees such a cache's models only as hash-named blobs, a
 * checkpoint's shards as files of their own beside the set its index reads through the links. So
 * in a cache, and only there, a walk reads a repository through its snapshots: a link in {@code
 * snapshots/} to a regular file in the same repository's {@code blobs/} ({@link #blobOf}) is an
 * entry under the link's name, and {@code blobs/} itself ({@link #isBlobs}) is not walked. Such a
 * link cannot lead out of the repository. Thread-safe (no state).
 */
public final class HubCache {
  private HubCache() {}

  /**
   * Why a walk skips a repository's {@code blobs/} ({@link #isBlobs}), in the words both front
   * ends report it with ({@code not_regular_file}).
   */
  public static final String BLOBS_SKIPPED =
      "a Hugging Face cache's blobs, read through the repository's snapshots/ links instead"
          + " (each model once, under its file names); scan this directory itself to read the"
          + " blobs";

  /** A repository directory of the cache. */
  private static final Pattern REPOSITORY = Pattern.compile("(?:models|datasets|spaces)--.+");

  /**
   * @param dir a directory met by a walk
   * @return whether it is a cache repository's {@code blobs/}: its parent is named as a repository
   *     and holds a {@code snapshots/} directory (not a link to one)
   */
  public static boolean isBlobs(Path dir) {
    Path name = dir.getFileName();
    Path repo = dir.getParent();
    return name != null
        && name.toString().equals("blobs")
        && repo != null
        && isRepository(repo)
        && Files.isDirectory(repo.resolve("snapshots"), LinkOption.NOFOLLOW_LINKS);
  }

  /**
   * The blob a snapshot link names.
   *
   * @param link a symbolic link met by a walk, as the walk spells it (its parent is the directory
   *     listing it)
   * @return the blob's path, when the link lies under a repository's {@code snapshots/}, its
   *     target, taken lexically from the link's own text, is in that repository's {@code blobs/},
   *     {@code blobs/} is a directory and that blob a regular file (each by {@code lstat}: a
   *     {@code blobs/} or a blob that is itself a link could lead out of the repository); else
   *     null, also when the link or the blob cannot be read (it
   *     changed meanwhile: the caller reports the link as the link it is)
   */
  public static @Nullable Path blobOf(Path link) {
    Path dir = link.getParent();
    if (dir == null) {
      return null;
    }
    Path repo = repositoryAbove(dir);
    if (repo == null) {
      return null;
    }
    Path target;
    try {
      target = dir.resolve(Files.readSymbolicLink(link)).normalize();
    } catch (IOException | UnsupportedOperationException | SecurityException unreadable) {
      return null;
    }
    Path blobs = repo.resolve("blobs").normalize();
    if (!blobs.equals(target.getParent())) {
      return null;
    }
    try {
      // blobs/ itself a link (to /etc, say) would lead out of the repository as surely as a
      // blob that is a link: both must be what they say, read without following links.
      BasicFileAttributes dirAttrs =
          Files.readAttributes(blobs, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (!dirAttrs.isDirectory()) {
        return null;
      }
      BasicFileAttributes a =
          Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return a.isRegularFile() ? target : null;
    } catch (IOException | SecurityException changedMeanwhile) {
      return null;
    }
  }

  /**
   * @param dir a directory (a scan's PATH)
   * @return the {@code blobs/} of the cache repository whose {@code snapshots/} holds {@code dir}
   *     (or is it), where its snapshot links lead ({@link #blobOf}); null when {@code dir} lies in
   *     no repository's snapshots
   */
  public static @Nullable Path blobsAbove(Path dir) {
    Path repo = repositoryAbove(dir);
    return repo == null ? null : repo.resolve("blobs");
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
