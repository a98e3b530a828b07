package dev.rea.core.internal.format.safetensors;

import static dev.rea.core.internal.format.safetensors.HeaderFailures.describe;
import static dev.rea.core.internal.io.FieldPath.quote;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.internal.evidence.AssembledHeader;
import dev.rea.core.internal.evidence.Derivations;
import dev.rea.core.internal.evidence.RecordAssembler;
import dev.rea.core.internal.evidence.TensorType;
import dev.rea.core.internal.format.ReadContext;
import dev.rea.core.internal.io.FieldPath;
import dev.rea.core.internal.io.JsonText;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonToken;

/**
 * One parse of one safetensors header JSON: the strict pre-pass ({@link HeaderPrescan}), the
 * token walk over {@link HeaderLexer} with REA's checks, the storage and range checks ({@link HeaderRanges}) and,
 * only when all of that passed, the record's parts from the {@link RecordAssembler}, which the
 * walk asks before it retains anything and hands each entry once whole. The field path ({@link
 * FieldPath}) it keeps as it walks names every failure: {@code header}, {@code
 * __metadata__["k"]}, {@code tensors["a"].shape[1]}, {@code tensors["a"]["x"][0]}.
 * Package-private; see {@link SafetensorsReader} for the rules. Not thread-safe (one instance per
 * read).
 */
final class HeaderParse {
  private static final long PREFIX = SafetensorsReader.PREFIX_BYTES;
  private static final String METADATA_KEY = "__metadata__";

  private static final int F_DTYPE = 1;
  private static final int F_SHAPE = 2;
  private static final int F_OFFSETS = 4;

  private final byte[] json;
  private final long fileSize;
  private final int nestingLimit;
  private final FieldPath path = FieldPath.of("header");
  private final RecordAssembler<SafetensorsTensor> asm;

  private final HeaderLexer parser;
  private int depth;

  private boolean metadataSeen;
  /** True once a decoded name or key held a surrogate pair (a code point above U+FFFF). */
  private boolean sawSurrogatePair;

  /** Measures string values as they stream from the parser ({@link #retainedString}). */
  private final StringSizer sizer = new StringSizer(-1);
  /** The dtype of the last tensor whose dtype is known, tried first by {@link #readDtype}. */
  private @Nullable SafetensorsDtype lastDtype;
  /** The shape being read, reused from entry to entry. */
  private long[] scratch = new long[16];

  /** The entry being read: its dtype, shape and data_offsets as far as they were read. */
  private @Nullable TensorType entryType;
  private long[] entryShape = new long[0];
  private long entryElements;
  private long entryBegin;
  private long entryEnd;
  private long entryShapeAt;
  private long entryOffsetsAt;

  /**
   * @param json the header JSON (the {@code N} bytes after the prefix)
   * @param fileSize the file's size in bytes
   * @param ctx limits and retained budget
   */
  HeaderParse(byte[] json, long fileSize, ReadContext ctx) {
    this.json = json;
    this.fileSize = fileSize;
    this.nestingLimit = ctx.limits().nestingLimit();
    // Every name is charged to the retained budget at no less than its UTF-8 length: a name
    // longer than the budget in UTF-8 is refused before it is decoded (counted in bytes, not
    // characters, so that a name in a script of two-, three- or four-byte characters is not
    // built before it is refused).
    int nameLimit =
        (int) Math.min(Integer.MAX_VALUE, Math.max(1, ctx.limits().retainedBudgetBytes()));
    // The lexer's own nesting check is a backstop one level deeper than REA's (enter()).
    this.parser = new HeaderLexer(json, nameLimit, nestingLimit + 1);
    this.asm =
        new RecordAssembler<>(ctx.budget(), path, fileSize, RecordAssembler.RowOrder.NAME);
  }

