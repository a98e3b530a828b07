package dev.rea.core;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.evidence.SetInspection;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.internal.io.AtomicFiles;
import dev.rea.core.internal.set.SetRecordJson;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * Member records of a model set, signed and written to a temporary file as they arrive (a {@link
 * SetInspection.MemberSink}), so that the set bundle ({@code {"schema": "rea.bundle.v1",
 * "records": [set record, member records...]}}, CONTRACT sections 5 and 9) is written with the
 * set record first without every member's record held in memory. The first member's record is
 * kept (a summary takes its headline from it).
 *
 * <p>Not thread-safe. Close it to delete the temporary file (also deleted when the JVM exits).
 */
public final class SetSpool implements SetInspection.MemberSink, AutoCloseable {
  private final Rea rea;
  private final Path spool;
  private final OutputStream out;
  private int count;
  private @Nullable EvidenceRecord first;

  SetSpool(Rea rea) throws ReaException {
    this.rea = Objects.requireNonNull(rea, "rea");
    try {
      this.spool = Files.createTempFile("rea-set-", ".json");
      spool.toFile().deleteOnExit();
      this.out = new BufferedOutputStream(Files.newOutputStream(spool), 64 * 1024);
    } catch (IOException e) {
      throw ioFailure("creating a temporary file for the set's member records failed", e);
    }
  }

  /** Signs the record and appends it. */
  @Override
  public void accept(int index, EvidenceRecord record) throws ReaException {
    EvidenceRecord signed = rea.sign(record);
    if (index == 0) {
      first = signed;
    }
    try {
      if (count > 0) {
        out.write(',');
      }
      try (JsonGenerator g = EvidenceJson.generator(new Unclosed(out))) {
        EvidenceJson.writeRecord(g, signed, true);
      }
      count++;
    } catch (IOException | RuntimeException e) {
      throw ioFailure("writing a member record to the temporary file failed",
          e instanceof IOException io ? io : new IOException(e));
    }
  }

  /** @return the first member's signed record, or null before it arrived */
  public @Nullable EvidenceRecord first() {
    return first;
  }

  /** @return the member records spooled */
  public int count() {
    return count;
  }

  /**
   * Writes the bundle: the set record, then every spooled member record.
   *
   * @param target the stream (not closed)
   * @param set the signed set record
   * @throws ReaException {@code io_error} when the spool cannot be read or the stream written
   */
  public void writeBundle(OutputStream target, ModelSetRecord set) throws ReaException {
    try {
      copyBundle(target, set);
      target.flush();
    } catch (IOException e) {
      throw ioFailure("writing the set bundle failed", e);
    }
  }

  /**
   * Writes the bundle to {@code file} atomically (a temporary file in the same directory, synced,
   * then renamed over it), streamed; never over a model file.
   *
   * @throws ReaException {@code invalid_input} / {@code bad_argument} when {@code file} is a GGUF
   *     or safetensors file; {@code execution_failure} / {@code io_error} when it cannot be
   *     written
   */
  public void writeBundle(Path file, ModelSetRecord set) throws ReaException {
    dev.rea.core.internal.evidence.EvidenceFiles.refuseModel(file);
    try {
      AtomicFiles.write(file, target -> copyBundle(target, set));
    } catch (IOException e) {
      throw ReaException.builder(Constraint.IO_ERROR,
              "writing the set bundle failed: " + file + " (" + e.getMessage() + ")")
          .path(file.toString())
          .diagnostic("path", file.toString())
          .diagnostic("reason", String.valueOf(e.getMessage()))
          .cause(e)
          .build();
    }
  }

  private void copyBundle(OutputStream target, ModelSetRecord set) throws IOException {
    out.flush();
    target.write(("{\"schema\":\"" + EvidenceJson.BUNDLE_SCHEMA + "\",\"records\":[")
        .getBytes(StandardCharsets.US_ASCII));
    target.write(SetRecordJson.recordBytes(set, true));
    if (count > 0) {
      target.write(',');
      try (InputStream in = Files.newInputStream(spool)) {
        in.transferTo(target);
      }
    }
    target.write(']');
    target.write('}');
  }

  @Override
  public void close() {
    try {
      out.close();
    } catch (IOException ignored) {
      // The file is deleted next.
    }
    try {
      Files.deleteIfExists(spool);
    } catch (IOException ignored) {
      // deleteOnExit remains.
    }
  }

  private static ReaException ioFailure(String what, IOException e) {
    return ReaException.builder(Constraint.IO_ERROR, what + " (" + e.getMessage() + ")")
        .diagnostic("reason", String.valueOf(e.getMessage()))
        .cause(e)
        .build();
  }

  /** The spool stream without its close (a generator closes what it writes to). */
  private static final class Unclosed extends java.io.FilterOutputStream {
    Unclosed(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }
}
