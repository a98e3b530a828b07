package dev.rea.cli;

import static dev.rea.cli.ScanCommandTest.byPath;
import static dev.rea.cli.ScanCommandTest.lastLine;
import static dev.rea.cli.ScanCommandTest.lines;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.Rea;
import dev.rea.core.SetEvidence;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code rea scan} groups model sets as {@code inspect-model-set} does (CONTRACT sections 9 and
 * 10): each set is exactly one {@code kind: "set"} line, equal (evidence id aside) to what
 * {@code inspect-model-set --detail summary --json} says of it, or carrying its error; no member
 * is a unit of its own; loose files beside sets are file lines; {@code --bundles} writes the set
 * bundle; {@code --resume} keeps a set only while none of its files changed.
 */
class ScanSetsTest {
  @TempDir Path dir;

  /**
   * Asserts that a line says what the one-unit command says of its path: {@code
   * inspect-model-set} for a set line, {@code inspect-model-artifact} for a file line.
   *
   * @return the line's status
   */
  static String assertAgrees(JsonNode line) {
    String path = line.get("path").asString();
    boolean set = line.get("kind").asString().equals("set");
    CliRunner.Result one =
        CliRunner.run(
            set ? "inspect-model-set" : "inspect-model-artifact",
            path,
            "--detail",
            "summary",
            "--json");
    JsonNode said = one.json();
    String status = line.get("status").asString();
    if (one.status() == 0) {
      assertThat(status).as(path).isEqualTo("complete");
      assertThat(line.get("error").isNull()).as(path).isTrue();
      assertThat(line.get("evidence_id").asString())
          .isEqualTo(line.get("summary").get("parent_evidence_id").asString());
      assertThat(withoutParent(line.get("summary"))).as(path).isEqualTo(withoutParent(said));
    } else {
      assertThat(status).as(path).isIn("rejected", "failed");
      assertThat(line.get("evidence_id").isNull()).as(path).isTrue();
      assertThat(line.get("summary").isNull()).as(path).isTrue();
      ObjectNode error = (ObjectNode) said.get("error").deepCopy();
      // The line never embeds partial Evidence (CONTRACT section 10).
      ((ObjectNode) error.get("details")).remove("partial_evidence");
      assertThat(line.get("error")).as(path).isEqualTo(error);
    }
    return status;
  }

  static JsonNode withoutParent(JsonNode summary) {
    ObjectNode copy = ((ObjectNode) summary).deepCopy();
    copy.remove("parent_evidence_id");
    return copy;
  }

  @Test
  void eachSetIsOneLineEqualToInspectModelSetAndMembersNeverAppearAlone() throws Exception {
    ScanTrees.Sets sets = ScanTrees.writeSets(dir.resolve("tree"));
    CliRunner.Result r = CliRunner.run("scan", dir.resolve("tree").toString(), "--jobs", "2");
    assertThat(r.status()).as(r.err()).isEqualTo(1);
    Map<String, JsonNode> lines = byPath(lines(r.out()));
    List<String> expected = new ArrayList<>();
    sets.sets().forEach(p -> expected.add(p.toString()));
    sets.loose().forEach(p -> expected.add(p.toString()));
    assertThat(lines.keySet()).containsExactlyInAnyOrderElementsOf(expected);
    List<String> statuses = new ArrayList<>();
    for (Path p : sets.sets()) {
      JsonNode line = lines.get(p.toString());
      assertThat(line.get("kind").asString()).isEqualTo("set");
      assertThat(line.get("identity").get("size").asString())
          .isEqualTo(Long.toString(Files.size(p)));
      statuses.add(assertAgrees(line));
    }
    // st and gg complete; cut misses a shard (failed, naming it); bad disagrees (set_rejected).
    assertThat(statuses).containsExactly("complete", "complete", "failed", "rejected");
    JsonNode cut = lines.get(sets.sets().get(2).toString());
    assertThat(cut.get("error").get("constraint").asString()).isEqualTo("not_found");
    JsonNode bad = lines.get(sets.sets().get(3).toString());
    assertThat(bad.get("error").get("constraint").asString()).isEqualTo("set_rejected");
    for (Path p : sets.loose()) {
      assertThat(lines.get(p.toString()).get("kind").asString()).isEqualTo("file");
      assertThat(assertAgrees(lines.get(p.toString()))).isEqualTo("complete");
    }
    // The checkpoint's line lists the index and its three shards as the walk found them.
    JsonNode st = lines.get(sets.sets().get(0).toString());
    List<String> files = new ArrayList<>();
    st.get("member_identities").forEach(m -> files.add(m.get("path").asString()));
    assertThat(files).hasSize(4).first().isEqualTo(sets.sets().get(0).toString());
    assertThat(lastLine(r.err()))
        .startsWith("rea scan: 4 complete, 0 partial, 1 rejected, 1 failed, 0 skipped; 0 kept");
  }

