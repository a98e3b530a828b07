package dev.rea.core.internal.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.evidence.Authentication;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.testing.Rfc8785Oracle;
import dev.rea.core.testing.TestRecords;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** RFC 8785 (JSON Canonicalization Scheme) examples, and the evidence ID built on it. */
class EvidenceIdsTest {
  static String canon(String json) {
    return new String(EvidenceIds.canonicalize(json.getBytes(StandardCharsets.UTF_8)),
        StandardCharsets.UTF_8);
  }

  @Test
  void rfc8785Section322PrimitiveSerialization() {
    String input = "{\n  \"numbers\": [333333333.33333329, 1E30, 4.50,\n"
        + "              2e-3, 0.000000000000000000000000001],\n"
        + "  \"string\": \"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\",\n"
        + "  \"literals\": [null, true, false]\n}";
    assertThat(canon(input)).isEqualTo(
        "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
            + "\"string\":\"\u20ac$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}");
  }

  @Test
  void rfc8785Section323SortingByUtf16CodeUnits() {
    String input = "{\n  \"\\u20ac\": \"Euro Sign\",\n  \"\\r\": \"Carriage Return\",\n"
        + "  \"\\ufb33\": \"Hebrew Letter Dalet With Dagesh\",\n  \"1\": \"One\",\n"
        + "  \"\\ud83d\\ude00\": \"Emoji: Grinning Face\",\n  \"\\u0080\": \"Control\",\n"
        + "  \"\\u00f6\": \"Latin Small Letter O With Diaeresis\"\n}";
    // U+1F600 (UTF-16 D83D DE00) sorts before U+FB33: code units, not code points.
    assertThat(canon(input)).isEqualTo(
        "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\","
            + "\"\u00f6\":\"Latin Small Letter O With Diaeresis\",\"\u20ac\":\"Euro Sign\","
            + "\"\ud83d\ude00\":\"Emoji: Grinning Face\","
            + "\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}");
  }

  @Test
  void rfc8785NestedObjectsAreSortedAtEveryLevel() {
    assertThat(canon("{\"b\":{\"z\":1,\"a\":[{\"y\":2,\"x\":1}]},\"a\":0}"))
        .isEqualTo("{\"a\":0,\"b\":{\"a\":[{\"x\":1,\"y\":2}],\"z\":1}}");
  }

  /** RFC 8785 Appendix B: IEEE 754 bit patterns and their canonical JSON text. */
  @ParameterizedTest
  @CsvSource({
    "0000000000000000, 0",
    "8000000000000000, 0",
    "0000000000000001, 5e-324",
    "8000000000000001, -5e-324",
    "7fefffffffffffff, 1.7976931348623157e+308",
    "ffefffffffffffff, -1.7976931348623157e+308",
    "4340000000000000, 9007199254740992",
    "c340000000000000, -9007199254740992",
    "4430000000000000, 295147905179352830000",
    "44b52d02c7e14af5, 9.999999999999997e+22",
    "44b52d02c7e14af6, 1e+23",
    "44b52d02c7e14af7, 1.0000000000000001e+23",
    "444b1ae4d6e2ef4e, 999999999999999700000",
    "444b1ae4d6e2ef4f, 999999999999999900000",
    "444b1ae4d6e2ef50, 1e+21",
    "3eb0c6f7a0b5ed8c, 9.999999999999997e-7",
    "3eb0c6f7a0b5ed8d, 0.000001",
    "41b3de4355555553, 333333333.3333332",
    "41b3de4355555554, 333333333.33333325",
    "41b3de4355555555, 333333333.3333333",
    "41b3de4355555556, 333333333.3333334",
    "41b3de4355555557, 333333333.33333343",
    "becbf647612f3696, -0.0000033333333333333333",
    "43143ff3c1cb0959, 1424953923781206.2",
  })
  void rfc8785AppendixBNumbers(String bits, String expected) {
    double d = Double.longBitsToDouble(Long.parseUnsignedLong(bits, 16));
    assertThat(canon("[" + Double.toString(d) + "]")).isEqualTo("[" + expected + "]");
  }

