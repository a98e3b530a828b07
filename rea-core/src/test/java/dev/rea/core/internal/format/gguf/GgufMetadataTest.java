package dev.rea.core.internal.format.gguf;

import static dev.rea.core.internal.format.gguf.GgufBuilder.ARRAY;
import static dev.rea.core.internal.format.gguf.GgufBuilder.BOOL;
import static dev.rea.core.internal.format.gguf.GgufBuilder.FLOAT32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.INT32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.STRING;
import static dev.rea.core.internal.format.gguf.GgufBuilder.UINT32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.UINT8;
import static dev.rea.core.internal.format.gguf.GgufBuilder.array;
import static dev.rea.core.internal.format.gguf.GgufBuilder.arrayDeclared;
import static dev.rea.core.internal.format.gguf.GgufBuilder.bool;
import static dev.rea.core.internal.format.gguf.GgufBuilder.boolByte;
import static dev.rea.core.internal.format.gguf.GgufBuilder.f32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.f32Bits;
import static dev.rea.core.internal.format.gguf.GgufBuilder.f64;
import static dev.rea.core.internal.format.gguf.GgufBuilder.i16;
import static dev.rea.core.internal.format.gguf.GgufBuilder.i32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.i64;
import static dev.rea.core.internal.format.gguf.GgufBuilder.i8;
import static dev.rea.core.internal.format.gguf.GgufBuilder.nested;
import static dev.rea.core.internal.format.gguf.GgufBuilder.raw;
import static dev.rea.core.internal.format.gguf.GgufBuilder.str;
import static dev.rea.core.internal.format.gguf.GgufBuilder.strBytes;
import static dev.rea.core.internal.format.gguf.GgufBuilder.stringArray;
import static dev.rea.core.internal.format.gguf.GgufBuilder.u16;
import static dev.rea.core.internal.format.gguf.GgufBuilder.u32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.u64;
import static dev.rea.core.internal.format.gguf.GgufBuilder.u8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue.ArrayValue;
import dev.rea.core.evidence.MetadataValue.BoolValue;
import dev.rea.core.evidence.MetadataValue.FloatValue;
import dev.rea.core.evidence.MetadataValue.IntegerValue;
import dev.rea.core.evidence.MetadataValue.StringValue;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.internal.format.gguf.GgufBuilder.Built;
import dev.rea.core.internal.format.gguf.GgufBuilder.Value;
import dev.rea.core.options.Limits;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Metadata rules: value types, arrays and previews, nesting, key grammar, UTF-8, alignment. */
class GgufMetadataTest {

  static void assertRejected(ReaException e, Constraint c, String field, long offset) {
    assertThat(e.constraint()).as(e.getMessage()).isEqualTo(c);
    assertThat(e.field()).as(e.getMessage()).isEqualTo(field);
    assertThat(e.offset()).as(e.getMessage()).isEqualTo(offset);
    assertThat(e.getMessage()).contains(field);
  }

  private static MetadataValue only(byte[] file) throws ReaException {
    ParsedHeader h = GgufTesting.read(file);
    assertThat(h.metadata()).hasSize(1);
    return h.metadata().get(0).value();
  }

  private static byte[] oneKv(Value v) {
    return GgufBuilder.v3().kv("k", v).bytes();
  }

  // ---------------------------------------------------------------------------------------------
  // Scalars

