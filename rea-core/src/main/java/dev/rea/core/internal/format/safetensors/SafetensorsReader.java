package dev.rea.core.internal.format.safetensors;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.detect.DetectedFormat;
import dev.rea.core.internal.format.FormatReader;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.internal.format.ReadContext;
import dev.rea.core.internal.io.FieldPath;
import dev.rea.core.internal.io.HeaderInput;
import dev.rea.core.options.Limits;
import java.nio.ByteOrder;

/**
 * Reads and validates a safetensors header (specification, safetensors paragraph; CONTRACT
 * sections 3 and 8; upstream rules and REA's stricter ones in {@code
 * shared/notes/safetensors-readers.md}).
 *
 * <p>Layout: an 8-byte little-endian unsigned {@code N} ({@code json_length}), then {@code N}
 * bytes of UTF-8 JSON, then the byte buffer. The header is {@code 8 + N} bytes; the byte buffer
 * starts at {@code data_offset = 8 + N}.
 *
 * <p>Order of work:
 *
 * <ol>
 *   <li>{@code N} is read unsigned. {@code N} larger than the bytes left after the prefix is
 *       {@code file_format_rejected}; otherwise {@code N} above {@link
 *       Limits#headerCeilingBytes()} (which counts the JSON only) is {@code resource_exhausted} /
 *       {@code header_ceiling}. Only then are the {@code N} bytes allocated, once, and read
 *       through {@link HeaderInput#readFully} (which hashes them).
 *   <li>A strict UTF-8 pass ({@link dev.rea.core.text.Utf8}: overlong forms and encoded surrogates
 *       are invalid), a pass that rejects raw control bytes other than tab, LF and CR (never
 *       valid in JSON text), and a check that the first non-whitespace byte is {@code '{'} (a
 *       byte-order mark or any other top-level value is rejected).
 *   <li>REA's own tokenizer ({@link HeaderLexer}; Jackson is its test oracle): RFC 8259 grammar,
 *       escapes and number syntax, property names no longer than the retained budget (refused
 *       before they are decoded). REA counts JSON containers, the top-level object being 1, and
 *       rejects depth {@code nestingLimit + 1} as {@code resource_exhausted} / {@code
 *       nesting_limit}. Duplicate keys are rejected at every level (decoded strings compared);
 *       lone surrogate escapes are rejected in every string and key; anything but whitespace
 *       after the top-level object is rejected.
 *   <li>Entries: {@code __metadata__} (exact match) must be an object of strings, or null
 *       (omitted). Every other key is a tensor: an object with {@code dtype} (a string; unknown
 *       names are kept), {@code shape} (exact unsigned 64-bit integers, products checked in
 *       declaration order) and {@code data_offsets} (exactly two unsigned integers that fit a
 *       Java {@code long}, begin &lt;= end). Unknown fields are skipped, within the nesting limit
 *       and with the same duplicate and string checks. For a known dtype the storage ({@code
 *       elements x bits}) must be a whole number of bytes and equal {@code end - begin}.
 *   <li>Ranges sorted by (begin, end): the first starts at 0, each starts where the previous
 *       ended (no gap, no overlap; zero-length ranges only at a boundary), and the last end equals
 *       the bytes after the header (no trailing bytes, no truncation).
 * </ol>
 *
 * <p>Parsing is atomic: rows are built only after every check passed, and errors carry only the
 * field path (names truncated with {@link ReaException#truncateForMessage}) and the absolute byte
 * offset of the offending token ({@code 8 + } its offset in the JSON).
 *
 * <p>Rows: tensors in Unicode code-point order of their names, metadata in code-point order of
 * its keys (type {@code STRING}). {@code offset} is {@code begin}; {@code file_offset} is {@code 8
 * + N + begin}; {@code byte_length} is the declared range length {@code end - begin} for every
 * tensor. For a known dtype it equals the length derived from dtype and shape ({@code
 * storage_validation: "consistent"}); for an unknown dtype it is the validated declared range
 * ({@code storage_validation: "unknown"}, one {@code unknown_dtype} limitation per dtype label), so
 * per-type and overall byte totals stay known while {@code coverage.storage_sizes} is partial.
 *
 * <p>Retained budget ({@code docs/evidence.md}): the walk asks a {@link
 * dev.rea.core.internal.evidence.RecordAssembler} before it retains anything, and the assembler
 * charges the budget: each row and the name or key that starts it, each retained string at its
 * JSON-escaped length (measured as the lexer decodes it in chunks, so a string the budget refuses is never
 * expanded), 64 bytes per shape dimension, and, once an entry has been read, what its JSON row
 * needs beyond that (at the widest index: rows are numbered in name order later) plus the type
 * row of a label not seen before and, for an unknown dtype, its limitation and its {@code
 * tensor_indices} entry, each at its widest. Keys held to detect duplicates inside skipped
 * unknown fields are charged while they are held, so a header cannot use them to exhaust memory.
 *
 * <p>Thread-safe: each {@link #read} call has its own state.
 */
