package dev.rea.cli;

import static dev.rea.cli.ScanCommandTest.byPath;
import static dev.rea.cli.ScanCommandTest.lines;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.testing.SetFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code rea scan} of a Hugging Face hub cache ({@code models--ORG--NAME/blobs/HASH}, and {@code
 * snapshots/REV/NAME} links to the blobs): each model is one line under its snapshot name, as
 * {@code inspect-model-set} and {@code inspect-model-artifact} of that name say, and no blob is
 * a unit of its own (a trial counted a checkpoint's shards twice: as the set and as blobs).
 */
class ScanHfCacheTest {
  @TempDir Path dir;

  /** Moves {@code file} into the repository's blobs under a hash name, linked from the snapshot. */
  private static void cache(Path file, Path repo, String rev) throws Exception {
    byte[] digest =
        java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
    String hash = HexFormat.of().formatHex(digest);
    Path blob = Files.createDirectories(repo.resolve("blobs")).resolve(hash);
    Files.move(file, blob);
    Path snapshot = Files.createDirectories(repo.resolve("snapshots").resolve(rev));
    Files.createSymbolicLink(
        snapshot.resolve(file.getFileName().toString()), Path.of("../../blobs", hash));
  }

  @Test
  void aCachedModelIsOneLineUnderItsSnapshotName() throws Exception {
    Path hub = Files.createDirectories(dir.resolve("hub"));
    Path st = hub.resolve("models--org--sharded");
    SetFixtures.Checkpoint c =
        SetFixtures.checkpoint(Files.createDirectories(dir.resolve("made")), 2, 2);
    List<Path> files = new ArrayList<>(c.shards);
    files.add(c.index);
    for (Path f : files) {
      cache(f, st, "abc123");
    }
    Path gg = hub.resolve("models--org--quant");
    Path model = dir.resolve("made").resolve("model-q8.gguf");
    Files.write(
        model,
        GgufBuilder.v3()
            .kv("general.architecture", GgufBuilder.str("llama"))
            .tensor("w", 0, 8, 4)
            .bytes());
    cache(model, gg, "def456");

    CliRunner.Result r = CliRunner.run("scan", hub.toString(), "--list-skipped");
    assertThat(r.status()).as(r.out() + r.err()).isZero();
    Map<String, JsonNode> lines = byPath(lines(r.out()));
    Path index = st.resolve("snapshots/abc123/" + c.index.getFileName());
    Path gguf = gg.resolve("snapshots/def456/model-q8.gguf");
    assertThat(lines.keySet())
        .containsExactlyInAnyOrder(
            index.toString(),
            gguf.toString(),
            st.resolve("blobs").toString(),
            gg.resolve("blobs").toString());
    assertThat(lines.get(index.toString()).get("kind").asString()).isEqualTo("set");
    assertThat(ScanSetsTest.assertAgrees(lines.get(index.toString()))).isEqualTo("complete");
    assertThat(lines.get(gguf.toString()).get("kind").asString()).isEqualTo("file");
    assertThat(ScanSetsTest.assertAgrees(lines.get(gguf.toString()))).isEqualTo("complete");
    JsonNode blobs = lines.get(st.resolve("blobs").toString());
    assertThat(blobs.get("status").asString()).isEqualTo("skipped");
    assertThat(blobs.get("error").get("message").asString()).contains("snapshots/ links");

    // A snapshot given as the PATH itself, or one shard of it, is read through its links to
    // ../../blobs, though they lead out of that PATH: they are the cache's own.
    Path snapshot = st.resolve("snapshots/abc123");
    String shard = snapshot.resolve(c.shards.get(0).getFileName()).toString();
    for (String path : List.of(snapshot.toString(), shard)) {
      CliRunner.Result one = CliRunner.run("scan", path);
      assertThat(one.status()).as(one.err()).isZero();
      Map<String, JsonNode> set = byPath(lines(one.out()));
      assertThat(set.keySet()).as(path).containsExactly(index.toString());
      assertThat(set.get(index.toString()).get("member_identities")).as(path).hasSize(3);
      assertThat(ScanSetsTest.assertAgrees(set.get(index.toString()))).isEqualTo("complete");
    }

    // The blobs given as PATH are read themselves, under their hash names.
    CliRunner.Result own = CliRunner.run("scan", gg.resolve("blobs").toString());
    assertThat(own.status()).as(own.err()).isZero();
    assertThat(lines(own.out())).hasSize(1);

    // A blob that is itself a link (which could lead out of the repository) is not read.
    Path escape = gg.resolve("snapshots/def456/escape.gguf");
    Files.createSymbolicLink(gg.resolve("blobs/0000"), gguf.toRealPath());
    Files.createSymbolicLink(escape, Path.of("../../blobs/0000"));
    Map<String, JsonNode> withEscape =
        byPath(lines(CliRunner.run("scan", gg.toString(), "--list-skipped").out()));
    assertThat(withEscape.get(escape.toString()).get("status").asString()).isEqualTo("skipped");
    Files.delete(escape);

    // Outside a cache's snapshots a link is still not followed.
    Path plain = Files.createDirectories(dir.resolve("plain"));
    Files.createSymbolicLink(plain.resolve("m.gguf"), gguf);
    CliRunner.Result outside = CliRunner.run("scan", plain.toString(), "--list-skipped");
    assertThat(lines(outside.out()).get(0).get("status").asString()).isEqualTo("skipped");
  }

  /**
   * A repository whose blobs/ is itself a link leads out of the tree: a hostile trial made
   * blobs/ a link to a directory outside (and to /etc) and had the scan read a model there, with
   * its SHA-256, and examine /etc/shadow. Such snapshot links are links, skipped.
   */
  @Test
  void aRepositoryWhoseBlobsIsALinkIsNotReadThrough() throws Exception {
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Files.write(outside.resolve("secret.gguf"),
        GgufBuilder.v3().kv("general.architecture", GgufBuilder.str("llama")).bytes());
    Path repo = Files.createDirectories(dir.resolve("hf").resolve("models--evil--x"));
    Files.createSymbolicLink(repo.resolve("blobs"), outside);
    Path snapshot = Files.createDirectories(repo.resolve("snapshots").resolve("rev"));
    Path link = Files.createSymbolicLink(snapshot.resolve("model.gguf"),
        Path.of("../../blobs/secret.gguf"));

    CliRunner.Result r = CliRunner.run("scan", dir.resolve("hf").toString(), "--list-skipped");
    Map<String, JsonNode> lines = byPath(lines(r.out()));
    assertThat(lines).as(r.out()).containsKey(link.toString());
    JsonNode line = lines.get(link.toString());
    assertThat(line.get("status").asString()).isEqualTo("skipped");
    assertThat(line.get("evidence_id").isNull()).isTrue();
    assertThat(line.get("error").get("message").asString()).contains("symbolic link");
    assertThat(r.out()).doesNotContain("\"complete\"");
  }
}
