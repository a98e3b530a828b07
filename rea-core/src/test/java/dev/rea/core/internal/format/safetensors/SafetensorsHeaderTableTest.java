package dev.rea.core.internal.format.safetensors;

import static dev.rea.core.internal.format.safetensors.SafetensorsBuilder.builder;
import static dev.rea.core.internal.format.safetensors.SafetensorsBuilder.file;
import static dev.rea.core.internal.format.safetensors.SafetensorsBuilder.lastOffsetOf;
import static dev.rea.core.internal.format.safetensors.SafetensorsBuilder.offsetOf;
import static dev.rea.core.internal.format.safetensors.SafetensorsBuilder.raw;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.options.Limits;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The table of hand-built safetensors headers: every rule of the specification's safetensors
 * paragraph and CONTRACT section 8, every bad-input test of the upstream crate
 * ({@code shared/notes/safetensors-readers.md} section 4) and every row of the differential
 * table (section 5). Each case states its outcome: accepted (with the tensor count and, where it
 * matters, more checks) or rejected (constraint, field path and absolute byte offset).
 *
 * <p>{@code T} below is the upstream {@code test_deserialization} header: {@code
 * {"test":{"dtype":"I32","shape":[2,2],"data_offsets":[0,16]}}}, N = 60, 16 data bytes.
 */
class SafetensorsHeaderTableTest {
  private static final String T =
      "{\"test\":{\"dtype\":\"I32\",\"shape\":[2,2],\"data_offsets\":[0,16]}}";
  private static final Limits DEFAULTS = Limits.defaults();
  private static final Constraint REJECTED = Constraint.FILE_FORMAT_REJECTED;

  /** One row of the table. */
  record Case(String id, byte[] file, Limits limits, Expect expect) {
    @Override
    public String toString() {
      return id;
    }
  }

  /** Expected outcome: accepted with a tensor count (and a check), or a typed rejection. */
  record Expect(
      boolean accepted,
      int tensors,
      Consumer<ParsedHeader> check,
      Constraint constraint,
      String field,
      long offset) {}

  static Expect accepts(int tensors) {
    return new Expect(true, tensors, h -> {}, null, null, -1);
  }

  static Expect accepts(int tensors, Consumer<ParsedHeader> check) {
    return new Expect(true, tensors, check, null, null, -1);
  }

  static Expect rejects(String field, long offset) {
    return new Expect(false, -1, null, REJECTED, field, offset);
  }

  static Expect refuses(Constraint c, String field, long offset) {
    return new Expect(false, -1, null, c, field, offset);
  }

  private static final List<Case> CASES = new ArrayList<>();

  private static void add(String id, byte[] file, Expect e) {
    CASES.add(new Case(id, file, DEFAULTS, e));
  }

  private static void add(String id, byte[] file, Limits limits, Expect e) {
    CASES.add(new Case(id, file, limits, e));
  }

