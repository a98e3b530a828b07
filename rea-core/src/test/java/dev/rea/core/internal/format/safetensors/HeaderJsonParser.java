package dev.rea.core.internal.format.safetensors;

import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.io.IOContext;
import tools.jackson.core.json.UTF8StreamJsonParser;
import tools.jackson.core.sym.ByteQuadsCanonicalizer;

/**
 * Jackson's byte-level parser over an in-memory header, which also says where the current token
 * starts without creating a location object: the header walk asks for that offset at every
 * charge of the retained budget (several per tensor), to name it if the charge is refused.
 *
 * <p>{@link #tokenByteOffset()} is {@code currentTokenLocation().getByteOffset()} computed from
 * the same fields as {@link UTF8StreamJsonParser#currentTokenLocation()} (jackson-core 3.1.8): for
 * a property name, where the name started; for any other token, where the token started.
 * {@code HeaderJsonFactoryTest} checks the two agree at every token of varied documents.
 */
final class HeaderJsonParser extends UTF8StreamJsonParser {
  HeaderJsonParser(
      ObjectReadContext readCtxt,
      IOContext ioCtxt,
      int streamReadFeatures,
      int formatReadFeatures,
      ByteQuadsCanonicalizer sym,
      byte[] data,
      int start,
      int end) {
    super(
        readCtxt,
        ioCtxt,
        streamReadFeatures,
        formatReadFeatures,
        null,
        sym,
        data,
        start,
        end,
        0,
        false);
  }

  /** @return the byte offset of the current token in the input, as its location gives it */
  long tokenByteOffset() {
    if (_currToken == JsonToken.PROPERTY_NAME) {
      return _currInputProcessed + (_nameStartOffset - 1);
    }
    return _tokenInputTotal - 1;
  }
}
