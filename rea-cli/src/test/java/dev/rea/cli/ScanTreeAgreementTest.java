package dev.rea.cli;

import static dev.rea.cli.ScanCommandTest.byPath;
import static dev.rea.cli.ScanCommandTest.lines;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The must-show over the benchmark's scan-tree: every line of {@code rea scan} equals
 * (evidence id aside) what {@code inspect-model-artifact --detail summary --json} says of that
 * file, or for a set line what {@code inspect-model-set --detail summary --json} says of it. The tree is the benchmark corpus's ({@code BenchCorpus OUTDIR scan-tree},
 * 10,000 model files), which rea-cli's tests cannot generate (rea-bench is not among their
 * dependencies): set {@code REA_SCAN_TREE} to it, e.g. {@code REA_SCAN_TREE=/tmp/c/scan-tree
 * ./mvnw -B -pl rea-cli -am test -Dtest=ScanTreeAgreementTest
 * -Dsurefire.failIfNoSpecifiedTests=false}. Without it the test is skipped; {@code
 * ScanCommandTest} makes the same comparison on a generated tree of its own.
 */
class ScanTreeAgreementTest {
  @TempDir Path dir;

  @Test
  void everyLineOfTheScanTreeEqualsInspectModelArtifactsSummary() throws Exception {
    String tree = System.getenv("REA_SCAN_TREE");
    org.junit.jupiter.api.Assumptions.assumeTrue(
        tree != null && Files.isDirectory(Path.of(tree)), "REA_SCAN_TREE names no directory");
    Path out = dir.resolve("scan.jsonl");
    CliRunner.Result r = CliRunner.run("scan", tree, "--output", out.toString());
    assertThat(r.status()).as(r.err()).isIn(0, 1);
    Map<String, JsonNode> units = byPath(lines(Files.readString(out)));
    int complete = 0;
    int rejected = 0;
    int sets = 0;
    for (Map.Entry<String, JsonNode> e : units.entrySet()) {
      // A set line against inspect-model-set, a file line against inspect-model-artifact.
      String status = ScanSetsTest.assertAgrees(e.getValue());
      sets += e.getValue().get("kind").asString().equals("set") ? 1 : 0;
      if (status.equals("complete")) {
        complete++;
      } else {
        assertThat(status).as(e.getKey()).isEqualTo("rejected");
        rejected++;
      }
    }
    System.out.printf(
        "ScanTreeAgreementTest: %d lines agree (%d complete, %d rejected, %d sets)%n",
        units.size(), complete, rejected, sets);
    assertThat(complete + rejected).isEqualTo(units.size()).isPositive();
    assertThat(sets).as("the scan-tree holds sets").isPositive();
  }
}