  /** A one-tensor file around a tensor entry's JSON object text, with {@code data} data bytes. */
  private static String one(String entry) {
    return "{\"t\":" + entry + "}";
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  private static Consumer<ParsedHeader> row(int i, Consumer<TensorRow> c) {
    return h -> c.accept(h.tensors().get(i));
  }

  static {
    // ---- Upstream crate tests with bad input (notes section 4) -------------------------------
    add("upstream test_header_too_small: empty file", new byte[0], rejects("json_length", 0));
    add(
        "upstream test_header_too_large: N = 0xFFFFFF000000003C exceeds the bytes left",
        raw(0xFFFFFF000000003CL, bytes(T), new byte[16]),
        rejects("json_length", 0));
    add(
        "upstream test_invalid_header_length: N = 60 and nothing follows",
        raw(60, new byte[0], new byte[0]),
        rejects("json_length", 0));
    add(
        "upstream test_invalid_header_non_utf8: N = 1, 0xFF",
        raw(1, new byte[] {(byte) 0xFF}, new byte[0]),
        rejects("header", 8));
    add(
        "upstream test_invalid_header_not_json: N = 1, '{'",
        file("{", 0),
        rejects("header", 9));
    {
      String j = "{\"test\":{\"dtype\":\"I32\",\"shape\":[2,2],\"data_offsets\":[0, 4]}}";
      add(
          "upstream test_invalid_info: I32 [2,2] with a 4-byte range and no data",
          file(j, 0),
          rejects("tensors[\"test\"].data_offsets", offsetOf(j, "[0, 4]")));
    }
    {
      StringBuilder j = new StringBuilder("{");
      for (int i = 0; i < 10; i++) {
        if (i > 0) {
          j.append(',');
        }
        j.append("\"weight_")
            .append(i)
            .append("\":{\"dtype\":\"F32\",\"shape\":[2,2],\"data_offsets\":[0,16]}");
      }
      String s = j.append('}').toString();
      add(
          "upstream test_json_attack: ten tensors at [0,16]",
          file(s, 16),
          rejects(
              "tensors[\"weight_1\"].data_offsets",
              offsetOf(s, "\"weight_1\"") + "\"weight_1\":{\"dtype\":\"F32\",\"shape\":[2,2],\"data_offsets\":".length()));
    }
    {
      byte[] tail = bytes("extra_bogus_data_for_polyglot_file");
      add(
          "upstream test_metadata_incomplete_buffer (a): trailing polyglot bytes",
          concat(file(T, 16), tail),
          rejects("byte_buffer", 8 + 60 + 16));
      add(
          "upstream test_metadata_incomplete_buffer (b): 14 of 16 data bytes",
          file(T, 14),
          rejects("tensors[\"test\"].data_offsets", offsetOf(T, "[0,16]")));
    }
    {
      String j =
          "{\"test\":{\"dtype\":\"I32\",\"shape\":[2,18446744073709551614],\"data_offsets\":[0,16]}}";
      add(
          "upstream test_validation_overflow (a): element product over 2^64-1",
          file(j, 16),
          rejects("tensors[\"test\"].shape[1]", offsetOf(j, "18446744073709551614")));
      String k =
          "{\"test\":{\"dtype\":\"I32\",\"shape\":[2,9223372036854775807],\"data_offsets\":[0,16]}}";
      add(
          "upstream test_validation_overflow (b): 2^64-2 I32 elements cannot fit a file",
          file(k, 16),
          rejects("tensors[\"test\"].shape", offsetOf(k, "[2,")));
    }
    {
      String j = one("{\"dtype\":\"F4\",\"shape\":[1,3],\"data_offsets\":[0,2]}");
      add(
          "upstream test_serialization_fp4_misaligned (reader form): F4 [1,3] is 12 bits",
          file(j, 2),
          rejects("tensors[\"t\"].shape", offsetOf(j, "[1,3]")));
      String k = one("{\"dtype\":\"F4\",\"shape\":[1,2],\"data_offsets\":[0,2]}");
      add(
          "upstream test_serialization_fp4_invalid (reader form): F4 [1,2] in 2 bytes",
          file(k, 2),
          rejects("tensors[\"t\"].data_offsets", offsetOf(k, "[0,2]")));
    }

    // ---- Upstream accepted edge input ---------------------------------------------------------
    add(
        "upstream test_deserialization: N = 60 (not a multiple of 8)",
        file(T, 16),
        accepts(
            1,
            h -> {
              assertThat(h.headerLength()).isEqualTo(68);
              TensorRow r = h.tensors().get(0);
              assertThat(r.name()).isEqualTo("test");
              assertThat(r.type()).isEqualTo("I32");
              assertThat(r.shape()).containsExactly(2L, 2L);
              assertThat(r.parameterCount()).isEqualTo(4);
              assertThat(r.offset()).isZero();
              assertThat(r.fileOffset()).isEqualTo(68);
              assertThat(r.byteLength()).isEqualTo(16);
              assertThat(r.typeId()).isNull();
              assertThat(r.storageValidation()).isEqualTo(StorageValidation.CONSISTENT);
            }));
    add(
        "upstream test_empty_shapes_allowed: scalar I32 []",
        file("{\"test\":{\"dtype\":\"I32\",\"shape\":[],\"data_offsets\":[0,4]}}", 4),
        accepts(
            1,
            row(
                0,
                r -> {
                  assertThat(r.shape()).isEmpty();
                  assertThat(r.parameterCount()).isEqualTo(1);
                  assertThat(r.byteLength()).isEqualTo(4);
                })));
    add(
        "upstream test_zero_sized_tensor: I32 [2,0] at [0,0]",
        file("{\"test\":{\"dtype\":\"I32\",\"shape\":[2,0],\"data_offsets\":[0,0]}}", 0),
        accepts(1, row(0, r -> assertThat(r.parameterCount()).isZero())));
    add(
        "upstream test_whitespace_padded_header: {}\\r \\t\\n",
        file("{}\r \t\n", 0),
        accepts(0, h -> assertThat(h.headerLength()).isEqualTo(14)));
    add(
        "upstream test_whitespace_leading_padded_header: \\t\\n{}\\r ",
        file("\t\n{}\r ", 0),
        accepts(0));
    add(
        "upstream test_empty (writer): {} padded to 8 with metadata",
        builder().metadata("framework", "pt").padTo8().build(),
        accepts(
            0,
            h -> {
              assertThat(h.headerLength()).isEqualTo(48);
              assertThat(h.metadata()).hasSize(1);
            }));
    add(
        "upstream test_serialization_fp4 (writer): F4 [1,2] in 1 byte",
        builder().tensor("attn.0", "F4", 1, 2).padTo8().build(),
        accepts(1, row(0, r -> assertThat(r.byteLength()).isEqualTo(1))));
    add(
        "upstream test_serialization_forced_alignement: F32 [1,1,2,3]",
        builder().tensor("attn0", "F32", 1, 1, 2, 3).padTo8().build(),
        accepts(1, row(0, r -> assertThat(r.byteLength()).isEqualTo(24))));

    // ---- Header length and ceiling (CONTRACT section 8 "Both") -------------------------------
    add(
        "N = 100,000,000 in a short file: bytes-left check first",
        raw(100_000_000L, bytes(T), new byte[16]),
        rejects("json_length", 0));
    add("N = 2^63 exceeds the bytes left", raw(1L << 63, bytes(T), new byte[16]), rejects("json_length", 0));
    add("N = 2^64-1 exceeds the bytes left", raw(-1L, bytes(T), new byte[16]), rejects("json_length", 0));
    add("a 7-byte file", new byte[] {2, 0, 0, 0, 0, 0, 0}, rejects("json_length", 0));
    {
      Limits small = Limits.builder().headerCeilingBytes(60).build();
      add("N equal to the ceiling (60) is read", file(T, 16), small, accepts(1));
      Limits smaller = Limits.builder().headerCeilingBytes(59).build();
      add(
          "N one byte over the ceiling (59) is header_ceiling",
          file(T, 16),
          smaller,
          refuses(Constraint.HEADER_CEILING, "json_length", 0));
      add(
          "N over the ceiling and over the bytes left is file_format_rejected",
          raw(61, bytes(T), new byte[0]),
          smaller,
          rejects("json_length", 0));
    }

    // ---- JSON text: whitespace, control bytes, BOM, trailing content --------------------------
    add("N = 0", file("", 0), rejects("header", 8));
    add("whitespace only", file(" \t\r\n", 0), rejects("header", 12));
    add("trailing NUL", file("{}\0", 0), rejects("header", 10));
    add("trailing VT", file("{}\u000b", 0), rejects("header", 10));
    add("trailing FF", file("{} \f", 0), rejects("header", 11));
    add("trailing NBSP (U+00A0)", file("{}\u00a0", 0), rejects("header", 10));
    add("leading UTF-8 BOM", file("\ufeff{}", 0), rejects("header", 8));
    add("BOM after leading space", file(" \ufeff{}", 0), rejects("header", 9));
    add("two JSON values", file("{}{}", 0), rejects("header", 10));
    add("trailing garbage letter", file("{} x", 0), rejects("header", 11));
    add("trailing comma", file("{\"__metadata__\":{\"a\":\"b\"},}", 0), rejects("header", 8 + 26));
    add("comment", file("{}/*c*/", 0), rejects("header", 10));
    add("top level array", file("[]", 0), rejects("header", 8));
    add("top level string", file("\"x\"", 0), rejects("header", 8));
    add("top level null after whitespace", file("  null", 0), rejects("header", 10));
    add(
        "raw control byte 0x01 inside a metadata value",
        file("{\"__metadata__\":{\"a\":\"x\u0001\"}}", 0),
        rejects("header", 8 + 23));
    {
      String j = "{\"__metadata__\":{\"a\":\"x\ty\"}}";
      add(
          "raw tab inside a metadata value",
          file(j, 0),
          rejects("__metadata__[\"a\"]", offsetOf(j, "\ty")));
    }

    // ---- UTF-8 ---------------------------------------------------------------------------
    {
      byte[] prefix = bytes("{\"__metadata__\":{\"a\":\"");
      byte[] suffix = bytes("\"}}");
      add(
          "overlong C0 AF",
          file(concat(prefix, new byte[] {(byte) 0xC0, (byte) 0xAF}, suffix), new byte[0]),
          rejects("header", 8 + prefix.length));
      add(
          "overlong E0 80 80",
          file(concat(prefix, new byte[] {(byte) 0xE0, (byte) 0x80, (byte) 0x80}, suffix), new byte[0]),
          rejects("header", 8 + prefix.length));
      add(
          "UTF-8-encoded surrogate ED A0 80",
          file(concat(prefix, new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, suffix), new byte[0]),
          rejects("header", 8 + prefix.length));
      add(
          "sequence cut by the end of the JSON",
          file(concat(bytes("{} "), new byte[] {(byte) 0xE2, (byte) 0x82}), new byte[0]),
          rejects("header", 11));
      add(
          "valid 4-byte sequence in a metadata value",
          file(concat(prefix, bytes("\uD83D\uDE00"), suffix), new byte[0]),
          accepts(0, h -> assertThat(h.metadata().get(0).value().toString()).contains("\uD83D\uDE00")));
    }

    // ---- Lone surrogate escapes ------------------------------------------------------------
    {
      String j = "{\"__metadata__\":{\"a\":\"\\ud800\"}}";
      add("lone high surrogate escape in a metadata value", file(j, 0), rejects("__metadata__[\"a\"]", offsetOf(j, "\"\\ud800")));
      String k = "{\"\\udc00\":{\"dtype\":\"U8\",\"shape\":[],\"data_offsets\":[0,1]}}";
      // Refused at the name's opening quote, the field naming the name (escaped as written).
      add(
          "lone low surrogate escape in a tensor name",
          file(k, 1),
          rejects("tensors[\"\\udc00\"]", offsetOf(k, "\"\\udc00")));
      String k2 = "{\"\\ud800x\":{\"dtype\":\"U8\",\"shape\":[],\"data_offsets\":[0,1]}}";
      add(
          "lone high surrogate escape in a tensor name",
          file(k2, 1),
          rejects("tensors[\"\\ud800x\"]", offsetOf(k2, "\"\\ud800x")));
      String m = one("{\"dtype\":\"U8\",\"shape\":[],\"data_offsets\":[0,1],\"x\":[\"\\ud800x\"]}");
      add(
          "lone surrogate escape inside an ignored unknown field",
          file(m, 1),
          rejects("tensors[\"t\"][\"x\"][0]", offsetOf(m, "\"\\ud800x")));
      String n = "{\"__metadata__\":{\"a\":\"\\ud83d\\ude00\"}}";
      add(
          "escaped surrogate pair is accepted",
          file(n, 0),
          accepts(0, h -> assertThat(h.metadata().get(0).value().toString()).contains("\uD83D\uDE00")));
    }

    // ---- Nesting (CONTRACT: top-level object = 1; 32 accepted, 33 resource_exhausted) -------
    {
      // top object (1) + tensor entry (2) + k arrays in an unknown field: depth 2 + k.
      String ok = one("{\"dtype\":\"U8\",\"shape\":[],\"data_offsets\":[0,1],\"x\":" + "[".repeat(30) + "]".repeat(30) + "}");
      add("depth 32 in an unknown field is accepted", file(ok, 1), accepts(1));
      String deep = one("{\"dtype\":\"U8\",\"shape\":[],\"data_offsets\":[0,1],\"x\":" + "[".repeat(31) + "]".repeat(31) + "}");
      add(
          "depth 33 is nesting_limit",
          file(deep, 1),
          refuses(
              Constraint.NESTING_LIMIT,
              "tensors[\"t\"][\"x\"]" + "[0]".repeat(30),
              offsetOf(deep, "[".repeat(31)) + 30));
      String objs = one("{\"dtype\":\"U8\",\"shape\":[],\"data_offsets\":[0,1],\"x\":" + "{\"a\":".repeat(31) + "1" + "}".repeat(31) + "}");
      add(
          "depth 33 through objects is nesting_limit",
          file(objs, 1),
          refuses(
              Constraint.NESTING_LIMIT,
              "tensors[\"t\"][\"x\"]" + "[\"a\"]".repeat(30),
              lastOffsetOf(objs, "{\"a\":1")));
      String meta = "{\"__metadata__\":" + "[".repeat(32) + "]".repeat(32) + "}";
      add(
          "deep non-object __metadata__ is rejected as not an object before nesting",
          file(meta, 0),
          rejects("__metadata__", 24));
      Limits shallow = Limits.builder().nestingLimit(2).build();
      add(
          "a nesting limit of 2 refuses a shape array (depth 3)",
          file(T, 16),
          shallow,
          refuses(Constraint.NESTING_LIMIT, "tensors[\"test\"].shape", offsetOf(T, "[2,2]")));
    }

    // ---- Duplicate keys at every level -------------------------------------------------------
    {
      String e = "{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}";
      String j = "{\"a\":" + e + ",\"a\":" + e + "}";
      add("duplicate tensor name, identical entries", file(j, 1), rejects("tensors[\"a\"]", lastOffsetOf(j, "\"a\"")));
      String k = "{\"a\":" + e + ",\"\\u0061\":" + e + "}";
      add("duplicate tensor name through an escape", file(k, 1), rejects("tensors[\"a\"]", offsetOf(k, "\"\\u0061\"")));
      String m = "{\"__metadata__\":{\"k\":\"1\",\"k\":\"2\"}}";
      add("duplicate key inside __metadata__", file(m, 0), rejects("__metadata__[\"k\"]", lastOffsetOf(m, "\"k\"")));
      String n = "{\"__metadata__\":{},\"__metadata__\":null}";
      add("duplicate __metadata__", file(n, 0), rejects("__metadata__", lastOffsetOf(n, "\"__metadata__\"")));
      String o = one("{\"dtype\":\"U8\",\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}");
      add("duplicate dtype inside an entry", file(o, 1), rejects("tensors[\"t\"].dtype", lastOffsetOf(o, "\"dtype\"")));
      String q = one("{\"dtype\":\"U8\",\"shape\":[1],\"\\u0073hape\":[1],\"data_offsets\":[0,1]}");
      add("duplicate shape through an escape", file(q, 1), rejects("tensors[\"t\"].shape", offsetOf(q, "\"\\u0073hape\"")));
      String r = one("{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1],\"x\":{\"y\":1,\"y\":2}}");
      add(
          "duplicate key inside an ignored unknown field",
          file(r, 1),
          rejects("tensors[\"t\"][\"x\"][\"y\"]", lastOffsetOf(r, "\"y\"")));
      String s = one("{\"dtype\":\"U8\",\"x\":1,\"shape\":[1],\"x\":2,\"data_offsets\":[0,1]}");
      add("duplicate unknown field inside an entry", file(s, 1), rejects("tensors[\"t\"][\"x\"]", lastOffsetOf(s, "\"x\"")));
    }

    // ---- __metadata__ ----------------------------------------------------------------------
    add(
        "__metadata__ null is omitted",
        builder().metadataNull().tensor("a", "U8", 2).build(),
        accepts(1, h -> assertThat(h.metadata()).isEmpty()));
    add(
        "__metadata__ {} is present and empty",
        file("{\"__metadata__\":{}}", 0),
        accepts(0, h -> assertThat(h.metadata()).isEmpty()));
    add(
        "__metadata__ after the tensors",
        builder().tensor("a", "U8", 2).metadata("k", "v").metadataLast().build(),
        accepts(1, h -> assertThat(h.metadata()).hasSize(1)));
    for (String bad : new String[] {"1", "null", "[\"x\"]", "{\"y\":\"z\"}", "true"}) {
      String j = "{\"__metadata__\":{\"a\":" + bad + "}}";
      add("__metadata__ value " + bad, file(j, 0), rejects("__metadata__[\"a\"]", offsetOf(j, bad)));
    }
    for (String bad : new String[] {"[]", "\"x\"", "3"}) {
      String j = "{\"__metadata__\":" + bad + "}";
      add("__metadata__ as " + bad, file(j, 0), rejects("__metadata__", 24));
    }
    {
      String j = "{\"__metadata__\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}";
      add("a tensor named __metadata__", file(j, 1), rejects("__metadata__[\"shape\"]", offsetOf(j, "[1]")));
    }
    add(
        "__METADATA__ is a tensor name (exact match)",
        builder().tensor("__METADATA__", "U8", 1).build(),
        accepts(1, row(0, r -> assertThat(r.name()).isEqualTo("__METADATA__"))));
    {
      String j = "{\"__other__\":{\"x\":\"1\"}}";
      add("__other__ that is not a tensor entry", file(j, 0), rejects("tensors[\"__other__\"].dtype", lastOffsetOf(j, "}}")));
    }
    add(
        "empty and NUL tensor names",
        builder().tensor("", "U8", 1).tensor("\u0000", "U8", 1).build(),
        accepts(
            2,
            h -> {
              assertThat(h.tensors().get(0).name()).isEmpty();
              assertThat(h.tensors().get(1).name()).isEqualTo("\u0000");
            }));

    // ---- Tensor entries: required fields, types, unknown fields, dtypes ---------------------
    {
      String j = one("{\"shape\":[1],\"data_offsets\":[0,1]}");
      // A missing field is reported at the entry's closing brace.
      add("missing dtype", file(j, 1), rejects("tensors[\"t\"].dtype", lastOffsetOf(j, "}}")));
      String k = one("{\"dtype\":\"U8\",\"data_offsets\":[0,1]}");
      add("missing shape", file(k, 1), rejects("tensors[\"t\"].shape", lastOffsetOf(k, "}}")));
      String m = one("{\"dtype\":\"U8\",\"shape\":[1]}");
      add("missing data_offsets", file(m, 1), rejects("tensors[\"t\"].data_offsets", lastOffsetOf(m, "}}")));
      add("empty tensor entry", file(one("{}"), 0), rejects("tensors[\"t\"].dtype", 14));
      String n = "{\"t\":[1]}";
      add("tensor entry that is an array", file(n, 0), rejects("tensors[\"t\"]", 13));
      for (String bad : new String[] {"null", "32", "[\"F32\"]"}) {
        String d = one("{\"dtype\":" + bad + ",\"shape\":[1],\"data_offsets\":[0,4]}");
        add("dtype " + bad, file(d, 4), rejects("tensors[\"t\"].dtype", offsetOf(d, bad + ",")));
      }
      String u = one("{\"dtype\":\"U8\",\"extra\":{\"nested\":[1,2.5,\"s\",null,true]},\"shape\":[3],\"data_offsets\":[0,3],\"z\":null}");
      add("unknown fields are ignored", file(u, 3), accepts(1, row(0, r -> assertThat(r.shape()).containsExactly(3L))));
      add(
          "escaped dtype F\\u00332 is F32",
          file(one("{\"dtype\":\"F\\u00332\",\"shape\":[1],\"data_offsets\":[0,4]}"), 4),
          accepts(
              1,
              row(
                  0,
                  r -> {
                    assertThat(r.type()).isEqualTo("F32");
                    assertThat(r.storageValidation()).isEqualTo(StorageValidation.CONSISTENT);
                  })));
      add(
          "unknown dtypes F128 and f32 are kept with their ranges",
          builder().tensorBytes("a", "F128", 32, 2).tensorBytes("b", "f32", 4, 1).tensor("c", "F32", 1).build(),
          accepts(
              3,
              h -> {
                assertThat(h.tensors().get(0).type()).isEqualTo("F128");
                assertThat(h.tensors().get(0).storageValidation()).isEqualTo(StorageValidation.UNKNOWN);
                assertThat(h.tensors().get(0).byteLength()).isEqualTo(32);
                assertThat(h.tensors().get(1).type()).isEqualTo("f32");
                assertThat(h.tensors().get(1).storageValidation()).isEqualTo(StorageValidation.UNKNOWN);
                assertThat(h.tensors().get(2).storageValidation()).isEqualTo(StorageValidation.CONSISTENT);
                assertThat(h.limitations()).hasSize(2);
                assertThat(h.limitations().get(0).code()).isEqualTo("unknown_dtype");
                assertThat(h.limitations().get(0).tensorIndices()).containsExactly(0);
                assertThat(h.limitations().get(1).tensorIndices()).containsExactly(1);
              }));
      String ov = "{\"a\":{\"dtype\":\"F128\",\"shape\":[2],\"data_offsets\":[0,32]},\"b\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[16,20]}}";
      add(
          "an unknown-dtype range is still checked for overlap",
          file(ov, 32),
          rejects("tensors[\"b\"].data_offsets", lastOffsetOf(ov, "[16,20]")));
    }

    // ---- Integers in shape and data_offsets ---------------------------------------------------
    {
      String[][] bad = {
        {"-1", "negative"}, {"1.0", "fraction"}, {"1e0", "exponent"}, {"4E0", "exponent"},
        {"-0", "negative zero"}, {"18446744073709551616", "above 2^64-1"}, {"\"1\"", "string"},
        {"null", "null"}, {"[1]", "array"}
      };
      for (String[] b : bad) {
        String j = one("{\"dtype\":\"U8\",\"shape\":[1," + b[0] + "],\"data_offsets\":[0,1]}");
        add("shape element " + b[1] + " " + b[0], file(j, 1), rejects("tensors[\"t\"].shape[1]", offsetOf(j, b[0] + "]")));
        String k = one("{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0," + b[0] + "]}");
        add("data_offsets element " + b[1] + " " + b[0], file(k, 1), rejects("tensors[\"t\"].data_offsets[1]", offsetOf(k, b[0] + "]")));
      }
      String lz = one("{\"dtype\":\"U8\",\"shape\":[01],\"data_offsets\":[0,1]}");
      // Jackson finds leading zeros at the digit after the zero.
      add("leading zero 01", file(lz, 1), rejects("tensors[\"t\"].shape[0]", offsetOf(lz, "01") + 1));
      String lz2 = one("{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[00,1]}");
      add("leading zero 00", file(lz2, 1), rejects("tensors[\"t\"].data_offsets[0]", offsetOf(lz2, "00") + 1));
      String big = one("{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[9223372036854775808,9223372036854775808]}");
      add(
          "data_offsets begin 2^63 does not fit a long",
          file(big, 0),
          rejects("tensors[\"t\"].data_offsets[0]", offsetOf(big, "9223372036854775808")));
      String three = one("{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1,2]}");
      add("data_offsets of length 3", file(three, 1), rejects("tensors[\"t\"].data_offsets[2]", offsetOf(three, "2]")));
      String onel = one("{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[0]}");
      add("data_offsets of length 1", file(onel, 0), rejects("tensors[\"t\"].data_offsets", offsetOf(onel, "]}")));
      String obj = one("{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":{\"begin\":0,\"end\":1}}");
      add("data_offsets as an object", file(obj, 1), rejects("tensors[\"t\"].data_offsets", offsetOf(obj, "{\"begin")));
      String shp = one("{\"dtype\":\"U8\",\"shape\":3,\"data_offsets\":[0,3]}");
      add("shape as a number", file(shp, 3), rejects("tensors[\"t\"].shape", offsetOf(shp, "3,")));
      String rev = one("{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[4,0]}");
      add("data_offsets end < begin", file(rev, 4), rejects("tensors[\"t\"].data_offsets[1]", offsetOf(rev, "0]}")));
    }

    // ---- Shape products, sub-byte types, byte lengths ----------------------------------------
    {
      add(
          "[0, 2^64-1] is empty and kept exactly",
          file(one("{\"dtype\":\"U8\",\"shape\":[0,18446744073709551615],\"data_offsets\":[0,0]}"), 0),
          accepts(
              1,
              row(
                  0,
                  r -> {
                    assertThat(r.shape()).containsExactly(0L, -1L);
                    assertThat(Long.toUnsignedString(r.shape().get(1))).isEqualTo("18446744073709551615");
                    assertThat(r.byteLength()).isZero();
                  })));
      add(
          "[0, 2^32, 2^32] is 0 (zero first)",
          file(one("{\"dtype\":\"F32\",\"shape\":[0,4294967296,4294967296],\"data_offsets\":[0,0]}"), 0),
          accepts(1));
      String j = one("{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296,0],\"data_offsets\":[0,0]}");
      add(
          "[2^32, 2^32, 0] overflows before the zero",
          file(j, 0),
          rejects("tensors[\"t\"].shape[1]", lastOffsetOf(j, "4294967296")));
      String k = one("{\"dtype\":\"U8\",\"shape\":[18446744073709551615],\"data_offsets\":[0,0]}");
      add("U8 [2^64-1] cannot fit any file", file(k, 0), rejects("tensors[\"t\"].shape", offsetOf(k, "[18")));
      String f4 = one("{\"dtype\":\"F4\",\"shape\":[3],\"data_offsets\":[0,2]}");
      add("F4 [3] is not whole bytes", file(f4, 2), rejects("tensors[\"t\"].shape", offsetOf(f4, "[3]")));
      String f6 = one("{\"dtype\":\"F6_E2M3\",\"shape\":[1],\"data_offsets\":[0,1]}");
      add("F6_E2M3 [1] is not whole bytes", file(f6, 1), rejects("tensors[\"t\"].shape", offsetOf(f6, "[1]")));
      String f62 = one("{\"dtype\":\"F6_E3M2\",\"shape\":[2,3],\"data_offsets\":[0,5]}");
      add("F6_E3M2 [2,3] = 36 bits is not whole bytes", file(f62, 5), rejects("tensors[\"t\"].shape", offsetOf(f62, "[2,3]")));
      add(
          "sub-byte and new dtypes with whole-byte storage",
          builder()
              .tensor("f4", "F4", 4)
              .tensor("f6a", "F6_E2M3", 4)
              .tensor("f6b", "F6_E3M2", 2, 2)
              .tensor("e8m0", "F8_E8M0", 3)
              .tensor("fnuz1", "F8_E4M3FNUZ", 2)
              .tensor("fnuz2", "F8_E5M2FNUZ", 2)
              .tensor("c64", "C64", 2)
              .tensor("u16", "U16", 1)
              .tensor("u32", "U32", 1)
              .tensor("u64", "U64", 1)
              .tensor("bool", "BOOL", 5)
              .build(),
          accepts(
              11,
              h -> {
                assertThat(h.tensors()).extracting(TensorRow::name)
                    .containsExactly("bool", "c64", "e8m0", "f4", "f6a", "f6b", "fnuz1", "fnuz2", "u16", "u32", "u64");
                assertThat(h.tensors()).extracting(TensorRow::byteLength)
                    .containsExactly(5L, 16L, 3L, 2L, 3L, 3L, 2L, 2L, 2L, 4L, 8L);
              }));
      String mm = one("{\"dtype\":\"F64\",\"shape\":[4],\"data_offsets\":[0,16]}");
      add("F64 [4] in 16 bytes (shape/bytes mismatch)", file(mm, 16), rejects("tensors[\"t\"].data_offsets", offsetOf(mm, "[0,16]")));
    }

    // ---- Ranges -----------------------------------------------------------------------------
    {
      String gap = "{\"a\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4]},\"b\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[6,10]}}";
      add("gap between ranges", file(gap, 10), rejects("tensors[\"b\"].data_offsets", offsetOf(gap, "[6,10]")));
      String first = one("{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[2,6]}");
      add("first range not at 0", file(first, 6), rejects("tensors[\"t\"].data_offsets", offsetOf(first, "[2,6]")));
      String over = "{\"b\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[2,6]},\"a\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4]}}";
      add("overlapping ranges", file(over, 6), rejects("tensors[\"b\"].data_offsets", offsetOf(over, "[2,6]")));
      String same = "{\"a\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4]},\"b\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4]}}";
      add("identical nonempty ranges (tied weights)", file(same, 4), rejects("tensors[\"b\"].data_offsets", lastOffsetOf(same, "[0,4]")));
      String inside = "{\"a\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4]},\"z\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[2,2]}}";
      add("zero-length range inside another", file(inside, 4), rejects("tensors[\"z\"].data_offsets", offsetOf(inside, "[2,2]")));
      String beyond = "{\"a\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4]},\"z\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[8,8]}}";
      add("zero-length range beyond the last end", file(beyond, 8), rejects("tensors[\"z\"].data_offsets", offsetOf(beyond, "[8,8]")));
      add(
          "zero-length ranges at 0, at a boundary and at the end",
          builder()
              .tensorAt("z0", "U8", 0, 0, 0)
              .tensorAt("z0b", "F32", 0, 0, 0, 3)
              .tensorAt("a", "U8", 0, 4, 4)
              .tensorAt("z4", "U8", 4, 4, 0)
              .tensorAt("b", "U8", 4, 6, 2)
              .tensorAt("z6", "I64", 6, 6, 2, 0)
              .tensorAt("z6b", "U8", 6, 6, 0)
              .build(),
          accepts(7));
      SafetensorsBuilder.Builder tb = builder().tensor("a", "U8", 4).extraData(3);
      add("trailing unindexed bytes", tb.build(), rejects("byte_buffer", 8 + tb.json().length() + 4));
      add(
          "no tensors but one data byte",
          file("{}", 1),
          rejects("byte_buffer", 10));
      String trunc = "{\"a\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4]},\"b\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[4,8]}}";
      add("truncated data", file(trunc, 6), rejects("tensors[\"b\"].data_offsets", offsetOf(trunc, "[4,8]")));
    }

    // ---- Budget -------------------------------------------------------------------------------
    {
      Limits tiny = Limits.builder().retainedBudgetBytes(200).build();
      String j = "{\"__metadata__\":{\"k\":\"" + "v".repeat(100) + "\"}}";
      add(
          "metadata over the retained budget",
          file(j, 0),
          tiny,
          refuses(Constraint.RETAINED_BUDGET, "__metadata__[\"k\"]", offsetOf(j, "\"vvv")));
      add("metadata within the same budget", file("{\"__metadata__\":{\"k\":\"v\"}}", 0), tiny, accepts(0));
    }
  }

  static Stream<Case> cases() {
    return CASES.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void table(Case c) throws ReaException {
    if (c.expect().accepted()) {
      ParsedHeader h = SafetensorsReads.read(c.file(), c.limits());
      assertThat(h.tensors()).hasSize(c.expect().tensors());
      for (int i = 0; i < h.tensors().size(); i++) {
        assertThat(h.tensors().get(i).index()).isEqualTo(i);
      }
      c.expect().check().accept(h);
    } else {
      ReaException e = SafetensorsReads.reject(c.file(), c.limits());
      assertThat(e.constraint()).as(e.getMessage()).isEqualTo(c.expect().constraint());
      assertThat(e.field()).as(e.getMessage()).isEqualTo(c.expect().field());
      assertThat(e.offset()).as(e.getMessage()).isEqualTo(c.expect().offset());
      assertThat(e.getMessage()).isNotBlank();
      if (e.constraint() == REJECTED) {
        // CONTRACT section 6: the message names the field and the byte offset.
        assertThat(e.getMessage()).startsWith(c.expect().field() + " at offset " + c.expect().offset());
      }
      if (e.constraint() == Constraint.NESTING_LIMIT) {
        assertThat(e.diagnostics())
            .containsEntry("limit", "nesting_limit")
            .containsEntry("limit_levels", c.limits().nestingLimit())
            .containsEntry("requested_levels", c.limits().nestingLimit() + 1);
      }
      if (e.constraint() == Constraint.HEADER_CEILING) {
        assertThat(e.diagnostics())
            .containsEntry("limit", "header_ceiling")
            .containsEntry("limit_bytes", Long.toString(c.limits().headerCeilingBytes()));
      }
    }
  }

  /**
   * The storage and range rejections, whose messages once named the tensor but not the offset:
   * each now starts with the field and offset, then says what is wrong.
   */
  @org.junit.jupiter.api.Test
  void storageAndRangeRejectionsNameTheFieldAndOffsetInTheMessage() {
    String mismatch = "{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}";
    assertThat(message(file(mismatch, 8)))
        .isEqualTo(
            "tensors[\"a\"].data_offsets at offset "
                + offsetOf(mismatch, "[0,8]")
                + ": the tensor is F32 with shape [3], which needs 12 bytes, but data_offsets"
                + " [0, 8] spans 8 bytes");
    String overlap =
        "{\"a\":{\"dtype\":\"U8\",\"shape\":[8],\"data_offsets\":[0,8]},"
            + "\"b\":{\"dtype\":\"U8\",\"shape\":[8],\"data_offsets\":[4,12]}}";
    assertThat(message(file(overlap, 12)))
        .isEqualTo(
            "tensors[\"b\"].data_offsets at offset "
                + offsetOf(overlap, "[4,12]")
                + ": range [4, 12) overlaps tensors[\"a\"] [0, 8)");
    String gap =
        "{\"a\":{\"dtype\":\"U8\",\"shape\":[8],\"data_offsets\":[0,8]},"
            + "\"b\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[12,16]}}";
    assertThat(message(file(gap, 16)))
        .isEqualTo(
            "tensors[\"b\"].data_offsets at offset "
                + offsetOf(gap, "[12,16]")
                + ": bytes [8, 12) of the byte buffer are not covered by any tensor (gap after"
                + " tensors[\"a\"])");
    String first = one("{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[2,6]}");
    assertThat(message(file(first, 6)))
        .startsWith("tensors[\"t\"].data_offsets at offset " + offsetOf(first, "[2,6]") + ": ");
    String truncated = "{\"a\":{\"dtype\":\"U8\",\"shape\":[8],\"data_offsets\":[0,8]}}";
    assertThat(message(file(truncated, 7)))
        .isEqualTo(
            "tensors[\"a\"].data_offsets at offset "
                + offsetOf(truncated, "[0,8]")
                + ": the range ends at byte 8 of the byte buffer, but the file holds only 7 bytes"
                + " after the header (truncated data)");
    String f4 = "{\"a\":{\"dtype\":\"F4\",\"shape\":[3],\"data_offsets\":[0,2]}}";
    assertThat(message(file(f4, 2)))
        .isEqualTo(
            "tensors[\"a\"].shape at offset "
                + offsetOf(f4, "[3]")
                + ": the tensor declares 3 F4 elements of 4 bits, which is not a whole number of"
                + " bytes (shape [3])");
    String f6 = "{\"a\":{\"dtype\":\"F6_E2M3\",\"shape\":[1],\"data_offsets\":[0,1]}}";
    assertThat(message(file(f6, 1)))
        .isEqualTo(
            "tensors[\"a\"].shape at offset "
                + offsetOf(f6, "[1]")
                + ": the tensor declares 1 F6_E2M3 elements of 6 bits, which is not a whole"
                + " number of bytes (shape [1])");
    String huge = "{\"a\":{\"dtype\":\"U8\",\"shape\":[18446744073709551615],\"data_offsets\":[0,0]}}";
    assertThat(message(file(huge, 0)))
        .startsWith("tensors[\"a\"].shape at offset " + offsetOf(huge, "[18") + ": ");
    String trailing = "{\"a\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4]}}";
    assertThat(message(file(trailing, 6)))
        .isEqualTo(
            "byte_buffer at offset "
                + (8 + trailing.length() + 4)
                + ": the file has 2 bytes after the end of the last tensor range that no tensor"
                + " indexes (the byte buffer must be entirely indexed)");
  }

  private static String message(byte[] file) {
    ReaException e = SafetensorsReads.reject(file, DEFAULTS);
    assertThat(e.constraint()).isEqualTo(REJECTED);
    assertThat(e.getMessage()).contains("at offset " + e.offset() + ": ");
    return e.getMessage();
  }

  @org.junit.jupiter.api.Test
  void tableIsLargeEnough() {
    assertThat(CASES).hasSizeGreaterThanOrEqualTo(40);
    assertThat(CASES.stream().filter(c -> c.expect().accepted()).count()).isGreaterThan(15);
    assertThat(CASES.stream().filter(c -> !c.expect().accepted()).count()).isGreaterThan(40);
  }
}
