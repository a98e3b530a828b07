package dev.rea.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.detect.FormatDetector;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The server advises in its tools' terms, keeps everything but the message, only for slips. */
class AdviceTest {
  @Test
  void savedEvidenceGivenAsAModelIsAdvised() {
    byte[] head = "{\"schema\":\"rea.bundle.v1\",\"records\":[]}".getBytes(StandardCharsets.UTF_8);
    ReaException e = null;
    try {
      FormatDetector.detect(head, head.length, head.length);
    } catch (ReaException detected) {
      e = detected.withPath("/data/ev.json");
    }
    assertThat(e).as("saved Evidence refused as a model").isNotNull();
    ReaException advised = Advice.advise(e);
    assertThat(advised.getMessage())
        .startsWith(e.getMessage() + ": ")
        .contains("inspect_analysis_view and source {kind: \"evidence-file\", path}")
        .doesNotContain("--source");
    assertThat(advised.constraint()).isEqualTo(Constraint.UNSUPPORTED_FORMAT);
    assertThat(advised.path()).isEqualTo("/data/ev.json");
    assertThat(advised.diagnostics()).isEqualTo(e.diagnostics());
  }

  @Test
  void aModelGivenAsEvidenceIsAdvised() {
    ReaException e =
        ReaException.builder(
                Constraint.EVIDENCE_REJECTED, "this is a GGUF model file, not saved Evidence")
            .diagnostic("detected", "gguf")
            .build();
    assertThat(Advice.advise(e).getMessage())
        .startsWith(e.getMessage() + ": inspect it with inspect_model_artifact")
        .doesNotContain("--evidence_output")
        .doesNotContain("inspect-model-artifact");
  }

  @Test
  void aDirectoryGivenToTheInspectionIsSentToTheSetTool() {
    ReaException dir =
        ReaException.builder(Constraint.NOT_REGULAR_FILE, "the path is a directory: /models/m")
            .path("/models/m")
            .build();
    ReaException advised = Advice.forInspection(dir);
    assertThat(advised.getMessage())
        .startsWith("the path is a directory: /models/m: ")
        .contains("inspect_model_set and the same path");
    assertThat(advised.path()).isEqualTo("/models/m");
    ReaException fifo = ReaException.builder(Constraint.NOT_REGULAR_FILE, "the path is a FIFO").build();
    assertThat(Advice.forInspection(fifo)).isSameAs(fifo);
  }

  @Test
  void otherFailuresAreLeftAsTheyAre() {
    ReaException plain = ReaException.builder(Constraint.NOT_FOUND, "no such file: /x").build();
    assertThat(Advice.advise(plain)).isSameAs(plain);
  }
}
