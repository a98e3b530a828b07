package dev.rea.core.internal.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * {@link FileAccess} through {@code java.nio.file}, with {@code unix:dev}, {@code unix:ino} and
 * {@code unix:ctime} where the file system has them.
 */
final class SystemFileAccess implements FileAccess {
  static final SystemFileAccess INSTANCE = new SystemFileAccess();

  private SystemFileAccess() {}

  @Override
  public FileSnapshot stat(Path path) throws IOException {
    Long dev = null;
    Long ino = null;
    Long ctime = null;
    BasicFileAttributes basic = Files.readAttributes(path, BasicFileAttributes.class);
    try {
      Map<String, Object> unix = Files.readAttributes(path, "unix:dev,ino,ctime");
      dev = (Long) unix.get("dev");
      ino = (Long) unix.get("ino");
      // readAttributes returns every attribute it was asked for, or throws.
      ctime =
          Objects.requireNonNull((FileTime) unix.get("ctime"), "unix:ctime")
              .to(TimeUnit.NANOSECONDS);
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      // Not a Unix file system view: identity falls back to size and mtime.
    }
    return snapshot(basic, dev, ino, ctime);
  }

  /**
   * @return the snapshot of attributes read one way or another (by path, or relative to an open
   *     directory: {@link ConfinedFileAccess}), with the Unix identity given beside them
   */
  static FileSnapshot snapshot(
      BasicFileAttributes basic, @Nullable Long dev, @Nullable Long ino, @Nullable Long ctime) {
    FileTime mtime = basic.lastModifiedTime();
    return new FileSnapshot(
        basic.isRegularFile(),
        basic.isDirectory(),
        basic.size(),
        dev,
        ino,
        mtime.to(TimeUnit.NANOSECONDS),
        formatTime(mtime.toInstant()),
        ctime);
  }

  @Override
  public SeekableByteChannel open(Path path) throws IOException {
    return FileChannel.open(path, StandardOpenOption.READ);
  }

  /** @return RFC 3339 UTC text with nanoseconds */
  public static String formatTime(Instant instant) {
    return dev.rea.core.evidence.FileIdentity.modifiedText(instant);
  }
}
