package dev.rea.core.internal.format.gguf;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.internal.detect.DetectedFormat;
import dev.rea.core.internal.evidence.AssembledHeader;
import dev.rea.core.internal.evidence.RecordAssembler;
import dev.rea.core.internal.format.FormatReader;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.internal.format.ReadContext;
import dev.rea.core.internal.io.FieldPath;
import dev.rea.core.internal.io.HeaderInput;
import dev.rea.core.options.LayoutAssumption;
import dev.rea.core.options.Limits;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Reads and validates a GGUF header: magic, version, counts, metadata key/value pairs and the
 * tensor directory, then checks the tensor ranges against the alignment, the file size and each
 * other (specification "Facts and selected queries" and "Bounds"; CONTRACT section 8 "GGUF";
 * where upstream readers differ, {@code shared/notes/gguf-readers.md}).
 *
 * <p>Layout (docs/gguf.md, ggml-org/ggml d99724f), all multi-byte values in the file's byte
 * order:
 *
 * <pre>
 *   0  magic             4 bytes "GGUF"
 *   4  version           u32: 03 00 00 00 / 02 00 00 00 little-endian v3 / v2, 00 00 00 03 big-endian v3
 *   8  tensor_count      u64
 *  16  metadata_kv_count u64
 *  24  metadata_kv_count times: key (u64 length + UTF-8), value type u32, value
 *      tensor_count times: name (u64 length + UTF-8), n_dims u32, n_dims x u64 dims, type u32, offset u64
 *      = header_length (REA's header ends here; alignment padding is never consumed)
 *      padding to the alignment, then the tensor data section (tensor_data_offset)
 * </pre>
 *
 * <p>The reader consumes exactly {@code header_length} bytes. Nothing is allocated from a declared
 * count or length before it is checked against the bytes left in the file and then against the
 * header ceiling ({@link Limits#headerCeilingBytes()}, counted over the whole header). Metadata
 * arrays keep at most {@link Limits#previewElements()} elements; the rest are validated (UTF-8,
 * BOOL 0/1, nested arrays) and skipped without creating objects.
 *
 * <p>The reader parses and validates; a {@link RecordAssembler} turns what it declares into the
 * record's parts and owns what retaining them costs (the retained budget, the JSON size of each
 * row, the type notes; {@code docs/evidence.md}, "Retained budget"). The reader asks it before it
 * retains a string, a row or a value, and hands it each metadata pair and tensor entry once whole;
 * the field path ({@link FieldPath}) it keeps as it reads names every failure.
 *
 * <p>Failures are {@link ReaException}s: {@code file_format_rejected} naming the field path
 * ({@code metadata[3].value[7]}, {@code tensor[2].dims[1]}, ...) and absolute byte offset; {@code
 * unsupported_version}; {@code resource_exhausted} ({@code header_ceiling}, {@code
 * retained_budget}, {@code nesting_limit}); and the input's {@code execution_failure} / {@code
 * cancelled}. A read cancelled inside the header leaves what it completed in the context's
 * partial header ({@link RecordAssembler#snapshot}). Stateless and thread-safe: each call uses
 * its own session.
 */
public final class GgufReader implements FormatReader {
  /** Default alignment when {@code general.alignment} is absent (docs/gguf.md): 32 bytes. */
  public static final long DEFAULT_ALIGNMENT = 32;

  /** The metadata key that sets the alignment. */
  public static final String ALIGNMENT_KEY = "general.alignment";

  /** Longest tensor name in bytes (docs/gguf.md "at most 64 bytes"; CONTRACT section 8). */
  public static final int MAX_NAME_BYTES = 64;

  /** Most tensor dimensions (docs/gguf.md; ggml {@code GGML_MAX_DIMS}). */
  public static final int MAX_DIMS = 4;

  /** Fixed bytes before the metadata: magic, version and the two counts. */
  static final int FIXED_HEADER_BYTES = 24;

  /** Fewest bytes one tensor entry can take: u64 name length, u32 n_dims, u32 type, u64 offset. */
  static final long MIN_TENSOR_BYTES = 24;

  @Override
  public ParsedHeader read(HeaderInput in, ReadContext ctx) throws ReaException {
    FieldPath path = new FieldPath();
    RecordAssembler<GgufTensor> asm =
        new RecordAssembler<>(
            ctx.budget(), path, in.fileSize(), RecordAssembler.RowOrder.DECLARATION);
    try {
      return ParsedHeader.of(DetectedFormat.GGUF, new Session(in, ctx.limits(), path, asm, ctx.layout() == LayoutAssumption.GGML_MODERN)
              .run());
    } catch (ReaException e) {
      if (e.constraint() == Constraint.CANCELLED) {
        AssembledHeader completed = asm.snapshot();
        if (completed != null) {
          ctx.partial().set(ParsedHeader.of(DetectedFormat.GGUF, completed));
        }
      }
      throw e;
    }
  }

  /**
   * A {@code file_format_rejected} failure naming {@code path} and {@code offset} first, as every
   * rejection of both readers does (CONTRACT section 6): {@code tensor[2].offset at offset 37:
   * why}.
   */
  static ReaException reject(FieldPath path, long offset, String message) {
    String field = path.get();
    return ReaException.rejected(field, offset, field + " at offset " + offset + ": " + message);
  }

  /** @return {@code [d0, d1, ...]} of the first {@code n} dimensions, unsigned */
  static String dimsText(long[] dims, int n) {
    StringBuilder sb = new StringBuilder("[");
    for (int k = 0; k < n; k++) {
      if (k > 0) {
        sb.append(", ");
      }
      sb.append(Long.toUnsignedString(dims[k]));
    }
    return sb.append(']').toString();
  }

  /** One read: the input, its field path and the assembler the declarations go to. */
  private static final class Session {
    private final HeaderInput in;
    private final Limits limits;
    private final FieldPath path;
    private final RecordAssembler<GgufTensor> asm;
    private final GgufMetadata metadata;
    private final boolean assumeModern;
    private int version;
    private String byteOrder = "little";

    Session(
        HeaderInput in,
        Limits limits,
        FieldPath path,
        RecordAssembler<GgufTensor> asm,
        boolean assumeModern) {
      this.in = in;
      this.assumeModern = assumeModern;
      this.limits = limits;
      this.path = path;
      this.asm = asm;
      this.metadata =
          new GgufMetadata(in, path, asm, limits.previewElements(), limits.nestingLimit());
    }

    AssembledHeader run() throws ReaException {
      in.setFieldPath(path);
      in.setHeaderCeiling(limits.headerCeilingBytes());

      // magic: 4 bytes "GGUF" (the detector matched them; checked again for direct callers).
      // Reads fetch ahead only as far as the header is known to reach (HeaderInput): the magic,
      // version and counts first, then what the counts say must follow, at its smallest.
      in.expectHeaderAtLeast(FIXED_HEADER_BYTES);
      path.reset("magic");
      in.require(4);
      byte[] magic = in.bytes(4);
      if (magic[0] != 'G' || magic[1] != 'G' || magic[2] != 'U' || magic[3] != 'F') {
        throw reject(path, 0, "the file does not start with the GGUF magic");
      }

      // version: u32, whose four bytes also give the byte order.
      path.reset("version");
      in.require(4);
      version = versionOf(in.bytes(4));
      byteOrder = in.order() == ByteOrder.BIG_ENDIAN ? "big" : "little";

      // tensor_count: u64; metadata_kv_count: u64.
      path.reset("tensor_count");
      long tensorCount = in.i64();
      path.reset("metadata_kv_count");
      long kvCount = in.i64();
      checkCounts(tensorCount, kvCount);
      asm.facts(new FormatFacts.Gguf(version, byteOrder, null, null, null));
      asm.declaredCounts(kvCount, tensorCount, in.position());
      // Both counts fit the bytes left (checkCounts): no overflow.
      long directoryMinBytes = tensorCount * MIN_TENSOR_BYTES;
      in.expectHeaderAtLeast(
          in.position() + kvCount * GgufMetadata.MIN_KV_BYTES + directoryMinBytes);

      path.reset("metadata").index(0).name("key");
      metadata.read(kvCount, directoryMinBytes, this::alignmentFacts);
      alignmentFacts();

      path.reset("tensor").index(0).name("name");
      readTensors(tensorCount);
      long headerLength = in.position();
      in.checkCeiling();

      long alignment = metadata.alignment();
      GgufRanges ranges = new GgufRanges(path, in.fileSize(), alignment);
      long dataOffset = ranges.dataOffset(headerLength, tensorCount);
      List<GgufTensor> decls = asm.tensors();
      ranges.check(decls, dataOffset);

      asm.facts(
          new FormatFacts.Gguf(
              version, byteOrder, alignment, alignmentSource(), dataOffset));
      return asm.complete(headerLength, decls, dataOffset, null);
    }

    /**
     * Tells the assembler what is known of the alignment: set by {@code general.alignment}, or
     * (once the metadata has ended without it) the default.
     */
    private void alignmentFacts() {
      asm.facts(
          new FormatFacts.Gguf(version, byteOrder, metadata.alignment(), alignmentSource(), null));
    }

    private String alignmentSource() {
      return metadata.alignmentFromMetadata() ? "metadata" : "default";
    }

    // -------------------------------------------------------------------------------------------
    // Version and counts

    /**
     * Decides version and byte order from the four version bytes (CONTRACT section 8): {@code 03
     * 00 00 00} / {@code 02 00 00 00} are little-endian v3 / v2, {@code 00 00 00 03} big-endian
     * v3. Everything else, big-endian v2 included, is {@code unsupported_version}.
     */
    private int versionOf(byte[] vb) throws ReaException {
      boolean zeroHigh = vb[1] == 0 && vb[2] == 0 && vb[3] == 0;
      if (zeroHigh && (vb[0] == 3 || vb[0] == 2)) {
        in.order(ByteOrder.LITTLE_ENDIAN);
        return vb[0];
      }
      if (vb[0] == 0 && vb[1] == 0 && vb[2] == 0 && vb[3] == 3) {
        in.order(ByteOrder.BIG_ENDIAN);
        return 3;
      }
      long le =
          (vb[0] & 0xFFL) | (vb[1] & 0xFFL) << 8 | (vb[2] & 0xFFL) << 16 | (vb[3] & 0xFFL) << 24;
      long be =
          (vb[3] & 0xFFL) | (vb[2] & 0xFFL) << 8 | (vb[1] & 0xFFL) << 16 | (vb[0] & 0xFFL) << 24;
      String hex = String.format("%02x %02x %02x %02x", vb[0], vb[1], vb[2], vb[3]);
      throw ReaException.builder(
              Constraint.UNSUPPORTED_VERSION,
              "GGUF version bytes "
                  + hex
                  + " at offset 4 (UINT32 "
                  + le
                  + " little-endian, "
                  + be
                  + " big-endian) are not a supported version; REA reads little-endian GGUF v2"
                  + " and v3 and big-endian v3")
          .field("version")
          .offset(4)
          .diagnostic("version_bytes", hex.replace(" ", ""))
          .diagnostic("version_uint32_le", le)
          .diagnostic("version_uint32_be", be)
          .diagnostic("byte_order", "unknown")
          .build();
    }

    /**
     * Checks both counts against the fewest bytes their entries can take: first the bytes left in
     * the file, then the header ceiling.
     */
    private void checkCounts(long tensorCount, long kvCount) throws ReaException {
      long left = in.remaining();
      path.reset("tensor_count");
      if (Long.compareUnsigned(tensorCount, left / MIN_TENSOR_BYTES) > 0) {
        throw reject(
            path,
            8,
            Long.toUnsignedString(tensorCount)
                + " tensors need at least "
                + MIN_TENSOR_BYTES
                + " bytes each but the file has "
                + left
                + " bytes left");
      }
      long tensorBytes = tensorCount * MIN_TENSOR_BYTES;
      path.reset("metadata_kv_count");
      if (Long.compareUnsigned(kvCount, (left - tensorBytes) / GgufMetadata.MIN_KV_BYTES) > 0) {
        throw reject(
            path,
            16,
            Long.toUnsignedString(kvCount)
                + " metadata pairs need at least "
                + GgufMetadata.MIN_KV_BYTES
                + " bytes each, after "
                + tensorBytes
                + " bytes for the tensor directory, but the file has "
                + left
                + " bytes left");
      }
      long ceiling = in.headerCeiling();
      path.reset("tensor_count");
      long atLeast = FIXED_HEADER_BYTES + tensorBytes;
      if (atLeast > ceiling) {
        throw in.ceilingExceeded(atLeast, 8);
      }
      path.reset("metadata_kv_count");
      atLeast += kvCount * GgufMetadata.MIN_KV_BYTES;
      if (atLeast > ceiling) {
        throw in.ceilingExceeded(atLeast, 16);
      }
    }

    // -------------------------------------------------------------------------------------------
    // Tensor directory

    private void readTensors(long tensorCount) throws ReaException {
      Map<String, Integer> names = new HashMap<>();
      long[] dims = new long[MAX_DIMS];
      long[] dimAt = new long[MAX_DIMS];
      for (long i = 0; i < tensorCount; i++) {
        path.reset("tensor").index(i).name("name");
        in.checkCeiling();
        in.expectHeaderAtLeast(in.position() + (tensorCount - i) * MIN_TENSOR_BYTES);
        readTensor((int) i, names, dims, dimAt);
      }
    }

    /**
     * Reads one tensor entry: name (u64 length, at most 64 bytes of UTF-8, unique), n_dims (u32,
     * at most 4), the dimensions (u64 each, fastest first, product at most 2^64-1 in declaration
     * order), type (u32, kept even when unknown; the first dimension a whole number of its rows)
     * and offset (u64, a multiple of the alignment).
     */
    private void readTensor(int i, Map<String, Integer> names, long[] dims, long[] dimAt)
        throws ReaException {
      long entryAt = in.position();
      long lengthAt = in.position();
      long nameLength = in.i64();
      if (Long.compareUnsigned(nameLength, MAX_NAME_BYTES) > 0) {
        throw reject(
            path,
            lengthAt,
            "the name is "
                + Long.toUnsignedString(nameLength)
                + " bytes long; tensor names are at most "
                + MAX_NAME_BYTES
                + " bytes");
      }
      in.requireAt(nameLength, lengthAt);
      asm.chargeEntryFloor(MAX_DIMS, entryAt);
      String name = in.string(nameLength, asm);
      Integer earlier = names.putIfAbsent(name, i);
      if (earlier != null) {
        throw reject(
            path,
            lengthAt,
            "duplicate tensor name '"
                + ReaException.truncateForMessage(name)
                + "' (first declared by tensor["
                + earlier
                + "])");
      }

      path.truncate(2).name("n_dims");
      long nDimsAt = in.position();
      long nDims = in.u32();
      if (nDims > MAX_DIMS) {
        throw reject(path, nDimsAt, nDims + " dimensions declared; GGUF tensors have at most 4");
      }
      long elements = readDims((int) nDims, dims, dimAt);

      path.truncate(2).name("type");
      long typeAt = in.position();
      GgmlType type = GgmlTypes.of(in.u32(), assumeModern);
      checkRowMultiple(type, (int) nDims, dims, dimAt, typeAt);

      path.truncate(2).name("offset");
      long offsetAt = in.position();
      long offset = in.i64();
      if (Long.remainderUnsigned(offset, metadata.alignment()) != 0) {
        throw reject(
            path,
            offsetAt,
            "offset "
                + Long.toUnsignedString(offset)
                + " is not a multiple of the alignment "
                + metadata.alignment());
      }

      GgufTensor d =
          new GgufTensor(
              i,
              name,
              type,
              Arrays.copyOf(dims, (int) nDims),
              elements,
              offset,
              type.byteLength(elements),
              offsetAt,
              nDimsAt + 4);
      path.truncate(2);
      asm.chargeRowAfterFloor(d, MAX_DIMS, entryAt);
      path.name("type");
      asm.chargeTypeShares(d, typeAt);
      asm.tensor(d, in.position());
    }

    /** Reads {@code nDims} dimensions; @return their exact product in declaration order */
    private long readDims(int nDims, long[] dims, long[] dimAt) throws ReaException {
      long elements = 1;
      path.truncate(2).name("dims").index(0);
      for (int j = 0; j < nDims; j++) {
        path.lastIndex(j);
        dimAt[j] = in.position();
        long d = in.i64();
        dims[j] = d;
        if (elements != 0
            && d != 0
            && Long.compareUnsigned(d, Long.divideUnsigned(-1L, elements)) > 0) {
          throw reject(
              path,
              dimAt[j],
              "the product of the dimensions up to this one exceeds 2^64-1 (dims so far "
                  + dimsText(dims, j + 1)
                  + ")");
        }
        elements *= d;
      }
      return elements;
    }

    /** A type stored in blocks of rows needs a first dimension that is a whole number of rows. */
    private void checkRowMultiple(GgmlType type, int nDims, long[] dims, long[] dimAt, long typeAt)
        throws ReaException {
      long rowMultiple = type.rowMultiple();
      if (rowMultiple <= 1) {
        return;
      }
      long first = nDims == 0 ? 1 : dims[0];
      if (Long.remainderUnsigned(first, rowMultiple) != 0) {
        long at = typeAt;
        if (nDims > 0) {
          path.truncate(2).name("dims").index(0);
          at = dimAt[0];
        }
        throw reject(
            path,
            at,
            "a "
                + type.label()
                + " row holds whole blocks of "
                + rowMultiple
                + " elements"
                + GgufRanges.assumedNote(type)
                + " but the first dimension is "
                + Long.toUnsignedString(first));
      }
    }
  }
}
