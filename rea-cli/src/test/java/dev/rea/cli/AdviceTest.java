package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.detect.FormatDetector;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The command line advises in its own terms, keeps everything but the message, only for slips. */
class AdviceTest {
  static ReaException savedEvidenceAsModel() {
    byte[] head = "{\"schema\":\"rea.bundle.v1\",\"records\":[]}".getBytes(StandardCharsets.UTF_8);
    try {
      FormatDetector.detect(head, head.length, head.length);
    } catch (ReaException e) {
      return e.withPath("/data/ev.json");
    }
    throw new AssertionError("saved Evidence was detected as a model");
  }

  @Test
  void savedEvidenceGivenAsAModelIsAdvised() {
    ReaException e = savedEvidenceAsModel();
    ReaException advised = Advice.advise(e);
    assertThat(advised.getMessage())
        .startsWith(e.getMessage() + ": ")
        .contains("inspect-analysis-view --source FILE");
    assertThat(advised.constraint()).isEqualTo(Constraint.UNSUPPORTED_FORMAT);
    assertThat(advised.path()).isEqualTo("/data/ev.json");
    assertThat(advised.field()).isEqualTo(e.field());
    assertThat(advised.offset()).isEqualTo(e.offset());
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
        .startsWith(e.getMessage() + ": inspect it with inspect-model-artifact")
        .contains("--evidence_output FILE");
  }

  /** A directory whose models sit in subdirectories: the set command points at scan. */
  @Test
  void aDirectoryOfModelDirectoriesPointsAtScan(@org.junit.jupiter.api.io.TempDir java.nio.file.Path root)
      throws Exception {
    java.nio.file.Path sub = java.nio.file.Files.createDirectories(root.resolve("a"));
    java.nio.file.Files.write(
        sub.resolve("m.gguf"),
        dev.rea.core.internal.format.gguf.GgufBuilder.v3()
            .kv("general.architecture", dev.rea.core.internal.format.gguf.GgufBuilder.str("llama"))
            .bytes());
    CliRunner.Result r = CliRunner.run("inspect-model-set", root.toString());
    assertThat(r.status()).isEqualTo(3);
    assertThat(r.err())
        .contains("the directory holds no GGUF file, safetensors file or safetensors index")
        .contains("models in the directories below it are found by scan DIR");
  }

  @Test
  void otherFailuresAreLeftAsTheyAre() {
    ReaException plain = ReaException.builder(Constraint.NOT_FOUND, "no such file: /x").build();
    assertThat(Advice.advise(plain)).isSameAs(plain);
    ReaException zip =
        ReaException.builder(Constraint.UNSUPPORTED_FORMAT, "unsupported format: a ZIP archive")
            .diagnostic("detected", "zip")
            .build();
    assertThat(Advice.advise(zip)).isSameAs(zip);
  }

  /** An empty directory is advised once, whether or not the failure was advised on its way. */
  @Test
  void anEmptyDirectoryIsAdvisedOnce(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    CliRunner.Result r = CliRunner.run("inspect-model-set", dir.toString());
    assertThat(r.status()).isEqualTo(3);
    String advice = "models in the directories below it are found by scan DIR";
    assertThat(r.err()).contains(advice);
    assertThat(r.err().indexOf(advice)).isEqualTo(r.err().lastIndexOf(advice));
  }
}
