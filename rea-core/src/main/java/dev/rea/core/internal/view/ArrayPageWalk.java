package dev.rea.core.internal.view;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.internal.io.HeaderInput;
import dev.rea.core.view.ArrayView;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import tools.jackson.core.JsonGenerator;

/**
 * One pass over a GGUF header for {@link ArrayElementPages}: to the array row's value, through
 * its elements (keeping the page's), and on to the header's recorded end, hashing as it goes. The
 * header was validated when the Evidence was made; here nothing is trusted before both digests
 * match, so every declared count and length is bounded by the bytes left before the recorded
 * header end ({@link HeaderInput#setHeaderCeiling}) and nothing is allocated from one.
 */
final class ArrayPageWalk {
  /**
   * @param elements the page's elements as JSON, comma-separated
   * @param taken elements on the page
   * @param nextOffset first element of the next page, or -1
   * @param omitted indices of elements too large for any page (written as null)
   */
  record Result(byte[] elements, int taken, long nextOffset, long[] omitted) {}

  private final HeaderInput in;
  private final int nesting = ArrayElementPages.nestingLimit();

  private ArrayPageWalk(HeaderInput in) {
    this.in = in;
  }

  static Result read(
      HeaderInput in, EvidenceRecord record, MetadataRow row, ArrayView view, int budget)
      throws ReaException {
    long headerLength = record.artifact().headerLength();
    in.setHeaderCeiling(headerLength);
    ArrayPageWalk w = new ArrayPageWalk(in);
    Result r;
    MessageDigest arrayDigest = EvidenceIds.sha256();
    try {
      w.toValue(row.index());
      in.openWindow(arrayDigest);
      r = w.elements((MetadataValue.ArrayValue) row.value(), view, budget);
      String digest = HexFormat.of().formatHex(in.closeWindow());
      if (!digest.equals(row.valueSha256())) {
        throw ArrayElementPages.changed(
            "the array's bytes have SHA-256 " + digest + ", the Evidence's value_sha256 is "
                + row.valueSha256());
      }
      in.checkCeiling();
      in.skip(headerLength - in.position());
    } catch (ReaException e) {
      if (e.constraint() == Constraint.FILE_FORMAT_REJECTED
          || e.constraint() == Constraint.HEADER_CEILING) {
        throw ArrayElementPages.changed("its header no longer reads as recorded: " + e.getMessage());
      }
      throw e;
    }
    String header = HexFormat.of().formatHex(in.consumedDigest().digest());
    if (!header.equals(record.artifact().headerSha256())) {
      throw ArrayElementPages.changed(
          "its header has SHA-256 " + header + ", the Evidence's header_sha256 is "
              + record.artifact().headerSha256());
    }
    return r;
  }

  /** Reads the fixed header and skips the pairs before {@code index}, then the key and type. */
  private void toValue(int index) throws ReaException {
    in.skip(4); // magic
    long version = in.u32();
    if (version < 2) {
      throw in.rejectAt(4, "GGUF version " + version);
    }
    in.i64(); // tensor count
    long kvs = in.i64();
    if (Long.compareUnsigned(index, kvs) >= 0) {
      throw in.rejectAt(16, "the header declares " + Long.toUnsignedString(kvs) + " pairs");
    }
    for (int i = 0; i <= index; i++) {
      skipString();
      long type = in.u32();
      if (i == index) {
        if (type != ValueType.ARRAY.id()) {
          throw in.rejectAt(in.position() - 4, "the pair's type is " + type + ", not ARRAY");
        }
        return;
      }
      skipValue(type, 0);
    }
  }

  private void skipString() throws ReaException {
    long at = in.position();
    long len = in.i64();
    in.requireAt(len, at);
    in.skip(len);
  }

  private void skipValue(long type, int level) throws ReaException {
    ValueType t = ValueType.byId(type);
    if (t == null) {
      throw in.rejectAt(in.position() - 4, "unknown value type " + type);
    }
    if (t == ValueType.STRING) {
      skipString();
    } else if (t == ValueType.ARRAY) {
      long elementType = in.u32();
      skipElements(elementType, in.i64(), level + 1);
    } else {
      in.skip(t.fixedSize());
    }
  }

  /** Skips {@code n} elements; the count is first checked against the bytes left. */
  private void skipElements(long elementType, long n, int level) throws ReaException {
    ValueType t = ValueType.byId(elementType);
    if (t == null || level > nesting) {
      throw in.rejectAt(in.position(), "element type " + elementType + " at ARRAY level " + level);
    }
    long least = t.fixedSize() > 0 ? t.fixedSize() : (t == ValueType.STRING ? 8 : 12);
    if (Long.compareUnsigned(n, in.remaining() / least) > 0) {
      throw in.rejectAt(in.position(), Long.toUnsignedString(n) + " elements do not fit the file");
    }
    if (t.fixedSize() > 0) {
      in.skip(n * t.fixedSize());
      return;
    }
    for (long i = 0; i < n; i++) {
      skipValue(t.id(), level);
    }
  }

