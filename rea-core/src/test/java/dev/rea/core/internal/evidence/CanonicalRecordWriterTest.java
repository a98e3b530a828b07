package dev.rea.core.internal.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.internal.canonical.CanonicalSink;
import dev.rea.core.testing.RandomRecords;
import dev.rea.core.testing.Rfc8785Oracle;
import dev.rea.core.testing.TestRecords;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.generators.SourceDSL;

/**
 * REA's canonical writer gives, for any record, the bytes the RFC 8785 reference library gives
 * for the JSON text {@link EvidenceJson} writes (the oracle, {@link Rfc8785Oracle}).
 */
class CanonicalRecordWriterTest {
  private static byte[] written(EvidenceRecord r) {
    CanonicalSink sink = CanonicalSink.toBytes(256);
    CanonicalRecordWriter.write(r, sink);
    return sink.bytes();
  }

  private static String text(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  /**
   * Random records: every field varied, every value type with nested arrays, strings with
   * controls, quotes, U+2028 and astral characters, integers beyond 2^53, special, subnormal and
   * extreme floats, optional members present and absent.
   */
  @Test
  void randomRecordsAreWrittenAsTheOracleCanonicalizesTheirJson() {
    QuickTheory.qt()
        .withExamples(2_000)
        .forAll(SourceDSL.longs().all())
        .checkAssert(
            seed -> {
              EvidenceRecord r = RandomRecords.of(seed);
              assertThat(text(written(r)))
                  .as("seed %d", seed)
                  .isEqualTo(text(Rfc8785Oracle.canonicalRecord(r)));
            });
  }

  /** One value of each kind, with the canonical text it must have (and the oracle agrees). */
  @Test
  void everyValueTypeIsWrittenInItsCanonicalForm() {
    Object[][] cases = {
      {ValueType.UINT8, new MetadataValue.IntegerValue(255), "255"},
      {ValueType.INT8, new MetadataValue.IntegerValue(-128), "-128"},
      {ValueType.UINT32, new MetadataValue.IntegerValue(4294967295L), "4294967295"},
      // Not a value a reader produces, but a JSON number beyond 2^53 reads as a double.
      {ValueType.INT32, new MetadataValue.IntegerValue((1L << 53) + 1), "9007199254740992"},
      {ValueType.UINT64, new MetadataValue.IntegerValue(-1L), "\"18446744073709551615\""},
      {ValueType.INT64, new MetadataValue.IntegerValue(Long.MIN_VALUE), "\"-9223372036854775808\""},
      {ValueType.FLOAT32, new MetadataValue.FloatValue(1.0e-5f), "0.00001"},
      {ValueType.FLOAT32, new MetadataValue.FloatValue(0.1f), "0.1"},
      {ValueType.FLOAT32, new MetadataValue.FloatValue(Float.MIN_VALUE), "1.4e-45"},
      {ValueType.FLOAT32, new MetadataValue.FloatValue(Float.MAX_VALUE), "3.4028235e+38"},
      {ValueType.FLOAT32, new MetadataValue.FloatValue(16777217f), "16777216"},
      {ValueType.FLOAT32, new MetadataValue.FloatValue(-0.0), "\"-0\""},
      {ValueType.FLOAT32, new MetadataValue.FloatValue(Float.NaN), "\"NaN\""},
      {ValueType.FLOAT64, new MetadataValue.FloatValue(1e-320), "1e-320"},
      {ValueType.FLOAT64, new MetadataValue.FloatValue(Double.MIN_VALUE), "5e-324"},
      {ValueType.FLOAT64, new MetadataValue.FloatValue(1e21), "1e+21"},
      {ValueType.FLOAT64, new MetadataValue.FloatValue(123e18), "123000000000000000000"},
      {ValueType.FLOAT64, new MetadataValue.FloatValue(1e-7), "1e-7"},
      {ValueType.FLOAT64, new MetadataValue.FloatValue(0.000001), "0.000001"},
      {ValueType.FLOAT64, new MetadataValue.FloatValue(Double.POSITIVE_INFINITY), "\"+Infinity\""},
      {ValueType.FLOAT64, new MetadataValue.FloatValue(Double.NEGATIVE_INFINITY), "\"-Infinity\""},
      {ValueType.FLOAT64, new MetadataValue.FloatValue(-0.0), "\"-0\""},
      {ValueType.FLOAT64, new MetadataValue.FloatValue(0.0), "0"},
      {ValueType.BOOL, new MetadataValue.BoolValue(false), "false"},
      {ValueType.STRING, new MetadataValue.StringValue("\u0000\u001f\"\\/\u007f\u2028\ud83d\ude00\b\t\n\f\r"),
          "\"\\u0000\\u001f\\\"\\\\/\u007f\u2028\ud83d\ude00\\b\\t\\n\\f\\r\""},
    };
    for (Object[] c : cases) {
      EvidenceRecord r = TestRecords.gguf(
          List.of(new MetadataRow(0, "k", (ValueType) c[0], (MetadataValue) c[1])),
          List.of(), List.of(), List.of());
      String canonical = text(written(r));
      assertThat(canonical).as("%s %s", c[0], c[1])
          .contains("\"metadata\":[{\"index\":0,\"key\":\"k\",\"type\":\"" + c[0] + "\",\"value\":"
              + c[2] + "}]")
          .isEqualTo(text(Rfc8785Oracle.canonicalRecord(r)));
    }
  }

  /** The RFC's reference library alone writes 1e-320 wrongly; REA writes it as RFC 8785 does. */
  @Test
  void subnormalsAreWrittenAsTheRfcSaysWhereTheLibraryErrs() {
    EvidenceRecord r = TestRecords.gguf(
        List.of(new MetadataRow(0, "k", ValueType.FLOAT64, new MetadataValue.FloatValue(1e-320))),
        List.of(), List.of(), List.of());
    assertThat(text(Rfc8785Oracle.library(EvidenceJson.recordBytes(r, false))))
        .doesNotContain("1e-320");
    assertThat(text(written(r))).contains("\"value\":1e-320}");
  }

  /** Nested arrays: the preview of an ARRAY of ARRAY holds objects without index, key or type. */
  @Test
  void nestedArraysAreObjectsInThePreview() {
    EvidenceRecord small = TestRecords.small();
    String canonical = text(written(small));
    assertThat(canonical).contains("{\"count\":\"1\",\"element_type\":\"ARRAY\",\"index\":12,"
        + "\"key\":\"test.nested\",\"preview\":[{\"count\":\"2\",\"element_type\":\"INT32\","
        + "\"preview\":[1,-2],\"preview_complete\":true}],\"preview_complete\":true,"
        + "\"type\":\"ARRAY\"}");
    assertThat(canonical).isEqualTo(text(Rfc8785Oracle.canonicalRecord(small)));
  }

  /**
   * A large record (its canonical form megabytes long) is the same through every sink: collected
   * whole, fed to SHA-256 in chunks, compared with the expected bytes.
   */
  @Test
  void everySinkSeesTheSameBytes() throws Exception {
    EvidenceRecord big = TestRecords.manyTensors(20_000);
    byte[] expected = Rfc8785Oracle.canonicalRecord(big);
    assertThat(expected.length).isGreaterThan(4_000_000);
    assertThat(written(big)).isEqualTo(expected);

    MessageDigest md = MessageDigest.getInstance("SHA-256");
    CanonicalSink digest = CanonicalSink.toDigest(md);
    CanonicalRecordWriter.write(big, digest);
    digest.finish();
    assertThat(HexFormat.of().formatHex(md.digest()))
        .isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(expected)));