  @Test
  void everyScalarTypeRoundTripsAtItsExtremesInBothByteOrders() throws Exception {
    for (ByteOrder order : List.of(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN)) {
      byte[] file =
          GgufBuilder.v3()
              .order(order)
              .kv("u8", u8(255))
              .kv("i8", i8(-128))
              .kv("u16", u16(65535))
              .kv("i16", i16(-32768))
              .kv("u32", u32(4294967295L))
              .kv("i32", i32(Integer.MIN_VALUE))
              .kv("f32", f32(1.5e-3f))
              .kv("bool", bool(true))
              .kv("string", str("héllo, 日本"))
              .kv("u64", u64(-1L))
              .kv("i64", i64(Long.MIN_VALUE))
              .kv("f64", f64(-2.5e300))
              .bytes();
      List<MetadataRow> rows = GgufTesting.read(file).metadata();
      assertThat(rows)
          .extracting(MetadataRow::type)
          .containsExactly(
              ValueType.UINT8,
              ValueType.INT8,
              ValueType.UINT16,
              ValueType.INT16,
              ValueType.UINT32,
              ValueType.INT32,
              ValueType.FLOAT32,
              ValueType.BOOL,
              ValueType.STRING,
              ValueType.UINT64,
              ValueType.INT64,
              ValueType.FLOAT64);
      assertThat(rows)
          .extracting(MetadataRow::value)
          .containsExactly(
              new IntegerValue(255),
              new IntegerValue(-128),
              new IntegerValue(65535),
              new IntegerValue(-32768),
              new IntegerValue(4294967295L),
              new IntegerValue(Integer.MIN_VALUE),
              new FloatValue(1.5e-3f),
              new BoolValue(true),
              new StringValue("héllo, 日本"),
              new IntegerValue(-1L),
              new IntegerValue(Long.MIN_VALUE),
              new FloatValue(-2.5e300));
      assertThat(rows).extracting(MetadataRow::index).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
      assertThat(rows).extracting(MetadataRow::key).startsWith("u8", "i8", "u16");
    }
  }

  @Test
  void nonFiniteFloatsAndNegativeZeroAreKept() throws Exception {
    byte[] file =
        GgufBuilder.v3()
            .kv("nan", f32Bits(0x7fc00001))
            .kv("inf", f32(Float.POSITIVE_INFINITY))
            .kv("ninf", f64(Double.NEGATIVE_INFINITY))
            .kv("nzero", f32(-0.0f))
            .bytes();
    List<MetadataRow> rows = GgufTesting.read(file).metadata();
    assertThat(((FloatValue) rows.get(0).value()).value()).isNaN();
    assertThat(((FloatValue) rows.get(1).value()).value()).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(((FloatValue) rows.get(2).value()).value()).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(Double.doubleToRawLongBits(((FloatValue) rows.get(3).value()).value()))
        .isEqualTo(Double.doubleToRawLongBits(-0.0));
  }

  @Test
  void boolZeroAndOneAreAcceptedTwoIsRejected() throws Exception {
    assertThat(only(oneKv(boolByte(0)))).isEqualTo(new BoolValue(false));
    assertThat(only(oneKv(boolByte(1)))).isEqualTo(new BoolValue(true));
    Built b = GgufBuilder.v3().kv("k", boolByte(2)).build();
    assertRejected(
        GgufTesting.reject(b.bytes()),
        Constraint.FILE_FORMAT_REJECTED,
        "metadata[0].value",
        b.at("metadata[0].value"));
    Built ff = GgufBuilder.v3().kv("k", boolByte(0xFF)).build();
    assertRejected(
        GgufTesting.reject(ff.bytes()),
        Constraint.FILE_FORMAT_REJECTED,
        "metadata[0].value",
        ff.at("metadata[0].value"));
  }

