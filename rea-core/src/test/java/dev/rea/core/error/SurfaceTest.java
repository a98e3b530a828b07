package dev.rea.core.error;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.internal.detect.FormatDetector;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Each surface advises in its own terms, keeps everything but the message, and only for slips. */
class SurfaceTest {
  private static ReaException savedEvidenceAsModel() {
    byte[] head = "{\"schema\":\"rea.bundle.v1\",\"records\":[]}".getBytes(StandardCharsets.UTF_8);
    try {
      FormatDetector.detect(head, head.length, head.length);
    } catch (ReaException e) {
      return e.withPath("/data/ev.json");
    }
    throw new AssertionError("saved Evidence was detected as a model");
  }

  @Test
  void savedEvidenceGivenAsAModelIsAdvisedPerSurface() {
    ReaException e = savedEvidenceAsModel();
    ReaException cli = Surface.CLI.advise(e);
    ReaException mcp = Surface.MCP.advise(e);
    assertThat(cli.getMessage())
        .startsWith(e.getMessage() + ": ")
        .contains("inspect-analysis-view --source FILE");
    assertThat(mcp.getMessage())
        .startsWith(e.getMessage() + ": ")
        .contains("inspect_analysis_view and source {kind: \"evidence-file\", path}")
        .doesNotContain("--source");
    for (ReaException advised : new ReaException[] {cli, mcp}) {
      assertThat(advised.constraint()).isEqualTo(Constraint.UNSUPPORTED_FORMAT);
      assertThat(advised.path()).isEqualTo("/data/ev.json");
      assertThat(advised.field()).isEqualTo(e.field());
      assertThat(advised.offset()).isEqualTo(e.offset());
      assertThat(advised.diagnostics()).isEqualTo(e.diagnostics());
    }
  }

  @Test
  void aModelGivenAsEvidenceIsAdvisedPerSurface() {
    ReaException e =
        ReaException.builder(
                Constraint.EVIDENCE_REJECTED, "this is a GGUF model file, not saved Evidence")
            .diagnostic("detected", "gguf")
            .build();
    assertThat(Surface.CLI.advise(e).getMessage())
        .startsWith(e.getMessage() + ": inspect it with inspect-model-artifact")
        .contains("--evidence_output FILE");
    assertThat(Surface.MCP.advise(e).getMessage())
        .startsWith(e.getMessage() + ": inspect it with inspect_model_artifact")
        .doesNotContain("--evidence_output")
        .doesNotContain("inspect-model-artifact");
  }

  @Test
  void otherFailuresAreLeftAsTheyAre() {
    ReaException plain = ReaException.builder(Constraint.NOT_FOUND, "no such file: /x").build();
    assertThat(Surface.CLI.advise(plain)).isSameAs(plain);
    ReaException zip =
        ReaException.builder(Constraint.UNSUPPORTED_FORMAT, "unsupported format: a ZIP archive")
            .diagnostic("detected", "zip")
            .build();
    assertThat(Surface.MCP.advise(zip)).isSameAs(zip);
  }
}
