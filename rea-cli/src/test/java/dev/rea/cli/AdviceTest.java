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

  /** A directory of two GGUF models and a config.json: check points at DIR/*.gguf and scan. */
  @Test
  void aDirectoryOfSeveralModelsPointsAtAPatternAndScan(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    for (String name : new String[] {"a.gguf", "b.gguf"}) {
      java.nio.file.Files.write(
          dir.resolve(name),
          dev.rea.core.internal.format.gguf.GgufBuilder.v3()
              .kv("general.architecture", dev.rea.core.internal.format.gguf.GgufBuilder.str(name))
              .bytes());
    }
    java.nio.file.Files.writeString(dir.resolve("config.json"), "{}");
    CliRunner.Result r = CliRunner.run("check", dir.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out())
        .contains("ambiguous_set: the directory holds 2 models, not one: a.gguf, b.gguf")
        .contains("check DIR/*.gguf checks each of them (not DIR/*, which names its other files"
            + " too), scan DIR every model below it");
    // The pattern the advice gives checks both models and nothing else.
    CliRunner.Result each =
        CliRunner.run("check", dir.resolve("a.gguf").toString(), dir.resolve("b.gguf").toString());
    assertThat(each.status()).as(each.out()).isZero();
  }

  /** Units of no model extension (detected by content) are named, not matched by a pattern. */
  @Test
  void unitsWithoutAModelExtensionAreNamed() {
    ReaException e =
        ReaException.builder(Constraint.AMBIGUOUS_SET, "the directory holds 2 models, not one")
            .diagnostic("units", java.util.List.of("a.gguf", "weights.bin"))
            .build();
    assertThat(Advice.advise(e).getMessage()).contains(": check DIR/NAME... checks each model named");
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