  @Test
  void boolArraysAreCheckedInThePreviewAndBeyondIt() throws Exception {
    List<Value> ok = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      ok.add(bool(i % 3 == 0));
    }
    ArrayValue a = (ArrayValue) only(oneKv(array(BOOL, ok)));
    assertThat(a.count()).isEqualTo(20);
    assertThat(a.preview()).hasSize(8).startsWith(new BoolValue(true), new BoolValue(false));
    for (int bad : new int[] {3, 15}) {
      List<Value> v = new ArrayList<>(ok);
      v.set(bad, boolByte(2 + bad));
      Built b = GgufBuilder.v3().kv("k", array(BOOL, v)).build();
      String field = "metadata[0].value[" + bad + "]";
      ReaException e = GgufTesting.reject(b.bytes());
      assertRejected(e, Constraint.FILE_FORMAT_REJECTED, field, b.at(field));
      // In the preview and past it (read in bulk) alike, the message gives the byte.
      assertThat(e.getMessage()).endsWith("BOOL must be 0 or 1 but the byte is " + (2 + bad));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Value types

  @ParameterizedTest
  @ValueSource(longs = {13, 14, 255, 0x7FFFFFFFL, 0xFFFFFFFFL})
  void unknownValueTypesAreRejectedWhereTheyAreDeclared(long type) throws Exception {
    Built b = GgufBuilder.v3().kv("k", raw(type, new byte[] {1})).build();
    ReaException e = GgufTesting.reject(b.bytes());
    assertRejected(e, Constraint.FILE_FORMAT_REJECTED, "metadata[0].type", b.at("metadata[0].type"));
    assertThat(e.getMessage()).contains("unknown GGUF value type " + type);
    Built el = GgufBuilder.v3().kv("k", arrayDeclared(type, 1, List.of(), new byte[] {1})).build();
    assertRejected(
        GgufTesting.reject(el.bytes()),
        Constraint.FILE_FORMAT_REJECTED,
        "metadata[0].value.element_type",
        el.at("metadata[0].value.element_type"));
  }

  @Test
  void arraysOfEveryElementTypeKeepTheirDeclaredTypeAndCount() throws Exception {
    Value[] one = {
      u8(1), i8(-1), u16(2), i16(-2), u32(3), i32(-3), f32(0.5f), bool(true), str("s"),
      nested(1), u64(4), i64(-4), f64(0.25)
    };
    for (int t = 0; t <= 12; t++) {
      byte[] file = oneKv(array(t, one[t], one[t], one[t]));
      ArrayValue a = (ArrayValue) only(file);
      assertThat(a.elementType()).isEqualTo(ValueType.byId(t));
      assertThat(a.count()).isEqualTo(3);
      assertThat(a.preview()).hasSize(3);
      assertThat(a.previewComplete()).isTrue();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Previews

  @Test
  void previewKeepsAtMostEightElements() throws Exception {
    ArrayValue eight = (ArrayValue) only(oneKv(stringArray("t", 8)));
    assertThat(eight.previewComplete()).isTrue();
    assertThat(eight.preview()).hasSize(8);
    ArrayValue nine = (ArrayValue) only(oneKv(stringArray("t", 9)));
    assertThat(nine.previewComplete()).isFalse();
    assertThat(nine.count()).isEqualTo(9);
    assertThat(nine.preview())
        .containsExactly(
            new StringValue("t0"), new StringValue("t1"), new StringValue("t2"),
            new StringValue("t3"), new StringValue("t4"), new StringValue("t5"),
            new StringValue("t6"), new StringValue("t7"));
    ArrayValue empty = (ArrayValue) only(oneKv(array(INT32)));
    assertThat(empty.count()).isZero();
    assertThat(empty.preview()).isEmpty();
    assertThat(empty.previewComplete()).isTrue();
    // A different preview size comes from the limits.
    ParsedHeader h =
        GgufTesting.readWith(oneKv(stringArray("t", 5)), Limits.builder().previewElements(2).build())
            .header();
    ArrayValue two = (ArrayValue) h.metadata().get(0).value();
    assertThat(two.preview()).hasSize(2);
    assertThat(two.previewComplete()).isFalse();
  }

  @Test
  void largeNumericArraysAreSkippedAfterThePreview() throws Exception {
    int n = 200_000;
    byte[] body = new byte[n * 4];
    for (int i = 0; i < n; i++) {
      body[4 * i] = (byte) i;
    }
    Built b = GgufBuilder.v3().kv("k", arrayDeclared(FLOAT32, n, List.of(), body)).kv("after", u8(9)).build();
    ParsedHeader h = GgufTesting.read(b.bytes());
    ArrayValue a = (ArrayValue) h.metadata().get(0).value();
    assertThat(a.count()).isEqualTo(n);
    assertThat(a.preview()).hasSize(8);
    assertThat(h.metadata().get(1).value()).isEqualTo(new IntegerValue(9));
  }

  // ---------------------------------------------------------------------------------------------
  // Declared counts and lengths

  @Test
  void arrayCountBeyondTheFileIsRejectedAtTheCount() throws Exception {
    // 3 UINT32 elements declared, 3 present: fine. 4 declared: 4 bytes short.
    Value ok = arrayDeclared(UINT32, 3, List.of(u32(1), u32(2), u32(3)), new byte[0]);
    assertThat(((ArrayValue) only(oneKv(ok))).count()).isEqualTo(3);
    Built b =
        GgufBuilder.v3()
            .kv("k", arrayDeclared(UINT32, 4, List.of(u32(1), u32(2), u32(3)), new byte[0]))
            .build();
    assertRejected(
        GgufTesting.reject(b.bytes()),
        Constraint.FILE_FORMAT_REJECTED,
        "metadata[0].value.count",
        b.at("metadata[0].value.count"));
    // 2^64-1 strings: at least 8 bytes each, far beyond the file; nothing is allocated.
    Built huge = GgufBuilder.v3().kv("k", arrayDeclared(STRING, -1L, List.of(), new byte[0])).build();
    assertRejected(
        GgufTesting.reject(huge.bytes()),
        Constraint.FILE_FORMAT_REJECTED,
        "metadata[0].value.count",
        huge.at("metadata[0].value.count"));
  }

  @Test
  void stringLengthBeyondTheFileIsRejectedAtTheLength() throws Exception {
    // No padding after the directory, so the file ends with the string's fifth byte.
    Built b =
        GgufBuilder.v3()
            .kv("k", GgufBuilder.strDeclared(6, "abcde".getBytes()))
            .data(GgufBuilder.Data.NONE)
            .build();
    assertRejected(
        GgufTesting.reject(b.bytes()),
        Constraint.FILE_FORMAT_REJECTED,
        "metadata[0].value",
        b.at("metadata[0].value"));
    assertThat(
            only(
                GgufBuilder.v3()
                    .kv("k", GgufBuilder.strDeclared(5, "abcde".getBytes()))
                    .data(GgufBuilder.Data.NONE)
                    .bytes()))
        .isEqualTo(new StringValue("abcde"));
  }

  @Test
  void skippedStringElementWithALengthBeyondTheFileIsNamed() throws Exception {
    List<Value> v = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      v.add(str("x" + i));
    }
    v.set(17, GgufBuilder.strDeclared(1L << 40, new byte[0]));
    Built b = GgufBuilder.v3().kv("k", array(STRING, v)).build();
    assertRejected(
        GgufTesting.reject(b.bytes()),
        Constraint.FILE_FORMAT_REJECTED,
        "metadata[0].value[17]",
        b.at("metadata[0].value[17]"));
  }

  @Test
  void declaredLengthsWithinTheFileButPastTheCeilingAreResourceExhausted() throws Exception {
    byte[] big = new byte[5000];
    Arrays.fill(big, (byte) 'a');
    Built b = GgufBuilder.v3().kv("k", strBytes(big)).build();
    Limits ceiling = Limits.builder().headerCeilingBytes(4096).build();
    ReaException e = GgufTesting.rejectWith(b.bytes(), ceiling);
    assertRejected(e, Constraint.HEADER_CEILING, "metadata[0].value", b.at("metadata[0].value"));
    long end = b.at("metadata[0].value") + 8 + 5000;
    assertThat(e.diagnostics())
        .containsEntry("limit", "header_ceiling")
        .containsEntry("limit_bytes", "4096")
        .containsEntry("requested_bytes", Long.toString(end))
        .containsEntry("over_bytes", Long.toString(end - 4096));
    assertThat(e.code().wireName()).isEqualTo("resource_exhausted");
    // Same file, ceiling at exactly its header length: accepted.
    assertThat(GgufTesting.readWith(b.bytes(), Limits.builder().headerCeilingBytes(end).build()).consumed())
        .isEqualTo(end);
    // An array count past the ceiling, and a skipped string element past it.
    Built arr = GgufBuilder.v3().kv("k", arrayDeclared(UINT8, 5000, List.of(), big)).build();
    assertRejected(
        GgufTesting.rejectWith(arr.bytes(), ceiling),
        Constraint.HEADER_CEILING,
        "metadata[0].value.count",
        arr.at("metadata[0].value.count"));
    List<Value> strings = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      strings.add(strBytes(Arrays.copyOf(big, 400)));
    }
    Built sa = GgufBuilder.v3().kv("k", array(STRING, strings)).build();
    // 8 retained strings (~3.3 KB) fit; element 9's end passes 4096.
    ReaException se = GgufTesting.rejectWith(sa.bytes(), ceiling);
    assertRejected(se, Constraint.HEADER_CEILING, "metadata[0].value[9]", sa.at("metadata[0].value[9]"));
  }

  @Test
  void aFortyMegabyteStringIsRefusedByTheRetainedBudgetBeforeItIsBuilt() throws Exception {
    byte[] big = new byte[40 << 20];
    Arrays.fill(big, (byte) 'z');
    Built b = GgufBuilder.v3().kv("general.name", strBytes(big)).build();
    ReaException e = GgufTesting.reject(b.bytes());
    assertRejected(e, Constraint.RETAINED_BUDGET, "metadata[0].value", b.at("metadata[0].value") + 8);
    assertThat(e.diagnostics())
        .containsEntry("limit", "retained_budget")
        .containsEntry("limit_bytes", Long.toString(32L << 20));
    // A 1 MiB string is retained whole.
    Built ok = GgufBuilder.v3().kv("general.name", strBytes(Arrays.copyOf(big, 1 << 20))).build();
    StringValue s = (StringValue) GgufTesting.read(ok.bytes()).metadata().get(0).value();
    assertThat(s.value()).hasSize(1 << 20);
  }

  @Test
  void manyRowsExhaustASmallRetainedBudget() throws Exception {
    GgufBuilder b = GgufBuilder.v3();
    for (int i = 0; i < 100; i++) {
      b.kv("key" + i, u8(i));
    }
    byte[] file = b.bytes();
    ReaException e =
        GgufTesting.rejectWith(file, Limits.builder().retainedBudgetBytes(2000).build());
    assertThat(e.constraint()).isEqualTo(Constraint.RETAINED_BUDGET);
    assertThat(e.field()).startsWith("metadata[");
    assertThat(GgufTesting.readWith(file, Limits.defaults()).header().metadata()).hasSize(100);
  }

  // ---------------------------------------------------------------------------------------------
  // Nesting

  @Test
  void thirtyTwoArrayLevelsAreAcceptedThirtyThreeAreANestingLimit() throws Exception {
    ArrayValue v = (ArrayValue) only(oneKv(nested(32)));
    int levels = 1;
    while (v.elementType() == ValueType.ARRAY) {
      assertThat(v.count()).isEqualTo(1);
      v = (ArrayValue) v.preview().get(0);
      levels++;
    }
    assertThat(levels).isEqualTo(32);
    assertThat(v.preview()).containsExactly(new IntegerValue(7));

    Built b = GgufBuilder.v3().kv("k", nested(33)).build();
    String field = "metadata[0].value" + "[0]".repeat(31) + ".element_type";
    ReaException e = GgufTesting.reject(b.bytes());
    assertRejected(e, Constraint.NESTING_LIMIT, field, b.at(field));
    assertThat(e.code().wireName()).isEqualTo("resource_exhausted");
    assertThat(e.diagnostics()).containsEntry("limit_levels", 32).containsEntry("requested_levels", 33);
  }

  @Test
  void aLevel32ArrayDeclaringArrayElementsIsANestingLimitEvenWhenEmpty() throws Exception {
    // Level 32 declares element type ARRAY with count 0: its type already names level 33.
    Value v = arrayDeclared(ARRAY, 0, List.of(), new byte[0]);
    for (int l = 1; l < 32; l++) {
      v = array(ARRAY, v);
    }
    Built b = GgufBuilder.v3().kv("k", v).build();
    String field = "metadata[0].value" + "[0]".repeat(31) + ".element_type";
    assertRejected(GgufTesting.reject(b.bytes()), Constraint.NESTING_LIMIT, field, b.at(field));
    // The same empty array one level up (level 31 declaring level 32) is accepted.
    Value ok = arrayDeclared(ARRAY, 0, List.of(), new byte[0]);
    for (int l = 1; l < 31; l++) {
      ok = array(ARRAY, ok);
    }
    assertThat(only(oneKv(ok))).isInstanceOf(ArrayValue.class);
  }

  @Test
  void nestedArraysBeyondThePreviewAreValidatedAndSkipped() throws Exception {
    List<Value> inner = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      inner.add(array(BOOL, bool(true), bool(false)));
    }
    ArrayValue ok = (ArrayValue) only(oneKv(array(ARRAY, inner)));
    assertThat(ok.count()).isEqualTo(12);
    assertThat(ok.preview()).hasSize(8);
    assertThat(((ArrayValue) ok.preview().get(0)).preview())
        .containsExactly(new BoolValue(true), new BoolValue(false));

    inner.set(10, array(BOOL, bool(true), boolByte(5)));
    Built b = GgufBuilder.v3().kv("k", array(ARRAY, inner)).build();
    assertRejected(
        GgufTesting.reject(b.bytes()),
        Constraint.FILE_FORMAT_REJECTED,
        "metadata[0].value[10][1]",
        b.at("metadata[0].value[10][1]"));
    // A level-33 declaration beyond the preview is still a nesting limit.
    List<Value> deep = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      deep.add(nested(31));
    }
    deep.set(8, nested(32));
    Built d = GgufBuilder.v3().kv("k", array(ARRAY, deep)).build();
    String field = "metadata[0].value[8]" + "[0]".repeat(30) + ".element_type";
    assertRejected(GgufTesting.reject(d.bytes()), Constraint.NESTING_LIMIT, field, d.at(field));
  }

  // ---------------------------------------------------------------------------------------------
  // UTF-8

  @Test
  void invalidUtf8IsRejectedInValuesPreviewsAndSkippedElements() throws Exception {
    byte[][] bad = {
      {'a', (byte) 0xC0, (byte) 0xAF}, // overlong '/'
      {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, // encoded surrogate
      {'o', 'k', (byte) 0xE6, (byte) 0x97}, // cut at the end of the string
      {(byte) 0xF5, (byte) 0x80, (byte) 0x80, (byte) 0x80}, // beyond U+10FFFF
      {(byte) 0x80}, // stray continuation byte
    };
    int[] badAt = {1, 0, 2, 0, 0};
    for (int k = 0; k < bad.length; k++) {
      Built b = GgufBuilder.v3().kv("k", strBytes(bad[k])).build();
      long at = b.at("metadata[0].value") + 8 + badAt[k];
      assertRejected(GgufTesting.reject(b.bytes()), Constraint.FILE_FORMAT_REJECTED, "metadata[0].value", at);
      for (int index : new int[] {2, 40}) {
        List<Value> v = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
          v.add(str("tok" + i));
        }
        v.set(index, strBytes(bad[k]));
        Built a = GgufBuilder.v3().kv("k", array(STRING, v)).build();
        String field = "metadata[0].value[" + index + "]";
        assertRejected(
            GgufTesting.reject(a.bytes()),
            Constraint.FILE_FORMAT_REJECTED,
            field,
            a.at(field) + 8 + badAt[k]);
      }
    }
    // The same strings made valid pass.
    assertThat(only(oneKv(strBytes(new byte[] {'a', (byte) 0xC3, (byte) 0xA9}))))
        .isEqualTo(new StringValue("aé"));
    assertThat(only(oneKv(strBytes(new byte[] {(byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80}))))
        .isEqualTo(new StringValue("😀"));
  }

  @Test
  void longStringsAcrossBufferBoundariesAreValidated() throws Exception {
    // Strings larger than the 1 MiB buffer, with a 3-byte sequence across chunk edges.
    StringBuilder sb = new StringBuilder();
    while (sb.length() < (3 << 20) / 3) {
      sb.append("日");
    }
    String s = sb.toString();
    assertThat(only(oneKv(str(s)))).isEqualTo(new StringValue(s));
    List<Value> v = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      v.add(str(s));
    }
    ArrayValue a = (ArrayValue) only(oneKv(array(STRING, v)));
    assertThat(a.count()).isEqualTo(10);
    byte[] badTail = (s + "x").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    badTail[badTail.length - 1] = (byte) 0xFF;
    v.set(9, strBytes(badTail));
    Built b = GgufBuilder.v3().kv("k", array(STRING, v)).build();
    assertRejected(
        GgufTesting.reject(b.bytes()),
        Constraint.FILE_FORMAT_REJECTED,
        "metadata[0].value[9]",
        b.at("metadata[0].value[9]") + 8 + badTail.length - 1);
  }

  // ---------------------------------------------------------------------------------------------
  // Keys

  @ParameterizedTest
  @ValueSource(
      strings = {
        "a",
        "0",
        "general.architecture",
        "general.base_model.0.name",
        "gpt-oss.context_length",
        "wavtokenizer-dec.context_length",
        "tokenizer.ggml.add_bos_token",
        "a_b-c.d9"
      })
  void keysOfTheGrammarAreAcceptedAsSpelled(String key) throws Exception {
    ParsedHeader h = GgufTesting.read(GgufBuilder.v3().kv(key, u8(1)).bytes());
    assertThat(h.metadata().get(0).key()).isEqualTo(key);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "A|0", "a..b|2", ".a|0", "a.|1", "a b|1", "a/b|1", "é|0", "a-|1", "_a|0",
        "General.name|0", "a.-b|2", "ab\u0000|2"
      })
  void keysOutsideTheGrammarAreRejectedAtTheFirstBadCharacter(String spec) throws Exception {
    String key = spec.substring(0, spec.lastIndexOf('|'));
    int bad = Integer.parseInt(spec.substring(spec.lastIndexOf('|') + 1));
    Built b = GgufBuilder.v3().kv("ok", u8(0)).kv(key, u8(1)).build();
    long keyBytes = b.at("metadata[1].key") + 8;
    assertRejected(
        GgufTesting.reject(b.bytes()), Constraint.FILE_FORMAT_REJECTED, "metadata[1].key", keyBytes + bad);
  }

  @Test
  void anEmptyKeyIsRejectedAtItsLengthWhichSaysZero() throws Exception {
    Built b = GgufBuilder.v3().kv("ok", u8(0)).kv("", u8(1)).build();
    ReaException e = GgufTesting.reject(b.bytes());
    // The key has no bytes; the u64 length before them is the field's only byte range.
    assertRejected(e, Constraint.FILE_FORMAT_REJECTED, "metadata[1].key", b.at("metadata[1].key"));
    assertThat(e.getMessage()).contains("the key is empty (its length is 0)");
  }

  @Test
  void invalidUtf8InAKeyIsReportedAsUtf8() throws Exception {
    Built b = GgufBuilder.v3().kv(new byte[] {'a', (byte) 0xFF}, u8(1)).build();
    ReaException e = GgufTesting.reject(b.bytes());
    assertRejected(e, Constraint.FILE_FORMAT_REJECTED, "metadata[0].key", b.at("metadata[0].key") + 9);
    assertThat(e.getMessage()).contains("invalid UTF-8");
  }

  @Test
  void duplicateKeysAreRejectedDistinctOnesAccepted() throws Exception {
    assertThat(GgufTesting.read(GgufBuilder.v3().kv("a.b", u8(1)).kv("a.bc", u8(2)).bytes()).metadata())
        .hasSize(2);
    Built b = GgufBuilder.v3().kv("a.b", u8(1)).kv("c", u8(2)).kv("a.b", str("x")).build();
    ReaException e = GgufTesting.reject(b.bytes());
    assertRejected(e, Constraint.FILE_FORMAT_REJECTED, "metadata[2].key", b.at("metadata[2].key"));
    assertThat(e.getMessage()).contains("metadata[0]");
  }

  // ---------------------------------------------------------------------------------------------
  // Alignment

  @ParameterizedTest
  @ValueSource(longs = {8, 16, 24, 32, 40, 64, 4096})
  void alignmentsThatArePositiveMultiplesOfEightAreAccepted(long a) throws Exception {
    Built b =
        GgufBuilder.v3()
            .kv("general.architecture", str("llama"))
            .alignment(a)
            .tensor("t", 0, 2)
            .tensor("u", 0, 3)
            .build();
    ParsedHeader h = GgufTesting.read(b.bytes());
    FormatFacts.Gguf f = (FormatFacts.Gguf) h.facts();
    assertThat(f.alignment()).isEqualTo(a);
    assertThat(f.alignmentSource()).isEqualTo("metadata");
    assertThat(f.tensorDataOffset()).isEqualTo(GgufBuilder.pad(b.headerLength(), a));
    assertThat(h.tensors().get(1).offset()).isEqualTo(a <= 8 ? 8 : a);
    assertThat(h.metadata().get(1).value()).isEqualTo(new IntegerValue(a));
  }

  @Test
  void theLargestUint32MultipleOfEightIsAnAlignment() throws Exception {
    byte[] file = GgufBuilder.v3().kv("general.alignment", u32(4294967288L)).data(GgufBuilder.Data.NONE).bytes();
    FormatFacts.Gguf f = (FormatFacts.Gguf) GgufTesting.read(file).facts();
    assertThat(f.alignment()).isEqualTo(4294967288L);
    // Zero tensors and the file ends at the directory: the data offset is the directory end.
    assertThat(f.tensorDataOffset()).isEqualTo(file.length);
  }

  @ParameterizedTest
  @ValueSource(longs = {0, 1, 2, 4, 12, 13, 33, 4294967295L})
  void otherAlignmentsAreRejectedAtTheValue(long a) throws Exception {
    Built b = GgufBuilder.v3().kv("general.architecture", str("llama")).kv("general.alignment", u32(a)).build();
    ReaException e = GgufTesting.reject(b.bytes());
    assertRejected(e, Constraint.FILE_FORMAT_REJECTED, "metadata[1].value", b.at("metadata[1].value"));
    assertThat(e.getMessage()).contains("positive multiple of 8");
  }

  @Test
  void alignmentOfAnyTypeButUint32IsRejectedAtTheType() throws Exception {
    for (Value v : List.of(i32(32), u64(32), u16(32), u8(32), str("32"), f32(32f), array(UINT32, u32(32)))) {
      Built b = GgufBuilder.v3().kv("general.alignment", v).build();
      assertRejected(
          GgufTesting.reject(b.bytes()), Constraint.FILE_FORMAT_REJECTED, "metadata[0].type", b.at("metadata[0].type"));
    }
  }

  @Test
  void defaultAlignmentIs32() throws Exception {
    Built b = GgufBuilder.v3().kv("general.architecture", str("x")).tensor("t", 0, 3).tensor("u", 0, 1).build();
    ParsedHeader h = GgufTesting.read(b.bytes());
    FormatFacts.Gguf f = (FormatFacts.Gguf) h.facts();
    assertThat(f.alignment()).isEqualTo(32);
    assertThat(f.alignmentSource()).isEqualTo("default");
    assertThat(h.tensors().get(1).offset()).isEqualTo(32);
  }

  @Test
  void keysAndRowsKeepFileOrder() throws Exception {
    ParsedHeader h =
        GgufTesting.read(
            GgufBuilder.v3().kv("z", u8(1)).kv("a", u8(2)).kv("m.x", array(UINT8, u8(3))).bytes());
    assertThat(h.metadata()).extracting(MetadataRow::key).containsExactly("z", "a", "m.x");
    assertThat(h.metadata()).extracting(MetadataRow::index).containsExactly(0, 1, 2);
  }
}
