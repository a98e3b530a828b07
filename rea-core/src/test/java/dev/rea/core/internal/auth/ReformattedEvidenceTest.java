package dev.rea.core.internal.auth;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.evidence.EvidenceImport;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.testing.JsonReformatter;
import dev.rea.core.testing.RandomRecords;
import dev.rea.core.testing.RandomText;
import dev.rea.core.testing.Rfc8785Oracle;
import dev.rea.core.testing.TestRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quicktheories.QuickTheory;
import org.quicktheories.generators.SourceDSL;

/**
 * Evidence read back is canonicalized as the text it is (EvidenceIds.canonicalize), not as the
 * record import builds from it: import reads a FLOAT32 number as a float, so it accepts texts
 * whose canonical form is not the record's (excess digits). What the two paths must agree on,
 * they do: a signed record rewritten in any way that keeps its meaning (whitespace, member order,
 * number spellings, escapes) verifies, and is read back as the same record.
 */
class ReformattedEvidenceTest {
  @TempDir Path tmp;
  EvidenceSigner signer;
  EvidenceVerifier verifier;

  @BeforeEach
  void setUp() throws ReaException {
    KeyRing ring = KeyRing.open(tmp.resolve("home"));
    signer = new EvidenceSigner(ring);
    verifier = EvidenceVerifier.standard(ring);
  }

  @Test
  void rewrittenSignedRecordsVerifyAsTheSameRecord() {
    QuickTheory.qt()
        .withExamples(150)
        .forAll(SourceDSL.longs().all())
        .checkAssert(
            seed -> {
              Random r = new Random(seed);
              EvidenceRecord signed = signer.sign(consistentRecord(r));
              byte[] text = EvidenceJson.recordBytes(signed, true);
              byte[] rewritten =
                  JsonReformatter.reformat(text, r, JsonReformatter.Options.IMPORTABLE);
              assertThat(rewritten).isNotEqualTo(text);
              try {
                EvidenceImport.ImportedRecord ir =
                    EvidenceImport.standard().read(rewritten).records().get(0);
                byte[] canonical = EvidenceIds.canonicalize(ir.identityFreeJson());
                assertThat(canonical)
                    .isEqualTo(Rfc8785Oracle.canonicalize(ir.identityFreeJson()))
                    .isEqualTo(EvidenceIds.canonicalBytes(signed));
                assertThat(verifier.importVerified(rewritten).records())
                    .as("seed %d: %s", seed, new String(rewritten, StandardCharsets.UTF_8))
                    .containsExactly(signed);
              } catch (ReaException e) {
                throw new AssertionError("seed " + seed + ": " + e.getMessage() + " in "
                    + new String(rewritten, StandardCharsets.UTF_8), e);
              }
            });
  }

  /**
   * The import accepts a FLOAT32 written with excess digits (it reads the float), yet the text's
   * canonical form is not the record's: why the text path stays.
   */
  @Test
  void importAcceptsAFloat32SpellingWhoseCanonicalFormIsNotTheRecords() throws ReaException {
    EvidenceRecord signed = signer.sign(TestRecords.small());
    String text = new String(EvidenceJson.recordBytes(signed, true), StandardCharsets.UTF_8);
    String excess = text.replace("\"value\":1.0E-5", "\"value\":9.99999974737875E-6");
    assertThat(excess).isNotEqualTo(text);
    EvidenceImport.ImportedRecord ir =
        EvidenceImport.standard().read(excess.getBytes(StandardCharsets.UTF_8)).records().get(0);
    assertThat(ir.record()).isEqualTo(signed);
    byte[] textForm = EvidenceIds.canonicalize(ir.identityFreeJson());
    assertThat(new String(textForm, StandardCharsets.UTF_8)).contains("\"value\":0.00000999999974737875}");
    assertThat(EvidenceIds.mismatch(ir.record(), textForm)).isNotNegative();
  }

  /**
   * A consistent GGUF record: metadata of every value type (random values in range, special and
   * subnormal floats, nested arrays with consistent previews), tensors with awkward unique names.
   */
  private static EvidenceRecord consistentRecord(Random r) {
    List<MetadataRow> md = new ArrayList<>();
    for (int i = 0; i < 14; i++) {
      ValueType t = ValueType.values()[r.nextInt(ValueType.values().length)];
      md.add(new MetadataRow(i, "k" + i + RandomRecords.text(r), t, value(r, t, 1)));
    }
    List<TensorRow> tensors = new ArrayList<>();
    for (int i = 0; i < 1 + r.nextInt(6); i++) {
      tensors.add(TestRecords.f32(i, RandomText.of(r, RandomRecords.CHARS, 8) + "#" + i,
          64L * i, 1 + r.nextInt(4), 4));
    }
    return TestRecords.gguf(md, tensors, List.of(), TestRecords.small().warnings());
  }

  private static MetadataValue value(Random r, ValueType t, int level) {
    switch (t) {
      case UINT8:
        return new MetadataValue.IntegerValue(r.nextInt(256));
      case INT8:
        return new MetadataValue.IntegerValue(r.nextInt(256) - 128);
      case UINT16:
        return new MetadataValue.IntegerValue(r.nextInt(65536));
      case INT16:
        return new MetadataValue.IntegerValue(r.nextInt(65536) - 32768);
      case UINT32:
        return new MetadataValue.IntegerValue(r.nextInt() & 0xFFFF_FFFFL);
      case INT32:
        return new MetadataValue.IntegerValue(r.nextInt());
      case UINT64:
      case INT64:
        return new MetadataValue.IntegerValue(RandomRecords.longValue(r));
      case FLOAT32:
        return new MetadataValue.FloatValue(RandomRecords.floatValue(r));
      case FLOAT64:
        return new MetadataValue.FloatValue(RandomRecords.doubleValue(r));
      case BOOL:
        return new MetadataValue.BoolValue(r.nextBoolean());
      case STRING:
        return new MetadataValue.StringValue(RandomRecords.text(r));
      default:
        ValueType element = ValueType.values()[r.nextInt(ValueType.values().length)];
        if (level >= 3 && element == ValueType.ARRAY) {
          element = ValueType.INT32;
        }
        List<MetadataValue> preview = new ArrayList<>();
        for (int i = r.nextInt(5); i > 0; i--) {
          preview.add(value(r, element, level + 1));
        }
        boolean complete = r.nextBoolean();
        long count = complete ? preview.size() : preview.size() + 1 + r.nextInt(1000);
        return new MetadataValue.ArrayValue(element, count, preview, complete);
    }
  }
}
