package dev.rea.core.internal.format.gguf;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.detect.DetectedFormat;
import dev.rea.core.internal.evidence.RecordSize;
import dev.rea.core.internal.format.FormatReader;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.internal.format.ReadContext;
import dev.rea.core.internal.io.HeaderInput;
import dev.rea.core.internal.io.JsonText;
import dev.rea.core.internal.io.RetainedBudget;
import dev.rea.core.options.Limits;
import java.nio.ByteOrder;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
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
 * BOOL 0/1, nested arrays) and skipped without creating objects. Every retained string and row is
 * charged to the retained budget before it is built.
 *
 * <p>Retained budget ({@link RetainedBudget}, {@link RecordSize}; {@code docs/evidence.md}): a
 * metadata pair is charged {@link RetainedBudget#VALUE_OVERHEAD} for its row, every retained
 * string (key, STRING value, preview element) its JSON-escaped length plus the overhead, every
 * array and every non-STRING preview element the overhead; that covers the JSON the row adds (at
 * most 47 bytes plus the key for the row, 33 for a scalar value, 94 for an array's fields, 25 for
 * a scalar preview element, 96 for a nested array element). A tensor entry is charged {@link
 * #TENSOR_FLOOR_BYTES} and its name (escaped length plus the overhead) at its start and, once its
 * fields are read, whatever its JSON row ({@link RecordSize#tensorRowBytes}, {@code file_offset}
 * bounded by {@code offset + file size}) needs beyond that; the first tensor of each type also
 * pays for its type row at its widest, the first of each type that carries a limitation for that
 * limitation at its widest and every such tensor for its entry in {@code tensor_indices}; the
 * first tensor of each removed type pays for its {@code removed_type} warning at its widest, and
 * the first nonempty tensor of unestablished layout for both layout warnings at their widest
 * ({@link LayoutBounds#widestWarningsBytes()}).
 *
 * <p>Failures are {@link ReaException}s: {@code file_format_rejected} naming the field path
 * ({@code metadata[3].value[7]}, {@code tensor[2].dims[1]}, ...) and absolute byte offset; {@code
 * unsupported_version}; {@code resource_exhausted} ({@code header_ceiling}, {@code
 * retained_budget}, {@code nesting_limit}); and the input's {@code execution_failure} / {@code
 * cancelled}. Stateless and thread-safe: each call uses its own session.
 */
public final class GgufReader implements FormatReader {
  /** Said of a tensor range past the end of the file: the usual cause, in the reader's words. */
  private static final String TRUNCATED_HINT =
      " (the file is shorter than its header declares: an incomplete download or a truncated"
          + " copy?)";

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

  /** Fewest bytes one KV pair can take: u64 key length, a 1-byte key, u32 type, 1-byte value. */
  static final long MIN_KV_BYTES = 14;

  /** Fewest bytes one tensor entry can take: u64 name length, u32 n_dims, u32 type, u64 offset. */
  static final long MIN_TENSOR_BYTES = 24;

  /**
   * Heap floor charged at the start of every tensor entry: two objects of {@link
   * RetainedBudget#VALUE_OVERHEAD} (the declaration and its row) and 8 bytes for each of the at
   * most {@value #MAX_DIMS} dimensions. The name is charged on its own.
   */
  public static final long TENSOR_FLOOR_BYTES = 2 * RetainedBudget.VALUE_OVERHEAD + 8L * MAX_DIMS;

  /** A list as wide as a warning can name: 2^31-1 entries of the widest index (for sizing). */
  static final List<Integer> WIDEST_INDICES =
      new AbstractList<>() {
        @Override
        public Integer get(int i) {
          return Integer.MAX_VALUE;
        }

        @Override
        public int size() {
          return Integer.MAX_VALUE;
        }
      };

  /** Longest string the reader will materialise (a Java array bound), in bytes. */
  private static final long MAX_RETAINED_STRING = Integer.MAX_VALUE - 64;

  @Override
  public ParsedHeader read(HeaderInput in, ReadContext ctx) throws ReaException {
    Session s = new Session(in, ctx);
    try {
      return s.run();
    } catch (ReaException e) {
      if (e.constraint() == Constraint.CANCELLED) {
        ParsedHeader completed = s.completed();
        if (completed != null) {
          ctx.partial().set(completed);
        }
      }
      throw e;
    }
  }

  /** One read. Holds the cheap counters the lazy field describer formats on failure. */
  private static final class Session {
    // Stages of the describer.
    private static final int S_MAGIC = 0;
    private static final int S_VERSION = 1;
    private static final int S_TENSOR_COUNT = 2;
    private static final int S_KV_COUNT = 3;
    private static final int S_KV = 4;
    private static final int S_TENSOR = 5;
    private static final int S_DATA = 6;

    // Parts of a KV pair.
    private static final int KV_KEY = 0;
    private static final int KV_TYPE = 1;
    private static final int KV_VALUE = 2;

    // Parts of an array at one level.
    private static final byte A_ELEMENT_TYPE = 0;
    private static final byte A_COUNT = 1;
    private static final byte A_ELEMENTS = 2;

    // Parts of a tensor entry.
    private static final int T_NAME = 0;
    private static final int T_N_DIMS = 1;
    private static final int T_DIMS = 2;
    private static final int T_TYPE = 3;
    private static final int T_OFFSET = 4;
    private static final int T_ENTRY = 5;
    /** The dimensions as a whole (a byte length too large for any file). */
    private static final int T_ALL_DIMS = 6;

    private final HeaderInput in;
    private final Limits limits;
    /** The version once the counts were read, else -1 ({@link #completed()}). */
    private int version = -1;
    /** The declared tensor_count and metadata_kv_count, once read ({@link #completed()}). */
    private long declaredTensors;
    private long declaredKvs;
    /** Metadata pairs and tensor entries read whole so far, in file order. */
    private final List<MetadataRow> metadataRows = new ArrayList<>();
    private final List<TensorDecl> tensorDecls = new ArrayList<>();
    private boolean metadataDone;
    /** Offset just after the last completed declaration. */
    private long doneEnd;
    /** Fewest bytes the tensor directory can take ({@link #MIN_TENSOR_BYTES} per tensor). */
    private long directoryMinBytes;
    private final RetainedBudget budget;
    private final int previewLimit;
    private final int nestingLimit;

    private int stage = S_MAGIC;
    private long kvIndex;
    private int kvPart;
    private int depth;
    private final byte[] levelPart;
    private final long[] levelIndex;
    private final boolean[] levelBulk;
    private long tensorIndex;
    private int tensorPart;
    private int dimIndex;

    /** The lazy field describer, created once (a method reference allocates at each use). */
    private final Supplier<String> describer = this::describe;

    private long alignment = DEFAULT_ALIGNMENT;
    private boolean alignmentFromMetadata;

    Session(HeaderInput in, ReadContext ctx) {
      this.in = in;
      this.limits = ctx.limits();
      this.budget = ctx.budget();
      this.previewLimit = limits.previewElements();
      this.nestingLimit = limits.nestingLimit();
      this.levelPart = new byte[nestingLimit + 2];
      this.levelIndex = new long[nestingLimit + 2];
      this.levelBulk = new boolean[nestingLimit + 2];
    }

    /** Formats the current field path; called only when a failure is being built. */
    private String describe() {
      switch (stage) {
        case S_MAGIC:
          return "magic";
        case S_VERSION:
          return "version";
        case S_TENSOR_COUNT:
          return "tensor_count";
        case S_KV_COUNT:
          return "metadata_kv_count";
        case S_KV:
          return describeKv();
        case S_TENSOR:
          return describeTensor();
        default:
          return "tensor_data_offset";
      }
    }

    private String describeKv() {
      StringBuilder sb = new StringBuilder("metadata[").append(kvIndex).append(']');
      if (kvPart == KV_KEY) {
        return sb.append(".key").toString();
      }
      if (kvPart == KV_TYPE) {
        return sb.append(".type").toString();
      }
      sb.append(".value");
      for (int l = 1; l <= depth; l++) {
        if (levelPart[l] == A_ELEMENT_TYPE) {
          return sb.append(".element_type").toString();
        }
        if (levelPart[l] == A_COUNT) {
          return sb.append(".count").toString();
        }
        long idx = levelIndex[l] + (levelBulk[l] ? in.bulkIndex() : 0);
        sb.append('[').append(Long.toUnsignedString(idx)).append(']');
      }
      return sb.toString();
    }

    private String describeTensor() {
      StringBuilder sb = new StringBuilder("tensor[").append(tensorIndex).append(']');
      switch (tensorPart) {
        case T_NAME:
          return sb.append(".name").toString();
        case T_N_DIMS:
          return sb.append(".n_dims").toString();
        case T_DIMS:
          return sb.append(".dims[").append(dimIndex).append(']').toString();
        case T_TYPE:
          return sb.append(".type").toString();
        case T_OFFSET:
          return sb.append(".offset").toString();
        case T_ALL_DIMS:
          return sb.append(".dims").toString();
        default:
          return sb.toString();
      }
    }

    private ReaException reject(long offset, String message) {
      String field = describe();
      return ReaException.rejected(field, offset, field + " at offset " + offset + ": " + message);
    }

    ParsedHeader run() throws ReaException {
      in.setFieldDescriber(describer);
      in.setHeaderCeiling(limits.headerCeilingBytes());

      // magic: 4 bytes "GGUF" (the detector matched them; checked again for direct callers).
      // Reads fetch ahead only as far as the header is known to reach (HeaderInput): the magic,
      // version and counts first, then what the counts say must follow, at its smallest.
      in.expectHeaderAtLeast(FIXED_HEADER_BYTES);
      stage = S_MAGIC;
      in.require(4);
      byte[] magic = in.bytes(4);
      if (magic[0] != 'G' || magic[1] != 'G' || magic[2] != 'U' || magic[3] != 'F') {
        throw reject(0, "the file does not start with the GGUF magic");
      }

      // version: u32, whose four bytes also give the byte order.
      stage = S_VERSION;
      in.require(4);
      byte[] vb = in.bytes(4);
      int version = versionOf(vb);

      // tensor_count: u64; metadata_kv_count: u64.
      stage = S_TENSOR_COUNT;
      long tensorCount = in.i64();
      stage = S_KV_COUNT;
      long kvCount = in.i64();
      checkCounts(tensorCount, kvCount);
      declaredTensors = tensorCount;
      declaredKvs = kvCount;
      this.version = version;
      doneEnd = in.position();
      // Both counts fit the bytes left (checkCounts): no overflow.
      directoryMinBytes = tensorCount * MIN_TENSOR_BYTES;
      in.expectHeaderAtLeast(in.position() + kvCount * MIN_KV_BYTES + directoryMinBytes);

      stage = S_KV;
      List<MetadataRow> metadata = readMetadata(kvCount);

      metadataDone = true;
      stage = S_TENSOR;
      List<TensorDecl> decls = readTensors(tensorCount);
      long headerLength = in.position();
      in.checkCeiling();

      stage = S_DATA;
      long dataOffset = dataOffset(headerLength, tensorCount);
      stage = S_TENSOR;
      checkRanges(decls, dataOffset);
      checkOverlaps(decls);

      List<TensorRow> tensors = new ArrayList<>(decls.size());
      for (TensorDecl d : decls) {
        tensors.add(d.row(dataOffset));
      }
      List<Limitation> limitations = new ArrayList<>();
      List<Warning> warnings = new ArrayList<>();
      typeNotes(decls, limitations, warnings);
      LayoutBounds.warnings(decls, in.fileSize() - dataOffset, dataOffset, warnings);

      FormatFacts facts =
          new FormatFacts.Gguf(
              version,
              in.order() == ByteOrder.BIG_ENDIAN ? "big" : "little",
              alignment,
              alignmentFromMetadata ? "metadata" : "default",
              dataOffset);
      return new ParsedHeader(
          DetectedFormat.GGUF, headerLength, facts, metadata, tensors, limitations, warnings);
    }

    /**
     * The declarations completed so far, for a read cancelled before the header ended
     * (specification, "Facts and selected queries"): every metadata pair and tensor entry read
     * and checked whole, each tensor without its file offset (the data section's start follows
     * the directory). The alignment is kept once validated from {@code general.alignment}; the
     * default is known only once the metadata has ended. Types are noted as in a complete read;
     * ranges and overlaps, which need the whole directory, are not checked.
     *
     * @return the completed part, or null when even the version and counts were not read
     */
    @Nullable ParsedHeader completed() {
      if (version < 0) {
        return null;
      }
      List<TensorRow> tensors = new ArrayList<>(tensorDecls.size());
      for (TensorDecl d : tensorDecls) {
        tensors.add(d.partialRow());
      }
      List<Limitation> limitations = new ArrayList<>();
      List<Warning> warnings = new ArrayList<>();
      typeNotes(tensorDecls, limitations, warnings);
      Limitation stopped =
          partialHeaderLimitation(
              metadataRows.size(), declaredKvs, tensorDecls.size(), declaredTensors);
      // Charged like every other part of the record; with the budget spent, the record still
      // says coverage.header "partial".
      if (budget.tryCharge(RecordSize.limitationBytes(stopped))) {
        limitations.add(0, stopped);
      }
      Long knownAlignment = alignmentFromMetadata || metadataDone ? alignment : null;
      String source = alignmentFromMetadata ? "metadata" : metadataDone ? "default" : null;
      FormatFacts facts =
          new FormatFacts.Gguf(
              version,
              in.order() == ByteOrder.BIG_ENDIAN ? "big" : "little",
              knownAlignment,
              source,
              null);
      return new ParsedHeader(
          DetectedFormat.GGUF, doneEnd, facts, metadataRows, tensors, limitations, warnings);
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
      stage = S_TENSOR_COUNT;
      if (Long.compareUnsigned(tensorCount, left / MIN_TENSOR_BYTES) > 0) {
        throw reject(
            8,
            Long.toUnsignedString(tensorCount)
                + " tensors need at least "
                + MIN_TENSOR_BYTES
                + " bytes each but the file has "
                + left
                + " bytes left");
      }
      long tensorBytes = tensorCount * MIN_TENSOR_BYTES;
      stage = S_KV_COUNT;
      if (Long.compareUnsigned(kvCount, (left - tensorBytes) / MIN_KV_BYTES) > 0) {
        throw reject(
            16,
            Long.toUnsignedString(kvCount)
                + " metadata pairs need at least "
                + MIN_KV_BYTES
                + " bytes each, after "
                + tensorBytes
                + " bytes for the tensor directory, but the file has "
                + left
                + " bytes left");
      }
      long ceiling = in.headerCeiling();
      stage = S_TENSOR_COUNT;
      long atLeast = FIXED_HEADER_BYTES + tensorBytes;
      if (atLeast > ceiling) {
        throw in.ceilingExceeded(atLeast, 8);
      }
      stage = S_KV_COUNT;
      atLeast += kvCount * MIN_KV_BYTES;
      if (atLeast > ceiling) {
        throw in.ceilingExceeded(atLeast, 16);
      }
    }

    // -------------------------------------------------------------------------------------------
    // Metadata

    private List<MetadataRow> readMetadata(long kvCount) throws ReaException {
      List<MetadataRow> rows = metadataRows;
      Map<String, Integer> seen = new HashMap<>();
      for (long i = 0; i < kvCount; i++) {
        kvIndex = i;
        kvPart = KV_KEY;
        depth = 0;
        in.checkCeiling();
        in.expectHeaderAtLeast(in.position() + (kvCount - i) * MIN_KV_BYTES + directoryMinBytes);
        long keyAt = in.position();
        budget.charge(RetainedBudget.VALUE_OVERHEAD, describer, keyAt);
        String key = readString(true);
        checkKey(key, keyAt + 8);
        Integer earlier = seen.putIfAbsent(key, (int) i);
        if (earlier != null) {
          throw reject(
              keyAt,
              "duplicate key '"
                  + ReaException.truncateForMessage(key)
                  + "' (first declared by metadata["
                  + earlier
                  + "])");
        }

        kvPart = KV_TYPE;
        long typeAt = in.position();
        long typeId = in.u32();
        ValueType type = ValueType.byId(typeId);
        if (type == null) {
          throw reject(typeAt, "unknown GGUF value type " + typeId + " (known: 0 to 12)");
        }
        boolean alignmentKey = key.equals(ALIGNMENT_KEY);
        if (alignmentKey && type != ValueType.UINT32) {
          throw reject(typeAt, ALIGNMENT_KEY + " must be of type UINT32 but is " + type);
        }

        kvPart = KV_VALUE;
        long valueAt = in.position();
        MetadataValue value =
            type == ValueType.ARRAY ? readArray(1, true) : readScalar(type, true);
        if (alignmentKey) {
          long a = ((MetadataValue.IntegerValue) value).bits();
          if (a == 0 || a % 8 != 0) {
            throw reject(
                valueAt, ALIGNMENT_KEY
                    + " must be a positive multiple of 8 but is "
                    + a
                    + " (the GGUF specification requires a multiple of 8; ggml and gguf-py"
                    + " also load other values)");
          }
          alignment = a;
          alignmentFromMetadata = true;
        }
        rows.add(new MetadataRow((int) i, key, type, value));
        doneEnd = in.position();
      }
      return rows;
    }

    /**
     * Key grammar {@code [a-z0-9]+([._-][a-z0-9]+)*} (CONTRACT section 8).
     *
     * @param bytesAt absolute offset of the key's first byte (just after its u64 length)
     */
    private void checkKey(String key, long bytesAt) throws ReaException {
      int n = key.length();
      boolean prevSeparator = true;
      for (int i = 0; i < n; i++) {
        char c = key.charAt(i);
        boolean alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        boolean separator = c == '.' || c == '_' || c == '-';
        if (alnum) {
          prevSeparator = false;
          continue;
        }
        if (separator && !prevSeparator) {
          prevSeparator = true;
          continue;
        }
        // Every earlier char is ASCII, so the char index is the byte index.
        throw reject(
            bytesAt + i,
            "key '"
                + ReaException.truncateForMessage(key)
                + "' does not match [a-z0-9]+([._-][a-z0-9]+)* at character "
                + i);
      }
      if (prevSeparator) {
        // An empty key has no byte of its own: its length (the u64 before it) says 0.
        throw reject(
            n == 0 ? bytesAt - 8 : bytesAt + n - 1,
            n == 0
                ? "the key is empty (its length is 0); keys match [a-z0-9]+([._-][a-z0-9]+)*"
                : "key '"
                    + ReaException.truncateForMessage(key)
                    + "' ends with a separator; keys match [a-z0-9]+([._-][a-z0-9]+)*");
      }
    }

    /**
     * Reads a GGUF string: u64 length, then that many bytes of UTF-8.
     *
     * @param retain true to decode and return it (charged to the budget first)
     * @return the string, or null when not retained
     */
    private String readString(boolean retain) throws ReaException {
      long lengthAt = in.position();
      long len = in.i64();
      in.requireAt(len, lengthAt);
      if (retain && len > MAX_RETAINED_STRING) {
        throw budgetRefusal(len, lengthAt);
      }
      return in.utf8(len, retain, retain ? budget : null);
    }

    private ReaException budgetRefusal(long len, long at) {
      String field = describe();
      return ReaException.builder(
              Constraint.RETAINED_BUDGET,
              "retaining " + field + " (" + len + " bytes) exceeds the largest retainable string")
          .field(field)
          .offset(at)
          .diagnostic("limit", "retained_budget")
          .diagnostic("limit_bytes", Long.toString(budget.limit()))
          .diagnostic("used_bytes", Long.toString(budget.used()))
          .diagnostic("requested_bytes", Long.toString(len))
          .diagnostic(
              "over_bytes",
              Long.toString(
                  Math.max(0, budget.used() + len + RetainedBudget.VALUE_OVERHEAD - budget.limit())))
          .build();
    }

    /**
     * Reads one scalar value of a non-ARRAY type.
     *
     * @return the value, or null when {@code retain} is false
     */
    private MetadataValue readScalar(ValueType type, boolean retain) throws ReaException {
      switch (type) {
        case UINT8:
          {
            int v = in.u8();
            return retain ? new MetadataValue.IntegerValue(v) : null;
          }
        case INT8:
          {
            int v = (byte) in.u8();
            return retain ? new MetadataValue.IntegerValue(v) : null;
          }
        case UINT16:
          {
            int v = in.i16() & 0xFFFF;
            return retain ? new MetadataValue.IntegerValue(v) : null;
          }
        case INT16:
          {
            int v = in.i16();
            return retain ? new MetadataValue.IntegerValue(v) : null;
          }
        case UINT32:
          {
            long v = in.u32();
            return retain ? new MetadataValue.IntegerValue(v) : null;
          }
        case INT32:
          {
            int v = in.i32();
            return retain ? new MetadataValue.IntegerValue(v) : null;
          }
        case UINT64:
        case INT64:
          {
            long v = in.i64();
            return retain ? new MetadataValue.IntegerValue(v) : null;
          }
        case FLOAT32:
          {
            float v = in.f32();
            return retain ? new MetadataValue.FloatValue(v) : null;
          }
        case FLOAT64:
          {
            double v = in.f64();
            return retain ? new MetadataValue.FloatValue(v) : null;
          }
        case BOOL:
          {
            long at = in.position();
            int b = in.u8();
            if (b > 1) {
              throw reject(at, "BOOL must be 0 or 1 but the byte is " + b);
            }
            return retain ? new MetadataValue.BoolValue(b == 1) : null;
          }
        case STRING:
          {
            String s = readString(retain);
            return retain ? new MetadataValue.StringValue(s) : null;
          }
        default:
          throw new IllegalArgumentException("not a scalar type: " + type);
      }
    }

    /**
     * Reads an array value: u32 element type, u64 count, then the elements.
     *
     * @param level this array's ARRAY level, 1 for the outermost
     * @param retain true to build its value with at most {@code previewLimit} preview elements
     * @return the value, or null when not retained
     */
    private MetadataValue.ArrayValue readArray(int level, boolean retain) throws ReaException {
      depth = level;
      levelPart[level] = A_ELEMENT_TYPE;
      levelBulk[level] = false;
      long typeAt = in.position();
      long typeId = in.u32();
      ValueType elementType = ValueType.byId(typeId);
      if (elementType == null) {
        throw reject(typeAt, "unknown GGUF value type " + typeId + " (known: 0 to 12)");
      }
      if (elementType == ValueType.ARRAY && level + 1 > nestingLimit) {
        String field = describe();
        throw ReaException.builder(
                Constraint.NESTING_LIMIT,
                field
                    + " at offset "
                    + typeAt
                    + " declares arrays at ARRAY level "
                    + (level + 1)
                    + ", beyond the nesting limit of "
                    + nestingLimit
                    + " levels")
            .field(field)
            .offset(typeAt)
            .diagnostic("limit", "nesting_limit")
            .diagnostic("limit_levels", nestingLimit)
            .diagnostic("requested_levels", level + 1)
            .build();
      }

      levelPart[level] = A_COUNT;
      long countAt = in.position();
      long count = in.i64();
      long minSize =
          elementType.fixedSize() > 0
              ? elementType.fixedSize()
              : (elementType == ValueType.STRING ? 8 : 12);
      long left = in.remaining();
      if (Long.compareUnsigned(count, left / minSize) > 0) {
        throw reject(
            countAt,
            "an array of "
                + Long.toUnsignedString(count)
                + " "
                + elementType
                + " elements needs at least "
                + minSize
                + " bytes each but the file has "
                + left
                + " bytes left");
      }
      in.requireAt(count * minSize, countAt);
      in.expectHeaderAtLeast(in.position() + count * minSize);

      levelPart[level] = A_ELEMENTS;
      int keep = retain ? (int) Math.min(count, previewLimit) : 0;
      List<MetadataValue> preview = keep == 0 ? List.of() : new ArrayList<>(keep);
      if (retain) {
        budget.charge(RetainedBudget.VALUE_OVERHEAD, describer, countAt);
      }
      for (int j = 0; j < keep; j++) {
        levelIndex[level] = j;
        if (elementType != ValueType.STRING) {
          budget.charge(RetainedBudget.VALUE_OVERHEAD, describer, in.position());
        }
        MetadataValue e =
            elementType == ValueType.ARRAY
                ? readArray(level + 1, true)
                : readScalar(elementType, true);
        depth = level;
        preview.add(e);
      }
      long rest = count - keep;
      levelIndex[level] = keep;
      if (rest != 0) {
        skipElements(elementType, level, keep, rest);
      }
      depth = level - 1;
      return retain ? new MetadataValue.ArrayValue(elementType, count, preview, rest == 0) : null;
    }

    /** Validates and skips {@code rest} elements starting at index {@code from}. */
    private void skipElements(ValueType elementType, int level, long from, long rest)
        throws ReaException {
      switch (elementType) {
        case BOOL:
          {
            long start = in.position();
            long bad = in.skipBools(rest);
            if (bad >= 0) {
              levelIndex[level] = from + (bad - start);
              // skipBools stopped at the bad byte without consuming it.
              throw reject(bad, "BOOL must be 0 or 1 but the byte is " + in.u8());
            }
            return;
          }
        case STRING:
          levelBulk[level] = true;
          in.skipStrings(rest);
          levelBulk[level] = false;
          return;
        case ARRAY:
          for (long j = 0; Long.compareUnsigned(j, rest) < 0; j++) {
            levelIndex[level] = from + j;
            // The arrays left take 12 bytes each at least: reads may fetch that far ahead (without
            // this, reads past the first bound would fetch one field at a time).
            in.expectHeaderAtLeast(in.positionPlus(rest - j, 12));
            readArray(level + 1, false);
            depth = level;
          }
          return;
        default:
          // Fixed-size numbers: every bit pattern is valid. The count check covered the bytes.
          in.skip(rest * elementType.fixedSize());
      }
    }

    // -------------------------------------------------------------------------------------------
    // Tensor directory

    private List<TensorDecl> readTensors(long tensorCount) throws ReaException {
      List<TensorDecl> decls = tensorDecls;
      Map<String, Integer> names = new HashMap<>();
      long[] dims = new long[MAX_DIMS];
      long[] dimAt = new long[MAX_DIMS];
      for (long i = 0; i < tensorCount; i++) {
        tensorIndex = i;
        tensorPart = T_NAME;
        in.checkCeiling();
        in.expectHeaderAtLeast(in.position() + (tensorCount - i) * MIN_TENSOR_BYTES);
        long entryAt = in.position();

        // name: u64 length, at most 64 bytes of UTF-8; unique.
        long lengthAt = in.position();
        long nameLength = in.i64();
        if (Long.compareUnsigned(nameLength, MAX_NAME_BYTES) > 0) {
          throw reject(
              lengthAt,
              "the name is "
                  + Long.toUnsignedString(nameLength)
                  + " bytes long; tensor names are at most "
                  + MAX_NAME_BYTES
                  + " bytes");
        }
        in.requireAt(nameLength, lengthAt);
        budget.charge(TENSOR_FLOOR_BYTES, describer, entryAt);
        String name = in.utf8(nameLength, true, budget);
        Integer earlier = names.putIfAbsent(name, (int) i);
        if (earlier != null) {
          throw reject(
              lengthAt,
              "duplicate tensor name '"
                  + ReaException.truncateForMessage(name)
                  + "' (first declared by tensor["
                  + earlier
                  + "])");
        }

        // n_dims: u32, at most 4.
        tensorPart = T_N_DIMS;
        long nDimsAt = in.position();
        long nDims = in.u32();
        if (nDims > MAX_DIMS) {
          throw reject(nDimsAt, nDims + " dimensions declared; GGUF tensors have at most 4");
        }

        // dims: u64 each, fastest first; exact product in declaration order.
        tensorPart = T_DIMS;
        long elements = 1;
        for (int j = 0; j < nDims; j++) {
          dimIndex = j;
          dimAt[j] = in.position();
          long d = in.i64();
          dims[j] = d;
          if (elements != 0
              && d != 0
              && Long.compareUnsigned(d, Long.divideUnsigned(-1L, elements)) > 0) {
            throw reject(
                dimAt[j],
                "the product of the dimensions up to this one exceeds 2^64-1 (dims so far "
                    + dimsText(dims, j + 1)
                    + ")");
          }
          elements *= d;
        }

        // type: u32, kept even when unknown.
        tensorPart = T_TYPE;
        long typeAt = in.position();
        long typeId = in.u32();
        GgmlType type = GgmlTypes.of(typeId);
        long rowMultiple = type.rowMultiple();
        if (rowMultiple > 1) {
          long first = nDims == 0 ? 1 : dims[0];
          if (Long.remainderUnsigned(first, rowMultiple) != 0) {
            long at = typeAt;
            if (nDims > 0) {
              tensorPart = T_DIMS;
              dimIndex = 0;
              at = dimAt[0];
            }
            throw reject(
                at,
                "a "
                    + type.label()
                    + " row holds whole blocks of "
                    + rowMultiple
                    + " elements but the first dimension is "
                    + Long.toUnsignedString(first));
          }
        }

        // offset: u64 relative to the data section, a multiple of the alignment.
        tensorPart = T_OFFSET;
        long offsetAt = in.position();
        long offset = in.i64();
        if (Long.remainderUnsigned(offset, alignment) != 0) {
          throw reject(
              offsetAt,
              "offset "
                  + Long.toUnsignedString(offset)
                  + " is not a multiple of the alignment "
                  + alignment);
        }

        long byteLength = type.byteLength(elements);
        chargeRow((int) i, name, type, dims, (int) nDims, elements, offset, byteLength, entryAt);
        tensorPart = T_TYPE;
        chargeTypeShares((int) i, type, elements, byteLength, typeAt);

        long[] shape = Arrays.copyOf(dims, (int) nDims);
        decls.add(
            new TensorDecl(
                (int) i, name, type, shape, elements, offset, byteLength, offsetAt, nDimsAt + 4));
        doneEnd = in.position();
      }
      return decls;
    }

    /** Type IDs whose type row was charged; limited and removed IDs charged; layout charged. */
    private final Set<Long> typeRowsCharged = new HashSet<>();
    private final Set<Long> limitationsCharged = new HashSet<>();
    private final Set<Long> removedCharged = new HashSet<>();
    private boolean layoutWarningsCharged;
    private long lastTypeId = -1;

    /**
     * Charges what tensor {@code index}'s JSON row needs beyond the {@link #TENSOR_FLOOR_BYTES}
     * and name already charged. Its {@code file_offset} is not known yet: it is the data offset
     * (at most the file size) plus {@code offset}, so {@code offset + file size} has at least as
     * many digits.
     */
    private void chargeRow(
        int index,
        String name,
        GgmlType type,
        long[] dims,
        int nDims,
        long elements,
        long offset,
        long byteLength,
        long entryAt)
        throws ReaException {
      long nameEscaped = JsonText.escapedLength(name);
      long fileSize = in.fileSize();
      long fileOffsetBound =
          Long.compareUnsigned(offset, -1L - fileSize) > 0 ? -1L : offset + fileSize;
      boolean known = byteLength != GgmlType.UNKNOWN_LENGTH;
      long json =
          RecordSize.tensorRowBytes(
                  index,
                  nameEscaped + 2,
                  JsonText.quotedLength(type.label()),
                  type.id(),
                  dims,
                  nDims,
                  elements,
                  offset,
                  fileOffsetBound,
                  known,
                  byteLength,
                  known ? StorageValidation.CONSISTENT : StorageValidation.UNKNOWN)
              + RecordSize.SEPARATOR;
      long charged = TENSOR_FLOOR_BYTES + RetainedBudget.VALUE_OVERHEAD + nameEscaped;
      if (json > charged) {
        tensorPart = T_ENTRY;
        budget.chargeMore(json - charged, charged, describer, entryAt);
      }
    }

    /**
     * Charges the parts of the record a tensor's type brings: its type row (first tensor of the
     * type), its limitation (first limited tensor of the type) and its entry in that limitation's
     * {@code tensor_indices}, its {@code removed_type} warning (first tensor of a removed type),
     * the layout warnings (first nonempty tensor whose layout is not established but bounded).
     * Each at its widest, as {@link #typeNotes} and {@link LayoutBounds} will write it.
     */
    private void chargeTypeShares(
        int index, GgmlType type, long elements, long byteLength, long typeAt)
        throws ReaException {
      long id = type.id();
      long bytes = 0;
      if (id != lastTypeId && typeRowsCharged.add(id)) {
        bytes +=
            RecordSize.typeRowBytes(JsonText.quotedLength(type.label()), id)
                + RecordSize.SEPARATOR;
      }
      lastTypeId = id;
      if (limited(type, elements)) {
        if (limitationsCharged.add(id)) {
          bytes +=
              RecordSize.limitationBytes(limitation(type, WIDEST_INDICES.size(), List.of()))
                  + RecordSize.SEPARATOR;
        }
        bytes += RecordSize.indexBytes(index);
      }
      if (type.kind() == GgmlType.Kind.REMOVED && removedCharged.add(id)) {
        bytes += RecordSize.warningBytes(removedWarning(type, WIDEST_INDICES)) + RecordSize.SEPARATOR;
      }
      if (!layoutWarningsCharged
          && elements != 0
          && byteLength == GgmlType.UNKNOWN_LENGTH
          && type.minByteLength(elements) != GgmlType.UNKNOWN_LENGTH) {
        layoutWarningsCharged = true;
        bytes += LayoutBounds.widestWarningsBytes();
      }
      if (bytes != 0) {
        budget.charge(bytes, describer, typeAt);
      }
    }

    private static String dimsText(long[] dims, int n) {
      StringBuilder sb = new StringBuilder("[");
      for (int k = 0; k < n; k++) {
        if (k > 0) {
          sb.append(", ");
        }
        sb.append(Long.toUnsignedString(dims[k]));
      }
      return sb.append(']').toString();
    }

    // -------------------------------------------------------------------------------------------
    // Data section and ranges

    /**
     * The data section start (CONTRACT section 8): with tensors, the directory end padded to the
     * alignment, which must not exceed the file size; with none, the directory end when the file
     * ends there, the aligned offset when the whole gap is present, and a partial gap is rejected.
     */
    private long dataOffset(long directoryEnd, long tensorCount) throws ReaException {
      long fileSize = in.fileSize();
      long aligned = directoryEnd + (alignment - directoryEnd % alignment) % alignment;
      if (tensorCount == 0 && fileSize == directoryEnd) {
        return directoryEnd;
      }
      if (aligned > fileSize) {
        throw reject(
            directoryEnd,
            "the directory ends at "
                + directoryEnd
                + " and the tensor data would start at "
                + aligned
                + " (alignment "
                + alignment
                + "), but the file ends at "
                + fileSize
                + ": the alignment padding before the data section is missing or incomplete");
      }
      return aligned;
    }

    /**
     * Per tensor, in directory order: the file offset fits in 64 bits; a known range ends within
     * the file; a nonempty tensor of unknown length starts before the end of the file.
     */
    private void checkRanges(List<TensorDecl> decls, long dataOffset) throws ReaException {
      long fileSize = in.fileSize();
      long room = fileSize - dataOffset;
      for (TensorDecl d : decls) {
        tensorIndex = d.index;
        tensorPart = T_OFFSET;
        if (Long.compareUnsigned(d.offset, -1L - dataOffset) > 0) {
          throw reject(
              d.offsetAt,
              "the data section starts at "
                  + dataOffset
                  + " and offset "
                  + Long.toUnsignedString(d.offset)
                  + " takes the file offset beyond 2^64-1");
        }
        if (d.byteLength == GgmlType.LENGTH_OVERFLOW) {
          // The dimensions, not the offset, make the tensor larger than any file.
          tensorPart = T_ALL_DIMS;
          throw reject(
              d.dimsAt,
              d.type.label()
                  + " shape "
                  + dimsText(d.shape, d.shape.length)
                  + " needs more than 2^64-1 bytes, which cannot lie within the file");
        }
        if (d.byteLength != GgmlType.UNKNOWN_LENGTH) {
          if (Long.compareUnsigned(d.offset, room) > 0
              || Long.compareUnsigned(d.byteLength, room - d.offset) > 0) {
            throw reject(
                d.offsetAt,
                "the range of "
                    + Long.toUnsignedString(d.byteLength)
                    + " bytes at file offset "
                    + Long.toUnsignedString(dataOffset + d.offset)
                    + " ends past the end of the file at "
                    + fileSize
                    + TRUNCATED_HINT);
          }
        } else if (d.elements != 0 && Long.compareUnsigned(d.offset, room) >= 0) {
          throw reject(
              d.offsetAt,
              "a nonempty tensor of unknown byte length starts at file offset "
                  + Long.toUnsignedString(dataOffset + d.offset)
                  + ", not before the end of the file at "
                  + fileSize
                  + TRUNCATED_HINT);
        }
      }
    }

    /**
     * Rejects every overlap the declarations prove: known ranges that intersect, two nonempty
     * tensors at one offset, a nonempty tensor starting inside a known range. Empty tensors occupy
     * no bytes. O(n log n): nonempty tensors sorted by offset, swept once keeping the furthest
     * known end. Offsets and ends are below the file size here ({@link #checkRanges} ran first).
     */
    private void checkOverlaps(List<TensorDecl> decls) throws ReaException {
      int n = 0;
      TensorDecl[] sorted = new TensorDecl[decls.size()];
      boolean inOrder = true;
      for (TensorDecl d : decls) {
        if (d.elements != 0) {
          if (n > 0 && d.offset < sorted[n - 1].offset) {
            inOrder = false;
          }
          sorted[n++] = d;
        }
      }
      if (!inOrder) {
        Arrays.sort(
            sorted,
            0,
            n,
            (a, b) -> a.offset != b.offset ? Long.compare(a.offset, b.offset) : a.index - b.index);
      }
      long furthestEnd = 0;
      TensorDecl furthest = null;
      for (int k = 0; k < n; k++) {
        TensorDecl d = sorted[k];
        TensorDecl prev = k > 0 ? sorted[k - 1] : null;
        if (prev != null && prev.offset == d.offset) {
          fail(d, prev, "both nonempty tensors start at offset " + d.offset);
        }
        if (furthest != null && d.offset < furthestEnd) {
          fail(
              d,
              furthest,
              "tensor["
                  + d.index
                  + "] starts at offset "
                  + d.offset
                  + ", inside the known range ["
                  + furthest.offset
                  + ", "
                  + furthestEnd
                  + ") of tensor["
                  + furthest.index
                  + "]");
        }
        if (d.byteLength != GgmlType.UNKNOWN_LENGTH && d.offset + d.byteLength > furthestEnd) {
          furthestEnd = d.offset + d.byteLength;
          furthest = d;
        }
      }
    }

    private void fail(TensorDecl later, TensorDecl other, String why) throws ReaException {
      // Name the tensor declared later in the directory.
      TensorDecl named = later.index > other.index ? later : other;
      TensorDecl first = named == later ? other : later;
      tensorIndex = named.index;
      tensorPart = T_OFFSET;
      throw reject(
          named.offsetAt,
          "tensor[" + named.index + "] overlaps tensor[" + first.index + "]: " + why);
    }

    // -------------------------------------------------------------------------------------------
    // Limitations and warnings

    private static void typeNotes(
        List<TensorDecl> decls, List<Limitation> limitations, List<Warning> warnings) {
      Map<Long, List<Integer>> limited = new TreeMap<>();
      Map<Long, List<Integer>> removed = new TreeMap<>();
      Map<Long, GgmlType> types = new HashMap<>();
      for (TensorDecl d : decls) {
        GgmlType t = d.type;
        if (limited(t, d.elements)) {
          limited.computeIfAbsent(t.id(), k -> new ArrayList<>()).add(d.index);
          types.putIfAbsent(t.id(), t);
        } else if (t.kind() == GgmlType.Kind.REMOVED) {
          removed.computeIfAbsent(t.id(), k -> new ArrayList<>()).add(d.index);
          types.putIfAbsent(t.id(), t);
        }
      }
      for (Map.Entry<Long, List<Integer>> e : limited.entrySet()) {
        List<Integer> idx = e.getValue();
        limitations.add(limitation(types.get(e.getKey()), idx.size(), idx));
      }
      for (Map.Entry<Long, List<Integer>> e : removed.entrySet()) {
        warnings.add(removedWarning(types.get(e.getKey()), e.getValue()));
      }
    }
  }

  /**
   * @return true when tensors of this type and element count carry a limitation: ambiguous and
   *     unknown IDs always, Q8_1 and the K types when nonempty
   */
  static boolean limited(GgmlType t, long elements) {
    switch (t.kind()) {
      case AMBIGUOUS:
      case UNKNOWN:
        return true;
      case Q8_1:
      case K_QUANT:
        return elements != 0;
      default:
        return false;
    }
  }

  /**
   * The {@code partial_header} limitation of a read stopped inside the header: how many of the
   * declared metadata pairs and tensor entries were read whole, so that totals over the rows read
   * are not taken for the file's.
   */
  static Limitation partialHeaderLimitation(long kvsRead, long kvs, long tensorsRead, long tensors) {
    return new Limitation(
        "partial_header",
        "the read stopped inside the header, after "
            + kvsRead
            + " of its "
            + kvs
            + " metadata pairs (metadata_kv_count) and "
            + tensorsRead
            + " of its "
            + tensors
            + " tensor entries (tensor_count) were read whole; the rows, types and totals here"
            + " cover those only",
        null,
        null,
        null);
  }

  /** @return the limitation of a type carried by {@code count} tensors, listing {@code indices} */
  static Limitation limitation(GgmlType t, int count, List<Integer> indices) {
    List<String> candidates = t.candidates().isEmpty() ? null : t.candidates();
    return new Limitation(
        GgmlTypes.limitationCode(t),
        GgmlTypes.limitationMessage(t, count),
        indices,
        t.id(),
        candidates);
  }

  /**
   * @return the {@code removed_type} warning of a removed type carried by the tensors {@code idx}
   *     (the first 8 are named, the rest counted)
   */
  static Warning removedWarning(GgmlType t, List<Integer> idx) {
    StringBuilder list = new StringBuilder();
    for (int k = 0; k < Math.min(idx.size(), 8); k++) {
      list.append(k == 0 ? "" : ", ").append(idx.get(k));
    }
    if (idx.size() > 8) {
      list.append(" and ").append(idx.size() - 8).append(" more");
    }
    return new Warning(
        GgmlTypes.WARNING_REMOVED,
        "type ID "
            + t.id()
            + " ("
            + t.label()
            + ") has been removed from ggml; its one released layout (32 elements in 18"
            + " bytes) is assumed for tensor"
            + (idx.size() == 1 ? " " : "s ")
            + list);
  }

  /** One validated tensor entry, before the data offset is known. */
  static final class TensorDecl {
    final int index;
    final String name;
    final GgmlType type;
    final long[] shape;
    final long elements;
    final long offset;
    final long byteLength;
    final long offsetAt;
    /** File offset of the first dimension (just after {@code n_dims}). */
    final long dimsAt;

    TensorDecl(
        int index,
        String name,
        GgmlType type,
        long[] shape,
        long elements,
        long offset,
        long byteLength,
        long offsetAt,
        long dimsAt) {
      this.index = index;
      this.name = name;
      this.type = type;
      this.shape = shape;
      this.elements = elements;
      this.offset = offset;
      this.byteLength = byteLength;
      this.offsetAt = offsetAt;
      this.dimsAt = dimsAt;
    }

    /** The row of a header read in part: no file offset, storage not checked. */
    TensorRow partialRow() {
      return rowAt(null);
    }

    /** The row of a complete header, its range checked against the data section at {@code dataOffset}. */
    TensorRow row(long dataOffset) {
      return rowAt(dataOffset + offset);
    }

    /** @param fileOffset null when the data section's start is unknown (nothing was checked) */
    private TensorRow rowAt(@Nullable Long fileOffset) {
      List<Long> dims = new ArrayList<>(shape.length);
      for (long d : shape) {
        dims.add(d);
      }
      boolean known = byteLength != GgmlType.UNKNOWN_LENGTH && byteLength != GgmlType.LENGTH_OVERFLOW;
      return new TensorRow(
          index,
          name,
          type.label(),
          type.id(),
          dims,
          elements,
          offset,
          fileOffset,
          known ? byteLength : null,
          known && fileOffset != null ? StorageValidation.CONSISTENT : StorageValidation.UNKNOWN);
    }
  }
}
