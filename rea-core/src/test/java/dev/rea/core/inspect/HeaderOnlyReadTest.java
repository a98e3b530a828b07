package dev.rea.core.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.format.gguf.GgufBuilder;
import dev.rea.core.format.gguf.GgufTesting;
import dev.rea.core.testing.HostileFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default {@code hash: "header"} "reads only the metadata and tensor directory"
 * (specification, "Identity and reads"): for GGUF and safetensors files whose data section is
 * larger than any read-ahead, REA fetches exactly {@code header_length} bytes, the format probe
 * included.
 */
class HeaderOnlyReadTest {
  @TempDir Path dir;

  private static EvidenceRecord inspect(Path p) throws ReaException {
    return ModelInspector.standard().inspect(p, HashMode.HEADER);
  }

  @Test
  void builtFilesAreReadUpToTheirHeaderEndAndNoFurther() throws Exception {
    List<Path> files = new ArrayList<>();
    files.add(Files.write(dir.resolve("h.gguf"), HostileFiles.gguf()));
    files.add(Files.write(dir.resolve("h.safetensors"), HostileFiles.safetensors()));
    files.add(Files.write(dir.resolve("big.gguf"), HostileFiles.bigGguf()));
    // Metadata only, with padding and data after the directory.
    files.add(
        Files.write(
            dir.resolve("meta.gguf"),
            GgufBuilder.v3()
                .kv("general.architecture", GgufBuilder.str("llama"))
                .kv("a.long.string", GgufBuilder.str("x".repeat(200_000)))
                .tensor("t", 0, 70_000)
                .bytes()));
    files.add(GgufTesting.repositoryRoot().resolve("samples/sample-mixed.gguf"));
    for (Path p : files) {
      EvidenceRecord r = inspect(p);
      assertThat(Files.size(p)).as(p.toString()).isGreaterThan(r.artifact().headerLength());
      assertThat(r.artifact().bytesRead()).as(p.toString()).isEqualTo(r.artifact().headerLength());
    }
  }

  @Test
  void everyCorpusModelThatInspectsIsReadUpToItsHeaderEnd() throws IOException {
    Path corpus = GgufTesting.corpusOrSkip(".");
    int checked = 0;
    try (Stream<Path> all = Files.walk(corpus)) {
      for (Path p : (Iterable<Path>) all.filter(Files::isRegularFile)::iterator) {
        String n = p.getFileName().toString();
        if (!n.endsWith(".gguf") && !n.endsWith(".safetensors")) {
          continue;
        }
        EvidenceRecord r;
        try {
          r = inspect(p.toAbsolutePath());
        } catch (ReaException rejected) {
          continue; // a rejected file has no header length to compare with
        }
        assertThat(r.artifact().bytesRead()).as(p.toString()).isEqualTo(r.artifact().headerLength());
        checked++;
      }
    }
    assertThat(checked).isGreaterThan(50);
  }
}