  @Test
  void bundlesHoldTheSignedSetBundle() throws Exception {
    ScanTrees.Sets sets = ScanTrees.writeSets(dir.resolve("tree"));
    Path bundles = Files.createDirectories(dir.resolve("bundles"));
    CliRunner.Result r =
        CliRunner.run("scan", dir.resolve("tree").toString(), "--bundles", bundles.toString());
    assertThat(r.status()).as(r.err()).isEqualTo(1);
    JsonNode st = byPath(lines(r.out())).get(sets.sets().get(0).toString());
    String hex = st.get("evidence_id").asString().substring("sha256:".length());
    Rea rea = Rea.builder().environment(Map.of("REA_HOME", CliRunner.HOME.toString())).build();
    SetEvidence read = rea.readSetEvidence(bundles.resolve(hex + ".json"));
    assertThat(read.set().evidenceId()).isEqualTo(st.get("evidence_id").asString());
    assertThat(read.members()).hasSize(3);
    // Two complete sets and two complete loose files: four bundles.
    try (var listing = Files.list(bundles)) {
      assertThat(listing.count()).isEqualTo(4);
    }
  }

  @Test
  void resumeKeepsASetOnlyWhileNoneOfItsFilesChanged() throws Exception {
    ScanTrees.Sets sets = ScanTrees.writeSets(dir.resolve("tree"));
    Path out = dir.resolve("out.jsonl");
    CliRunner.Result first =
        CliRunner.run("scan", dir.resolve("tree").toString(), "--output", out.toString());
    assertThat(first.status()).isEqualTo(1);
    String before =
        byPath(lines(Files.readString(out))).get(sets.sets().get(0).toString())
            .get("member_identities").get(2).get("modified").asString();
    // A shard (not the index) changes: its set is inspected again, the others kept.
    Path shard = sets.members().get(1);
    Files.setLastModifiedTime(
        shard, FileTime.fromMillis(Files.getLastModifiedTime(shard).toMillis() + 5000));
    CliRunner.Result again =
        CliRunner.run("scan", dir.resolve("tree").toString(), "--output", out.toString(), "--resume");
    assertThat(again.status()).as(again.err()).isEqualTo(1);
    // Kept: gg, bad (rejected) and the two loose files; st re-inspected; cut (failed) too.
    assertThat(lastLine(again.err())).contains("4 kept from the earlier output");
    Map<String, JsonNode> lines = byPath(lines(Files.readString(out)));
    assertThat(lines).hasSize(6);
    JsonNode st = lines.get(sets.sets().get(0).toString());
    assertThat(st.get("status").asString()).isEqualTo("complete");
    assertThat(st.get("member_identities").get(2).get("path").asString())
        .isEqualTo(shard.toString());
    assertThat(st.get("member_identities").get(2).get("modified").asString()).isNotEqualTo(before);
    // Nothing changed: everything complete or rejected is kept.
    CliRunner.Result third =
        CliRunner.run("scan", dir.resolve("tree").toString(), "--output", out.toString(), "--resume");
    assertThat(lastLine(third.err())).contains("5 kept from the earlier output");
  }

