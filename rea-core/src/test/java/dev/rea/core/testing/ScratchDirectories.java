package dev.rea.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;

/**
 * Temporary directories that live as long as the test JVM: for state shared by every test of a
 * JVM (a REA home with its private signing key), where JUnit's {@code @TempDir} (one per test or
 * class) does not fit. Each is deleted, with everything below it, by a shutdown hook when the JVM
 * ends, so test runs leave no private keys in the temporary directory.
 */
public final class ScratchDirectories {
  private ScratchDirectories() {}

  /**
   * Creates a temporary directory that is deleted, with its whole tree, when this JVM ends
   * normally (a JVM that is killed leaves it behind).
   *
   * @param prefix the start of the directory's name
   * @return the new directory
   * @throws UncheckedIOException when it cannot be created
   */
  public static Path createDeletedAtExit(String prefix) {
    Path dir;
    try {
      dir = Files.createTempDirectory(prefix);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Runtime.getRuntime()
        .addShutdownHook(new Thread(() -> deleteTree(dir), "delete " + dir.getFileName()));
    return dir;
  }

  /**
   * Deletes {@code root} and everything below it, without following symbolic links. Directories
   * a test made unreadable or unwritable get their owner's permissions back first. Failures are
   * ignored (the tree is removed as far as possible).
   *
   * @param root the directory to delete (nothing happens when it is absent)
   */
  public static void deleteTree(Path root) {
    if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
              restoreOwnerAccess(d);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) {
              deleteQuietly(f);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path f, IOException e) {
              // A directory that could not be opened: walk it again once it is readable.
              if (restoreOwnerAccess(f)) {
                deleteTree(f);
              } else {
                deleteQuietly(f);
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) {
              deleteQuietly(d);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException | RuntimeException e) {
      // Best effort: a shutdown hook has nobody to report to.
    }
  }

  /**
   * Gives a directory its owner's read, write and search permissions back.
   *
   * @return true when they were missing and are now set
   */
  private static boolean restoreOwnerAccess(Path d) {
    Set<PosixFilePermission> owner =
        EnumSet.of(
            PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.OWNER_EXECUTE);
    try {
      if (Files.isDirectory(d, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        Set<PosixFilePermission> now = Files.getPosixFilePermissions(d);
        if (!now.containsAll(owner)) {
          now.addAll(owner);
          Files.setPosixFilePermissions(d, now);
          return true;
        }
      }
    } catch (IOException | UnsupportedOperationException e) {
      // Not a POSIX file system, or not ours: the delete that follows fails quietly too.
    }
    return false;
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      // Best effort.
    }
  }
}
