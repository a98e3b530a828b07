package dev.rea.core.internal.format.safetensors;

import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.TokenStreamFactory;
import tools.jackson.core.io.IOContext;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonFactoryBuilder;
import tools.jackson.core.json.UTF8StreamJsonParser;

/**
 * A Jackson {@link JsonFactory} whose parsers over a {@code byte[]} are Jackson's byte-level
 * parser ({@link UTF8StreamJsonParser}: token locations in bytes, the array parsed in place)
 * without a property-name symbol table.
 *
 * <p>Why: Jackson's own {@code JsonFactory} gives the byte-level parser only when {@link
 * TokenStreamFactory.Feature#CANONICALIZE_PROPERTY_NAMES} is on (with it off it decodes the bytes
 * to characters and parses those, reporting offsets in characters). Canonicalization adds every
 * distinct property name to a hash table that pays off only when names repeat, and a sharded
 * checkpoint's header has one distinct name per tensor (20,439 in the benchmark file). Names over
 * 12 bytes go to the table's long-name area, which {@code ByteQuadsCanonicalizer._appendLongName}
 * (jackson-core 3.1.8) grows by at most 4,096 {@code int}s at a time, copying the whole area each
 * time: measured by JFR allocation samples on {@code SafetensorsReadBenchmark}, 74 % of the
 * reader's 109 MB allocated per read was those copies. Here the parser gets the placeholder
 * table of {@link tools.jackson.core.sym.ByteQuadsCanonicalizer#makeChildOrPlaceholder} (the one
 * Jackson's non-blocking parsers use when canonicalization is off): every lookup misses and
 * {@code JsonParserBase} returns each decoded name as it is instead of adding it. Tokens, their
 * locations and error messages are the byte-level parser's own; only the table is gone (which
 * also leaves nothing for colliding names to flood). REA detects duplicate names itself.
 *
 * <p>The factory must be built with {@code CANONICALIZE_PROPERTY_NAMES} disabled (checked), so
 * that the placeholder is what {@code makeChildOrPlaceholder} returns. Only {@link
 * #createParser(ObjectReadContext, byte[], int, int)} and its overloads over byte arrays take this
 * path; {@link SafetensorsReader} uses nothing else. Not for {@link #copy()}: a copy is a plain
 * Jackson factory.
 */
final class HeaderJsonFactory extends JsonFactory {
  private static final long serialVersionUID = 1L;

  /**
   * @param builder a builder with {@code CANONICALIZE_PROPERTY_NAMES} disabled
   * @throws IllegalArgumentException if the builder has canonicalization enabled
   */
  HeaderJsonFactory(JsonFactoryBuilder builder) {
    super(builder);
    if (TokenStreamFactory.Feature.CANONICALIZE_PROPERTY_NAMES.enabledIn(_factoryFeatures)) {
      throw new IllegalArgumentException("CANONICALIZE_PROPERTY_NAMES must be disabled");
    }
  }

  /** @return the byte-level parser over the whole of {@code json} */
  HeaderJsonParser parser(byte[] json) {
    return (HeaderJsonParser) createParser(ObjectReadContext.empty(), json, 0, json.length);
  }

  /**
   * The byte-level parser over {@code data[offset, offset + len)} ({@link HeaderJsonParser}), with
   * Jackson's own range and document-length checks first, encoding UTF-8 (the factory is built
   * without charset detection; the reader has checked the bytes) and no name table.
   */
  @Override
  protected JsonParser _createParser(
      ObjectReadContext readCtxt, IOContext ioCtxt, byte[] data, int offset, int len) {
    _checkRangeBoundsForByteArray(data, offset, len);
    _streamReadConstraints.validateDocumentLength(len);
    return new HeaderJsonParser(
        readCtxt,
        ioCtxt,
        readCtxt.getStreamReadFeatures(_streamReadFeatures),
        readCtxt.getFormatReadFeatures(_formatReadFeatures),
        _byteSymbolCanonicalizer.makeChildOrPlaceholder(_factoryFeatures),
        data,
        offset,
        offset + len);
  }
}
