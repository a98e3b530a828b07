package dev.rea.bench.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.FileProbe;
import dev.rea.core.Rea;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.options.InspectOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scan-tree of issue 20 holds what it says: 10,000 files that are models by content, 500
 * that are not, 100 broken models that REA rejects, sets whose members REA accepts.
 */
class ScanTreeTest {
  @TempDir static Path dir;
  static ScanTree.Summary tree;
  static List<Path> files;

  @BeforeAll
  static void generate() throws Exception {
    tree = ScanTree.ensure(dir);
    try (Stream<Path> s = Files.walk(tree.root())) {
      files = s.filter(Files::isRegularFile).sorted().toList();
    }
  }

  private static boolean brokenName(Path p) {
    String n = p.getFileName().toString();
    return n.equals("cut.gguf")
        || n.equals("old-v1.gguf")
        || n.equals("cut.safetensors")
        || n.equals("overlap.safetensors")
        || n.equals("short-data.gguf");
  }

  @Test
  void tenThousandModelFilesByContentAndFiveHundredOthers() throws Exception {
    int models = 0;
    int others = 0;
    for (Path p : files) {
      if (FileProbe.of(p).candidateFormat().isPresent()) {
        models++;
      } else {
        others++;
      }
    }
    assertThat(models).isEqualTo(ScanTree.MODEL_FILES).isEqualTo(tree.modelFiles());
    assertThat(others).isEqualTo(ScanTree.NON_MODEL_FILES).isEqualTo(tree.nonModelFiles());
    assertThat(files.stream().filter(ScanTreeTest::brokenName)).hasSize(ScanTree.BROKEN);
  }

  @Test
  void brokenModelsAreRejectedAndASampleOfTheRestIsComplete() throws Exception {
    Rea rea = Rea.standard();
    int sampled = 0;
    for (int i = 0; i < files.size(); i++) {
      Path p = files.get(i).toAbsolutePath();
      boolean broken = brokenName(p);
      if (!broken && i % 37 != 0) {
        continue;
      }
      Inspection r = rea.inspect(p, InspectOptions.defaults());
      if (broken) {
        assertThat(r.failure()).as(p.toString()).isPresent();
        assertThat(r.failure().orElseThrow().code().wireName()).isEqualTo("target_unavailable");
      } else if (FileProbe.of(p).candidateFormat().isPresent()) {
        assertThat(r.failure()).as(p.toString()).isEmpty();
        sampled++;
      }
    }
    assertThat(sampled).isGreaterThan(200);
  }

  @Test
  void setsHaveThreeMembersAndTheirIndexOrSplitMetadata() throws Exception {
    Rea rea = Rea.standard();
    List<Path> indexes =
        files.stream()
            .filter(p -> p.getFileName().toString().equals("model.safetensors.index.json"))
            .toList();
    assertThat(indexes).hasSize(ScanTree.SETS);
    for (Path index : indexes) {
      String json = Files.readString(index);
      for (int s = 1; s <= 3; s++) {
        String shard = String.format("model-%05d-of-00003.safetensors", s);
        assertThat(json).contains("\"" + shard + "\"");
        EvidenceRecord r =
            rea.inspect(index.resolveSibling(shard).toAbsolutePath(), InspectOptions.defaults())
                .orThrow();
        assertThat(r.tensors()).isNotEmpty();
      }
    }
    List<Path> splits =
        files.stream().filter(p -> p.getFileName().toString().startsWith("split-llama-")).toList();
    assertThat(splits).hasSize(3 * ScanTree.SETS);
    long tensors = 0;
    for (Path p : splits.subList(0, 3)) {
      EvidenceRecord r = rea.inspect(p.toAbsolutePath(), InspectOptions.defaults()).orThrow();
      tensors += r.tensors().size();
      assertThat(r.metadata().stream().map(MetadataRow::key))
          .contains("split.no", "split.count", "split.tensors.count");
    }
    assertThat(tensors).isEqualTo(2 + 3 * 9);
  }

  @Test
  void aTreeWithAMatchingStampIsKept() throws Exception {
    Path first = files.get(0);
    var before = Files.getLastModifiedTime(first);
    ScanTree.ensure(dir);
    assertThat(Files.getLastModifiedTime(first)).isEqualTo(before);
  }
}
