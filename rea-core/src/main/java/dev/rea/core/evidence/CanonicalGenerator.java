package dev.rea.core.evidence;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.security.MessageDigest;
import java.util.Arrays;
import org.erdtman.jcs.NumberToJSON;
import tools.jackson.core.Base64Variant;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.SerializableString;
import tools.jackson.core.StreamWriteCapability;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.core.TreeNode;
import tools.jackson.core.Version;
import tools.jackson.core.util.JacksonFeatureSet;

/**
 * A {@link JsonGenerator} that writes the RFC 8785 (JSON Canonicalization Scheme) form of what
 * it is given, in one pass, so {@link EvidenceJson}'s writers can produce canonical bytes without
 * the text round trip of the reference implementation (serialize, then parse and re-serialize
 * with {@code org.erdtman.jcs.JsonCanonicalizer}). The output is byte for byte what that
 * reference produces from the JSON text a Jackson generator writes for the same calls:
 *
 * <ul>
 *   <li>object members sorted by their names as UTF-16 code unit sequences ({@link
 *       String#compareTo}, the reference's {@code TreeMap}); a duplicate name is an error, as in
 *       the reference;
 *   <li>strings escaped as the reference does: {@code \"}, {@code \\}, {@code \b \t \n \f \r},
 *       other characters below U+0020 as a six-character {@code u00XX} escape (lowercase hex),
 *       everything else as UTF-8;
 *   <li>numbers as the reference's ECMAScript form of the double that its parser reads from the
 *       number text ({@code Double.valueOf} of Jackson's text, then {@link
 *       NumberToJSON#serializeNumber}); integers of magnitude up to 2^53 are their decimal digits.
 * </ul>
 *
 * <p>How: every open object has a frame holding its members' encoded values in one byte buffer
 * and their names and byte ranges; when the object ends, its members are written sorted into
 * the enclosing frame (or the output). Arrays and scalars are written in place. Frame buffers are
 * reused by depth, so a record costs about one copy of its bytes per object level.
 *
 * <p>Only the calls a JSON writer of trees needs are supported (start/end object and array,
 * names, strings, numbers, booleans, null); raw, binary, POJO and tree writes throw {@link
 * UnsupportedOperationException}. Not thread-safe; one document per instance.
 */
final class CanonicalGenerator extends JsonGenerator {
  private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
  private static final byte[] NULL = {'n', 'u', 'l', 'l'};
  private static final long EXACT_INTEGER = 1L << 53;

  /** One open object: member values in {@code buf}, names and value ranges beside. */
  private static final class Frame {
    byte[] buf = new byte[256];
    int len;
    String[] names = new String[16];
    int[] starts = new int[16];
    int[] ends = new int[16];
    int count;
    // Reused scratch for sorting.
    int[] order = new int[16];
    // The member names (same String instances) and order of the last object sorted at this
    // depth: consecutive rows of one kind are written with the same literal names.
    String[] lastNames = new String[0];
    int[] lastOrder = new int[0];
    // The encoded names of lastNames ("name" with quotes and escapes), by position.
    byte[][] lastNameBytes = new byte[0][];

    void reset() {
      len = 0;
      count = 0;
    }
  }

  // Output when no object is open (the top-level value is written here).
  private byte[] out = new byte[1024];
  private int outLen;

  // Open containers, innermost last: true for objects.
  private boolean[] isObject = new boolean[32];
  private int[] elementCount = new int[32];
  private int depth;

  // Object frames by object depth.
  private Frame[] frames = new Frame[8];
  private int objectDepth;

  private boolean expectValueAfterName;
  private boolean closed;

  CanonicalGenerator() {}

  /** @return the canonical bytes written so far (the whole document once it is complete) */
  byte[] toByteArray() {
    checkComplete();
    return Arrays.copyOf(out, outLen);
  }

  /** Feeds the canonical bytes into {@code digest}. */
  void digestInto(MessageDigest digest) {
    checkComplete();
    digest.update(out, 0, outLen);
  }

