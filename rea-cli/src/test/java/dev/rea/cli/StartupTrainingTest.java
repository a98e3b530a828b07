package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

  @Test
  void trainingFilesAreValidInputs() {
    byte[] g = StartupTraining.tinyGguf();
    assertThat(new String(g, 0, 4, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("GGUF");
    assertThat(g.length % 32).isZero();
    byte[] s = StartupTraining.tinySafetensors();
    assertThat(s[8]).isEqualTo((byte) '{');
  }
}