    CanonicalSink same = CanonicalSink.comparingWith(expected);
    CanonicalRecordWriter.write(big, same);
    same.finish();
    assertThat(same.mismatch()).isEqualTo(-1);
    CanonicalSink longer = CanonicalSink.comparingWith(java.util.Arrays.copyOf(expected, expected.length + 1));
    CanonicalRecordWriter.write(big, longer);
    longer.finish();
    assertThat(longer.mismatch()).isEqualTo(expected.length);
    CanonicalSink shorter = CanonicalSink.comparingWith(java.util.Arrays.copyOf(expected, 1000));
    CanonicalRecordWriter.write(big, shorter);
    shorter.finish();
    assertThat(shorter.mismatch()).isEqualTo(1000);
  }

  /** No record REA reads holds an unpaired surrogate; one in a record built in code is refused. */
  @Test
  void anUnpairedSurrogateIsRefused() {
    EvidenceRecord s = TestRecords.small();
    List<TensorRow> rows = new ArrayList<>(s.tensors());
    rows.set(0, TestRecords.f32(0, "w\ud800", 0, 8, 4));
    EvidenceRecord r = new EvidenceRecord(s.schema(), null, s.operation(), s.status(),
        s.observedAt(), s.request(), s.subject(), s.artifact(), s.formatFacts(), s.metadata(),
        rows, s.types(), s.totals(), s.coverage(), s.limitations(), s.warnings(), null);
    assertThatThrownBy(() -> written(r))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unpaired surrogate U+D800");
  }
}
