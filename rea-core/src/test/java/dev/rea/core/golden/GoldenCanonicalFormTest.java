package dev.rea.core.golden;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.testing.Rfc8785Oracle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * On every file the golden test inspects (the sample, every committed model file and fuzz seed,
 * and with {@code REA_CORPUS} or {@code ../shared/corpus} every corpus file), in both hash modes,
 * complete and partial records alike: REA's canonical form of the record is byte for byte the
 * RFC 8785 reference library's form of the record's JSON ({@link Rfc8785Oracle}), and its
 * evidence ID is the SHA-256 of that.
 */
class GoldenCanonicalFormTest {
  @TestFactory
  Stream<DynamicTest> committedFiles() throws IOException {
    return tests(GoldenEvidenceTest.committedInputs());
  }

  @TestFactory
  Stream<DynamicTest> sharedCorpusFiles() throws IOException {
    return tests(GoldenEvidenceTest.sharedInputs());
  }

  private static Stream<DynamicTest> tests(List<GoldenEvidenceTest.Input> inputs) {
    return inputs.stream()
        .map(
            in ->
                DynamicTest.dynamicTest(
                    in.name(),
                    () -> {
                      List<EvidenceRecord> records = GoldenRun.records(in.name(), in.bytes());
                      for (EvidenceRecord r : records) {
                        byte[] oracle = Rfc8785Oracle.canonicalRecord(r);
                        assertThat(new String(EvidenceIds.canonicalBytes(r), StandardCharsets.UTF_8))
                            .as(in.name())
                            .isEqualTo(new String(oracle, StandardCharsets.UTF_8));
                        assertThat(EvidenceIds.compute(r)).isEqualTo(Rfc8785Oracle.evidenceId(r));
                      }
                    }));
  }
}