public final class SafetensorsReader implements FormatReader {
  /** Size of the {@code json_length} prefix in bytes. */
  public static final int PREFIX_BYTES = 8;

  /** Largest JSON length a Java array can hold; longer headers are refused as over the ceiling. */
  static final int MAX_JSON_BYTES = Integer.MAX_VALUE - 8;

  /** Creates a reader. */
  public SafetensorsReader() {}

  /**
   * Reads the header at offset 0 of {@code in}, consuming exactly {@code 8 + N} bytes.
   *
   * @param in the input, at offset 0 (its byte order is set to little-endian)
   * @param ctx limits and retained budget
   * @return the validated header: format facts {@code (N, 8 + N)}, metadata and tensor rows,
   *     limitations for unknown dtypes, no warnings
   * @throws ReaException {@code file_format_rejected} naming the field and absolute offset;
   *     {@code resource_exhausted} with {@code header_ceiling}, {@code nesting_limit} or {@code
   *     retained_budget}; I/O, change and cancellation failures from {@link HeaderInput}
   */
  @Override
  public ParsedHeader read(HeaderInput in, ReadContext ctx) throws ReaException {
    in.order(ByteOrder.LITTLE_ENDIAN);
    FieldPath field = FieldPath.of("json_length");
    in.setFieldPath(field);
    // u64 N: the JSON length (README "Format": 8 bytes, unsigned little-endian). The JSON is then
    // read exactly (readFully): nothing past the header is fetched.
    in.expectHeaderAtLeast(8);
    long n = in.i64();
    long left = in.remaining();
    if (Long.compareUnsigned(n, left) > 0) {
      throw ReaException.builder(
              Constraint.FILE_FORMAT_REJECTED,
              "json_length at offset 0 declares "
                  + Long.toUnsignedString(n)
                  + " bytes of header JSON but only "
                  + left
                  + " bytes follow the 8-byte prefix")
          .field("json_length")
          .offset(0)
          .diagnostic("json_length", Long.toUnsignedString(n))
          .diagnostic("bytes_left", Long.toString(left))
          .build();
    }
    long ceiling = ctx.limits().headerCeilingBytes();
    if (n > ceiling || n > MAX_JSON_BYTES) {
      long limit = Math.min(ceiling, MAX_JSON_BYTES);
      throw ReaException.builder(
              Constraint.HEADER_CEILING,
              "json_length declares "
                  + n
                  + " bytes of header JSON, "
                  + (n - limit)
                  + " bytes over the header ceiling of "
                  + limit
                  + " bytes (the ceiling counts the JSON, not the 8-byte prefix)")
          .field("json_length")
          .offset(0)
          // Same keys as the GGUF reader's refusal (HeaderInput.ceilingExceeded); here the
          // requested bytes are the JSON length, as the ceiling counts the JSON only.
          .diagnostic("limit", "header_ceiling")
          .diagnostic("limit_bytes", Long.toString(limit))
          .diagnostic("requested_bytes", Long.toString(n))
          .diagnostic("over_bytes", Long.toString(n - limit))
          .build();
    }
    int len = (int) n;
    byte[] json = new byte[len];
    field.reset("header");
    in.readFully(json, 0, len);
    HeaderParse parse = new HeaderParse(json, in.fileSize(), ctx);
    return ParsedHeader.of(DetectedFormat.SAFETENSORS, parse.run());
  }
}