  AssembledHeader run() throws ReaException {
    HeaderPrescan.check(json);
    try {
      walkTop(parser);
    } catch (HeaderLexer.NameTooLong e) {
      // The field is the object the name is in ("tensors" for a tensor name).
      throw asm.nameOverBudget(depth == 1 ? "tensors" : path.get(), PREFIX + e.offset);
    } catch (HeaderLexer.Syntax e) {
      throw HeaderFailures.invalidJson(e.reason, path.get(), PREFIX + e.offset);
    }
    List<SafetensorsTensor> decls = asm.tensors();
    SafetensorsTensor[] byName = decls.toArray(new SafetensorsTensor[0]);
    Comparator<String> order = nameOrder();
    Arrays.sort(byName, (a, b) -> order.compare(a.name(), b.name()));
    HeaderRanges.checkDuplicates(byName);
    HeaderRanges.checkRanges(decls, json.length, fileSize, order);
    long dataStart = PREFIX + json.length;
    asm.facts(new FormatFacts.Safetensors(json.length, dataStart));
    return asm.complete(dataStart, Arrays.asList(byName), dataStart, order);
  }

  /**
   * Code-point order. Without surrogate pairs, UTF-16 order is code-point order and {@link
   * String#compareTo} (an intrinsic) is much faster.
   */
  private Comparator<String> nameOrder() {
    return sawSurrogatePair ? Derivations::compareCodePoints : Comparator.naturalOrder();
  }

  // -----------------------------------------------------------------------------------------
  // Token walk

  private void walkTop(HeaderLexer p) throws ReaException {
    JsonToken t = p.nextToken();
    if (t != JsonToken.START_OBJECT) {
      // The pre-pass saw '{'; the lexer agrees unless something is badly wrong.
      throw reject("the header's top-level JSON value is not an object");
    }
    enter();
    while ((t = p.nextToken()) == JsonToken.PROPERTY_NAME) {
      String name = p.currentName();
      long utf8 = nameLength(p, name);
      boolean isMetadata = METADATA_KEY.equals(name);
      if (isMetadata) {
        path.reset(METADATA_KEY);
      } else {
        path.reset("tensors").key(name);
      }
      if (utf8 < 0) {
        throw loneSurrogate(isMetadata ? "key" : "tensor name");
      }
      if (isMetadata) {
        if (metadataSeen) {
          throw reject(
              "duplicate top-level key \"__metadata__\" (keys are compared after unescaping;"
                  + " safetensors keys must be unique)");
        }
        metadataSeen = true;
        walkMetadata(p);
      } else {
        // The tensor row and its name are retained. Duplicate tensor names are found after the
        // walk, on the sorted names.
        long nameAt = tokenOffset();
        asm.chargeRowAndName(utf8, nameAt);
        walkTensor(p, name, nameAt, utf8);
      }
      path.reset("header");
    }
    // The lexer only returns END_OBJECT here.
    exit();
    // Only JSON whitespace may follow; checked on the bytes so the offset is exact.
    long end = p.offset();
    for (int i = (int) end; i < json.length; i++) {
      if (!HeaderPrescan.isJsonSpace(json[i])) {
        throw HeaderFailures.reject(
            "header",
            PREFIX + i,
            "the header has content after its JSON object (only space, tab, CR and LF may"
                + " follow)");
      }
    }
  }

  private void walkMetadata(HeaderLexer p) throws ReaException {
    JsonToken t = p.nextToken();
    if (t == JsonToken.VALUE_NULL) {
      return; // null means omitted
    }
    if (t != JsonToken.START_OBJECT) {
      throw reject("__metadata__ must be an object of string values or null, found " + describe(t));
    }
    enter();
    HashSet<String> keys = new HashSet<>();
    while ((t = p.nextToken()) == JsonToken.PROPERTY_NAME) {
      String k = p.currentName();
      path.truncate(1).key(k);
      long klen = nameLength(p, k);
      if (klen < 0) {
        throw loneSurrogate("key");
      }
      asm.chargeRowAndName(klen, tokenOffset());
      if (!keys.add(k)) {
        throw reject(
            "duplicate __metadata__ key " + quote(k) + " (keys are compared after unescaping)");
      }
      t = p.nextToken();
      if (t != JsonToken.VALUE_STRING) {
        throw reject(
            "__metadata__ values must be strings, found "
                + describe(t)
                + (t == JsonToken.START_OBJECT ? " (a tensor cannot be named __metadata__)" : ""));
      }
      String v = retainedString(p, "value");
      asm.metadata(
          new MetadataRow(keys.size() - 1, k, ValueType.STRING, new MetadataValue.StringValue(v)),
          tokenOffset());
      path.truncate(1);
    }
    exit();
  }

