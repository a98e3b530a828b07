package dev.rea.core.internal.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.Rea;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.options.Limits;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file over the Evidence limit is refused by its size before it is read when it starts as
 * REA's own JSON; only a file that may be a DSSE envelope (Evidence in base64, a third larger)
 * is read up to the envelope's limit.
 */
class EvidenceFileLimitTest {
  @TempDir Path dir;
  @TempDir Path home;

  @Test
  void aReaBundleOverTheLimitIsRefusedByItsSizeAtTheEvidenceLimit() throws Exception {
    Rea rea = Rea.builder().home(home)
        .limits(Limits.builder().retainedBudgetBytes(1000).evidenceInputBytes(1000).build()).build();
    Path bundle = Files.writeString(dir.resolve("b.json"),
        "{\"schema\":\"rea.bundle.v1\",\"records\":[" + " ".repeat(2000) + "]}");
    assertThatThrownBy(() -> rea.readEvidence(bundle))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.EVIDENCE_REJECTED);
          assertThat(e.diagnostics()).containsEntry("limit_bytes", "1000");
          assertThat(e.getMessage()).contains("the file holds");
        });
    // Not REA's JSON at its start: may be an envelope, so its own (larger) limit applies.
    Path other = Files.writeString(dir.resolve("e.json"),
        "{\"payloadType\":\"application/vnd.in-toto+json\"," + " ".repeat(2000) + "}");
    // ("the file holds ..." is the refusal by size before reading.)
    assertThatThrownBy(() -> rea.readEvidence(other))
        .isInstanceOfSatisfying(ReaException.class,
            e -> assertThat(e.getMessage()).doesNotContain("the file holds"));
  }
}
