package dev.rea.core.internal.evidence;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.io.AtomicFiles;
import dev.rea.core.internal.io.FileAccess;
import dev.rea.core.internal.io.FileSnapshot;
import dev.rea.core.internal.io.IoFailures;
import dev.rea.core.internal.io.MissingPaths;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * Evidence files on disk: atomic writing ({@link AtomicFiles}: temporary file in the same
 * directory, fsync, atomic rename, never a half-written file) and bounded reading (the size is
 * checked before the content is read, and a file that yields more or fewer bytes than that size
 * is refused as changed).
 */
public final class EvidenceFiles {
  private EvidenceFiles() {}

  /**
   * Writes {@code content} to {@code target} atomically; never over a model file.
   *
   * @throws ReaException {@code invalid_input} / {@code bad_argument} when {@code target} is a
   *     GGUF or safetensors file ({@link #refuseModel}); {@code execution_failure} / {@code
   *     io_error} naming the path and the reason; the target is then unchanged
   */
  public static void writeAtomically(Path target, byte[] content) throws ReaException {
    refuseModel(target);
    try {
      AtomicFiles.write(target, content);
    } catch (IOException e) {
      String reason = reason(e);
      throw ReaException.builder(
              Constraint.IO_ERROR, "writing the evidence file " + target + " failed: " + reason)
          .path(target.toString())
          .diagnostic("path", target.toString())
          .diagnostic("reason", reason)
          .diagnostic("exception", e.getClass().getName())
          .cause(e)
          .build();
    }
  }

  /**
   * Refuses a target that is a model file: Evidence written over it would replace the model, a
   * slip (the model's path given as the output) that a library caller makes as easily as a
   * command-line user. Only the first bytes are read (the format probe); a target that is no
   * regular file, or cannot be read, is left to the write.
   *
   * @param target where Evidence is about to be written
   * @throws ReaException {@code invalid_input} / {@code bad_argument} naming the path and the
   *     format
   */
  public static void refuseModel(Path target) throws ReaException {
    if (!java.nio.file.Files.isRegularFile(target)) {
      return;
    }
    dev.rea.core.internal.detect.DetectedFormat model;
    try {
      model = dev.rea.core.internal.detect.FormatDetector.probe(target).model();
    } catch (IOException | SecurityException e) {
      return;
    }
    if (model != null) {
      throw ReaException.builder(
              Constraint.BAD_ARGUMENT,
              target + " is a " + model.displayName() + " model file; Evidence is not written over"
                  + " a model (choose another file name)")
          .path(target.toString())
          .diagnostic("detected", model.wire())
          .build();
    }
  }

  /**
   * Reads a whole evidence file of at most {@code maxBytes} bytes through the system file access.
   *
   * @see #read(Path, long, FileAccess)
   */
  public static byte[] read(Path path, long maxBytes) throws ReaException {
    return read(path, maxBytes, FileAccess.system());
  }

