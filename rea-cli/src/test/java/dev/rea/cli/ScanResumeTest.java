package dev.rea.cli;

import static dev.rea.cli.ScanCommandTest.byPath;
import static dev.rea.cli.ScanCommandTest.lastLine;
import static dev.rea.cli.ScanCommandTest.lines;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.internal.format.gguf.GgufBuilder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code rea scan --resume} (CONTRACT section 10): lines of unchanged files are kept as they
 * were, the rest inspected; a last line cut short is dropped; the finished output holds the same
 * units and verdicts as an uninterrupted scan, and nothing else.
 */
class ScanResumeTest {
  @TempDir Path dir;

  /** Each unit's verdict: kind, status, error constraint and summary without its parent id. */
  static Map<String, String> verdicts(List<JsonNode> lines) {
    Map<String, String> m = new TreeMap<>();
    for (JsonNode l : lines) {
      JsonNode summary = l.get("summary");
      String s = "";
      if (!summary.isNull()) {
        var copy = (tools.jackson.databind.node.ObjectNode) summary.deepCopy();
        copy.remove("parent_evidence_id");
        s = copy.toString();
      }
      String error = l.get("error").isNull() ? "" : l.get("error").get("constraint").asString();
      String prev =
          m.put(
              l.get("path").asString(),
              l.get("kind").asString() + " " + l.get("status").asString() + " " + error + " " + s);
      assertThat(prev).as("one line per unit: " + l.get("path")).isNull();
    }
    return m;
  }

  static List<String> rawLines(Path file) throws Exception {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    assertThat(text).endsWith("\n");
    return Arrays.asList(text.split("\n"));
  }

  /** After a resumed scan with --bundles DIR, every complete line's bundle is in DIR. */
  @Test
  void resumingWithBundlesReinspectsLinesWhoseBundleIsMissing() throws Exception {
    ScanTrees.Tree tree = ScanTrees.write(dir.resolve("tree"), 6, false);
    Path out = dir.resolve("out.jsonl");
    Path bundles = dir.resolve("bundles");
    CliRunner.Result first = CliRunner.run("scan", tree.root().toString(), "--output", out.toString());
    assertThat(first.status()).as(first.err()).isIn(0, 1);

    CliRunner.Result resumed = CliRunner.run("scan", tree.root().toString(), "--output",
        out.toString(), "--resume", "--bundles", bundles.toString());
    assertThat(resumed.status()).as(resumed.err()).isIn(0, 1);
    int complete = 0;
    for (JsonNode l : lines(Files.readString(out, StandardCharsets.UTF_8))) {
      if (l.get("status").asString().equals("complete")) {
        complete++;
        String hex = l.get("evidence_id").asString().substring("sha256:".length());
        assertThat(bundles.resolve(hex + ".json")).as(l.get("path").asString()).isRegularFile();
      }
    }
    assertThat(complete).isEqualTo(6);

    // With the bundles there, the next resume keeps the complete lines.
    CliRunner.Result again = CliRunner.run("scan", tree.root().toString(), "--output",
        out.toString(), "--resume", "--bundles", bundles.toString());
    assertThat(lastLine(again.err())).contains(complete + " kept from the earlier output");
  }

  @Test
  void resumingWithHashFullReinspectsLinesMadeFromHeadersOnly() throws Exception {
    ScanTrees.Tree tree = ScanTrees.write(dir.resolve("tree"), 6, false);
    Path out = dir.resolve("out.jsonl");
    CliRunner.Result header = CliRunner.run("scan", tree.root().toString(), "--output", out.toString());
    assertThat(header.status()).as(header.err()).isIn(0, 1);

    CliRunner.Result full =
        CliRunner.run(
            "scan", tree.root().toString(), "--output", out.toString(), "--resume", "--hash", "full");

    assertThat(full.status()).as(full.err()).isIn(0, 1);
    assertThat(lastLine(full.err())).contains("0 kept from the earlier output");
    int complete = 0;
    for (JsonNode l : lines(Files.readString(out, StandardCharsets.UTF_8))) {
      if (l.get("status").asString().equals("complete")) {
        complete++;
        assertThat(l.get("summary").get("artifact").get("sha256").isString())
            .as(l.get("path").asString())
            .isTrue();
      }
    }
    assertThat(complete).isEqualTo(6);
    // And back: a header-only resume of full lines inspects again too.
    CliRunner.Result again = CliRunner.run("scan", tree.root().toString(), "--output", out.toString(), "--resume");
    assertThat(lastLine(again.err())).contains("0 kept from the earlier output");
  }