  /**
   * A set summary has no digest of its own, so a set line's member identities carry the files'
   * SHA-256: the index's always, each member's with {@code --hash full}, each equal to the
   * digest of the file's bytes.
   */
  @Test
  void memberIdentitiesCarryEachFilesDigestWithHashFull() throws Exception {
    dev.rea.core.testing.SetFixtures.Checkpoint c =
        dev.rea.core.testing.SetFixtures.checkpoint(Files.createDirectories(dir.resolve("ck")), 2, 3);
    CliRunner.Result full = CliRunner.run("scan", c.index.getParent().toString(), "--hash", "full");
    assertThat(full.status()).as(full.err()).isZero();
    JsonNode line = lines(full.out()).get(0);
    assertThat(line.get("kind").asString()).isEqualTo("set");
    JsonNode members = line.get("member_identities");
    assertThat(members).hasSize(3);
    for (JsonNode m : members) {
      Path file = Path.of(m.get("path").asString());
      assertThat(m.get("sha256").asString()).as(file.toString()).isEqualTo(Sha256sum.of(file));
    }
    CliRunner.Result header = CliRunner.run("scan", c.index.getParent().toString());
    JsonNode headerMembers = lines(header.out()).get(0).get("member_identities");
    assertThat(headerMembers.get(0).get("sha256").asString()).isEqualTo(Sha256sum.of(c.index));
    assertThat(headerMembers.get(1).has("sha256")).isFalse();
    assertThat(headerMembers.get(2).has("sha256")).isFalse();
  }

  /** Moves {@code file} into {@code blobs} and leaves a relative link in its place. */
  private static Path linkToBlob(Path file, Path blobs) throws Exception {
    Path blob = blobs.resolve(file.getFileName() + ".blob");
    Files.move(file, blob);
    Files.createSymbolicLink(file, file.getParent().relativize(blob));
    return blob;
  }

