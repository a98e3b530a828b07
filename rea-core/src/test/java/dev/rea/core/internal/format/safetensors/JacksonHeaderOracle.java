package dev.rea.core.internal.format.safetensors;

import dev.rea.core.options.Limits;
import tools.jackson.core.ErrorReportConfiguration;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamFactory;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.json.JsonFactoryBuilder;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.core.util.JsonRecyclerPools;

/**
 * The Jackson settings the safetensors header was parsed with before REA's own {@link
 * HeaderLexer}: Jackson's byte-level parser, strict RFC 8259 JSON, every constraint explicit. The
 * test oracle for the lexer ({@code HeaderLexerOracleTest}).
 */
final class JacksonHeaderOracle {
  /** Longest Jackson token excerpt echoed in an error message, in characters. */
  private static final int ERROR_TOKEN_CHARS = 32;

  private JacksonHeaderOracle() {}

  /**
   * A Jackson factory for one read: Jackson's byte-level parser (byte offsets, the array parsed in
   * place) without a property-name symbol table ({@link HeaderJsonFactory} says why), strict RFC
   * 8259 JSON and every constraint explicit. A fresh factory per read keeps no state between
   * inspections.
   */
  static HeaderJsonFactory factoryFor(Limits limits) {
    return new HeaderJsonFactory(builderFor(limits));
  }

  /**
   * The settings of {@link #factoryFor}, with canonicalization off. Tests build Jackson's own
   * factory from the same settings (canonicalization on) to compare the two parsers.
   */
  static JsonFactoryBuilder builderFor(Limits limits) {
    int nestingLimit = limits.nestingLimit();
    int cap = (int) Math.min(limits.headerCeilingBytes(), SafetensorsReader.MAX_JSON_BYTES);
    // Every name is charged to the retained budget at no less than its UTF-8 length, so a name
    // longer than the budget is refused whatever else was retained: Jackson stops decoding it
    // there (HeaderParse reports retained_budget) instead of building it whole first.
    int nameCap = (int) Math.min(cap, Math.max(1, limits.retainedBudgetBytes()));
    // Every limit explicit (never Jackson's static defaults): lengths fit anything a header
    // within the ceiling can hold (names: anything the budget can hold); a document of cap bytes
    // has at most cap tokens; depth one above REA's limit so REA's own check (with its offset and
    // constraint) fires first.
    StreamReadConstraints constraints =
        StreamReadConstraints.builder()
            .maxNestingDepth(nestingLimit + 1)
            .maxDocumentLength(cap)
            .maxTokenCount(cap)
            .maxStringLength(cap)
            .maxNameLength(nameCap)
            .maxNumberLength(cap)
            .build();
    return JsonFactory.builder()
        .streamReadConstraints(constraints)
        .errorReportConfiguration(
            ErrorReportConfiguration.builder()
                .maxErrorTokenLength(ERROR_TOKEN_CHARS)
                .maxRawContentLength(0)
                .build())
        // No cross-inspection state: buffers are not pooled.
        .recyclerPool(JsonRecyclerPools.nonRecyclingPool())
        // No name table (so nothing to intern, and no hash table for colliding names to flood).
        .disable(TokenStreamFactory.Feature.CANONICALIZE_PROPERTY_NAMES)
        .disable(TokenStreamFactory.Feature.INTERN_PROPERTY_NAMES)
        // The bytes are UTF-8 (checked before parsing); never guess UTF-16/32.
        .disable(TokenStreamFactory.Feature.CHARSET_DETECTION)
        .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
        // Duplicates are detected by REA itself, with field paths and offsets.
        .disable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        // Strict RFC 8259 JSON (these are Jackson's defaults; stated for the record).
        .disable(
            JsonReadFeature.ALLOW_JAVA_COMMENTS,
            JsonReadFeature.ALLOW_YAML_COMMENTS,
            JsonReadFeature.ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER,
            JsonReadFeature.ALLOW_SINGLE_QUOTES,
            JsonReadFeature.ALLOW_RS_CONTROL_CHAR,
            JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS,
            JsonReadFeature.ALLOW_UNQUOTED_PROPERTY_NAMES,
            JsonReadFeature.ALLOW_LEADING_DECIMAL_POINT_FOR_NUMBERS,
            JsonReadFeature.ALLOW_LEADING_PLUS_SIGN_FOR_NUMBERS,
            JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS,
            JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS,
            JsonReadFeature.ALLOW_TRAILING_DECIMAL_POINT_FOR_NUMBERS,
            JsonReadFeature.ALLOW_MISSING_VALUES,
            JsonReadFeature.ALLOW_TRAILING_COMMA);
  }

  /**
   * The offset in the JSON of the character Jackson stopped at: where its exception says, else
   * where the parser is; stepped back to the start of a multi-byte character.
   */
  static long errorOffset(
      tools.jackson.core.JacksonException e, tools.jackson.core.JsonParser p, byte[] json) {
    tools.jackson.core.TokenStreamLocation loc = e.getLocation();
    long b = loc == null ? -1 : loc.getByteOffset();
    if (b < 0) {
      b = p.currentLocation().getByteOffset();
    }
    int i = (int) Math.max(0, Math.min(b, json.length));
    for (int k = 0; k < 3 && i > 0 && i < json.length && (json[i] & 0xC0) == 0x80; k++) {
      i--;
    }
    return i;
  }
}