  private void walkTensor(HeaderLexer p, String name, long nameAt, long nameEscaped)
      throws ReaException {
    JsonToken t = p.nextToken();
    if (t != JsonToken.START_OBJECT) {
      throw reject(
          "a tensor entry must be an object with dtype, shape and data_offsets, found "
              + describe(t));
    }
    enter();
    entryType = null;
    int seen = 0;
    HashSet<String> extraKeys = null;
    while ((t = p.nextToken()) == JsonToken.PROPERTY_NAME) {
      int bit;
      String k;
      if (p.textPlain()) {
        // The three fields are matched on the bytes; only another key is decoded.
        bit = fieldBit(p);
        k = bit == 0 ? p.currentName() : fieldName(bit);
      } else {
        k = p.currentName();
        bit = fieldBit(k);
      }
      if (bit != 0) {
        path.truncate(2).name(k);
        if ((seen & bit) != 0) {
          throw reject("duplicate field " + k + " (keys are compared after unescaping)");
        }
        seen |= bit;
      } else {
        path.truncate(2).key(k);
        if (extraKeys == null) {
          extraKeys = new HashSet<>();
        }
        keepExtraKey(k, extraKeys);
      }
      readField(p, bit);
      path.truncate(2);
    }
    exit();
    if (seen != (F_DTYPE | F_SHAPE | F_OFFSETS)) {
      // Reported at the entry's closing brace, where the field was due.
      String missing =
          (seen & F_DTYPE) == 0 ? "dtype" : (seen & F_SHAPE) == 0 ? "shape" : "data_offsets";
      throw HeaderFailures.reject(
          path.name(missing).get(),
          tokenOffset(),
          "the entry ends without " + missing + " (dtype, shape and data_offsets are required)");
    }
    TensorType type = entryType;
    if (type == null) {
      throw new IllegalStateException("an entry with a dtype has no type");
    }
    SafetensorsTensor d =
        new SafetensorsTensor(
            asm.tensors().size(),
            name,
            type,
            entryShape,
            entryElements,
            entryBegin,
            entryEnd,
            nameAt,
            entryShapeAt,
            entryOffsetsAt);
    SafetensorsDtype known = d.dtype();
    if (known != null) {
      HeaderRanges.checkStorage(d, known);
    }
    // The row's index (name order) is not known yet: the assembler charges the widest.
    asm.chargeRowAfterParts(d, nameEscaped, PREFIX + json.length + d.begin(), nameAt);
    asm.chargeTypeShares(d, nameAt);
    asm.tensor(d, tokenOffset());
  }

  private static int fieldBit(HeaderLexer p) {
    return p.nameIs("dtype")
        ? F_DTYPE
        : p.nameIs("shape") ? F_SHAPE : p.nameIs("data_offsets") ? F_OFFSETS : 0;
  }

  private static String fieldName(int bit) {
    return bit == F_DTYPE ? "dtype" : bit == F_SHAPE ? "shape" : "data_offsets";
  }

  private static int fieldBit(String k) {
    switch (k) {
      case "dtype":
        return F_DTYPE;
      case "shape":
        return F_SHAPE;
      case "data_offsets":
        return F_OFFSETS;
      default:
        return 0;
    }
  }

  /** An unknown key of a tensor entry, held (charged) while the entry is read for duplicates. */
  private void keepExtraKey(String k, HashSet<String> extraKeys) throws ReaException {
    long klen = nameLength(parser, k);
    if (klen < 0) {
      throw loneSurrogate("key");
    }
    asm.chargeString(klen, tokenOffset());
    if (!extraKeys.add(k)) {
      throw reject("duplicate key " + quote(k) + " (keys are compared after unescaping)");
    }
  }