  @Test
  void evidenceIdIsSha256OfTheCanonicalFormWithoutIdentity() {
    EvidenceRecord r = TestRecords.small();
    byte[] canonical = EvidenceIds.canonicalBytes(r);
    String text = new String(canonical, StandardCharsets.UTF_8);
    assertThat(text).startsWith("{\"artifact\":{\"bytes_read\":\"4096\",\"file_size\":\"1000000\"");
    assertThat(text).doesNotContain("evidence_id").doesNotContain("authentication");
    assertThat(r.evidenceId()).isEqualTo("sha256:" + EvidenceIds.sha256Hex(canonical));
    // Identity fields do not take part in the ID.
    EvidenceRecord signedLike = r.withAuthentication(new Authentication("ed25519", "sha256:00", "AA=="));
    assertThat(EvidenceIds.compute(signedLike)).isEqualTo(r.evidenceId());
    // The canonical form is a fixed point of canonicalisation.
    assertThat(EvidenceIds.canonicalize(canonical)).isEqualTo(canonical);
  }

  @Test
  void theCanonicalFormRememberedForSigningIsTheOneComputedAfresh() {
    EvidenceRecord a = EvidenceIds.withId(TestRecords.small());
    EvidenceRecord b = EvidenceIds.withId(TestRecords.manyTensors(300));
    // b was identified last: its canonical form is remembered, a's is computed again.
    for (EvidenceRecord r : new EvidenceRecord[] {a, b, b}) {
      byte[] remembered = EvidenceIds.canonicalBytes(r);
      byte[] fresh = Rfc8785Oracle.canonicalRecord(r);
      assertThat(remembered).isEqualTo(fresh);
      assertThat(EvidenceIds.idOfCanonical(remembered)).isEqualTo(r.evidenceId());
      EvidenceIds.Identity identity = EvidenceIds.identity(r);
      assertThat(identity.canonical()).isEqualTo(fresh);
      assertThat(identity.evidenceId()).isEqualTo("sha256:" + EvidenceIds.sha256Hex(fresh));
    }
    // A record's own evidence_id is never taken for its identity: a copy with a forged ID gets
    // the ID of its content.
    EvidenceRecord forged = b.withEvidenceId("sha256:" + "0".repeat(64));
    assertThat(EvidenceIds.identity(forged).evidenceId()).isEqualTo(b.evidenceId());
    assertThat(EvidenceIds.compute(forged)).isEqualTo(b.evidenceId());
    // Each caller gets its own array: changing one does not change what the next one gets.
    byte[] first = EvidenceIds.canonicalBytes(b);
    first[0] = 'X';
    assertThat(EvidenceIds.canonicalBytes(b)[0]).isEqualTo((byte) '{');
    // Another record with equal content but another identity (here: a changed status) is
    // canonicalized from its own fields, never served b's bytes.
    EvidenceRecord changed =
        new EvidenceRecord(b.schema(), b.evidenceId(), b.operation(), EvidenceRecord.STATUS_PARTIAL,
            b.observedAt(), b.request(), b.subject(), b.artifact(), b.formatFacts(), b.metadata(),
            b.tensors(), b.types(), b.totals(), b.coverage(), b.limitations(), b.warnings(),
            b.authentication());
    assertThat(EvidenceIds.compute(changed)).isNotEqualTo(b.evidenceId());
  }

  private static final String NAME_CHARS = "ab.z_09 \"\\\u0000\u001f\u007f\u00e9\u2028\ud83d\ude00";

