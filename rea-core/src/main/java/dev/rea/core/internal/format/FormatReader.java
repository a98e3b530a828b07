package dev.rea.core.internal.format;

import dev.rea.core.error.ReaException;
import dev.rea.core.internal.io.HeaderInput;

/**
 * Reads and validates one format's header from a {@link HeaderInput} positioned at byte 0.
 * Implementations consume exactly the header ({@link ParsedHeader#headerLength()} bytes), so the
 * input's digest at return is the header SHA-256, and throw only {@link ReaException}.
 */
public interface FormatReader {
  /**
   * @param in the input, at offset 0
   * @param ctx limits and budget
   * @return the validated header
   * @throws ReaException a typed rejection naming the field and byte offset
   */
  ParsedHeader read(HeaderInput in, ReadContext ctx) throws ReaException;
}
