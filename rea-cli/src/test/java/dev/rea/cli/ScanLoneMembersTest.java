package dev.rea.cli;

import static dev.rea.cli.ScanCommandTest.byPath;
import static dev.rea.cli.ScanCommandTest.lastLine;
import static dev.rea.cli.ScanCommandTest.lines;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.testing.SetFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code rea scan} reads a file that is one member of a model by its own account as {@code
 * inspect-model-set FILE} and {@code rea check FILE} do (CONTRACT section 9, a set of one): a
 * shard named {@code NAME-0000k-of-0000n.safetensors} that no index claims carries {@code
 * shard_without_index}, a GGUF file declaring {@code split.count} 3 under another name carries
 * {@code split_member_alone}; its line is a {@code set} line equal to {@code inspect-model-set
 * --detail summary --json}, {@code --fail-on warnings} fails it, and {@code --resume} keeps it.
 */
class ScanLoneMembersTest {
  @TempDir Path dir;

  /** Two shards of three, no index. */
  private Path loneShards() throws Exception {
    Path d = Files.createDirectories(dir.resolve("shards"));
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(d, 3, 2);
    Files.delete(c.index);
    Files.delete(c.shards.get(2));
    return d;
  }

  /** The second member of a split set of three, copied under a plain name. */
  private Path renamedSplitMember() throws Exception {
    Path split = Files.createDirectories(dir.resolve("split"));
    List<Path> members = SetFixtures.ggufSplit(split, "tiny", 3, 2, 2);
    Path b9 = Files.createDirectories(dir.resolve("b9"));
    Files.copy(members.get(1), b9.resolve("model.gguf"));
    return b9;
  }

  private static List<String> warningCodes(JsonNode line) {
    List<String> codes = new ArrayList<>();
    line.get("summary").get("warnings").forEach(w -> codes.add(w.get("code").asString()));
    return codes;
  }

  @Test
  void loneShardsAreSetsOfOneWithTheirWarningAndFailOnWarnings() throws Exception {
    Path d = loneShards();
    CliRunner.Result r = CliRunner.run("scan", d.toString(), "--fail-on", "warnings");
    assertThat(r.status()).as(r.err()).isEqualTo(1);
    Map<String, JsonNode> lines = byPath(lines(r.out()));
    assertThat(lines).hasSize(2);
    for (JsonNode line : lines.values()) {
      String path = line.get("path").asString();
      assertThat(line.get("kind").asString()).as(path).isEqualTo("set");
      assertThat(ScanSetsTest.assertAgrees(line)).isEqualTo("complete");
      assertThat(line.get("summary").get("set").get("kind").asString()).isEqualTo("single_file");
      assertThat(warningCodes(line)).as(path).contains("shard_without_index");
      assertThat(line.get("member_identities")).hasSize(1);
      assertThat(line.get("member_identities").get(0).get("path").asString()).isEqualTo(path);
    }
    // Without --fail-on warnings the units are complete: exit 0, and the closing line says
    // that they carry warnings.
    CliRunner.Result quiet = CliRunner.run("scan", d.toString());
    assertThat(quiet.status()).isZero();
    assertThat(lastLine(quiet.err()))
        .endsWith("; 2 units carry warnings (--fail-on warnings fails on them)");
  }

  @Test
  void aRenamedSplitMemberIsASetOfOneWithSplitMemberAlone() throws Exception {
    Path b9 = renamedSplitMember();
    CliRunner.Result r = CliRunner.run("scan", b9.toString(), "--fail-on", "warnings");
    assertThat(r.status()).as(r.err()).isEqualTo(1);
    List<JsonNode> lines = lines(r.out());
    assertThat(lines).hasSize(1);
    JsonNode line = lines.get(0);
    assertThat(line.get("kind").asString()).isEqualTo("set");
    assertThat(line.get("path").asString()).isEqualTo(b9.resolve("model.gguf").toString());
    assertThat(ScanSetsTest.assertAgrees(line)).isEqualTo("complete");
    assertThat(warningCodes(line)).contains("split_member_alone");
    assertThat(CliRunner.run("check", b9.resolve("model.gguf").toString()).status()).isEqualTo(1);
  }

  @Test
  void resumeKeepsASetOfOneAndStillFailsOnItsWarning() throws Exception {
    Path d = loneShards();
    Path b9 = renamedSplitMember();
    Path out = dir.resolve("out.jsonl");
    CliRunner.Result first =
        CliRunner.run("scan", d.toString(), b9.toString(), "--output", out.toString());
    assertThat(first.status()).as(first.err()).isZero();
    String written = Files.readString(out);
    CliRunner.Result again =
        CliRunner.run("scan", d.toString(), b9.toString(), "--output", out.toString(),
            "--resume", "--fail-on", "warnings");
    assertThat(again.status()).as(again.err()).isEqualTo(1);
    assertThat(lastLine(again.err())).contains("3 kept from the earlier output");
    assertThat(Files.readString(out)).isEqualTo(written);
  }
}
