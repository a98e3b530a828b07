package dev.rea.core.format.safetensors;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.inspect.FormatReader;
import dev.rea.core.inspect.ParsedHeader;
import dev.rea.core.inspect.ReadContext;
import dev.rea.core.io.HeaderInput;

/** Safetensors header reader. PLACEHOLDER: being written (issue 3). */
public final class SafetensorsReader implements FormatReader {
  @Override
  public ParsedHeader read(HeaderInput in, ReadContext ctx) throws ReaException {
    throw ReaException.builder(Constraint.UNSUPPORTED_FORMAT, "safetensors reader not built yet")
        .build();
  }
}