  private void readField(HeaderLexer p, int bit) throws ReaException {
    switch (bit) {
      case F_DTYPE:
        readDtype(p);
        break;
      case F_SHAPE:
        readShape(p);
        break;
      case F_OFFSETS:
        readOffsets(p);
        break;
      default:
        skipValue(p, p.nextToken());
    }
  }

  private void readDtype(HeaderLexer p) throws ReaException {
    JsonToken t = p.nextToken();
    if (t != JsonToken.VALUE_STRING) {
      throw reject("dtype must be a string, found " + describe(t));
    }
    // Measured as it streams, never expanded past what the budget could retain (or past the
    // longest dtype name: known dtypes are matched, uncharged, even when the budget is spent).
    StringSizer sized = sizer.reset(Math.max(SafetensorsDtype.LONGEST_NAME, asm.stringRoom()));
    p.readString(sized);
    if (sized.kept()) {
      CharSequence text = sized.keptText();
      // Tensors of one file mostly share a dtype: try the last one found before the table.
      SafetensorsDtype known =
          lastDtype != null && lastDtype.spelledBy(text) ? lastDtype : SafetensorsDtype.byName(text);
      if (known != null) {
        entryType = known;
        lastDtype = known;
        return;
      }
    }
    entryType = new UnknownDtype(keep(sized, "dtype"));
  }