  @Test
  void resumingAPartialOutputWithACutLastLineEqualsAnUninterruptedScan() throws Exception {
    ScanTrees.Tree tree = ScanTrees.write(dir.resolve("tree"), 30, true);
    Path full = dir.resolve("full.jsonl");
    CliRunner.Result whole = CliRunner.run("scan", tree.root().toString(), "--output", full.toString());
    assertThat(whole.status()).isEqualTo(1);
    List<String> all = rawLines(full);
    assertThat(all).hasSize(34);

    // What a kill leaves: 10 whole lines, then half of the eleventh.
    Path out = dir.resolve("out.jsonl");
    String partial =
        String.join("\n", all.subList(0, 10)) + "\n" + all.get(10).substring(0, all.get(10).length() / 2);
    Files.writeString(out, partial, StandardCharsets.UTF_8);

    CliRunner.Result resumed =
        CliRunner.run("scan", tree.root().toString(), "--output", out.toString(), "--resume");
    assertThat(resumed.status()).as(resumed.err()).isEqualTo(1);
    assertThat(lastLine(resumed.err())).contains("10 kept from the earlier output");
    List<String> after = rawLines(out);
    // Kept lines stay byte for byte, first; the others follow.
    assertThat(after.subList(0, 10)).isEqualTo(all.subList(0, 10));
    assertThat(verdicts(lines(Files.readString(out)))).isEqualTo(verdicts(lines(Files.readString(full))));
  }

  @Test
  void changedNewAndRemovedFilesAreInspectedAddedAndDropped() throws Exception {
    ScanTrees.Tree tree = ScanTrees.write(dir.resolve("tree"), 8, false);
    Path out = dir.resolve("out.jsonl");
    assertThat(CliRunner.run("scan", tree.root().toString(), "--output", out.toString()).status())
        .isZero();
    Map<String, JsonNode> before = byPath(lines(Files.readString(out)));

    Path changed = tree.models().get(0);
    Files.write(changed, ScanTrees.gguf(500));
    Path touched = tree.models().get(2);
    Files.setLastModifiedTime(touched, FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));
    Path removed = tree.models().get(1);
    Files.delete(removed);
    Path added = Files.write(tree.root().resolve("new.gguf"), ScanTrees.gguf(501));