  private void checkComplete() {
    if (sink != null && objectDepth == 0) {
      out = sink;
      outLen = sinkLen;
    }
    if (depth != 0 || expectValueAfterName) {
      throw new IllegalStateException("the JSON document is not complete");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Byte sinks

  /** The buffer values are written to now: the innermost open object's, or the output. */
  private byte[] sink;

  private int sinkLen;

  private void syncSinkOut() {
    // Store the current sink length back to its owner.
    if (objectDepth == 0) {
      outLen = sinkLen;
      out = sink;
    } else {
      Frame f = frames[objectDepth - 1];
      f.len = sinkLen;
      f.buf = sink;
    }
  }

  private void loadSink() {
    if (objectDepth == 0) {
      sink = out;
      sinkLen = outLen;
    } else {
      Frame f = frames[objectDepth - 1];
      sink = f.buf;
      sinkLen = f.len;
    }
  }

  private void ensure(int more) {
    if (sink == null) {
      loadSink();
    }
    if (sinkLen + more > sink.length) {
      long want = Math.max((long) sink.length * 2, (long) sinkLen + more);
      if (want > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException("canonical JSON larger than 2 GiB");
      }
      sink = Arrays.copyOf(sink, (int) want);
    }
  }

  private void put(byte b) {
    ensure(1);
    sink[sinkLen++] = b;
  }

  private void put(byte[] b) {
    ensure(b.length);
    System.arraycopy(b, 0, sink, sinkLen, b.length);
    sinkLen += b.length;
  }

  private void putAscii(String s) {
    int n = s.length();
    ensure(n);
    for (int i = 0; i < n; i++) {
      sink[sinkLen++] = (byte) s.charAt(i);
    }
  }

  /** @return the encoded JSON string (quotes included) */
  private byte[] encodeString(String s) {
    byte[] savedSink = sink;
    int savedLen = sinkLen;
    sink = new byte[s.length() * 6 + 2];
    sinkLen = 0;
    putString(s);
    byte[] r = Arrays.copyOf(sink, sinkLen);
    sink = savedSink;
    sinkLen = savedLen;
    return r;
  }

  /**
   * Writes a JSON string with the reference's escaping, encoded as UTF-8. Fast path: the JDK's
   * UTF-8 encoding when no byte needs an escape and none is {@code '?'} (which the JDK also
   * writes for a lone surrogate, refused below).
   */
  private void putString(String s) {
    byte[] u = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    boolean plain = true;
    for (byte x : u) {
      if (x >= 0 && (x < 0x20 || x == '"' || x == '\\' || x == '?')) {
        plain = false;
        break;
      }
    }
    if (plain) {
      ensure(u.length + 2);
      sink[sinkLen++] = '"';
      System.arraycopy(u, 0, sink, sinkLen, u.length);
      sinkLen += u.length;
      sink[sinkLen++] = '"';
      return;
    }
    putStringByChar(s);
  }

  private void putStringByChar(String s) {
    int n = s.length();
    ensure(n * 6 + 2);
    byte[] b = sink;
    int p = sinkLen;
    b[p++] = '"';
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        if (c >= 0x20 && c != '"' && c != '\\') {
          b[p++] = (byte) c;
          continue;
        }
        b[p++] = '\\';
        switch (c) {
          case '"':
          case '\\':
            b[p++] = (byte) c;
            break;
          case '\b':
            b[p++] = 'b';
            break;
          case '\t':
            b[p++] = 't';
            break;
          case '\n':
            b[p++] = 'n';
            break;
          case '\f':
            b[p++] = 'f';
            break;
          case '\r':
            b[p++] = 'r';
            break;
          default:
            b[p++] = 'u';
            b[p++] = '0';
            b[p++] = '0';
            b[p++] = HEX[c >> 4];
            b[p++] = HEX[c & 0xF];
        }
      } else if (c < 0x800) {
        b[p++] = (byte) (0xC0 | (c >> 6));
        b[p++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isSurrogate(c)) {
        char d = i + 1 < n ? s.charAt(i + 1) : 0;
        if (!Character.isHighSurrogate(c) || !Character.isLowSurrogate(d)) {
          // Jackson refuses to write a lone surrogate, so the reference path fails too.
          throw new IllegalArgumentException(
              "lone surrogate U+" + Integer.toHexString(c).toUpperCase() + " in a string");
        }
        int cp = Character.toCodePoint(c, d);
        i++;
        b[p++] = (byte) (0xF0 | (cp >> 18));
        b[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
        b[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
        b[p++] = (byte) (0x80 | (cp & 0x3F));
      } else {
        b[p++] = (byte) (0xE0 | (c >> 12));
        b[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        b[p++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    b[p++] = '"';
    sinkLen = p;
  }

  // ---------------------------------------------------------------------------------------------
  // Structure

  /** Called before every value: array commas, name bookkeeping. */
  private void beforeValue() {
    if (closed) {
      throw new IllegalStateException("generator closed");
    }
    if (depth > 0 && isObject[depth - 1]) {
      if (!expectValueAfterName) {
        throw new IllegalStateException("a value in an object needs a name first");
      }
      expectValueAfterName = false;
    } else {
      if (depth == 0 && (sink == null ? outLen : sinkLen) > 0) {
        throw new IllegalStateException("only one top-level value");
      }
      if (depth > 0) {
        if (elementCount[depth - 1]++ > 0) {
          put((byte) ',');
        }
      }
    }
  }

  private void pushContainer(boolean object) {
    if (depth == isObject.length) {
      isObject = Arrays.copyOf(isObject, depth * 2);
      elementCount = Arrays.copyOf(elementCount, depth * 2);
    }
    isObject[depth] = object;
    elementCount[depth] = 0;
    depth++;
  }

  @Override
  public JsonGenerator writeStartObject() {
    beforeValue();
    if (sink == null) {
      loadSink();
    }
    syncSinkOut();
    pushContainer(true);
    if (objectDepth == frames.length) {
      frames = Arrays.copyOf(frames, objectDepth * 2);
    }
    Frame f = frames[objectDepth];
    if (f == null) {
      f = new Frame();
      frames[objectDepth] = f;
    }
    f.reset();
    objectDepth++;
    loadSink();
    return this;
  }

  @Override
  public JsonGenerator writeStartObject(Object forValue) {
    return writeStartObject();
  }

  @Override
  public JsonGenerator writeStartObject(Object forValue, int size) {
    return writeStartObject();
  }

  @Override
  public JsonGenerator writeName(String name) {
    if (depth == 0 || !isObject[depth - 1] || expectValueAfterName) {
      throw new IllegalStateException("a name is only allowed in an object, before its value");
    }
    if (sink == null) {
      loadSink();
    }
    Frame f = frames[objectDepth - 1];
    closeMember(f);
    if (f.count == f.names.length) {
      int n = f.count * 2;
      f.names = Arrays.copyOf(f.names, n);
      f.starts = Arrays.copyOf(f.starts, n);
      f.ends = Arrays.copyOf(f.ends, n);
      f.order = new int[n];
    }
    f.names[f.count] = name;
    f.starts[f.count] = sinkLen;
    f.ends[f.count] = -1;
    f.count++;
    expectValueAfterName = true;
    return this;
  }

  private void closeMember(Frame f) {
    if (f.count > 0 && f.ends[f.count - 1] < 0) {
      f.ends[f.count - 1] = sinkLen;
    }
  }

  @Override
  public JsonGenerator writeEndObject() {
    if (depth == 0 || !isObject[depth - 1] || expectValueAfterName) {
      throw new IllegalStateException("no object to end here");
    }
    Frame f = frames[objectDepth - 1];
    closeMember(f);
    syncSinkOut();
    depth--;
    objectDepth--;
    loadSink();
    int n = f.count;
    int[] order = f.order;
    boolean same = n == f.lastNames.length;
    for (int i = 0; same && i < n; i++) {
      same = f.names[i] == f.lastNames[i];
    }
    if (same) {
      System.arraycopy(f.lastOrder, 0, order, 0, n);
    } else {
      for (int i = 0; i < n; i++) {
        order[i] = i;
      }
      sortByName(f.names, order, n);
    }
    if (!same) {
      for (int k = 1; k < n; k++) {
        if (f.names[order[k]].equals(f.names[order[k - 1]])) {
          throw new UncheckedIOException(
              new IOException("Duplicate property: " + f.names[order[k]]));
        }
      }
      // Remember this object's names, order and encoded names (no duplicates, checked above).
      f.lastNames = Arrays.copyOf(f.names, n);
      f.lastOrder = Arrays.copyOf(order, n);
      f.lastNameBytes = new byte[n][];
      for (int i = 0; i < n; i++) {
        f.lastNameBytes[i] = encodeString(f.names[i]);
      }
    }
    byte[][] nameBytes = f.lastNameBytes;
    int size = 2 + n;
    for (int i = 0; i < n; i++) {
      size += f.ends[i] - f.starts[i] + nameBytes[i].length + 1;
    }
    ensure(size);
    byte[] b = sink;
    int p = sinkLen;
    b[p++] = '{';
    for (int k = 0; k < n; k++) {
      int i = order[k];
      if (k > 0) {
        b[p++] = ',';
      }
      byte[] name = nameBytes[i];
      System.arraycopy(name, 0, b, p, name.length);
      p += name.length;
      b[p++] = ':';
      int len = f.ends[i] - f.starts[i];
      System.arraycopy(f.buf, f.starts[i], b, p, len);
      p += len;
    }
    b[p++] = '}';
    sinkLen = p;
    f.reset();
    return this;
  }

  /** Stable sort of {@code order[0, n)} by name (UTF-16 code units), insertion sort when small. */
  private static void sortByName(String[] names, int[] order, int n) {
    if (n <= 24) {
      for (int i = 1; i < n; i++) {
        int v = order[i];
        String key = names[v];
        int j = i - 1;
        while (j >= 0 && names[order[j]].compareTo(key) > 0) {
          order[j + 1] = order[j];
          j--;
        }
        order[j + 1] = v;
      }
      return;
    }
    Integer[] boxed = new Integer[n];
    for (int i = 0; i < n; i++) {
      boxed[i] = order[i];
    }
    Arrays.sort(boxed, (a, b) -> names[a].compareTo(names[b]));
    for (int i = 0; i < n; i++) {
      order[i] = boxed[i];
    }
  }

  @Override
  public JsonGenerator writeStartArray() {
    beforeValue();
    put((byte) '[');
    pushContainer(false);
    return this;
  }

  @Override
  public JsonGenerator writeStartArray(Object forValue) {
    return writeStartArray();
  }

  @Override
  public JsonGenerator writeStartArray(Object forValue, int size) {
    return writeStartArray();
  }

  @Override
  public JsonGenerator writeEndArray() {
    if (depth == 0 || isObject[depth - 1]) {
      throw new IllegalStateException("no array to end here");
    }
    depth--;
    put((byte) ']');
    return this;
  }

  // ---------------------------------------------------------------------------------------------
  // Scalars

  @Override
  public JsonGenerator writeString(String text) {
    if (text == null) {
      return writeNull();
    }
    beforeValue();
    putString(text);
    return this;
  }

  /**
   * Writes the JSON string of an unsigned 64-bit value in decimal: the same bytes as {@code
   * writeString(Long.toUnsignedString(value))}, without the String.
   */
  void writeUnsignedDecimalString(long value) {
    beforeValue();
    if (value < 0) {
      putString(Long.toUnsignedString(value));
      return;
    }
    ensure(22);
    byte[] b = sink;
    int digits = 1;
    for (long v = value; v >= 10; v /= 10) {
      digits++;
    }
    int p = sinkLen;
    b[p] = '"';
    int end = p + digits;
    long v = value;
    for (int i = end; i > p; i--) {
      b[i] = (byte) ('0' + (int) (v % 10));
      v /= 10;
    }
    b[end + 1] = '"';
    sinkLen = end + 2;
  }

  @Override
  public JsonGenerator writeString(char[] buffer, int offset, int len) {
    return writeString(new String(buffer, offset, len));
  }

  @Override
  public JsonGenerator writeString(SerializableString text) {
    return writeString(text.getValue());
  }

  @Override
  public JsonGenerator writeName(SerializableString name) {
    return writeName(name.getValue());
  }

  @Override
  public JsonGenerator writeNumber(short v) {
    return writeNumber((long) v);
  }

  @Override
  public JsonGenerator writeNumber(int v) {
    return writeNumber((long) v);
  }

  @Override
  public JsonGenerator writeNumber(long v) {
    beforeValue();
    if (v > -EXACT_INTEGER && v < EXACT_INTEGER) {
      // The reference reads the digits as a double, exact here, and prints an integer below
      // 10^21 as its digits.
      putAscii(Long.toString(v));
    } else {
      putAscii(es6((double) v));
    }
    return this;
  }

  @Override
  public JsonGenerator writeNumber(BigInteger v) {
    if (v == null) {
      return writeNull();
    }
    beforeValue();
    putAscii(es6(Double.parseDouble(v.toString())));
    return this;
  }

  @Override
  public JsonGenerator writeNumber(double v) {
    beforeValue();
    // Jackson writes Double.toString(v), which reads back as exactly v.
    putAscii(es6(v));
    return this;
  }

  @Override
  public JsonGenerator writeNumber(float v) {
    beforeValue();
    // Jackson writes Float.toString(v); the reference reads that text as a double.
    putAscii(es6(Double.parseDouble(Float.toString(v))));
    return this;
  }

  @Override
  public JsonGenerator writeNumber(BigDecimal v) {
    if (v == null) {
      return writeNull();
    }
    beforeValue();
    putAscii(es6(Double.parseDouble(v.toString())));
    return this;
  }

  @Override
  public JsonGenerator writeNumber(String encodedValue) {
    if (encodedValue == null) {
      return writeNull();
    }
    beforeValue();
    putAscii(es6(Double.parseDouble(encodedValue)));
    return this;
  }

  private static String es6(double d) {
    try {
      return NumberToJSON.serializeNumber(d);
    } catch (IOException e) {
      throw new UncheckedIOException("JSON could not be canonicalized", e);
    }
  }

  @Override
  public JsonGenerator writeBoolean(boolean state) {
    beforeValue();
    put(state ? TRUE : FALSE);
    return this;
  }

  @Override
  public JsonGenerator writeNull() {
    beforeValue();
    put(NULL);
    return this;
  }

  // ---------------------------------------------------------------------------------------------
  // Unsupported writes

  private static UnsupportedOperationException unsupported(String what) {
    return new UnsupportedOperationException(what + " is not supported by the canonical writer");
  }

  @Override
  public JsonGenerator writePropertyId(long id) {
    throw unsupported("writePropertyId");
  }

  @Override
  public JsonGenerator writeString(Reader reader, int len) {
    throw unsupported("writeString(Reader)");
  }

  @Override
  public JsonGenerator writeRawUTF8String(byte[] buffer, int offset, int len) {
    throw unsupported("writeRawUTF8String");
  }

  @Override
  public JsonGenerator writeUTF8String(byte[] buffer, int offset, int len) {
    throw unsupported("writeUTF8String");
  }

  @Override
  public JsonGenerator writeRaw(String text) {
    throw unsupported("writeRaw");
  }

  @Override
  public JsonGenerator writeRaw(String text, int offset, int len) {
    throw unsupported("writeRaw");
  }

  @Override
  public JsonGenerator writeRaw(char[] text, int offset, int len) {
    throw unsupported("writeRaw");
  }

  @Override
  public JsonGenerator writeRaw(char c) {
    throw unsupported("writeRaw");
  }

  @Override
  public JsonGenerator writeRawValue(String text) {
    throw unsupported("writeRawValue");
  }

  @Override
  public JsonGenerator writeRawValue(String text, int offset, int len) {
    throw unsupported("writeRawValue");
  }

  @Override
  public JsonGenerator writeRawValue(char[] text, int offset, int len) {
    throw unsupported("writeRawValue");
  }

  @Override
  public JsonGenerator writeBinary(Base64Variant bv, byte[] data, int offset, int len) {
    throw unsupported("writeBinary");
  }

  @Override
  public int writeBinary(Base64Variant bv, InputStream data, int dataLength) {
    throw unsupported("writeBinary");
  }

  @Override
  public JsonGenerator writePOJO(Object pojo) {
    throw unsupported("writePOJO");
  }

  @Override
  public JsonGenerator writeTree(TreeNode rootNode) {
    throw unsupported("writeTree");
  }

  // ---------------------------------------------------------------------------------------------
  // Configuration and lifecycle

  @Override
  public Version version() {
    return Version.unknownVersion();
  }

  @Override
  public TokenStreamContext streamWriteContext() {
    throw unsupported("streamWriteContext");
  }

  @Override
  public ObjectWriteContext objectWriteContext() {
    return ObjectWriteContext.empty();
  }

  @Override
  public Object streamWriteOutputTarget() {
    return null;
  }

  @Override
  public int streamWriteOutputBuffered() {
    return -1;
  }

  @Override
  public Object currentValue() {
    return null;
  }

  @Override
  public void assignCurrentValue(Object v) {}

  @Override
  public JsonGenerator configure(StreamWriteFeature f, boolean state) {
    return this;
  }

  @Override
  public boolean isEnabled(StreamWriteFeature f) {
    return false;
  }

  @Override
  public int streamWriteFeatures() {
    return 0;
  }

  @Override
  public boolean has(StreamWriteCapability capability) {
    return false;
  }

  @Override
  public JacksonFeatureSet<StreamWriteCapability> streamWriteCapabilities() {
    return JacksonFeatureSet.fromDefaults(StreamWriteCapability.values());
  }

  @Override
  public void flush() {}

  @Override
  public boolean isClosed() {
    return closed;
  }

  @Override
  public void close() throws JacksonException {
    if (sink != null) {
      syncSinkOut();
    }
    closed = true;
  }
}