  private void readShape(HeaderLexer p) throws ReaException {
    JsonToken t = p.nextToken();
    if (t != JsonToken.START_ARRAY) {
      throw reject("shape must be an array of unsigned integers, found " + describe(t));
    }
    entryShapeAt = tokenOffset();
    enter();
    int count = 0;
    long product = 1;
    // The element's index is set before each token so that the lexer's errors name it too.
    path.index(0);
    while ((t = nextElement(p, count)) != JsonToken.END_ARRAY) {
      long v = readU64(p, t, "shape dimensions");
      asm.chargeDimension(tokenOffset());
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
    path.truncate(path.size() - 1);
    exit();
    entryShape = Arrays.copyOf(scratch, count);
    entryElements = product;
  }

  private void readOffsets(HeaderLexer p) throws ReaException {
    JsonToken t = p.nextToken();
    if (t != JsonToken.START_ARRAY) {
      throw reject("data_offsets must be an array of two unsigned integers, found " + describe(t));
    }
    entryOffsetsAt = tokenOffset();
    enter();
    int count = 0;
    path.index(0);
    while ((t = nextElement(p, count)) != JsonToken.END_ARRAY) {
      if (count == 2) {
        throw reject("data_offsets has more than 2 elements; exactly 2 (begin, end) are required");
      }
      long v = readU64(p, t, "data_offsets");
      if (v < 0) {
        throw reject(
            "data_offsets["
                + count
                + "] = "
                + Long.toUnsignedString(v)
                + " exceeds 2^63-1, the largest file offset REA represents");
      }
      if (count == 0) {
        entryBegin = v;
      } else {
        entryEnd = v;
        if (v < entryBegin) {
          throw reject("data_offsets end " + v + " is before begin " + entryBegin);
        }
      }
      count++;
    }
    path.truncate(path.size() - 1);
    if (count < 2) {
      throw reject(
          "data_offsets has " + count + " element(s); exactly 2 (begin, end) are required");
    }
    exit();
  }

  /** Names the element at {@code position} (the path's last index), then reads its token. */
  private JsonToken nextElement(HeaderLexer p, int position) {
    path.lastIndex(position);
    return p.nextToken();
  }

  /**
   * Takes the current token as an exact unsigned 64-bit integer (its value as the lexer read its
   * digits).
   *
   * @return the value (as unsigned bits)
   */
  private long readU64(HeaderLexer p, JsonToken t, String what) throws ReaException {
    if (t == JsonToken.VALUE_NUMBER_FLOAT) {
      throw reject(what + " must be unsigned integers, found a number with a fraction or exponent");
    }
    if (t != JsonToken.VALUE_NUMBER_INT) {
      throw reject(what + " must be unsigned integers, found " + describe(t));
    }
    if (p.negative()) {
      boolean minusZero = p.numberLength() == 2 && p.bytes()[p.tokenStart() + 1] == '0';
      throw reject(
          what + " must be unsigned integers, found " + (minusZero ? "-0" : "a negative number"));
    }
    if (!p.integerFits()) {
      throw reject(what + " must fit an unsigned 64-bit integer (at most 2^64-1)");
    }
    return p.integer();
  }

  /** Skips one value of an unknown field, with the duplicate, string and nesting checks. */
  private void skipValue(HeaderLexer p, JsonToken t) throws ReaException {
    switch (t) {
      case START_OBJECT:
        skipObject(p);
        break;
      case START_ARRAY:
        {
          enter();
          path.index(0);
          int at = 0;
          while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            skipValue(p, t);
            path.lastIndex(++at);
          }
          path.truncate(path.size() - 1);
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
        // Numbers, true, false, null: the lexer has checked their syntax.
        break;
    }
  }

  /** Skips an object of an unknown field; its keys are held only until it ends. */
  private void skipObject(HeaderLexer p) throws ReaException {
    enter();
    HashSet<String> keys = null;
    long held = 0;
    int mark = path.size();
    JsonToken t;
    while ((t = p.nextToken()) == JsonToken.PROPERTY_NAME) {
      String k = p.currentName();
      path.truncate(mark).key(k);
      long klen = nameLength(p, k);
      if (klen < 0) {
        throw loneSurrogate("key");
      }
      held += asm.holdKey(klen, tokenOffset());
      if (keys == null) {
        keys = new HashSet<>();
      }
      if (!keys.add(k)) {
        throw reject("duplicate key " + quote(k) + " (keys are compared after unescaping)");
      }
      skipValue(p, p.nextToken());
      path.truncate(mark);
    }
    asm.release(held);
    exit();
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
          .field(path.get())
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
  // Helpers

  /**
   * Reads the current string value and charges it to the budget before keeping it: its length
   * in the Evidence JSON is measured as it streams from the parser, and its text is kept only
   * while that fits what is left of the budget, so a value the budget refuses is never expanded.
   *
   * @param what names the value in a lone-surrogate refusal ({@code "value"}, {@code "dtype"})
   * @return the value, charged
   * @throws ReaException {@code file_format_rejected} for a lone surrogate; {@code
   *     retained_budget} when it does not fit
   */
  private String retainedString(HeaderLexer p, String what) throws ReaException {
    p.readString(sizer.reset(asm.stringRoom()));
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
    asm.chargeString(sized.escapedLength(), tokenOffset());
    String text = sized.text();
    if (text == null) {
      // The charge refuses every value over what was left; nothing else drops the text.
      throw new IllegalStateException("a value within the budget was not kept");
    }
    return text;
  }

  /** @return the absolute offset of the current token */
  private long tokenOffset() {
    return PREFIX + parser.tokenStart();
  }

  private ReaException reject(String why) {
    return HeaderFailures.reject(path.get(), tokenOffset(), why);
  }

  private ReaException loneSurrogate(String what) {
    return HeaderFailures.loneSurrogate(path.get(), tokenOffset(), what);
  }

  /**
   * @return the length in the Evidence JSON of the name the lexer just read, decoded as {@code
   *     name}: its raw length when it was written without escapes (the four-byte sequences it holds
   *     noted), else {@link #escapedLength}; -1 when it holds a lone surrogate
   */
  private long nameLength(HeaderLexer p, String name) {
    if (p.textPlain()) {
      sawSurrogatePair |= p.textFourByte();
      return p.textBytes();
    }
    return escapedLength(name);
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

  /** Unsigned high 64 bits of a 128-bit product (Math.unsignedMultiplyHigh is Java 18). */
  static long unsignedMultiplyHigh(long a, long b) {
    return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
  }
}