  /**
   * As a Hugging Face cache lays a model out: a real index, shards that are links to {@code
   * ../blobs/}; and a GGUF split set whose second member is such a link. The set inspection
   * reads through the links, so the set line records each link's target and {@code --resume}
   * inspects the set again once a blob behind a link changed (it was kept, exit 0, while the set
   * was now inconsistent). The blobs are a PATH too: a link is read through only into a PATH
   * ({@link #aSetFileLinkedOutOfThePathsIsNotRead}), and the blobs get lines of their own.
   */
  @Test
  void resumeReinspectsASetWhoseLinkedMemberChanged() throws Exception {
    Path root = Files.createDirectories(dir.resolve("hf"));
    Path blobs = Files.createDirectories(root.resolve("blobs"));
    Path snap = Files.createDirectories(root.resolve("snap"));
    dev.rea.core.testing.SetFixtures.Checkpoint c =
        dev.rea.core.testing.SetFixtures.checkpoint(snap, 2, 3);
    Path blob1 = linkToBlob(c.shards.get(0), blobs);
    Path blob2 = linkToBlob(c.shards.get(1), blobs);
    Path gg = Files.createDirectories(root.resolve("gg"));
    List<Path> split = dev.rea.core.testing.SetFixtures.ggufSplit(gg, "tiny", 2, 2, 2);
    Path ggBlob = linkToBlob(split.get(1), blobs);
    Path out = dir.resolve("out.jsonl");

    String[] paths = {snap.toString(), gg.toString(), blobs.toString()};
    CliRunner.Result first = CliRunner.run(scan(paths, out, false));
    assertThat(first.status()).as(first.err()).isZero();
    // The three links are entries of their own, skipped (the walk follows no link); the three
    // blobs are files of the blobs PATH.
    assertThat(lastLine(first.err())).startsWith("rea scan: 5 complete, 0 partial, 0 rejected,"
        + " 0 failed, 3 skipped");
    Map<String, JsonNode> lines = byPath(lines(Files.readString(out)));
    assertThat(lines).hasSize(5).containsKeys(blob1.toString(), blob2.toString(), ggBlob.toString());
    JsonNode st = lines.get(c.index.toString());
    assertThat(st.get("member_identities")).hasSize(3);
    JsonNode linked = st.get("member_identities").get(1);
    assertThat(linked.get("path").asString()).isEqualTo(c.shards.get(0).toString());
    assertThat(linked.get("size").asString()).isEqualTo(Long.toString(Files.size(blob1)));
    assertThat(lines.get(split.get(0).toString()).get("member_identities")).hasSize(2);

    // The blob behind the first shard now holds the second shard's tensors; the blob behind the
    // split's second member holds its first member (split.no 0 twice).
    Files.copy(blob2, blob1, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Files.copy(split.get(0), ggBlob, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    for (Path b : List.of(blob1, ggBlob)) {
      Files.setLastModifiedTime(b, FileTime.fromMillis(Files.getLastModifiedTime(b).toMillis() + 5000));
    }
    CliRunner.Result again = CliRunner.run(scan(paths, out, true));
    assertThat(again.status()).as(again.err()).isEqualTo(1);
    // Only the unchanged blob's line is kept; the two sets are read again.
    assertThat(lastLine(again.err())).contains("1 kept from the earlier output");
    Map<String, JsonNode> after = byPath(lines(Files.readString(out)));
    assertThat(after).hasSize(5);
    for (JsonNode l : List.of(after.get(c.index.toString()), after.get(split.get(0).toString()))) {
      assertThat(l.get("status").asString()).as(l.get("path").asString()).isEqualTo("rejected");
      assertThat(assertAgrees(l)).isEqualTo("rejected");
    }
  }

  private static String[] scan(String[] paths, Path out, boolean resume) {
    List<String> args = new ArrayList<>(List.of("scan"));
    args.addAll(List.of(paths));
    args.addAll(List.of("--output", out.toString()));
    if (resume) {
      args.add("--resume");
    }
    return args.toArray(String[]::new);
  }

  /**
   * A set whose file is a symbolic link out of the scanned PATHs (an upload linking a shard to
   * a file of the scanning machine) is not read: its line is {@code failed}, {@code
   * not_regular_file} naming the link, and no identity of the target is written (the scan
   * followed the link and wrote the target's size and inode into {@code member_identities}).
   * The same holds for an index and for a GGUF split member; a link that stays inside a PATH is
   * read through.
   */
  @Test
  void aSetFileLinkedOutOfThePathsIsNotRead() throws Exception {
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Path secret = Files.write(outside.resolve("secret.bin"), new byte[12_345]);
    Path up = Files.createDirectories(dir.resolve("up"));
    Path shards = Files.createDirectories(up.resolve("shards"));
    dev.rea.core.testing.SetFixtures.Checkpoint c =
        dev.rea.core.testing.SetFixtures.checkpoint(shards, 2, 3);
    Files.delete(c.shards.get(1));
    Files.createSymbolicLink(c.shards.get(1), secret);
    Path idx = Files.createDirectories(up.resolve("idx"));
    dev.rea.core.testing.SetFixtures.Checkpoint d =
        dev.rea.core.testing.SetFixtures.checkpoint(idx, 2, 3);
    Path realIndex = Files.move(d.index, outside.resolve("model.safetensors.index.json"));
    Files.createSymbolicLink(d.index, realIndex);
    Path gg = Files.createDirectories(up.resolve("gg"));
    List<Path> split = dev.rea.core.testing.SetFixtures.ggufSplit(gg, "tiny", 2, 2, 2);
    Files.move(split.get(1), outside.resolve("second.gguf"));
    Files.createSymbolicLink(split.get(1), outside.resolve("second.gguf"));
    Path inside = Files.createDirectories(up.resolve("inside"));
    dev.rea.core.testing.SetFixtures.Checkpoint e =
        dev.rea.core.testing.SetFixtures.checkpoint(inside, 2, 3);
    Path kept = Files.move(e.shards.get(0), up.resolve("kept.bin"));
    Files.createSymbolicLink(e.shards.get(0), kept);

    CliRunner.Result r = CliRunner.run("scan", up.toString());
    assertThat(r.status()).as(r.err()).isEqualTo(1);
    Map<String, JsonNode> lines = byPath(lines(r.out()));
    // The idx set's shards are read as that index's sets, so they fail on it as well.
    List<String> refused =
        List.of(c.index.toString(), d.index.toString(), d.shards.get(0).toString(),
            d.shards.get(1).toString(), split.get(0).toString());
    Map<String, Path> link =
        Map.of(c.index.toString(), c.shards.get(1), d.index.toString(), d.index,
            d.shards.get(0).toString(), d.index, d.shards.get(1).toString(), d.index,
            split.get(0).toString(), split.get(1));
    for (String p : refused) {
      JsonNode l = lines.get(p);
      assertThat(l).as(p).isNotNull();
      assertThat(l.get("status").asString()).as(p).isEqualTo("failed");
      assertThat(l.get("error").get("constraint").asString()).as(p).isEqualTo("not_regular_file");
      assertThat(l.get("error").get("message").asString())
          .as(p).contains("outside the scanned PATHs");
      assertThat(l.get("error").get("details").get("path").asString())
          .as(p).isEqualTo(link.get(p).toString());
      for (JsonNode m : l.get("member_identities")) {
        assertThat(m.get("path").asString()).as(p).isNotEqualTo(link.get(p).toString());
      }
    }
    assertThat(lines.get(c.index.toString()).get("member_identities")).hasSize(2);
    // The link's own text is named; nothing observed of the file it leads to is written.
    String inode = String.valueOf(Files.getAttribute(secret, "unix:ino"));
    assertThat(r.out()).doesNotContain("\"12345\"").doesNotContain("\"" + inode + "\"");
    // The link inside the PATH is read through, as before.
    JsonNode in = lines.get(e.index.toString());
    assertThat(in.get("status").asString()).isEqualTo("complete");
    assertThat(in.get("member_identities").get(1).get("size").asString())
        .isEqualTo(Long.toString(Files.size(kept)));
  }

  /**
   * Every file of a checkpoint's directory given as a PATH (what a shell glob {@code d/*} gives)
   * is grouped as the walk of the directory groups it: one set line, no shard alone.
   */
  @Test
  void filePathsOfOneDirectoryAreGroupedIntoTheirSet() throws Exception {
    Path ck = Files.createDirectories(dir.resolve("ck"));
    dev.rea.core.testing.SetFixtures.Checkpoint c =
        dev.rea.core.testing.SetFixtures.checkpoint(ck, 2, 3);
    Path loose = Files.write(ck.resolve("loose.gguf"), ScanTrees.gguf(7));
    CliRunner.Result glob =
        CliRunner.run("scan", c.shards.get(1).toString(), c.index.toString(),
            loose.toString(), c.shards.get(0).toString());
    CliRunner.Result whole = CliRunner.run("scan", ck.toString());
    assertThat(glob.status()).as(glob.err()).isZero();
    Map<String, JsonNode> lines = byPath(lines(glob.out()));
    assertThat(lines.keySet())
        .containsExactlyInAnyOrder(c.index.toString(), loose.toString())
        .containsExactlyInAnyOrderElementsOf(byPath(lines(whole.out())).keySet());
    JsonNode set = lines.get(c.index.toString());
    assertThat(set.get("kind").asString()).isEqualTo("set");
    assertThat(set.get("member_identities")).hasSize(3);
    assertThat(assertAgrees(set)).isEqualTo("complete");
    assertThat(lastLine(glob.err())).startsWith("rea scan: 2 complete, 0 partial");
  }

  /**
   * A shard given alone as a PATH is its checkpoint's member, as {@code check} and {@code
   * inspect-model-set} take it: the line is the checkpoint's set line (all its members, its
   * index's warnings), not a healthy file line of the shard's own tensors; another index beside
   * that names none of the given files gets no line; a shard missing from the set fails it.
   */
  @Test
  void aShardGivenAloneIsScannedAsItsCheckpoint() throws Exception {
    Path ck = Files.createDirectories(dir.resolve("ck"));
    dev.rea.core.testing.SetFixtures.Checkpoint c =
        dev.rea.core.testing.SetFixtures.checkpoint(ck, 3, 1);
    // A second checkpoint's index in the same directory, naming shards of its own.
    dev.rea.core.testing.SetFixtures.write(
        ck.resolve("other.safetensors.index.json"),
        dev.rea.core.testing.SetFixtures.indexJson(64, Map.of("x", "other-00001-of-00001.safetensors"))
            .getBytes(java.nio.charset.StandardCharsets.UTF_8));

    CliRunner.Result one = CliRunner.run("scan", c.shards.get(1).toString());
    assertThat(one.status()).as(one.err()).isZero();
    Map<String, JsonNode> lines = byPath(lines(one.out()));
    assertThat(lines.keySet()).containsExactly(c.index.toString());
    JsonNode set = lines.get(c.index.toString());
    assertThat(set.get("kind").asString()).isEqualTo("set");
    assertThat(set.get("member_identities")).hasSize(4);
    assertThat(assertAgrees(set)).isEqualTo("complete");
    assertThat(set.get("summary").get("totals").get("tensor_count").asString()).isEqualTo("3");

    // The index's warning is the shard's too: --fail-on warnings fails the run.
    String index = Files.readString(c.index);
    Files.writeString(c.index, index.replaceFirst("\"total_size\": \\d+", "\"total_size\": 7"));
    CliRunner.Result warned =
        CliRunner.run("scan", c.shards.get(1).toString(), "--fail-on", "warnings");
    assertThat(warned.status()).as(warned.err()).isEqualTo(1);
    assertThat(byPath(lines(warned.out())).keySet()).containsExactly(c.index.toString());

    // A missing shard fails the set the given shard belongs to.
    Files.writeString(c.index, index);
    Files.delete(c.shards.get(2));
    CliRunner.Result missing = CliRunner.run("scan", c.shards.get(0).toString());
    assertThat(missing.status()).as(missing.err()).isEqualTo(1);
    JsonNode failed = byPath(lines(missing.out())).get(c.index.toString());
    assertThat(assertAgrees(failed)).isIn("rejected", "failed");
    assertThat(failed.get("error").get("message").asString())
        .contains(c.shards.get(2).getFileName().toString());

    // Two indexes naming the shard: ambiguous, as rea check SHARD says, not two set lines.
    dev.rea.core.testing.SetFixtures.write(
        ck.resolve("again.safetensors.index.json"),
        dev.rea.core.testing.SetFixtures.indexJson(64,
                Map.of("model.layers.0.mlp.weight", c.shards.get(0).getFileName().toString()))
            .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    CliRunner.Result twice = CliRunner.run("scan", c.shards.get(0).toString());
    assertThat(twice.status()).as(twice.err()).isEqualTo(1);
    List<JsonNode> both = lines(twice.out());
    assertThat(both).hasSize(1);
    assertThat(both.get(0).get("path").asString()).isEqualTo(c.shards.get(0).toString());
    assertThat(both.get(0).get("error").get("constraint").asString()).isEqualTo("ambiguous_set");
    assertThat(assertAgrees(both.get(0))).isIn("rejected", "failed");
  }

  /**
   * A split set whose first member is missing is read as that set through a member that is
   * there: the line fails naming the missing member as one of the set's, as {@code
   * inspect-model-set} of a present member says, not as a lone path of one.
   */
  @Test
  void aSplitSetMissingItsFirstMemberFailsNamingItAsTheSetsMember() throws Exception {
    List<Path> m = dev.rea.core.testing.SetFixtures.ggufSplit(
        Files.createDirectories(dir.resolve("gg")), "llm", 3, 1, 1);
    Files.delete(m.get(0));
    CliRunner.Result r = CliRunner.run("scan", dir.resolve("gg").toString());
    assertThat(r.status()).as(r.err()).isEqualTo(1);
    List<JsonNode> lines = lines(r.out());
    assertThat(lines).hasSize(1);
    JsonNode line = lines.get(0);
    assertThat(line.get("path").asString()).isEqualTo(m.get(0).toString());
    assertThat(line.get("status").asString()).isEqualTo("failed");
    assertThat(line.get("member_identities")).hasSize(2);
    JsonNode said = CliRunner.run("inspect-model-set", m.get(1).toString(), "--json").json();
    ObjectNode error = (ObjectNode) said.get("error").deepCopy();
    ((ObjectNode) error.get("details")).remove("partial_evidence");
    assertThat(line.get("error")).isEqualTo(error);
    assertThat(line.get("error").get("message").asString())
        .startsWith("member 0 (llm-00001-of-00003.gguf, of 3 members): ");
  }
}