  /**
   * Reads a whole evidence file of at most {@code maxBytes} bytes. The path must be a regular
   * file (after following links); it is refused by its size at open before any byte is read,
   * and exactly that many bytes are read: a file that then ends early or yields more bytes
   * changed while it was read.
   *
   * @param path the evidence file
   * @param maxBytes the largest accepted size in bytes ({@code Limits.evidenceInputBytes()})
   * @param access the file-system seam (tests substitute files that change while read)
   * @return the file's bytes
   * @throws ReaException {@code target_unavailable}: {@code not_found} (also for links that loop,
   *     see {@link MissingPaths#unresolvable}), {@code permission_denied},
   *     {@code not_regular_file} (not a regular file, or a file whose size reads as 0 but that
   *     yields bytes, such as {@code /proc/self/status}: not a regular file with a fixed size);
   *     {@code invalid_input} / {@code evidence_rejected} when its size at open is above {@code
   *     maxBytes} (diagnostics {@code limit_bytes} and {@code requested_bytes}, the size);
   *     {@code execution_failure} / {@code target_changed} when it yields fewer or more bytes
   *     than its size at open (diagnostic {@code size_at_open}); {@code execution_failure} /
   *     {@code io_error} for other host failures (path and reason in the diagnostics)
   */
  public static byte[] read(Path path, long maxBytes, FileAccess access) throws ReaException {
    String p = path.toString();
    try {
      FileSnapshot stat = access.stat(path);
      if (!stat.regularFile()) {
        throw ReaException.builder(
                Constraint.NOT_REGULAR_FILE, "the evidence path is not a regular file: " + p)
            .path(p)
            .build();
      }
      try (SeekableByteChannel ch = access.open(path)) {
        long size = ch.size();
        if (size > maxBytes) {
          throw tooLarge(p, size, maxBytes);
        }
        byte[] buf = new byte[(int) size];
        ByteBuffer bb = ByteBuffer.wrap(buf);
        while (bb.hasRemaining()) {
          if (ch.read(bb) < 0) {
            throw changed(p, size, "it ended after " + bb.position() + " of the " + size
                + " bytes it held when opened");
          }
        }
        // Never read past the size at open: one more byte means the file is not what was sized.
        ByteBuffer extra = ByteBuffer.allocate(1);
        if (ch.read(extra) > 0) {
          if (size == 0) {
            throw ReaException.builder(
                    Constraint.NOT_REGULAR_FILE,
                    "the evidence path is not a regular file with a fixed size (its size reads"
                        + " as 0 but it yields bytes): "
                        + p)
                .path(p)
                .diagnostic("size_at_open", "0")
                .build();
          }
          throw changed(p, size, "it held " + size + " bytes when opened and yielded more");
        }
        return buf;
      }
    } catch (NoSuchFileException | NotDirectoryException e) {
      throw ReaException.builder(
              Constraint.NOT_FOUND, MissingPaths.describe(path, "evidence file"))
          .path(p)
          .cause(e)
          .build();
    } catch (AccessDeniedException e) {
      throw ReaException.builder(
              Constraint.PERMISSION_DENIED, "permission denied reading the evidence file " + p)
          .path(p)
          .cause(e)
          .build();
    } catch (IOException e) {
      if (e instanceof java.nio.file.FileSystemException f && MissingPaths.unresolvable(f)) {
        // Links that loop, a file used as a directory, a name too long: as for a model path.
        throw ReaException.builder(
                Constraint.NOT_FOUND, MissingPaths.describeUnresolvable(path, "evidence file", f))
            .path(p)
            .cause(e)
            .build();
      }
      String reason = reason(e);
      throw ReaException.builder(
              Constraint.IO_ERROR, "reading the evidence file " + p + " failed: " + reason)
          .path(p)
          .diagnostic("path", p)
          .diagnostic("reason", reason)
          .diagnostic("exception", e.getClass().getName())
          .cause(e)
          .build();
    }
  }

  private static ReaException tooLarge(String p, long size, long max) {
    return ReaException.builder(
            Constraint.EVIDENCE_REJECTED,
            "evidence rejected: the file holds " + size + " bytes, more than the limit of " + max
                + " bytes")
        .path(p)
        .diagnostic("limit", "evidence_input_bytes")
        .diagnostic("limit_bytes", Long.toString(max))
        .diagnostic("requested_bytes", Long.toString(size))
        .build();
  }

  private static ReaException changed(String p, long size, String what) {
    return ReaException.builder(
            Constraint.TARGET_CHANGED,
            "the evidence file " + p + " changed while it was read: " + what)
        .path(p)
        .diagnostic("path", p)
        .diagnostic("reason", what)
        .diagnostic("size_at_open", Long.toString(size))
        .build();
  }

  /** The failure in words, with the file it concerns ({@link IoFailures#describeWithFile}). */
  static String reason(IOException e) {
    return IoFailures.describeWithFile(e);
  }
}
