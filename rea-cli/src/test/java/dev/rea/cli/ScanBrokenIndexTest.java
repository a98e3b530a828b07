package dev.rea.cli;

import static dev.rea.cli.ScanCommandTest.byPath;
import static dev.rea.cli.ScanCommandTest.lastLine;
import static dev.rea.cli.ScanCommandTest.lines;
import static dev.rea.cli.ScanSetsTest.assertAgrees;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.testing.SetFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code rea scan} of a checkpoint whose index cannot be read, is rejected, or is not a regular
 * file (CONTRACT sections 9 and 10): the shards are the index's members, not models of their
 * own, so no shard gets a complete line of its own. A shard the failed index leaves unclaimed
 * gets the line {@code inspect-model-set SHARD} gives it (the index's failure), never kept by
 * {@code --resume}; an index that is a symbolic link is read through, as {@code
 * inspect-model-set} reads it, and is its set's anchor.
 */
class ScanBrokenIndexTest {
  @TempDir Path dir;

  private SetFixtures.Checkpoint checkpoint(String name) throws Exception {
    return SetFixtures.checkpoint(Files.createDirectories(dir.resolve(name)), 2, 1);
  }

  @Test
  void shardsOfARejectedIndexCarryItsFailureAndAreNeverKept() throws Exception {
    SetFixtures.Checkpoint c = checkpoint("bad");
    String index = Files.readString(c.index, StandardCharsets.UTF_8);
    String broken = index.replaceFirst("\"total_size\"\\s*:\\s*(\\d+)", "\"total_size\": $1.0");
    assertThat(broken).isNotEqualTo(index);
    Files.writeString(c.index, broken, StandardCharsets.UTF_8);
    Path out = dir.resolve("out.jsonl");

    CliRunner.Result r = CliRunner.run("scan", c.dir.toString(), "--output", out.toString());
    assertThat(r.status()).as(r.err()).isEqualTo(1);
    Map<String, JsonNode> lines = byPath(lines(Files.readString(out)));
    assertThat(lines.keySet()).containsExactlyInAnyOrder(
        c.index.toString(), c.shards.get(0).toString(), c.shards.get(1).toString());
    for (JsonNode line : lines.values()) {
      assertThat(line.get("kind").asString()).isEqualTo("set");
      assertThat(assertAgrees(line)).as(line.get("path").asString()).isEqualTo("rejected");
    }
    assertThat(lastLine(r.err())).startsWith("rea scan: 0 complete, 0 partial, 3 rejected");

    // Once the index is mended, the shards are its members: the resumed scan keeps no shard line.
    Files.writeString(c.index, index, StandardCharsets.UTF_8);
    CliRunner.Result again =
        CliRunner.run("scan", c.dir.toString(), "--output", out.toString(), "--resume");
    assertThat(again.status()).as(again.err()).isZero();
    Map<String, JsonNode> after = byPath(lines(Files.readString(out)));
    assertThat(after.keySet()).containsExactly(c.index.toString());
    assertThat(assertAgrees(after.get(c.index.toString()))).isEqualTo("complete");
  }

  /**
   * A file beside a rejected index that is not named as a shard of several (a
   * {@code -00001-of-00001} shard, a plain {@code model.safetensors}) is the index's to claim
   * all the same: it carries the index's failure, as {@code rea check FILE} says.
   */
  @Test
  void aFileOfAnyNameBesideARejectedIndexCarriesItsFailure() throws Exception {
    Path d = Files.createDirectories(dir.resolve("one"));
    byte[] shard = Files.readAllBytes(checkpoint("src").shards.get(0));
    Path single = Files.write(d.resolve("model-00001-of-00001.safetensors"), shard);
    Path plain = Files.write(d.resolve("model.safetensors"), shard);
    Path index =
        Files.writeString(
            d.resolve("model.safetensors.index.json"),
            "{\"weight_map\":{\"a\":\"model-00001-of-00001.safetensors\",\"a\":\"x\"}}");
    CliRunner.Result r = CliRunner.run("scan", d.toString());
    assertThat(r.status()).as(r.err()).isEqualTo(1);
    Map<String, JsonNode> lines = byPath(lines(r.out()));
    assertThat(lines.keySet())
        .containsExactlyInAnyOrder(index.toString(), single.toString(), plain.toString());
    for (JsonNode line : lines.values()) {
      assertThat(line.get("status").asString()).as(line.toString()).isEqualTo("rejected");
      assertThat(line.get("error").get("message").asString()).contains("duplicate");
    }
    CliRunner.Result check = CliRunner.run("check", plain.toString());
    assertThat(check.status()).isEqualTo(1);
    assertThat(check.out()).contains("duplicate");
  }

  @Test
  void anIndexThatIsALinkIsReadThroughAndAnchorsItsSet() throws Exception {
    SetFixtures.Checkpoint c = checkpoint("linked");
    // The real index elsewhere maps each tensor to the other shard.
    Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
    String index = Files.readString(c.index, StandardCharsets.UTF_8);
    String swapped = index.replace("model-00001-of-00002", "model-0000X-of-00002")
        .replace("model-00002-of-00002", "model-00001-of-00002")
        .replace("model-0000X-of-00002", "model-00002-of-00002");
    Path target = Files.writeString(elsewhere.resolve("model.safetensors.index.json"), swapped);
    Files.delete(c.index);
    Files.createSymbolicLink(c.index, target);

    // The PATH holds the link's target (a link out of the PATHs is not read: ScanSetsTest); the
    // target is then also an index of its own directory, whose shards are missing.
    CliRunner.Result r = CliRunner.run("scan", dir.toString());
    assertThat(r.status()).as(r.err()).isEqualTo(1);
    Map<String, JsonNode> lines = byPath(lines(r.out()));
    assertThat(lines.keySet()).containsExactlyInAnyOrder(c.index.toString(), target.toString());
    JsonNode set = lines.get(c.index.toString());
    assertThat(set.get("error").get("constraint").asString()).isEqualTo("set_rejected");
    assertThat(assertAgrees(set)).isEqualTo("rejected");
    assertThat(lines.get(target.toString()).get("status").asString()).isEqualTo("failed");
    // The link is the set's anchor, not also an entry skipped.
    assertThat(lastLine(r.err())).startsWith("rea scan: 0 complete, 0 partial, 1 rejected,"
        + " 1 failed, 0 skipped");
  }

  @Test
  void anIndexThatIsNoFileFailsItsSetAndItsShards() throws Exception {
    SetFixtures.Checkpoint c = checkpoint("dangling");
    Files.delete(c.index);
    Files.createSymbolicLink(c.index, dir.resolve("nowhere.json"));
    SetFixtures.Checkpoint d = checkpoint("directory");
    Files.delete(d.index);
    Files.createDirectory(d.index);

    CliRunner.Result r = CliRunner.run("scan", c.dir.toString(), d.dir.toString());
    assertThat(r.status()).as(r.err()).isEqualTo(1);
    Map<String, JsonNode> lines = byPath(lines(r.out()));
    // The dangling link is its set's line; the directory is walked as a directory.
    assertThat(lines.keySet()).containsExactlyInAnyOrder(c.index.toString(),
        c.shards.get(0).toString(), c.shards.get(1).toString(), d.shards.get(0).toString(),
        d.shards.get(1).toString());
    for (JsonNode line : lines.values()) {
      assertThat(line.get("kind").asString()).as(line.toString()).isEqualTo("set");
      assertThat(line.get("status").asString()).as(line.toString()).isEqualTo("failed");
      assertThat(assertAgrees(line)).isEqualTo("failed");
    }
    for (Path p : c.shards) {
      assertThat(lines.get(p.toString()).get("error").get("constraint").asString())
          .isEqualTo("not_found");
    }
    assertThat(lines.get(c.index.toString()).get("error").get("constraint").asString())
        .isEqualTo("not_found");
    for (Path p : d.shards) {
      assertThat(lines.get(p.toString()).get("error").get("constraint").asString())
          .isEqualTo("not_regular_file");
    }
  }

  /**
   * What a shard's line says depends on the indexes beside it, which its identity does not show:
   * a resumed scan re-reads a lone shard once an index appears beside it, and a shard given as a
   * PATH once its index is gone.
   */
  @Test
  void aResumeNeverKeepsAShardsLineWhenTheIndexBesideItChanged() throws Exception {
    SetFixtures.Checkpoint c = checkpoint("appears");
    String index = Files.readString(c.index, StandardCharsets.UTF_8);
    Files.delete(c.index);
    Path out = dir.resolve("lone.jsonl");
    CliRunner.Result lone = CliRunner.run("scan", c.dir.toString(), "--output", out.toString());
    assertThat(lone.status()).as(lone.err()).isZero();
    Files.writeString(c.index, "{not json", StandardCharsets.UTF_8);
    CliRunner.Result after =
        CliRunner.run("scan", c.dir.toString(), "--output", out.toString(), "--resume");
    assertThat(after.status()).as(after.err()).isEqualTo(1);
    assertThat(lastLine(after.err())).contains("0 kept from the earlier output");
    for (Path shard : c.shards) {
      JsonNode line = byPath(lines(Files.readString(out))).get(shard.toString());
      assertThat(line.get("status").asString()).isEqualTo("rejected");
    }

    // A shard given as a PATH beside its index is a file line; with the index gone, its resumed
    // line is the set of one's, with shard_without_index.
    Files.writeString(c.index, index, StandardCharsets.UTF_8);
    Path path = dir.resolve("path.jsonl");
    Path shard = c.shards.get(0);
    assertThat(CliRunner.run("scan", shard.toString(), "--output", path.toString()).status())
        .isZero();
    Files.delete(c.index);
    CliRunner.Result gone = CliRunner.run("scan", shard.toString(), "--output", path.toString(),
        "--resume", "--fail-on", "warnings");
    assertThat(gone.status()).as(gone.err()).isEqualTo(1);
    JsonNode line = byPath(lines(Files.readString(path))).get(shard.toString());
    assertThat(line.get("kind").asString()).isEqualTo("set");
    assertThat(line.get("summary").toString()).contains("shard_without_index");
  }

  /** An index name that links to a directory is not read as that directory's model. */
  @Test
  void anIndexLinkedToADirectoryIsNoIndex() throws Exception {
    SetFixtures.Checkpoint other = checkpoint("other");
    SetFixtures.Checkpoint c = checkpoint("dirlink");
    Files.delete(c.index);
    Files.createSymbolicLink(c.index, other.dir);
    Path out = dir.resolve("out.jsonl");
    CliRunner.Result r = CliRunner.run("scan", c.dir.toString(), "--output", out.toString());
    assertThat(r.status()).as(r.err()).isEqualTo(1);
    Map<String, JsonNode> lines = byPath(lines(Files.readString(out)));
    assertThat(lines.keySet()).containsExactlyInAnyOrder(
        c.shards.get(0).toString(), c.shards.get(1).toString());
    for (JsonNode line : lines.values()) {
      assertThat(line.get("error").get("constraint").asString()).isEqualTo("not_regular_file");
      assertThat(assertAgrees(line)).isEqualTo("failed");
    }
    // The scan's own output resumes.
    CliRunner.Result again =
        CliRunner.run("scan", c.dir.toString(), "--output", out.toString(), "--resume");
    assertThat(again.status()).as(again.err()).isEqualTo(1);
  }
}
