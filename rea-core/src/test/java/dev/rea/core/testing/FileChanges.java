package dev.rea.core.testing;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

/**
 * The four ways a file changes under a reader (specification, "Identity and reads"): renamed
 * over, truncated, appended to, rewritten in place. Each returns an action for {@link
 * HookedFileAccess} or the inspector's hash hook.
 */
public enum FileChanges {
  /** Another file with the same bytes is atomically renamed over the path. */
  RENAME_OVER,
  /** The file is cut to two thirds of its size. */
  TRUNCATE,
  /** Three bytes are appended. */
  APPEND,
  /** Four bytes near the end are overwritten; the size stays the same. */
  REWRITE_IN_PLACE;

  /** Gives the file an old modification time, so any later write is visible. */
  public static void age(Path p) throws IOException {
    Files.setLastModifiedTime(p, FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));
  }

  /** @return the change applied to {@code p} */
  public HookedFileAccess.Action on(Path p) {
    return () -> apply(p);
  }

  /** Applies the change to {@code p}. */
  public void apply(Path p) throws IOException {
    switch (this) {
      case RENAME_OVER -> {
        Path other = p.resolveSibling(p.getFileName() + ".replacement");
        Files.write(other, Files.readAllBytes(p));
        Files.move(other, p, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      }
      case TRUNCATE -> {
        try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
          raf.setLength(raf.length() * 2 / 3);
        }
      }
      case APPEND -> Files.write(p, new byte[] {1, 2, 3}, StandardOpenOption.APPEND);
      case REWRITE_IN_PLACE -> {
        try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
          raf.seek(raf.length() - 8);
          raf.write(new byte[] {9, 9, 9, 9});
        }
      }
    }
  }
}