  /** Reads the array's head and elements: skips to the offset, keeps the page, skips the rest. */
  private Result elements(MetadataValue.ArrayValue a, ArrayView view, int budget)
      throws ReaException {
    long elementType = in.u32();
    long count = in.i64();
    if (elementType != a.elementType().id() || count != a.count()) {
      throw ArrayElementPages.changed("the array's element type or count differs from the Evidence's");
    }
    long first = Math.min(view.offset(), count);
    skipElements(elementType, first, 1);
    Page page = new Page(budget);
    long i = first;
    while (i < count && page.taken < view.limit()) {
      if (!page.add(this, a.elementType(), i)) {
        break;
      }
      i++;
    }
    skipElements(elementType, count - i, 1);
    return new Result(page.bytes.toByteArray(), page.taken, i < count ? i : -1,
        Arrays.copyOf(page.omitted, page.omittedCount));
  }

  /** Widest JSON of a non-string element: a nested array's head object, or a FLOAT64. */
  private static final int WIDEST_NON_STRING = 96;

  private static final byte[] NULL = {'n', 'u', 'l', 'l'};

  /** The elements kept so far, within the page budget. */
  private static final class Page {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final ByteArrayOutputStream one = new ByteArrayOutputStream();
    final int budget;
    final byte[] lengthBytes = new byte[8];
    int taken;
    long[] omitted = new long[4];
    int omittedCount;

    Page(int budget) {
      this.budget = budget;
    }

    /** Reads element {@code index}; false (nothing consumed) when it belongs to the next page. */
    boolean add(ArrayPageWalk w, ValueType t, long index) throws ReaException {
      int room = budget - bytes.size() - (taken > 0 ? 1 : 0);
      one.reset();
      // Decided before the element is consumed: a later page starts with it.
      if (t != ValueType.STRING && room < WIDEST_NON_STRING && taken > 0) {
        return false;
      }
      if (t == ValueType.STRING) {
        w.in.peek(lengthBytes);
        long n = w.in.order() == ByteOrder.BIG_ENDIAN
            ? ByteBuffer.wrap(lengthBytes).getLong()
            : ByteBuffer.wrap(lengthBytes).order(ByteOrder.LITTLE_ENDIAN).getLong();
        // JSON escaping makes a string at most 6 times longer, plus its quotes.
        boolean surelyFits = n >= 0 && n <= (room - 2) / 6;
        if (!surelyFits && taken > 0) {
          return false;
        }
        if (n < 0 || n + 2 > room) {
          w.skipString();
          return keep(NULL, index, true);
        }
        long at = w.in.position();
        w.in.i64();
        w.in.requireAt(n, at);
        String s = w.in.string(n, ArrayElementPages.KEEP);
        write(g -> g.writeString(s));
      } else if (t == ValueType.ARRAY) {
        long et = w.in.u32();
        long c = w.in.i64();
        ValueType inner = ValueType.byId(et);
        if (inner == null) {
          throw w.in.rejectAt(w.in.position() - 12, "unknown element type " + et);
        }
        w.skipElements(et, c, 2);
        write(g -> {
          g.writeStartObject();
          g.writeStringProperty("element_type", inner.name());
          g.writeStringProperty("count", Long.toUnsignedString(c));
          g.writeEndObject();
        });
      } else {
        MetadataValue v = scalar(w.in, t);
        write(g -> EvidenceJson.writeScalar(g, t, v));
      }
      if (one.size() > room) {
        // Only the first element of a page can get here (the checks above).
        return keep(NULL, index, true);
      }
      return keep(one.toByteArray(), index, false);
    }

    private boolean keep(byte[] json, long index, boolean omit) {
      if (taken > 0) {
        bytes.write(',');
      }
      bytes.writeBytes(json);
      taken++;
      if (omit) {
        if (omittedCount == omitted.length) {
          omitted = Arrays.copyOf(omitted, omitted.length * 2);
        }
        omitted[omittedCount++] = index;
      }
      return true;
    }

    private void write(java.util.function.Consumer<JsonGenerator> body) {
      try (JsonGenerator g = EvidenceJson.generator(one)) {
        body.accept(g);
      }
    }
  }

  /** Reads one fixed-size element as the reader does. */
  private static MetadataValue scalar(HeaderInput in, ValueType t) throws ReaException {
    return switch (t) {
      case UINT8 -> new MetadataValue.IntegerValue(in.u8());
      case INT8 -> new MetadataValue.IntegerValue((byte) in.u8());
      case UINT16 -> new MetadataValue.IntegerValue(in.i16() & 0xFFFF);
      case INT16 -> new MetadataValue.IntegerValue(in.i16());
      case UINT32 -> new MetadataValue.IntegerValue(in.u32());
      case INT32 -> new MetadataValue.IntegerValue(in.i32());
      case UINT64, INT64 -> new MetadataValue.IntegerValue(in.i64());
      case FLOAT32 -> new MetadataValue.FloatValue(in.f32());
      case FLOAT64 -> new MetadataValue.FloatValue(in.f64());
      case BOOL -> new MetadataValue.BoolValue(in.u8() == 1);
      default -> throw new IllegalArgumentException("not a fixed-size type: " + t);
    };
  }
}
