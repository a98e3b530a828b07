package dev.rea.core.evidence;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.io.AtomicFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Evidence files on disk: atomic writing ({@link AtomicFiles}: temporary file in the same
 * directory, fsync, atomic rename, never a half-written file) and bounded reading (the size is
 * checked before the content is read).
 */
public final class EvidenceFiles {
  private EvidenceFiles() {}

  /**
   * Writes {@code content} to {@code target} atomically.
   *
   * @throws ReaException {@code execution_failure} / {@code io_error} naming the path and the
   *     reason; the target is then unchanged
   */
  public static void writeAtomically(Path target, byte[] content) throws ReaException {
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
   * Reads a whole evidence file of at most {@code maxBytes} bytes.
   *
   * @throws ReaException {@code target_unavailable} ({@code not_found}, {@code not_regular_file},
   *     {@code permission_denied}); {@code invalid_input} / {@code evidence_rejected} when the
   *     file is larger than {@code maxBytes} (checked before reading); {@code execution_failure}
   *     / {@code io_error} for other host failures
   */
  public static byte[] read(Path path, long maxBytes) throws ReaException {
    String p = path.toString();
    try {
      if (!Files.exists(path)) {
        throw ReaException.builder(Constraint.NOT_FOUND, "no such evidence file: " + p).path(p).build();
      }
      if (!Files.isRegularFile(path)) {
        throw ReaException.builder(
                Constraint.NOT_REGULAR_FILE, "the evidence path is not a regular file: " + p)
            .path(p)
            .build();
      }
      try (SeekableByteChannel ch = Files.newByteChannel(path, StandardOpenOption.READ)) {
        long size = ch.size();
        if (size > maxBytes) {
          throw tooLarge(p, size, maxBytes);
        }
        byte[] buf = new byte[(int) size];
        ByteBuffer bb = ByteBuffer.wrap(buf);
        while (bb.hasRemaining()) {
          if (ch.read(bb) < 0) {
            return Arrays.copyOf(buf, bb.position());
          }
        }
        // The file may have grown after the size was read; never read past the bound.
        ByteBuffer extra = ByteBuffer.allocate(1);
        if (ch.read(extra) > 0) {
          throw tooLarge(p, size + 1, maxBytes);
        }
        return buf;
      }
    } catch (NoSuchFileException | NotDirectoryException e) {
      throw ReaException.builder(Constraint.NOT_FOUND, "no such evidence file: " + p)
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
            "evidence rejected: the file holds more than " + max + " bytes")
        .path(p)
        .diagnostic("limit", "evidence_input_bytes")
        .diagnostic("limit_bytes", Long.toString(max))
        .diagnostic("requested_bytes", Long.toString(size))
        .build();
  }

  private static String reason(IOException e) {
    if (e instanceof FileSystemException fse && fse.getReason() != null) {
      return e.getClass().getSimpleName() + ": " + fse.getReason();
    }
    String m = e.getMessage();
    return m == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + m;
  }
}
