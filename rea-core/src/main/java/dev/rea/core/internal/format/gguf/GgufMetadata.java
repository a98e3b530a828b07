package dev.rea.core.internal.format.gguf;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.evidence.RecordAssembler;
import dev.rea.core.internal.io.FieldPath;
import dev.rea.core.internal.io.HeaderInput;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Reads and validates the metadata key/value pairs of a GGUF header (CONTRACT section 8 "GGUF":
 * key grammar, value types 0 to 12, BOOL 0/1, UTF-8 strings, arrays within the nesting limit,
 * {@code general.alignment} a UINT32 multiple of 8) and hands each whole pair to the {@link
 * RecordAssembler}. Arrays keep at most {@code previewElements} elements; the rest are validated
 * and skipped without creating objects. Before anything is retained the assembler is asked
 * (strings through {@link HeaderInput#string}); the field path names every failure: {@code
 * metadata[3].key}, {@code metadata[3].type}, {@code metadata[3].value[7]}, {@code
 * metadata[3].value.count}. Each top-level array is hashed in the same pass as the header
 * (its row's {@code value_sha256}: the bytes from its element type field to its last element).
 * One instance per read.
 */
final class GgufMetadata {
  /** Fewest bytes one KV pair can take: u64 key length, a 1-byte key, u32 type, 1-byte value. */
  static final long MIN_KV_BYTES = 14;

  private final HeaderInput in;
  private final FieldPath path;
  private final RecordAssembler<GgufTensor> asm;
  private final int previewLimit;
  private final int nestingLimit;

  /** The alignment, and whether {@code general.alignment} set it. */
  private long alignment = GgufReader.DEFAULT_ALIGNMENT;
  private boolean alignmentFromMetadata;

  /**
   * Hashes each top-level array value as it is read ({@link HeaderInput#openWindow}): the row's
   * {@code value_sha256} (CONTRACT section 11). Reused; {@code digest()} resets it.
   */
  private final MessageDigest arrayDigest = EvidenceIds.sha256();

  /** The count of the array whose head {@link #readArrayHead} read last. */
  private long headCount;

  GgufMetadata(
      HeaderInput in,
      FieldPath path,
      RecordAssembler<GgufTensor> asm,
      int previewLimit,
      int nestingLimit) {
    this.in = in;
    this.path = path;
    this.asm = asm;
    this.previewLimit = previewLimit;
    this.nestingLimit = nestingLimit;
  }

  /** @return the alignment in bytes: {@code general.alignment}, else the default */
  long alignment() {
    return alignment;
  }

  /** @return whether {@code general.alignment} set the alignment */
  boolean alignmentFromMetadata() {
    return alignmentFromMetadata;
  }

  /**
   * Reads {@code kvCount} pairs.
   *
   * @param directoryMinBytes fewest bytes the tensor directory after them can take (for the
   *     input's read-ahead bound)
   * @param facts called when {@code general.alignment} has been read
   */
  void read(long kvCount, long directoryMinBytes, Runnable facts) throws ReaException {
    Map<String, Integer> seen = new HashMap<>();
    for (long i = 0; i < kvCount; i++) {
      path.reset("metadata").index(i).name("key");
      in.checkCeiling();
      in.expectHeaderAtLeast(in.position() + (kvCount - i) * MIN_KV_BYTES + directoryMinBytes);
      long keyAt = in.position();
      asm.chargeValue(keyAt);
      String key = readString();
      checkKey(key, keyAt + 8);
      Integer earlier = seen.putIfAbsent(key, (int) i);
      if (earlier != null) {
        throw GgufReader.reject(
            path,
            keyAt,
            "duplicate key '"
                + ReaException.truncateForMessage(key)
                + "' (first declared by metadata["
                + earlier
                + "])");
      }

      path.truncate(2).name("type");
      long typeAt = in.position();
      ValueType type = readType(typeAt);
      boolean alignmentKey = key.equals(GgufReader.ALIGNMENT_KEY);
      if (alignmentKey && type != ValueType.UINT32) {
        throw GgufReader.reject(
            path, typeAt, GgufReader.ALIGNMENT_KEY + " must be of type UINT32 but is " + type);
      }

      path.truncate(2).name("value");
      long valueAt = in.position();
      if (type == ValueType.ARRAY) {
        asm.chargeValueDigest(valueAt);
        in.openWindow(arrayDigest);
        MetadataValue value = readArray(1);
        String sha256 = HexFormat.of().formatHex(in.closeWindow());
        asm.metadata(new MetadataRow((int) i, key, type, value, sha256), in.position());
        continue;
      }
      MetadataValue value = readScalar(type);
      if (alignmentKey) {
        setAlignment(((MetadataValue.IntegerValue) value).bits(), valueAt);
        facts.run();
      }
      asm.metadata(new MetadataRow((int) i, key, type, value), in.position());
    }
  }

  private void setAlignment(long a, long valueAt) throws ReaException {
    if (a == 0 || a % 8 != 0) {
      throw GgufReader.reject(
          path,
          valueAt,
          GgufReader.ALIGNMENT_KEY
              + " must be a positive multiple of 8 but is "
              + a
              + " (the GGUF specification requires a multiple of 8; ggml and gguf-py"
              + " also load other values)");
    }
    alignment = a;
    alignmentFromMetadata = true;
  }

  private ValueType readType(long typeAt) throws ReaException {
    long typeId = in.u32();
    ValueType type = ValueType.byId(typeId);
    if (type == null) {
      throw GgufReader.reject(
          path, typeAt, "unknown GGUF value type " + typeId + " (known: 0 to 12)");
    }
    return type;
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
      throw GgufReader.reject(
          path,
          bytesAt + i,
          "key '"
              + ReaException.truncateForMessage(key)
              + "' does not match [a-z0-9]+([._-][a-z0-9]+)* at character "
              + i);
    }
    if (prevSeparator) {
      // An empty key has no byte of its own: its length (the u64 before it) says 0.
      throw GgufReader.reject(
          path,
          n == 0 ? bytesAt - 8 : bytesAt + n - 1,
          n == 0
              ? "the key is empty (its length is 0); keys match [a-z0-9]+([._-][a-z0-9]+)*"
              : "key '"
                  + ReaException.truncateForMessage(key)
                  + "' ends with a separator; keys match [a-z0-9]+([._-][a-z0-9]+)*");
    }
  }

  /** Reads and retains a GGUF string: u64 length, then that many bytes of UTF-8. */
  private String readString() throws ReaException {
    long lengthAt = in.position();
    long len = in.i64();
    in.requireAt(len, lengthAt);
    asm.checkRetainable(len, lengthAt);
    return in.string(len, asm);
  }

  /** Reads and retains one scalar value of a non-ARRAY type. */
  private MetadataValue readScalar(ValueType type) throws ReaException {
    switch (type) {
      case UINT8:
        return new MetadataValue.IntegerValue(in.u8());
      case INT8:
        return new MetadataValue.IntegerValue((byte) in.u8());
      case UINT16:
        return new MetadataValue.IntegerValue(in.i16() & 0xFFFF);
      case INT16:
        return new MetadataValue.IntegerValue(in.i16());
      case UINT32:
        return new MetadataValue.IntegerValue(in.u32());
      case INT32:
        return new MetadataValue.IntegerValue(in.i32());
      case UINT64:
      case INT64:
        return new MetadataValue.IntegerValue(in.i64());
      case FLOAT32:
        return new MetadataValue.FloatValue(in.f32());
      case FLOAT64:
        return new MetadataValue.FloatValue(in.f64());
      case BOOL:
        {
          long at = in.position();
          int b = in.u8();
          if (b > 1) {
            throw GgufReader.reject(path, at, "BOOL must be 0 or 1 but the byte is " + b);
          }
          return new MetadataValue.BoolValue(b == 1);
        }
      case STRING:
        return new MetadataValue.StringValue(readString());
      default:
        throw new IllegalArgumentException("not a scalar type: " + type);
    }
  }

  /**
   * Reads an array's head: u32 element type, then u64 count, checked against the nesting limit
   * and against the bytes its elements need at least. Leaves the count in {@link #headCount} and
   * the field path at {@code .count}.
   *
   * @param level the array's ARRAY level, 1 for the outermost
   * @param mark the path's size at the array (where its own segment goes)
   * @return the element type
   */
  private ValueType readArrayHead(int level, int mark) throws ReaException {
    path.truncate(mark).name("element_type");
    long typeAt = in.position();
    ValueType elementType = readType(typeAt);
    if (elementType == ValueType.ARRAY && level + 1 > nestingLimit) {
      String field = path.get();
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

    path.truncate(mark).name("count");
    long countAt = in.position();
    long count = in.i64();
    long minSize = minElementBytes(elementType);
    long left = in.remaining();
    if (Long.compareUnsigned(count, left / minSize) > 0) {
      throw GgufReader.reject(
          path,
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
    headCount = count;
    return elementType;
  }

  /** Fewest bytes one element takes: its size, 8 for a string's length, 12 for an array's head. */
  private static long minElementBytes(ValueType elementType) {
    return elementType.fixedSize() > 0
        ? elementType.fixedSize()
        : (elementType == ValueType.STRING ? 8 : 12);
  }

  /**
   * Reads and retains an array value with at most {@code previewLimit} preview elements; the rest
   * are validated and skipped.
   *
   * @param level this array's ARRAY level, 1 for the outermost
   */
  private MetadataValue.ArrayValue readArray(int level) throws ReaException {
    int mark = path.size();
    long countAt = in.position() + 4;
    ValueType elementType = readArrayHead(level, mark);
    long count = headCount;
    int keep = (int) Math.min(count, previewLimit);
    List<MetadataValue> preview = keep == 0 ? List.of() : new ArrayList<>(keep);
    path.truncate(mark);
    asm.chargeValue(countAt);
    for (int j = 0; j < keep; j++) {
      path.truncate(mark).index(j);
      if (elementType != ValueType.STRING) {
        asm.chargeValue(in.position());
      }
      preview.add(
          elementType == ValueType.ARRAY ? readArray(level + 1) : readScalar(elementType));
    }
    long rest = count - keep;
    if (rest != 0) {
      path.truncate(mark).index(keep);
      skipElements(elementType, level, keep, rest);
    }
    path.truncate(mark);
    return new MetadataValue.ArrayValue(elementType, count, preview, rest == 0);
  }

  /** Validates and skips an array value whose elements are not retained. */
  private void skipArray(int level) throws ReaException {
    int mark = path.size();
    ValueType elementType = readArrayHead(level, mark);
    long count = headCount;
    if (count != 0) {
      path.truncate(mark).index(0);
      skipElements(elementType, level, 0, count);
    }
    path.truncate(mark);
  }

  /**
   * Validates and skips {@code rest} elements starting at index {@code from}, the field path
   * ending with the index {@code from}.
   */
  private void skipElements(ValueType elementType, int level, long from, long rest)
      throws ReaException {
    switch (elementType) {
      case BOOL:
        {
          long start = in.position();
          long bad = in.skipBools(rest);
          if (bad >= 0) {
            path.lastIndex(from + (bad - start));
            // skipBools stopped at the bad byte without consuming it.
            throw GgufReader.reject(path, bad, "BOOL must be 0 or 1 but the byte is " + in.u8());
          }
          return;
        }
      case STRING:
        in.skipStrings(rest);
        return;
      case ARRAY:
        int mark = path.size() - 1;
        for (long j = 0; Long.compareUnsigned(j, rest) < 0; j++) {
          path.truncate(mark).index(from + j);
          // The arrays left take 12 bytes each at least: reads may fetch that far ahead (without
          // this, reads past the first bound would fetch one field at a time).
          in.expectHeaderAtLeast(in.positionPlus(rest - j, 12));
          skipArray(level + 1);
        }
        return;
      default:
        // Fixed-size numbers: every bit pattern is valid. The count check covered the bytes.
        in.skip(rest * elementType.fixedSize());
    }
  }
}
