package dev.rea.core.internal.format.safetensors;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.internal.detect.DetectedFormat;
import dev.rea.core.internal.evidence.Derivations;
import dev.rea.core.internal.evidence.RecordSize;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.internal.format.ReadContext;
import dev.rea.core.internal.io.JsonText;
import dev.rea.core.internal.io.RetainedBudget;
import dev.rea.core.text.JacksonReasons;
import dev.rea.core.text.Utf8;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;

/**
 * One parse of one safetensors header JSON: the strict pre-pass, the Jackson token walk with
 * REA's checks, the range walk and, only when all of that passed, the rows. Package-private; see
 * {@link SafetensorsReader} for the rules. Not thread-safe (one instance per read).
 */
final class HeaderParse {
  private static final long PREFIX = SafetensorsReader.PREFIX_BYTES;
  private static final String METADATA_KEY = "__metadata__";
  private static final long OVERHEAD = RetainedBudget.VALUE_OVERHEAD;
  /**
   * Bytes charged per shape dimension while the shape is read: the heap floor of one retained
   * value ({@link RetainedBudget#VALUE_OVERHEAD}), since each dimension becomes one value of the
   * record and one node of the canonicalizer's tree. (At 8 bytes, a hostile 8 MB header of
   * 4,100,000 dimensions fitted the budget and peaked at 491 MB of memory.)
   */
  private static final long DIM_BYTES = OVERHEAD;
  /** Dimensions shown when a shape appears in a message. */
  private static final int SHOWN_DIMS = 8;

  private static final int F_DTYPE = 1;
  private static final int F_SHAPE = 2;
  private static final int F_OFFSETS = 4;

  private final byte[] json;
  private final long fileSize;
  private final RetainedBudget budget;
  private final JsonFactory factory;
  private final int nestingLimit;

  private JsonParser p;
  private int depth;

  // Where the walk is, for field paths in errors (rendered only on failure).
  private @Nullable String tensorName;
  private boolean inMetadata;
  private @Nullable String key;
  private int index = -1;
  /** Path below a skipped unknown field: String keys and int[1] array positions. */
  private final ArrayList<Object> nested = new ArrayList<>();

  // Results, built up during the walk but published only by build().
  private final ArrayList<Decl> decls = new ArrayList<>();
  private boolean metadataSeen;
  /** True once a decoded name or key held a surrogate pair (a code point above U+FFFF). */
  private boolean sawSurrogatePair;

  /** Measures string values as they stream from the parser ({@link #retainedString}). */
  private final StringSizer sizer = new StringSizer(-1);
  /** The dtype of the last tensor whose dtype is known, tried first by {@link #readDtype}. */
  private @Nullable SafetensorsDtype lastDtype;
  private @Nullable List<String[]> metadata;
  private long[] scratch = new long[16];

  /** One tensor entry as declared. */
  private static final class Decl {
    final String name;
    /** Absolute offset of the name token; declaration sequence number. */
    final long nameAt;
    final int seq;
    @Nullable SafetensorsDtype dtype;
    @Nullable String dtypeText;
    /** JSON-escaped length of {@link #dtypeText}, as charged. */
    long dtypeEscaped;
    long[] shape;
    /** Element count, unsigned. */
    long params;
    long begin;
    long end;
    /** Absolute offsets of the shape and data_offsets arrays. */
    long shapeAt;
    long offsetsAt;

    Decl(String name, long nameAt, int seq) {
      this.name = name;
      this.nameAt = nameAt;
      this.seq = seq;
    }

    String label() {
      return dtype != null ? dtype.name() : dtypeText;
    }
  }

  HeaderParse(byte[] json, long fileSize, ReadContext ctx, JsonFactory factory) {
    this.json = json;
    this.fileSize = fileSize;
    this.budget = ctx.budget();
    this.factory = factory;
    this.nestingLimit = ctx.limits().nestingLimit();
  }

  ParsedHeader run() throws ReaException {
    prescan();
    p = factory.createParser(ObjectReadContext.empty(), json, 0, json.length);
    try {
      walkTop();
    } catch (StreamConstraintsException e) {
      throw translateConstraint(e);
    } catch (JacksonException e) {
      throw translate(e);
    } finally {
      p.close();
    }
    Decl[] byName = decls.toArray(new Decl[0]);
    Comparator<String> order = nameOrder();
    Arrays.sort(byName, (a, b) -> order.compare(a.name, b.name));
    checkDuplicates(byName);
    checkRanges(order);
    return build(byName, order);
  }

  /**
   * Code-point order. Without surrogate pairs, UTF-16 order is code-point order and {@link
   * String#compareTo} (an intrinsic) is much faster.
   */
  private Comparator<String> nameOrder() {
    return sawSurrogatePair ? Derivations::compareCodePoints : Comparator.naturalOrder();
  }

  // -----------------------------------------------------------------------------------------
  // Byte pre-pass

