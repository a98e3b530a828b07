package dev.rea.core.golden;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.internal.format.safetensors.SafetensorsCorpus;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The Evidence REA gives for a fixed set of files, compared byte for byte with recordings made
 * before the library was reshaped: every committed model file of the test resources, every fuzz
 * seed, the shipped sample and (when {@code ../shared/corpus} is present) every corpus file. Each
 * is inspected in memory at a fixed path with a fixed identity, clock and signing key ({@link
 * GoldenRun}), with both hash modes; the recording holds the signed bundle or the error object
 * (with signed partial Evidence) and the summary of each.
 *
 * <p>To record again (only when a change of output is intended and explained in the commit):
 * {@code ./mvnw -pl rea-core test -Dtest=GoldenEvidenceTest -Drea.golden.record=true}.
 */
class GoldenEvidenceTest {
  private static final boolean RECORD = Boolean.getBoolean("rea.golden.record");

  @TestFactory
  Stream<DynamicTest> committedFilesGiveTheRecordedEvidence() throws IOException {
    return tests(committedInputs(), "committed");
  }

  @TestFactory
  Stream<DynamicTest> sharedCorpusFilesGiveTheRecordedEvidence() throws IOException {
    return tests(sharedInputs(), "shared");
  }

  /** Every model file of {@code ../shared/corpus} (the test is skipped without it). */
  static List<Input> sharedInputs() throws IOException {
    Optional<Path> corpus = SafetensorsCorpus.sharedDirectory().map(Path::getParent);
    Assumptions.assumeTrue(corpus.isPresent(), SafetensorsCorpus.skipped());
    List<Input> inputs = new ArrayList<>();
    try (Stream<Path> files = Files.walk(corpus.get())) {
      for (Path p : files.filter(Files::isRegularFile).sorted().toList()) {
        String name = corpus.get().relativize(p).toString();
        if (name.endsWith(".gguf") || name.endsWith(".safetensors")) {
          inputs.add(new Input(name, p));
        }
      }
    }
    assertThat(inputs).hasSizeGreaterThan(50);
    return inputs;
  }

  private static Stream<DynamicTest> tests(List<Input> inputs, String group) {
    Path dir = recordings().resolve(group);
    return inputs.stream()
        .map(
            in ->
                DynamicTest.dynamicTest(
                    in.name,
                    () -> {
                      String produced = GoldenRun.render(in.name, in.bytes());
                      Path recording = dir.resolve(in.name.replace('/', '_') + ".txt");
                      if (RECORD) {
                        Files.createDirectories(dir);
                        Files.writeString(recording, produced, StandardCharsets.UTF_8);
                        return;
                      }
                      assertThat(recording).as("recording of " + in.name).exists();
                      assertThat(produced)
                          .as("Evidence of " + in.name + " against " + recording)
                          .isEqualTo(Files.readString(recording, StandardCharsets.UTF_8));
                    }));
  }

  /** One input: its name in the recordings and where its bytes are (gzip when it ends .gz). */
  record Input(String name, Path file) {
    byte[] bytes() {
      try {
        if (file.toString().endsWith(".gz")) {
          try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            return in.readAllBytes();
          }
        }
        return Files.readAllBytes(file);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** The sample, every committed model file of the test resources and every fuzz seed. */
  static List<Input> committedInputs() throws IOException {
    Path module = moduleDirectory();
    List<Input> inputs = new ArrayList<>();
    inputs.add(
        new Input("samples/sample-mixed.gguf", module.resolve("../samples/sample-mixed.gguf")));
    Path resources = module.resolve("src/test/resources");
    for (String sub :
        List.of(
            "gguf",
            "safetensors",
            "dev/rea/core/fuzz/GgufFuzzTestInputs",
            "dev/rea/core/fuzz/SafetensorsFuzzTestInputs")) {
      try (Stream<Path> files = Files.walk(resources.resolve(sub))) {
        for (Path p : files.filter(Files::isRegularFile).sorted().toList()) {
          String name = resources.relativize(p).toString();
          if (!name.endsWith(".md")) {
            inputs.add(new Input(name, p));
          }
        }
      }
    }
    assertThat(inputs).hasSizeGreaterThan(150);
    return inputs;
  }

  private static Path recordings() {
    return moduleDirectory().resolve("src/test/resources/golden");
  }

  /** The rea-core module directory (tests run there under Maven; from the root otherwise). */
  private static Path moduleDirectory() {
    Path here = Paths.get("").toAbsolutePath();
    return Files.isDirectory(here.resolve("src/test/resources/gguf")) ? here : here.resolve("rea-core");
  }
}
