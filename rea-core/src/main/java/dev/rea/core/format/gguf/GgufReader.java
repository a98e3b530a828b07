package dev.rea.core.format.gguf;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.inspect.FormatReader;
import dev.rea.core.inspect.ParsedHeader;
import dev.rea.core.inspect.ReadContext;
import dev.rea.core.io.HeaderInput;

/** GGUF header reader. PLACEHOLDER: being written (issue 2). */
public final class GgufReader implements FormatReader {
  @Override
  public ParsedHeader read(HeaderInput in, ReadContext ctx) throws ReaException {
    throw ReaException.builder(Constraint.UNSUPPORTED_FORMAT, "GGUF reader not built yet").build();
  }
}
