package dev.rea.core.internal.format.safetensors;

import dev.rea.core.error.ReaException;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.internal.format.ReadContext;
import dev.rea.core.internal.io.HeaderInput;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.Limits;
import java.io.ByteArrayInputStream;
import java.nio.channels.Channels;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Runs {@link SafetensorsReader} over in-memory bytes, as {@code ModelInspector} does over a
 * file (minus detection), and checks the reader consumed exactly its header. Reusable through the
 * rea-core test-jar.
 */
public final class SafetensorsReads {
  private static final SafetensorsReader READER = new SafetensorsReader();

  private SafetensorsReads() {}

  /** Reads with the specification's limits. */
  public static ParsedHeader read(byte[] file) throws ReaException {
    return read(file, Limits.defaults());
  }

  /**
   * Reads {@code file} with the given limits.
   *
   * @throws AssertionError when the reader returned without consuming exactly its header
   */
  public static ParsedHeader read(byte[] file, Limits limits) throws ReaException {
    return read(file, limits, HeaderInput.CAPACITY);
  }

  /** As above with a chosen {@link HeaderInput} buffer capacity (small values force refills). */
  public static ParsedHeader read(byte[] file, Limits limits, int capacity) throws ReaException {
    HeaderInput in =
        new HeaderInput(
            Channels.newChannel(new ByteArrayInputStream(file)),
            file.length,
            sha256(),
            Cancellation.none(),
            capacity);
    ParsedHeader h = READER.read(in, ReadContext.of(limits));
    if (in.position() != h.headerLength()) {
      throw new AssertionError(
          "reader consumed " + in.position() + " bytes for a header of " + h.headerLength());
    }
    return h;
  }

  /**
   * Reads a header whose data section is not materialized: the channel holds only {@code
   * prefixAndJson} ({@code u64le(N) + json}) while the input reports {@code fileSize}, so headers
   * that declare gigabytes of tensor data can be read from memory. The reader never reads past
   * the header, so the missing bytes are never asked for.
   */
  public static ParsedHeader readHeaderOnly(byte[] prefixAndJson, long fileSize, Limits limits)
      throws ReaException {
    HeaderInput in =
        new HeaderInput(
            Channels.newChannel(new ByteArrayInputStream(prefixAndJson)),
            fileSize,
            sha256(),
            Cancellation.none());
    ParsedHeader h = READER.read(in, ReadContext.of(limits));
    if (in.position() != h.headerLength()) {
      throw new AssertionError(
          "reader consumed " + in.position() + " bytes for a header of " + h.headerLength());
    }
    return h;
  }

  /**
   * Reads {@code file} expecting a rejection.
   *
   * @return the exception
   * @throws AssertionError when the file was accepted
   */
  public static ReaException reject(byte[] file, Limits limits) {
    try {
      ParsedHeader h = read(file, limits);
      throw new AssertionError("accepted: " + h.tensors().size() + " tensors");
    } catch (ReaException e) {
      return e;
    }
  }

  /** @return a fresh SHA-256 digest */
  public static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
