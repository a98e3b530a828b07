package dev.rea.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.options.InspectOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Rea#summaryJson(EvidenceRecord)} equals the summary of the indexed Evidence. */
class RecordSummaryTest {
  @TempDir Path dir;

  @Test
  void aRecordsSummaryEqualsTheIndexedOnesForCompleteAndPartialRecords() throws Exception {
    Rea rea = Rea.builder().home(dir.resolve("home")).build();
    Path sample = Path.of("").toAbsolutePath();
    while (!Files.isDirectory(sample.resolve("samples"))) {
      sample = sample.getParent();
    }
    EvidenceRecord complete =
        rea.inspect(sample.resolve("samples/sample-mixed.gguf"), InspectOptions.defaults()).orThrow();
    assertThat(rea.summaryJson(complete)).isEqualTo(rea.summaryJson(rea.evidence(complete), null));

    byte[] whole =
        GgufBuilder.v3()
            .kv("general.architecture", GgufBuilder.str("llama"))
            .tensor("w", 0, 4)
            .build()
            .bytes();
    EvidenceRecord signed = rea.sign(complete);
    assertThat(new String(rea.summaryJson(signed), java.nio.charset.StandardCharsets.UTF_8))
        .contains("\"parent_evidence_id\":\"" + complete.evidenceId() + "\"");
    Path p = Files.write(dir.resolve("m.gguf"), Arrays.copyOf(whole, whole.length));
    EvidenceRecord other = rea.inspect(p, InspectOptions.defaults()).orThrow();
    assertThat(rea.summaryJson(other)).isEqualTo(rea.summaryJson(rea.evidence(other), null));
    assertThat(rea.summaryJson(other)).isNotEqualTo(rea.summaryJson(complete));
  }

  @Test
  void aRecordWithoutAnIdIsRefused() throws Exception {
    Rea rea = Rea.standard();
    Path p =
        Files.write(
            dir.resolve("m.gguf"),
            GgufBuilder.v3().kv("general.architecture", GgufBuilder.str("x")).build().bytes());
    EvidenceRecord r = rea.inspect(p, InspectOptions.defaults()).orThrow();
    EvidenceRecord noId =
        new EvidenceRecord(
            r.schema(), null, r.operation(), r.status(), r.observedAt(), r.request(), r.subject(),
            r.artifact(), r.formatFacts(), r.metadata(), r.tensors(), r.types(), r.totals(),
            r.coverage(), r.limitations(), r.warnings(), null);
    assertThatThrownBy(() -> rea.summaryJson(noId)).isInstanceOf(IllegalArgumentException.class);
  }
}
