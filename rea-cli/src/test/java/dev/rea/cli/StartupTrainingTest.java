package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** The launcher's training run exercises the commands successfully and writes only in its directory. */
class StartupTrainingTest {
  @TempDir Path dir;

  @Test
  void everyTrainingCommandGivesItsExpectedStatusInsideTheGivenDirectory() throws Exception {
    assertThat(StartupTraining.train(dir)).isTrue();
    // REA_HOME pointed into the directory: the signing key of the --json runs was made there.
    try (Stream<Path> s = Files.walk(dir.resolve("home"))) {
      assertThat(s.filter(Files::isRegularFile).map(p -> p.getFileName().toString()))
          .anyMatch(n -> n.contains("signing-key"));
    }
    assertThat(dir.resolve("evidence.json")).isRegularFile();
  }

  /**
   * The training files are what the launcher's recording needs them to be: complete, valid
   * inspections (so the recorded run loads the classes of a whole inspection, not of an error)
   * with exactly the declarations they were written with.
   */
  @Test
  void trainingFilesInspectCleanlyWithTheirDeclarations() throws Exception {
    Path g = Files.write(dir.resolve("t.gguf"), StartupTraining.tinyGguf());
    JsonNode gguf = record(g);
    assertThat(gguf.get("artifact").get("format").asString()).isEqualTo("gguf");
    assertThat(gguf.get("metadata")).hasSize(2);
    assertThat(gguf.get("metadata").get(0).get("key").asString()).isEqualTo("general.architecture");
    assertThat(gguf.get("metadata").get(0).get("value").asString()).isEqualTo("llama");
    assertThat(gguf.get("metadata").get(1).get("key").asString()).isEqualTo("tokenizer.ggml.tokens");
    assertThat(gguf.get("tensors")).hasSize(1);
    JsonNode w = gguf.get("tensors").get(0);
    assertThat(w.get("name").asString()).isEqualTo("w");
    assertThat(w.get("type").asString()).isEqualTo("F32");
    assertThat(w.get("shape").toString()).isEqualTo("[\"8\"]");
    assertThat(w.get("byte_length").asString()).isEqualTo("32");
    assertThat(w.get("storage_validation").asString()).isEqualTo("consistent");

    Path s = Files.write(dir.resolve("t.safetensors"), StartupTraining.tinySafetensors());
    JsonNode st = record(s);
    assertThat(st.get("artifact").get("format").asString()).isEqualTo("safetensors");
    assertThat(st.get("metadata").toString())
        .isEqualTo("[{\"index\":0,\"key\":\"format\",\"type\":\"STRING\",\"value\":\"pt\"}]");
    assertThat(st.get("tensors")).hasSize(1);
    assertThat(st.get("tensors").get(0).get("shape").toString()).isEqualTo("[\"2\"]");
    assertThat(st.get("tensors").get(0).get("storage_validation").asString()).isEqualTo("consistent");
  }

  /** The one record of {@code --json}, after checking that the inspection is complete and clean. */
  private JsonNode record(Path file) {
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", file.toString(), "--json");
    assertThat(r.status()).as("stderr: %s", r.err()).isZero();
    JsonNode record = r.json().get("records").get(0);
    assertThat(record.get("status").asString()).isEqualTo("complete");
    assertThat(record.get("warnings")).isEmpty();
    assertThat(record.get("limitations")).isEmpty();
    return record;
  }
}