  /** A consistent record of 2 to 61 tensors with unique names drawn from quotes, escapes and astral characters. */
  private static EvidenceRecord randomRecord(long seed) {
    java.util.Random r = new java.util.Random(seed);
    int n = 2 + r.nextInt(60);
    java.util.List<TensorRow> rows = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      StringBuilder name = new StringBuilder();
      for (int k = r.nextInt(10); k > 0; k--) {
        name.appendCodePoint(NAME_CHARS.codePointAt(NAME_CHARS.offsetByCodePoints(0, r.nextInt(NAME_CHARS.codePointCount(0, NAME_CHARS.length())))));
      }
      name.append('#').append(i);
      rows.add(i % 5 == 4
          ? TestRecords.ambiguous(i, name.toString(), 17, 64L * i, 4, 2)
          : TestRecords.f32(i, name.toString(), 64L * i, 1 + r.nextInt(9), 2));
    }
    EvidenceRecord small = TestRecords.small();
    return TestRecords.gguf(small.metadata(), rows, small.limitations(), small.warnings());
  }

  /**
   * A record's text as imported (the compact copy without its identity that the verifier
   * canonicalizes) has the record's own canonical form, the oracle's: random records with hostile
   * names, and one of more than 2,000 tensors.
   */
  @Test
  void anImportedTextHasTheCanonicalFormOfItsRecord() {
    org.quicktheories.QuickTheory.qt()
        .withExamples(200)
        .forAll(org.quicktheories.generators.SourceDSL.longs().all())
        .checkAssert(
            seed -> {
              EvidenceRecord r = randomRecord(seed);
              EvidenceImport.ImportedRecord ir = imported(r);
              byte[] expected = Rfc8785Oracle.canonicalize(ir.identityFreeJson());
              assertThat(EvidenceIds.canonicalize(ir.identityFreeJson())).as("seed %d", seed)
                  .isEqualTo(expected);
              assertThat(EvidenceIds.canonicalBytes(ir.record())).isEqualTo(expected);
              assertThat(EvidenceIds.mismatch(ir.record(), expected)).isEqualTo(-1);
            });
    EvidenceRecord large = TestRecords.manyTensors(2_001);
    EvidenceImport.ImportedRecord ir = imported(large);
    assertThat(EvidenceIds.idOfCanonical(EvidenceIds.canonicalize(ir.identityFreeJson())))
        .isEqualTo(large.evidenceId())
        .isEqualTo(Rfc8785Oracle.evidenceId(large));
  }

  /**
   * Hand-made texts: arrays holding strings with brackets, commas and escaped quotes, nested
   * arrays and objects, numbers the canonical form rewrites, empty arrays: the oracle's form.
   */
  @Test
  void textsWithAwkwardArraysHaveTheOraclesForm() {
    String[] texts = {
      "{\"a\":[1,[2,3],\"x,]\"],\"b\":[],\"c\":{\"d\":[1]},\"e\":[{\"k\":\"[\\\"]\"},1e3,-0.0,1.5E-7]}",
      "{\"z\":[\"\\u0000\",\"\\ud83d\\ude00\",true,null,{}],\"y\":\"[\\\"p\\\"]\",\"x\":[[[]]]}",
      "{\"a\":[1,2,3],\"b\":\"p-4-0\"}",
    };
    for (String t : texts) {
      byte[] json = t.getBytes(StandardCharsets.UTF_8);
      assertThat(new String(EvidenceIds.canonicalize(json), StandardCharsets.UTF_8)).as(t)
          .isEqualTo(new String(Rfc8785Oracle.canonicalize(json), StandardCharsets.UTF_8));
    }
  }

  private static EvidenceImport.ImportedRecord imported(EvidenceRecord r) {
    try {
      return EvidenceImport.standard().read(EvidenceJson.recordBytes(r, true)).records().get(0);
    } catch (dev.rea.core.error.ReaException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * A record with subnormal FLOAT64 metadata (a scalar, and in an array's preview) has them in
   * its canonical form as RFC 8785 writes them; the reference library alone writes 1e-320 as
   * {@code 0.0000...0001e-178}. The record's form and its imported text's form are the same.
   */
  @Test
  void subnormalMetadataIsCanonicalizedAsRfc8785WritesIt() throws Exception {
    EvidenceRecord small = TestRecords.small();
    java.util.List<MetadataRow> md = new java.util.ArrayList<>(small.metadata());
    md.add(new MetadataRow(md.size(), "x.sub", ValueType.FLOAT64, new MetadataValue.FloatValue(1e-320)));
    md.add(new MetadataRow(md.size(), "x.subs", ValueType.ARRAY,
        new MetadataValue.ArrayValue(ValueType.FLOAT64, 2,
            java.util.List.of(new MetadataValue.FloatValue(-1.23e-318), new MetadataValue.FloatValue(0.5)), true)));
    EvidenceRecord r = TestRecords.gguf(md, TestRecords.manyTensors(2_005).tensors(),
        small.limitations(), small.warnings());
    byte[] text = EvidenceJson.recordBytes(r, false);
    String library = new String(Rfc8785Oracle.library(text), StandardCharsets.UTF_8);
    assertThat(library).doesNotContain("1e-320"); // the library's own mistake
    byte[] whole = EvidenceIds.canonicalBytes(r);
    String canonical = new String(whole, StandardCharsets.UTF_8);
    assertThat(canonical).contains("\"value\":1e-320}").contains("[-1.23e-318,0.5]");
    // The library's form with only the subnormal numbers changed.
    assertThat(canonical.replace("1e-320", "X").replace("-1.23e-318", "Y"))
        .isEqualTo(library
            .replaceFirst("\"value\":[^,}]*e-178", "\"value\":X")
            .replaceFirst("\\[-1\\.23e-318,", "[Y,"));
    assertThat(EvidenceIds.canonicalize(text)).isEqualTo(whole);
    assertThat(EvidenceIds.canonicalize(imported(r).identityFreeJson())).isEqualTo(whole);
    assertThat(EvidenceIds.compute(r)).isEqualTo(EvidenceIds.idOfCanonical(whole));
  }

  /**
   * Hang guard, not a speed goal: 64,000 subnormal numbers in a text (each takes a search for
   * its shortest digits; placeholders searched one at a time once took minutes).
   */
  @Test
  @org.junit.jupiter.api.Timeout(value = 2, unit = java.util.concurrent.TimeUnit.MINUTES)
  void tensOfThousandsOfSubnormalsAreWrittenQuickly() {
    int n = 64_000;
    StringBuilder json = new StringBuilder("{\"b\":[");
    StringBuilder expected = new StringBuilder("{\"a\":\"x\",\"b\":[");
    for (int i = 0; i < n; i++) {
      String sep = i == 0 ? "" : ",";
      json.append(sep).append(i % 2 == 0 ? "4.9e-324" : "-1e-320");
      expected.append(sep).append(i % 2 == 0 ? "5e-324" : "-1e-320");
    }
    json.append("],\"a\":\"x\"}");
    expected.append("]}");
    byte[] out = EvidenceIds.canonicalize(json.toString().getBytes(StandardCharsets.UTF_8));
    assertThat(new String(out, StandardCharsets.UTF_8)).isEqualTo(expected.toString());
  }

  /** A record with a large metadata array of awkward strings: the oracle's bytes. */
  @Test
  void aRecordWithManyMetadataRowsHasTheOraclesForm() {
    EvidenceRecord small = TestRecords.small();
    java.util.List<MetadataRow> md = new java.util.ArrayList<>();
    for (int i = 0; i < 2_003; i++) {
      md.add(TestRecords.string(i, "k." + i, "v [\"" + i + "\"], {x}"));
    }
    EvidenceRecord r = TestRecords.gguf(md, small.tensors(), small.limitations(), small.warnings());
    assertThat(EvidenceIds.canonicalBytes(r)).isEqualTo(Rfc8785Oracle.canonicalRecord(r));
    assertThat(r.evidenceId()).isEqualTo(Rfc8785Oracle.evidenceId(r));
  }
}