    CliRunner.Result r =
        CliRunner.run("scan", tree.root().toString(), "--output", out.toString(), "--resume");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(lastLine(r.err())).contains("5 kept from the earlier output");
    Map<String, JsonNode> after = byPath(lines(Files.readString(out)));
    assertThat(after).doesNotContainKey(removed.toString()).containsKey(added.toString()).hasSize(8);
    assertThat(after.get(changed.toString()).get("summary").get("headline_metadata").toString())
        .contains("model 500");
    assertThat(after.get(touched.toString()).get("identity").get("modified").asString())
        .isEqualTo("2020-01-01T00:00:00.000000000Z");
    for (Path p : tree.models().subList(3, 8)) {
      assertThat(after.get(p.toString())).isEqualTo(before.get(p.toString()));
    }
    // And it equals a fresh scan of the tree as it is now.
    Path fresh = dir.resolve("fresh.jsonl");
    CliRunner.run("scan", tree.root().toString(), "--output", fresh.toString());
    assertThat(verdicts(lines(Files.readString(out)))).isEqualTo(verdicts(lines(Files.readString(fresh))));
  }

  @Test
  void failedLinesAreInspectedAgainAndSkippedLinesKeptOnlyWithListSkipped() throws Exception {
    ScanTrees.Tree tree = ScanTrees.write(dir.resolve("tree"), 4, true);
    Path out = dir.resolve("out.jsonl");
    CliRunner.run("scan", tree.root().toString(), "--output", out.toString(), "--list-skipped");
    List<String> all = rawLines(out);
    assertThat(all).hasSize(12);
    // Make one complete line a failed one, as a file unreadable then would have left it.
    String model = tree.models().get(0).toString();
    List<String> edited = new ArrayList<>();
    for (String l : all) {
      edited.add(
          l.contains("\"path\":\"" + model + "\"")
              ? l.substring(0, l.indexOf(",\"evidence_id\":"))
                      .replace("\"status\":\"complete\"", "\"status\":\"failed\"")
                  + ",\"evidence_id\":null,\"summary\":null,\"error\":{\"code\":\"execution_failure\","
                  + "\"category\":\"host_failure\",\"constraint\":\"io_error\",\"message\":\"m\"}}"
              : l);
    }
    Files.writeString(out, String.join("\n", edited) + "\n");
    CliRunner.Result r =
        CliRunner.run(
            "scan", tree.root().toString(), "--output", out.toString(), "--resume", "--list-skipped");
    // Not kept: the edited line, and the failed set (its index names a missing shard).
    assertThat(lastLine(r.err())).contains("10 kept from the earlier output");
    assertThat(byPath(lines(Files.readString(out))).get(model).get("status").asString())
        .isEqualTo("complete");

    CliRunner.Result quiet =
        CliRunner.run("scan", tree.root().toString(), "--output", out.toString(), "--resume");
    assertThat(lastLine(quiet.err())).contains("7 kept from the earlier output", "4 skipped");
    assertThat(lines(Files.readString(out))).hasSize(8);
  }

  @Test
  void aLineThatIsNotAScanLineIsRefusedNamingIt() throws Exception {
    ScanTrees.Tree tree = ScanTrees.write(dir.resolve("tree"), 3, false);
    Path out = dir.resolve("out.jsonl");
    CliRunner.run("scan", tree.root().toString(), "--output", out.toString());
    List<String> all = new ArrayList<>(rawLines(out));
    all.add(1, "{\"schema\":\"rea.scan.v1\",\"path\":\"/x\"}");
    String text = String.join("\n", all) + "\n";
    Files.writeString(out, text);
    CliRunner.Result r =
        CliRunner.run("scan", tree.root().toString(), "--output", out.toString(), "--resume");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("line 2 of " + out, "it lacks its status field");
    assertThat(Files.readString(out)).isEqualTo(text);
    // Each missing field is named.
    for (String[] c : new String[][] {
        {"{\"schema\":\"rea.scan.v1\",\"status\":\"complete\"}", "it lacks its path field"},
        {"{\"schema\":\"rea.scan.v1\",\"path\":\"/x\",\"status\":\"fine\"}",
            "its status field is none a scan writes"},
        {"{\"schema\":\"rea.scan.v1\",\"path\":\"/x\",\"status\":\"complete\"}",
            "it lacks its identity field"}}) {
      List<String> bad = new ArrayList<>(rawLines(out));
      bad.set(1, c[0]);
      Files.writeString(out, String.join("\n", bad) + "\n");
      CliRunner.Result refused =
          CliRunner.run("scan", tree.root().toString(), "--output", out.toString(), "--resume");
      assertThat(refused.status()).as(c[0]).isEqualTo(2);
      assertThat(refused.err()).as(c[0]).contains("line 2 of " + out, c[1]);
    }
  }

  @Test
  void resumeWithoutAnEarlierOutputIsAWholeScan() throws Exception {
    ScanTrees.Tree tree = ScanTrees.write(dir.resolve("tree"), 3, false);
    Path out = dir.resolve("out.jsonl");
    CliRunner.Result r =
        CliRunner.run("scan", tree.root().toString(), "--output", out.toString(), "--resume");
    assertThat(r.status()).isZero();
    assertThat(lines(Files.readString(out))).hasSize(3);
    assertThat(lastLine(r.err())).contains("0 kept from the earlier output");
  }

  /**
   * {@code --assume-layout} reaches every inspection of a scan, each line of a model inspected
   * under it says so, and {@code --resume} keeps a line only for a scan making the same
   * assumption: it decides whether a K-quant file is accepted at all.
   */
  @Test
  void theLayoutAssumptionIsOnEveryLineAndResumeKeepsOnlyLinesMadeUnderIt() throws Exception {
    long q4k = 12;
    Path tree = Files.createDirectories(dir.resolve("layout"));
    Path k = tree.resolve("k.gguf");
    Files.write(
        k,
        GgufBuilder.v3()
            .kv("general.architecture", GgufBuilder.str("llama"))
            .tensor("blk.0.ffn_down.weight", q4k, 256, 4)
            .bytes());
    Path k64 = tree.resolve("k64.gguf");
    Files.write(
        k64,
        GgufBuilder.v3()
            .kv("general.architecture", GgufBuilder.str("llama"))
            .tensor(new GgufBuilder.Tensor("w", q4k, 64, 4)
                .dataBytes(152))
            .bytes());
    Path out = dir.resolve("layout.jsonl");

    CliRunner.Result plain = CliRunner.run("scan", tree.toString(), "--output", out.toString());
    assertThat(plain.status()).as(plain.err()).isZero();
    Map<String, JsonNode> none = byPath(lines(Files.readString(out, StandardCharsets.UTF_8)));
    assertThat(none.get(k.toString()).has("assume_layout")).isFalse();
    assertThat(none.get(k.toString()).get("summary").has("assume_layout")).isFalse();
    assertThat(none.get(k64.toString()).get("status").asString()).isEqualTo("complete");

    CliRunner.Result assumed =
        CliRunner.run(
            "scan", tree.toString(), "--output", out.toString(), "--resume",
            "--assume-layout", "ggml-modern");
    assertThat(assumed.status()).as(assumed.err()).isEqualTo(1);
    assertThat(lastLine(assumed.err())).contains("0 kept from the earlier output");
    Map<String, JsonNode> modern = byPath(lines(Files.readString(out, StandardCharsets.UTF_8)));
    JsonNode kLine = modern.get(k.toString());
    assertThat(kLine.get("status").asString()).isEqualTo("complete");
    assertThat(kLine.get("assume_layout").asString()).isEqualTo("ggml-modern");
    assertThat(kLine.get("summary").get("assume_layout").asString()).isEqualTo("ggml-modern");
    JsonNode k64Line = modern.get(k64.toString());
    assertThat(k64Line.get("status").asString()).isEqualTo("rejected");
    assertThat(k64Line.get("assume_layout").asString()).isEqualTo("ggml-modern");
    assertThat(k64Line.get("error").get("message").asString())
        .contains("assumed ggml-modern layout");

    CliRunner.Result same =
        CliRunner.run(
            "scan", tree.toString(), "--output", out.toString(), "--resume",
            "--assume-layout", "ggml-modern");
    assertThat(same.status()).isEqualTo(1);
    assertThat(lastLine(same.err())).contains("2 kept from the earlier output");

    // Back without the assumption: the rejected line too is inspected again, and now passes.
    CliRunner.Result back =
        CliRunner.run("scan", tree.toString(), "--output", out.toString(), "--resume");
    assertThat(back.status()).as(back.err()).isZero();
    assertThat(lastLine(back.err())).contains("0 kept from the earlier output");
    assertThat(verdicts(lines(Files.readString(out, StandardCharsets.UTF_8))))
        .isEqualTo(verdicts(new ArrayList<>(none.values())));

    CliRunner.Result bad = CliRunner.run("scan", tree.toString(), "--assume-layout", "ggml-ancient");
    assertThat(bad.status()).isEqualTo(2);
    assertThat(bad.err()).contains("--assume-layout");
  }

  @Test
  void aPathSpelledWithDotDotResumesTheLinesOfItsShorterSpelling() throws Exception {
    ScanTrees.Tree tree = ScanTrees.write(dir.resolve("tree"), 5, false);
    Files.createDirectories(dir.resolve("sub"));
    Path out = dir.resolve("out.jsonl");
    assertThat(CliRunner.run("scan", tree.root().toString(), "--output", out.toString()).status())
        .isZero();

    // What `rea scan ../tree` from dir/sub resolves to.
    String roundabout = dir.resolve("sub").resolve("..").resolve("tree").toString();
    CliRunner.Result resumed =
        CliRunner.run("scan", roundabout, "--output", out.toString(), "--resume");

    assertThat(resumed.status()).as(resumed.err()).isZero();
    assertThat(lastLine(resumed.err())).contains("5 kept from the earlier output");
    for (JsonNode l : lines(Files.readString(out))) {
      assertThat(l.get("path").asString()).startsWith(tree.root().toString() + "/").doesNotContain("..");
    }
  }

  @Test
  void dotDotBelowALinkIsNotShortenedToAnotherDirectory() throws Exception {
    // dir/link -> dir/far/inner, so dir/link/.. is dir/far (the kernel's reading), not dir.
    Path inner = Files.createDirectories(dir.resolve("far").resolve("inner"));
    Files.write(dir.resolve("far").resolve("far.gguf"), ScanTrees.gguf(7));
    Files.write(dir.resolve("near.gguf"), ScanTrees.gguf(8));
    Files.createSymbolicLink(dir.resolve("link"), inner);

    CliRunner.Result r = CliRunner.run("scan", dir.resolve("link").resolve("..").toString());

    assertThat(r.status()).as(r.err()).isZero();
    List<String> paths = new ArrayList<>();
    for (JsonNode l : lines(r.out())) {
      paths.add(l.get("path").asString());
    }
    assertThat(paths).anyMatch(p -> p.endsWith("far.gguf")).noneMatch(p -> p.endsWith("near.gguf"));
  }

  @Test
  void aResumeThatKeepsNothingSaysWhyThatCanBe() throws Exception {
    ScanTrees.Tree tree = ScanTrees.write(dir.resolve("tree"), 3, false);
    Files.createSymbolicLink(dir.resolve("alias"), tree.root());
    Path out = dir.resolve("out.jsonl");
    assertThat(CliRunner.run("scan", tree.root().toString(), "--output", out.toString()).status())
        .isZero();

    CliRunner.Result viaLink =
        CliRunner.run("scan", dir.resolve("alias").toString(), "--output", out.toString(), "--resume");

    assertThat(viaLink.status()).as(viaLink.err()).isZero();
    assertThat(lastLine(viaLink.err())).contains("0 kept from the earlier output");
    assertThat(viaLink.err())
        .contains("--resume kept none of the 3 lines of " + out)
        .contains("another symbolic link is another path");
    // A resume that keeps lines says nothing of the kind.
    CliRunner.Result again =
        CliRunner.run("scan", dir.resolve("alias").toString(), "--output", out.toString(), "--resume");
    assertThat(lastLine(again.err())).contains("3 kept from the earlier output");
    assertThat(again.err()).doesNotContain("kept none");
  }

  @Test
  void aResumedFullHashScanKeepsItsUnchangedSets() throws Exception {
    Path root = Files.createDirectories(dir.resolve("tree"));
    dev.rea.core.testing.SetFixtures.checkpoint(Files.createDirectories(root.resolve("ck")), 3, 2);
    dev.rea.core.testing.SetFixtures.ggufSplit(Files.createDirectories(root.resolve("split")), "s", 3, 1, 1);
    Files.write(root.resolve("one.gguf"), ScanTrees.gguf(1));
    Path out = dir.resolve("out.jsonl");
    CliRunner.Result first =
        CliRunner.run("scan", root.toString(), "--output", out.toString(), "--hash", "full");
    List<JsonNode> before = lines(Files.readString(out));
    long sets = before.stream().filter(l -> l.get("kind").asString().equals("set")
        && l.get("status").asString().equals("complete")).count();
    assertThat(sets).as(first.err()).isPositive();

    CliRunner.Result resumed = CliRunner.run(
        "scan", root.toString(), "--output", out.toString(), "--resume", "--hash", "full");

    long complete = before.stream().filter(l -> l.get("status").asString().equals("complete")).count();
    assertThat(lastLine(resumed.err())).contains(complete + " kept from the earlier output");
    // And a header-only resume of those set lines inspects them again, as it does files.
    CliRunner.Result headers =
        CliRunner.run("scan", root.toString(), "--output", out.toString(), "--resume");
    assertThat(lastLine(headers.err())).contains("0 kept from the earlier output");
  }
}