  /**
   * Strict UTF-8, no raw control bytes but tab, LF and CR, and an object as the top-level value.
   */
  private void prescan() throws ReaException {
    int n = json.length;
    int r = Utf8.scan(json, 0, n);
    if (r != Utf8.VALID) {
      int bad = r >= 0 ? r : -(r + 2);
      throw rejectAt(
          "header",
          PREFIX + bad,
          "the header JSON has invalid UTF-8 (byte 0x"
              + hex(json[bad])
              + "; overlong forms, encoded surrogates and cut sequences are invalid)");
    }
    int ctl = firstForbiddenControl(json);
    if (ctl >= 0) {
      throw rejectAt(
          "header",
          PREFIX + ctl,
          "the header JSON has the control byte 0x"
              + hex(json[ctl])
              + " (only space, tab, CR and LF may appear outside strings, and control"
              + " characters inside strings must be escaped)");
    }
    int i = 0;
    while (i < n && isJsonSpace(json[i])) {
      i++;
    }
    if (i == n) {
      throw rejectAt(
          "header",
          PREFIX + n,
          n == 0
              ? "the header JSON is empty (json_length is 0); a JSON object is required"
              : "the header JSON is only whitespace; a JSON object is required");
    }
    if (json[i] != '{') {
      boolean bom =
          i + 2 < n
              && (json[i] & 0xFF) == 0xEF
              && (json[i + 1] & 0xFF) == 0xBB
              && (json[i + 2] & 0xFF) == 0xBF;
      throw rejectAt(
          "header",
          PREFIX + i,
          bom
              ? "the header JSON starts with a UTF-8 byte-order mark; the header must be a JSON"
                  + " object, optionally surrounded by space, tab, CR or LF"
              : "the header's top-level JSON value is not an object; the header must be a JSON"
                  + " object");
    }
  }

  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /**
   * @return the index of the first byte below 0x20 other than tab, LF and CR, or -1. Eight bytes
   *     at a time: a word holds a byte below 0x20 exactly when {@code (w - 0x20..20) & ~w &
   *     0x80..80} is nonzero; only such words are examined byte by byte.
   */
  static int firstForbiddenControl(byte[] b) {
    int n = b.length;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      long w = (long) LONG_LE.get(b, i);
      if (((w - 0x2020202020202020L) & ~w & 0x8080808080808080L) != 0) {
        for (int k = i; k < i + 8; k++) {
          if (isForbiddenControl(b[k])) {
            return k;
          }
        }
      }
    }
    for (; i < n; i++) {
      if (isForbiddenControl(b[i])) {
        return i;
      }
    }
    return -1;
  }

  private static boolean isForbiddenControl(byte c) {
    return c >= 0 && c < 0x20 && c != '\t' && c != '\n' && c != '\r';
  }

  private static boolean isJsonSpace(byte b) {
    return b == ' ' || b == '\t' || b == '\n' || b == '\r';
  }

  // -----------------------------------------------------------------------------------------
  // Token walk

  private void walkTop() throws ReaException {
    JsonToken t = p.nextToken();
    if (t != JsonToken.START_OBJECT) {
      // The pre-pass saw '{'; Jackson agrees unless something is badly wrong.
      throw reject("the header's top-level JSON value is not an object");
    }
    enter();
    while ((t = p.nextToken()) == JsonToken.PROPERTY_NAME) {
      String name = p.currentName();
      long utf8 = escapedLength(name);
      boolean isMetadata = METADATA_KEY.equals(name);
      if (isMetadata) {
        inMetadata = true;
      } else {
        tensorName = name;
      }
      if (utf8 < 0) {
        throw loneSurrogate(isMetadata ? "key" : "tensor name");
      }
      if (!isMetadata) {
        // The tensor row and its name are retained.
        charge(OVERHEAD + utf8 + OVERHEAD);
      }
      if (isMetadata) {
        if (metadataSeen) {
          throw reject(
              "duplicate top-level key \"__metadata__\" (keys are compared after unescaping;"
                  + " safetensors keys must be unique)");
        }
        metadataSeen = true;
        walkMetadata();
        inMetadata = false;
      } else {
        // Duplicate tensor names are found after the walk, on the sorted names.
        walkTensor(name, tokenOffset(), utf8);
        tensorName = null;
      }
    }
    // Jackson only returns END_OBJECT here.
    exit();
    // Only JSON whitespace may follow; checked on the bytes so the offset is exact.
    long end = p.currentLocation().getByteOffset();
    for (int i = (int) end; i < json.length; i++) {
      if (!isJsonSpace(json[i])) {
        throw rejectAt(
            "header",
            PREFIX + i,
            "the header has content after its JSON object (only space, tab, CR and LF may"
                + " follow)");
      }
    }
  }

  private void walkMetadata() throws ReaException {
    JsonToken t = p.nextToken();
    if (t == JsonToken.VALUE_NULL) {
      return; // null means omitted
    }
    if (t != JsonToken.START_OBJECT) {
      throw reject(
          "__metadata__ must be an object of string values or null, found "
              + describe(t));
    }
    enter();
    List<String[]> rows = new ArrayList<>();
    HashSet<String> keys = new HashSet<>();
    while ((t = p.nextToken()) == JsonToken.PROPERTY_NAME) {
      String k = p.currentName();
      key = k;
      long klen = escapedLength(k);
      if (klen < 0) {
        throw loneSurrogate("key");
      }
      charge(OVERHEAD + klen + OVERHEAD);
      if (!keys.add(k)) {
        throw reject(
            "duplicate __metadata__ key " + quote(k) + " (keys are compared after unescaping)");
      }
      t = p.nextToken();
      if (t != JsonToken.VALUE_STRING) {
        throw reject(
            "__metadata__ values must be strings, found "
                + describe(t)
                + (t == JsonToken.START_OBJECT
                    ? " (a tensor cannot be named __metadata__)"
                    : ""));
      }
      String v = retainedString("value");
      rows.add(new String[] {k, v});
      key = null;
    }
    exit();
    metadata = rows;
  }

  private void walkTensor(String name, long nameAt, long nameEscaped) throws ReaException {
    JsonToken t = p.nextToken();
    if (t != JsonToken.START_OBJECT) {
      throw reject(
          "a tensor entry must be an object with dtype, shape and data_offsets, found "
              + describe(t));
    }
    enter();
    Decl d = new Decl(name, nameAt, decls.size());
    int seen = 0;
    HashSet<String> extraKeys = null;
    while ((t = p.nextToken()) == JsonToken.PROPERTY_NAME) {
      String k = p.currentName();
      key = k;
      int bit;
      switch (k) {
        case "dtype":
          bit = F_DTYPE;
          break;
        case "shape":
          bit = F_SHAPE;
          break;
        case "data_offsets":
          bit = F_OFFSETS;
          break;
        default:
          bit = 0;
      }
      if (bit != 0) {
        if ((seen & bit) != 0) {
          throw reject("duplicate field " + k + " (keys are compared after unescaping)");
        }
        seen |= bit;
      } else {
        long klen = escapedLength(k);
        if (klen < 0) {
          throw loneSurrogate("key");
        }
        // Held while the entry is read, to detect duplicates.
        charge(klen + OVERHEAD);
        if (extraKeys == null) {
          extraKeys = new HashSet<>();
        }
        if (!extraKeys.add(k)) {
          throw reject("duplicate key " + quote(k) + " (keys are compared after unescaping)");
        }
      }
      switch (bit) {
        case F_DTYPE:
          readDtype(d);
          break;
        case F_SHAPE:
          readShape(d);
          break;
        case F_OFFSETS:
          readOffsets(d);
          break;
        default:
          skipValue(p.nextToken());
      }
      key = null;
    }
    exit();
    if (seen != (F_DTYPE | F_SHAPE | F_OFFSETS)) {
      // Reported at the entry's closing brace, where the field was due.
      String at = tensorPath(name);
      long end = tokenOffset();
      String missing =
          (seen & F_DTYPE) == 0 ? "dtype" : (seen & F_SHAPE) == 0 ? "shape" : "data_offsets";
      throw rejectAt(
          at + "." + missing,
          end,
          "the entry ends without "
              + missing
              + " (dtype, shape and data_offsets are required)");
    }
    if (d.dtype != null) {
      checkStorage(d);
    }
    chargeRow(d, nameEscaped);
    decls.add(d);
  }

  /** Labels whose type row, and unknown labels whose limitation, were charged. */
  private final HashSet<String> typeRowsCharged = new HashSet<>();
  private final HashSet<String> limitationsCharged = new HashSet<>();

  /**
   * Charges what an entry's JSON row needs beyond what its name, dimensions and unknown dtype
   * were charged while they were read, and the parts of the record its label brings: the type row
   * (first tensor of a label, at its widest) and, for an unknown dtype, its limitation (first
   * tensor of the label, at its widest count) and its entry in {@code tensor_indices}. The row's
   * final index (name order) is not known yet: the widest index is charged.
   */
  private void chargeRow(Decl d, long nameEscaped) throws ReaException {
    boolean known = d.dtype != null;
    String label = d.label();
    // Known dtype names are ASCII letters, digits and underscores: nothing to escape.
    long labelEscaped = known ? label.length() : d.dtypeEscaped;
    long dataStart = PREFIX + json.length;
    long row =
        RecordSize.tensorRowBytes(
                Integer.MAX_VALUE,
                nameEscaped + 2,
                labelEscaped + 2,
                -1,
                d.shape,
                d.shape.length,
                d.params,
                d.begin,
                dataStart + d.begin,
                true,
                d.end - d.begin,
                known ? StorageValidation.CONSISTENT : StorageValidation.UNKNOWN)
            + RecordSize.SEPARATOR;
    long charged =
        2 * OVERHEAD
            + nameEscaped
            + DIM_BYTES * d.shape.length
            + (known ? 0 : labelEscaped + OVERHEAD);
    if (row > charged) {
      budget.chargeMore(row - charged, charged, () -> tensorPath(d.name), d.nameAt);
    }
    long shares = 0;
    if (typeRowsCharged.add(label)) {
      shares += RecordSize.typeRowBytes(labelEscaped + 2, -1) + RecordSize.SEPARATOR;
    }
    if (!known) {
      if (limitationsCharged.add(label)) {
        shares +=
            RecordSize.limitationBytes(unknownDtypeLimitation(label, Integer.MAX_VALUE, List.of()))
                + RecordSize.SEPARATOR;
      }
      shares += RecordSize.INT_DIGITS + RecordSize.SEPARATOR;
    }
    if (shares != 0) {
      budget.charge(shares, () -> tensorPath(d.name), d.nameAt);
    }
  }

  /** @return the {@code unknown_dtype} limitation of a label carried by {@code count} tensors */
  static Limitation unknownDtypeLimitation(String label, int count, List<Integer> indices) {
    return new Limitation(
        "unknown_dtype",
        "dtype "
            + quote(label)
            + " is not a dtype of the safetensors crate (0.8.0-dev, 24b0b285); "
            + (count == 1
                ? "1 tensor keeps its declared data_offsets range (checked for order, overlap and"
                    + " coverage) as byte_length, but its shape cannot be checked against its"
                    + " storage"
                : count
                    + " tensors keep their declared data_offsets range (checked for order,"
                    + " overlap and coverage) as byte_length, but their shapes cannot be checked"
                    + " against their storage"),
        indices,
        null,
        null);
  }

  private void readDtype(Decl d) throws ReaException {
    JsonToken t = p.nextToken();
    if (t != JsonToken.VALUE_STRING) {
      throw reject("dtype must be a string, found " + describe(t));
    }
    // Measured as it streams, never expanded past what the budget could retain (or past the
    // longest dtype name: known dtypes are matched, uncharged, even when the budget is spent).
    StringSizer sized =
        sizer.reset(Math.max(SafetensorsDtype.LONGEST_NAME, budget.limit() - budget.used() - OVERHEAD));
    p.readString(sized);
    if (sized.kept()) {
      CharSequence text = sized.keptText();
      // Tensors of one file mostly share a dtype: try the last one found before the table.
      SafetensorsDtype known =
          lastDtype != null && lastDtype.spelledBy(text) ? lastDtype : SafetensorsDtype.byName(text);
      if (known != null) {
        d.dtype = known;
        lastDtype = known;
        return;
      }
    }
    d.dtypeText = keep(sized, "dtype");
    d.dtypeEscaped = sized.escapedLength();
  }

  private void readShape(Decl d) throws ReaException {
    JsonToken t = p.nextToken();
    if (t != JsonToken.START_ARRAY) {
      throw reject("shape must be an array of unsigned integers, found " + describe(t));
    }
    d.shapeAt = tokenOffset();
    enter();
    int count = 0;
    long product = 1;
    // index is set before each token so that Jackson's own errors name the element too.
    while ((t = nextElement(count)) != JsonToken.END_ARRAY) {
      long v = readU64(t, "shape dimensions");
      charge(DIM_BYTES);
      // Products in declaration order: a later zero cannot hide an earlier overflow.
      if (product != 0 && v != 0 && unsignedMultiplyHigh(product, v) != 0) {
        throw reject(
            "the shape's element count overflows 2^64-1 at dimension "
                + count
                + " (products are taken in declaration order)");
      }
      product *= v;
      if (count == scratch.length) {
        scratch = Arrays.copyOf(scratch, count * 2);
      }
      scratch[count++] = v;
    }
    index = -1;
    exit();
    d.shape = Arrays.copyOf(scratch, count);
    d.params = product;
  }

  private void readOffsets(Decl d) throws ReaException {
    JsonToken t = p.nextToken();
    if (t != JsonToken.START_ARRAY) {
      throw reject("data_offsets must be an array of two unsigned integers, found " + describe(t));
    }
    d.offsetsAt = tokenOffset();
    enter();
    int count = 0;
    while ((t = nextElement(count)) != JsonToken.END_ARRAY) {
      if (count == 2) {
        throw reject("data_offsets has more than 2 elements; exactly 2 (begin, end) are required");
      }
      long v = readU64(t, "data_offsets");
      if (v < 0) {
        throw reject(
            "data_offsets["
                + count
                + "] = "
                + Long.toUnsignedString(v)
                + " exceeds 2^63-1, the largest file offset REA represents");
      }
      if (count == 0) {
        d.begin = v;
      } else {
        d.end = v;
        if (v < d.begin) {
          throw reject("data_offsets end " + v + " is before begin " + d.begin);
        }
      }
      count++;
    }
    if (count < 2) {
      index = -1;
      throw reject(
          "data_offsets has " + count + " element(s); exactly 2 (begin, end) are required");
    }
    index = -1;
    exit();
  }

  private JsonToken nextElement(int position) {
    index = position;
    return p.nextToken();
  }

  /**
   * Reads the current token as an exact unsigned 64-bit integer from its text.
   *
   * @return the value (as unsigned bits)
   */
  private long readU64(JsonToken t, String what) throws ReaException {
    if (t == JsonToken.VALUE_NUMBER_FLOAT) {
      throw reject(
          what
              + " must be unsigned integers, found a number with a fraction or exponent");
    }
    if (t != JsonToken.VALUE_NUMBER_INT) {
      throw reject(what + " must be unsigned integers, found " + describe(t));
    }
    char[] c = p.getStringCharacters();
    int off = p.getStringOffset();
    int len = p.getStringLength();
    if (len > 0 && c[off] == '-') {
      throw reject(
          what
              + " must be unsigned integers, found "
              + (len == 2 && c[off + 1] == '0' ? "-0" : "a negative number"));
    }
    long v = 0;
    for (int i = 0; i < len; i++) {
      int digit = c[off + i] - '0';
      if (digit < 0 || digit > 9) {
        // Jackson's integer tokens are digits only; stay typed if that ever changes.
        throw reject(what + " must be unsigned integers");
      }
      // 2^64-1 = 18446744073709551615 has 20 digits; 19 digits cannot overflow.
      if (i >= 19
          && (Long.compareUnsigned(v, 1844674407370955161L) > 0
              || (v == 1844674407370955161L && digit > 5))) {
        throw reject(what + " must fit an unsigned 64-bit integer (at most 2^64-1)");
      }
      v = v * 10 + digit;
    }
    return v;
  }

  /** Skips one value of an unknown field, with the duplicate, string and nesting checks. */
  private void skipValue(JsonToken t) throws ReaException {
    switch (t) {
      case START_OBJECT:
        {
          enter();
          HashSet<String> keys = null;
          // The keys are held only until the object ends (nothing of it is retained).
          long held = 0;
          while ((t = p.nextToken()) == JsonToken.PROPERTY_NAME) {
            String k = p.currentName();
            nested.add(k);
            long klen = escapedLength(k);
            if (klen < 0) {
              throw loneSurrogate("key");
            }
            hold(klen + OVERHEAD);
            held += klen + OVERHEAD;
            if (keys == null) {
              keys = new HashSet<>();
            }
            if (!keys.add(k)) {
              throw reject("duplicate key " + quote(k) + " (keys are compared after unescaping)");
            }
            skipValue(p.nextToken());
            nested.remove(nested.size() - 1);
          }
          budget.release(held);
          exit();
          break;
        }
      case START_ARRAY:
        {
          enter();
          int[] at = {0};
          nested.add(at);
          while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            skipValue(t);
            at[0]++;
          }
          nested.remove(nested.size() - 1);
          exit();
          break;
        }
      case VALUE_STRING:
        {
          // Streamed in chunks: a skipped string is never held whole (it can be most of a
          // 100 MB header), only checked for lone surrogates on the way.
          StringSizer check = sizer.reset(-1);
          p.readString(check);
          if (check.lone()) {
            throw loneSurrogate("string");
          }
          break;
        }
      default:
        // Numbers, true, false, null: Jackson has checked their syntax.
        break;
    }
  }

  private void enter() throws ReaException {
    depth++;
    if (depth > nestingLimit) {
      throw ReaException.builder(
              Constraint.NESTING_LIMIT,
              "the header JSON nests "
                  + depth
                  + " containers deep at offset "
                  + tokenOffset()
                  + ", over the nesting limit of "
                  + nestingLimit
                  + " (the top-level object is level 1)")
          .field(where())
          .offset(tokenOffset())
          .diagnostic("limit", "nesting_limit")
          .diagnostic("limit_levels", nestingLimit)
          .diagnostic("requested_levels", depth)
          .build();
    }
  }

  private void exit() {
    depth--;
  }

  // -----------------------------------------------------------------------------------------
  // Storage and ranges

  /** Known dtype: whole-byte storage that equals the declared range. */
  private static void checkStorage(Decl d) throws ReaException {
    SafetensorsDtype dt = d.dtype;
    long elements = d.params;
    int perUnit = dt.elementsPerUnit();
    if (Long.remainderUnsigned(elements, perUnit) != 0) {
      throw rejectAt(
          tensorPath(d.name) + ".shape",
          d.shapeAt,
          "the tensor declares "
              + Long.toUnsignedString(elements)
              + " "
              + dt.name()
              + " elements of "
              + dt.bits()
              + " bits, which is not a whole number of bytes (shape "
              + shapeText(d.shape)
              + ")");
    }
    long units = Long.divideUnsigned(elements, perUnit);
    int unitBytes = dt.bytesPerUnit();
    if (Long.compareUnsigned(units, Long.MAX_VALUE / unitBytes) > 0) {
      throw rejectAt(
          tensorPath(d.name) + ".shape",
          d.shapeAt,
          "the tensor declares "
              + Long.toUnsignedString(elements)
              + " "
              + dt.name()
              + " elements (shape "
              + shapeText(d.shape)
              + "), more than 2^63-1 bytes: no file can hold them");
    }
    long bytes = units * unitBytes;
    long range = d.end - d.begin;
    if (bytes != range) {
      throw rejectAt(
          tensorPath(d.name) + ".data_offsets",
          d.offsetsAt,
          "the tensor is "
              + dt.name()
              + " with shape "
              + shapeText(d.shape)
              + ", which needs "
              + bytes
              + " bytes, but data_offsets ["
              + d.begin
              + ", "
              + d.end
              + "] spans "
              + range
              + " bytes");
    }
  }

  /**
   * Duplicate tensor names, compared as decoded strings: equal names are adjacent in name order
   * (a stable sort keeps them in declaration order). The earliest repeated declaration in the
   * document is reported, at its name.
   */
  private static void checkDuplicates(Decl[] byName) throws ReaException {
    Decl first = null;
    for (int i = 1; i < byName.length; i++) {
      if (byName[i].name.equals(byName[i - 1].name) && (first == null || byName[i].seq < first.seq)) {
        first = byName[i];
      }
    }
    if (first != null) {
      String at = tensorPath(first.name);
      throw ReaException.rejected(
          at,
          first.nameAt,
          at
              + " at offset "
              + first.nameAt
              + " is declared twice (keys are compared after unescaping; safetensors keys must"
              + " be unique)");
    }
  }

  /**
   * Sorted by (begin, end): contiguous from 0, no gap or overlap, last end equal to the bytes
   * after the header.
   */
  private void checkRanges(Comparator<String> order) throws ReaException {
    long dataStart = PREFIX + json.length;
    long available = fileSize - dataStart;
    Decl[] sorted = decls.toArray(new Decl[0]);
    Arrays.sort(
        sorted,
        (a, b) -> {
          int c = Long.compare(a.begin, b.begin);
          if (c == 0) {
            c = Long.compare(a.end, b.end);
          }
          return c != 0 ? c : order.compare(a.name, b.name);
        });
    long start = 0;
    Decl prev = null;
    for (Decl d : sorted) {
      if (d.begin != start) {
        String at = tensorPath(d.name);
        String why;
        if (d.begin > start) {
          why =
              prev == null
                  ? "the first range of the byte buffer starts at "
                      + d.begin
                      + ", not 0: bytes [0, "
                      + d.begin
                      + ") are not covered by any tensor"
                  : "bytes ["
                      + start
                      + ", "
                      + d.begin
                      + ") of the byte buffer are not covered by any tensor (gap after tensors["
                      + quote(prev.name)
                      + "])";
        } else {
          why =
              "range ["
                  + d.begin
                  + ", "
                  + d.end
                  + ") overlaps tensors["
                  + quote(prev.name)
                  + "] ["
                  + prev.begin
                  + ", "
                  + prev.end
                  + ")";
        }
        throw rejectAt(at + ".data_offsets", d.offsetsAt, why);
      }
      if (d.end > available) {
        throw rejectAt(
            tensorPath(d.name) + ".data_offsets",
            d.offsetsAt,
            "the range ends at byte "
                + d.end
                + " of the byte buffer, but the file holds only "
                + available
                + " bytes after the header (truncated data)");
      }
      start = d.end;
      prev = d;
    }
    if (start != available) {
      throw ReaException.builder(
              Constraint.FILE_FORMAT_REJECTED,
              "byte_buffer at offset "
                  + (dataStart + start)
                  + ": the file has "
                  + (available - start)
                  + " bytes after the end of the last tensor range that no tensor indexes (the"
                  + " byte buffer must be entirely indexed)")
          .field("byte_buffer")
          .offset(dataStart + start)
          .diagnostic("indexed_bytes", Long.toString(start))
          .diagnostic("buffer_bytes", Long.toString(available))
          .build();
    }
  }

  // -----------------------------------------------------------------------------------------
  // Rows (published only here, after every check)

  private ParsedHeader build(Decl[] byName, Comparator<String> order) {
    long n = json.length;
    long dataStart = PREFIX + n;
    List<TensorRow> tensors = new ArrayList<>(byName.length);
    Map<String, List<Integer>> unknown = new TreeMap<>(Derivations::compareCodePoints);
    for (int i = 0; i < byName.length; i++) {
      Decl d = byName[i];
      Long[] dims = new Long[d.shape.length];
      for (int k = 0; k < dims.length; k++) {
        dims[k] = d.shape[k];
      }
      // An immutable list, so TensorRow's List.copyOf keeps it as is.
      boolean known = d.dtype != null;
      tensors.add(
          new TensorRow(
              i,
              d.name,
              d.label(),
              null,
              List.of(dims),
              d.params,
              d.begin,
              dataStart + d.begin,
              d.end - d.begin,
              known ? StorageValidation.CONSISTENT : StorageValidation.UNKNOWN));
      if (!known) {
        unknown.computeIfAbsent(d.dtypeText, x -> new ArrayList<>()).add(i);
      }
    }
    List<Limitation> limitations = new ArrayList<>();
    for (Map.Entry<String, List<Integer>> e : unknown.entrySet()) {
      limitations.add(unknownDtypeLimitation(e.getKey(), e.getValue().size(), e.getValue()));
    }
    List<MetadataRow> meta = new ArrayList<>();
    if (metadata != null) {
      List<String[]> rows = new ArrayList<>(metadata);
      rows.sort((a, b) -> order.compare(a[0], b[0]));
      for (int i = 0; i < rows.size(); i++) {
        meta.add(
            new MetadataRow(
                i, rows.get(i)[0], ValueType.STRING, new MetadataValue.StringValue(rows.get(i)[1])));
      }
    }
    return new ParsedHeader(
        DetectedFormat.SAFETENSORS,
        dataStart,
        new FormatFacts.Safetensors(n, dataStart),
        meta,
        tensors,
        limitations,
        List.of());
  }

  // -----------------------------------------------------------------------------------------
  // Helpers

  private void charge(long bytes) throws ReaException {
    if (bytes > budget.limit() - budget.used()) {
      budget.charge(bytes, where(), tokenOffset()); // throws retained_budget
    }
    budget.charge(bytes, "", 0);
  }

  /**
   * Reads the current string value and charges it to the budget before keeping it: its length
   * in the Evidence JSON is measured as it streams from the parser, and its text is kept only
   * while that fits what is left of the budget, so a value the budget refuses is never expanded.
   *
   * @param what names the value in a lone-surrogate refusal ({@code "value"}, {@code "dtype"})
   * @return the value, charged with {@link #OVERHEAD}
   * @throws ReaException {@code file_format_rejected} for a lone surrogate; {@code
   *     retained_budget} when it does not fit
   */
  private String retainedString(String what) throws ReaException {
    p.readString(sizer.reset(budget.limit() - budget.used() - OVERHEAD));
    return keep(sizer, what);
  }

  /**
   * Charges a value measured by {@code sized} and returns its text.
   *
   * @throws ReaException {@code file_format_rejected} for a lone surrogate; {@code
   *     retained_budget} when it does not fit
   */
  private String keep(StringSizer sized, String what) throws ReaException {
    if (sized.lone()) {
      throw loneSurrogate(what);
    }
    sawSurrogatePair |= sized.sawPair();
    charge(sized.escapedLength() + OVERHEAD);
    String text = sized.text();
    if (text == null) {
      // charge() refuses every value over what was left; nothing else drops the text.
      throw new IllegalStateException("a value within the budget was not kept");
    }
    return text;
  }

  /** As {@link #charge}, for bytes held only until {@link RetainedBudget#release}. */
  private void hold(long bytes) throws ReaException {
    if (bytes > budget.limit() - budget.used()) {
      budget.chargeHeld(bytes, where(), tokenOffset()); // throws retained_budget
    }
    budget.chargeHeld(bytes, "", 0);
  }

  private long tokenOffset() {
    TokenStreamLocation loc = p.currentTokenLocation();
    long b = loc.getByteOffset();
    return PREFIX + Math.max(b, 0);
  }

  /** @return {@code tensors["name"]}, the name quoted and truncated */
  private static String tensorPath(String name) {
    return "tensors[" + quote(name) + "]";
  }

  /** The field path of the current position, e.g. {@code tensors["a.weight"].shape[1]}. */
  private String where() {
    StringBuilder sb = new StringBuilder();
    if (inMetadata) {
      sb.append(METADATA_KEY);
      if (key != null) {
        sb.append('[').append(quote(key)).append(']');
      }
    } else if (tensorName != null) {
      sb.append("tensors[").append(quote(tensorName)).append(']');
      if (key != null) {
        if (key.equals("dtype") || key.equals("shape") || key.equals("data_offsets")) {
          sb.append('.').append(key);
        } else {
          sb.append('[').append(quote(key)).append(']');
        }
      }
      if (index >= 0) {
        sb.append('[').append(index).append(']');
      }
    } else {
      sb.append("header");
    }
    for (Object o : nested) {
      if (o instanceof String) {
        sb.append('[').append(quote((String) o)).append(']');
      } else {
        sb.append('[').append(((int[]) o)[0]).append(']');
      }
    }
    return sb.toString();
  }

  private ReaException reject(String why) {
    return rejectAt(where(), tokenOffset(), why);
  }

  /**
   * A {@code file_format_rejected} failure whose message names the field and the absolute byte
   * offset first, as every rejection of both readers does (CONTRACT section 6): {@code
   * tensors["a"].data_offsets at offset 37: why}.
   */
  private static ReaException rejectAt(String field, long at, String why) {
    return ReaException.rejected(field, at, field + " at offset " + at + ": " + why);
  }

  private ReaException loneSurrogate(String what) {
    return reject(
        "the "
            + what
            + " contains a lone UTF-16 surrogate escape (\\uD800-\\uDFFF without its pair),"
            + " which is not Unicode text");
  }

  private ReaException translate(JacksonException e) {
    String field = where();
    long at = errorOffset(e);
    return ReaException.builder(
            Constraint.FILE_FORMAT_REJECTED,
            field
                + " at offset "
                + at
                + ": invalid JSON in the header: "
                + ReaException.truncateForMessage(JacksonReasons.of(e)))
        .field(field)
        .offset(at)
        .cause(e)
        .build();
  }

  private ReaException translateConstraint(StreamConstraintsException e) {
    String why = e.getOriginalMessage();
    if (why != null && why.contains("nesting depth")) {
      // Backstop only: REA's own check fires one level earlier.
      long at = errorOffset(e);
      return ReaException.builder(
              Constraint.NESTING_LIMIT,
              "the header JSON nests deeper than the nesting limit of " + nestingLimit)
          .field(where())
          .offset(at)
          .diagnostic("limit", "nesting_limit")
          .diagnostic("limit_levels", nestingLimit)
          .cause(e)
          .build();
    }
    if (JacksonReasons.nameLengthLimit(e) >= 0) {
      return nameOverBudget(errorOffset(e));
    }
    return translate(e);
  }

  /**
   * The refusal of a name that Jackson stopped decoding at {@code maxNameLength}, the retained
   * budget ({@link SafetensorsReader#builderFor}): its decoded UTF-8 length, and so its charge, is
   * more than the whole budget. The field is the object the name is in ({@code tensors} for a
   * tensor name) and the offset is the name's opening quote. Jackson stops inside a long name
   * when its name buffer would grow past the limit, or, for a name of up to about twice the limit,
   * just after the name's closing quote; so that quote is stepped over, and then the nearest quote
   * before it that no backslash escapes is the opening one (a name holds no other).
   */
  private ReaException nameOverBudget(long stoppedAt) {
    int i = (int) Math.min(stoppedAt - PREFIX, json.length) - 1;
    if (i >= 0 && isUnescapedQuote(i)) {
      i--;
    }
    while (i > 0 && !isUnescapedQuote(i)) {
      i--;
    }
    String in = depth == 1 ? "tensors" : where();
    return budget.refusalOfAtLeast(
        budget.limit() + 1, "a name of more than " + budget.limit() + " bytes in " + in, in, PREFIX + i);
  }

  /** @return whether {@code json[i]} is a quote after an even number of backslashes */
  private boolean isUnescapedQuote(int i) {
    if (json[i] != '"') {
      return false;
    }
    int slashes = 0;
    while (i - 1 - slashes >= 0 && json[i - 1 - slashes] == '\\') {
      slashes++;
    }
    return slashes % 2 == 0;
  }

  private long errorOffset(JacksonException e) {
    TokenStreamLocation loc = e.getLocation();
    long b = loc == null ? -1 : loc.getByteOffset();
    if (b < 0) {
      b = p.currentLocation().getByteOffset();
    }
    int i = (int) Math.max(0, Math.min(b, json.length));
    // Jackson points at the last byte it read; step back to the start of that character.
    for (int k = 0; k < 3 && i > 0 && i < json.length && (json[i] & 0xC0) == 0x80; k++) {
      i--;
    }
    return PREFIX + i;
  }

  /**
   * @return the length of {@code s} in the Evidence JSON, without quotes: its UTF-8 length plus
   *     what escaping adds ({@link JsonText}); or -1 when it holds a lone surrogate
   */
  private long escapedLength(String s) {
    long n = 0;
    int len = s.length();
    for (int i = 0; i < len; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n += 1 + JsonText.escapeExtra(c);
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c)) {
        if (i + 1 < len && Character.isLowSurrogate(s.charAt(i + 1))) {
          n += 4;
          i++;
          sawSurrogatePair = true;
        } else {
          return -1;
        }
      } else if (Character.isLowSurrogate(c)) {
        return -1;
      } else {
        n += 3;
      }
    }
    return n;
  }

  /**
   * Receives a JSON string value in chunks ({@code JsonParser.readString(Writer)}, which never
   * holds the whole value) and measures it as the Evidence JSON writes it: its {@link
   * #escapedLength()} (UTF-8 bytes plus what escaping adds, as {@link JsonText#escapedLength}),
   * whether it holds a lone surrogate (the test of {@link Utf8#findLoneSurrogate}, carried across
   * chunk boundaries) and whether it holds a surrogate pair. Its text is kept only while that
   * length stays within {@code keepBytes}: a value the retained budget will refuse is measured
   * without being expanded (specification, "Bounds and unsupported inputs": the budget applies
   * "before retaining rows or expanding strings").
   */
  static final class StringSizer extends java.io.Writer {
    private long keepBytes;
    /** The kept text: compact (a byte per character) while Latin-1, and never over keepBytes. */
    private final StringBuilder kept = new StringBuilder();
    private boolean keeping;
    private long escaped;
    private boolean pendingHigh;
    private boolean lone;
    private boolean pair;

    /**
     * @param keepBytes the largest {@link #escapedLength()} whose text is kept; negative to keep
     *     nothing
     */
    StringSizer(long keepBytes) {
      reset(keepBytes);
    }

    /** Forgets the last value, to measure the next one; @return this */
    StringSizer reset(long keepBytes) {
      this.keepBytes = keepBytes;
      keeping = keepBytes >= 0;
      kept.setLength(0);
      if (kept.capacity() > 4096) {
        kept.trimToSize(); // a long value's buffer is not kept for the next, short one
      }
      escaped = 0;
      pendingHigh = false;
      lone = false;
      pair = false;
      return this;
    }

    @Override
    public void write(char[] cbuf, int off, int len) {
      for (int i = off; i < off + len; i++) {
        char ch = cbuf[i];
        if (pendingHigh) {
          pendingHigh = false;
          if (Character.isLowSurrogate(ch)) {
            escaped += 4;
            pair = true;
            continue;
          }
          lone = true;
          escaped += 3;
        }
        if (ch < 0x80) {
          escaped += 1 + JsonText.escapeExtra(ch);
        } else if (ch < 0x800) {
          escaped += 2;
        } else if (Character.isHighSurrogate(ch)) {
          pendingHigh = true;
        } else if (Character.isLowSurrogate(ch)) {
          lone = true;
          escaped += 3;
        } else {
          escaped += 3;
        }
      }
      if (keeping) {
        // A pending high surrogate counts its 3 bytes now: with its low one it makes 4.
        if (escapedLength() > keepBytes) {
          keeping = false;
          kept.setLength(0);
          kept.trimToSize();
        } else {
          kept.append(cbuf, off, len);
        }
      }
    }

    @Override
    public void write(String str, int off, int len) {
      write(str.substring(off, off + len).toCharArray(), 0, len);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}

    /** @return true when a surrogate without its partner was seen (including a final high) */
    boolean lone() {
      return lone || pendingHigh;
    }

    /** @return true when a surrogate pair was seen */
    boolean sawPair() {
      return pair;
    }

    /**
     * @return the value's length in bytes in the Evidence JSON, without quotes (a lone surrogate
     *     counts three bytes, as in {@link JsonText#escapedLength}); meaningful for the whole
     *     value once it has been written
     */
    long escapedLength() {
      return escaped + (pendingHigh ? 3 : 0);
    }

    /** @return true when the text was kept: its escaped length stayed within {@code keepBytes} */
    boolean kept() {
      return keeping;
    }

    /** @return the kept characters (empty when not {@link #kept()}); valid until reset */
    CharSequence keptText() {
      return kept;
    }

    /** @return the value, or null when its escaped length went over {@code keepBytes} */
    @Nullable String text() {
      return keeping ? kept.toString() : null;
    }
  }


  /** Unsigned high 64 bits of a 128-bit product (Math.unsignedMultiplyHigh is Java 18). */
  static long unsignedMultiplyHigh(long a, long b) {
    return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
  }

  /** A JSON-style quoted, truncated rendering of file text for paths and messages. */
  static String quote(String s) {
    String t = ReaException.truncateForMessage(s);
    StringBuilder sb = new StringBuilder(t.length() + 2).append('"');
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20 || c == 0x7F || (c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE)) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.append('"').toString();
  }

  private static String shapeText(long[] shape) {
    StringBuilder sb = new StringBuilder("[");
    int shown = Math.min(shape.length, SHOWN_DIMS);
    for (int i = 0; i < shown; i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(Long.toUnsignedString(shape[i]));
    }
    if (shape.length > shown) {
      sb.append(", ... (").append(shape.length).append(" dimensions)");
    }
    return sb.append(']').toString();
  }

  private static String describe(@Nullable JsonToken t) {
    if (t == null) {
      return "the end of the header";
    }
    switch (t) {
      case START_OBJECT:
        return "an object";
      case START_ARRAY:
        return "an array";
      case VALUE_STRING:
        return "a string";
      case VALUE_NUMBER_INT:
        return "an integer";
      case VALUE_NUMBER_FLOAT:
        return "a number with a fraction or exponent";
      case VALUE_TRUE:
      case VALUE_FALSE:
        return "a boolean";
      case VALUE_NULL:
        return "null";
      default:
        return t.name();
    }
  }

  private static String hex(byte b) {
    return String.format("%02x", b & 0xFF);
  }
}
