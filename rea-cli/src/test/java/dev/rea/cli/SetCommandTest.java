package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.testing.SetFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code rea inspect-model-set} (CONTRACT section 9) and the set hints of the file command. */
class SetCommandTest {
  @TempDir Path dir;

  @Test
  void theReadableReportHasASetBlockMemberLinesAndNoTensorRows() {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 4, 50);
    CliRunner.Result r = CliRunner.run("inspect-model-set", c.index.toString());
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("Model set " + c.index);
    assertThat(r.out()).contains("safetensors checkpoint with an index");
    assertThat(r.out()).contains("4 members");
    assertThat(r.out()).contains("200 tensors");
    assertThat(r.out()).contains("F16 200 tensors");
    assertThat(r.out()).contains("passed: tensor names unique across members");
    assertThat(r.out()).contains("Members (4)");
    assertThat(r.out()).contains("model-00003-of-00004.safetensors");
    assertThat(r.out()).doesNotContain("model.layers.17.mlp.weight");
    assertThat(r.out()).contains("--view '{\"collection\":\"tensors\"}'");
  }

  /** A set's warnings read as a file's do: {@code - [code] message}. */
  @Test
  void aSetsWarningsArePrintedAsAFilesAre() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 2, 1);
    Files.writeString(
        c.index, Files.readString(c.index).replaceFirst("\"total_size\": \\d+", "\"total_size\": 7"));
    CliRunner.Result r = CliRunner.run("inspect-model-set", c.index.toString());
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).contains("Warnings (1)\n  - [index_total_size_mismatch] ");
  }

  /** {@code --tensors GLOB} lists the matching tensors across members, each naming its member. */
  @Test
  void tensorsListsTheMatchesOfEveryMemberNamingIt() {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 4, 50);
    CliRunner.Result r =
        CliRunner.run(
            "inspect-model-set", c.index.toString(), "--tensors", "model.layers.?9.mlp.weight",
            "--max_tensor_rows", "6");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).contains("Tensors (9 of 200 match --tensors model.layers.?9.mlp.weight)");
    List<String> rows =
        r.out().lines().filter(l -> l.matches("  \\d+ +\\d+ +model\\.layers\\..*")).toList();
    assertThat(rows).hasSize(6);
    assertThat(rows.get(0)).matches("  0 +\\d+ +model\\.layers\\.19\\.mlp\\.weight +F16 +\\[4, 8\\] +64");
    assertThat(rows.get(3)).matches("  0 +\\d+ +model\\.layers\\.49\\.mlp\\.weight .*");
    assertThat(rows.get(4)).matches("  1 +\\d+ +model\\.layers\\.59\\.mlp\\.weight .*");
    assertThat(r.out()).contains("  ... 3 more tensors not shown (--max_tensor_rows N shows more)");
    assertThat(r.out()).doesNotContain("model.layers.18.mlp.weight");
    assertThat(r.out()).doesNotContain("Tensor rows are not printed");

    CliRunner.Result none =
        CliRunner.run("inspect-model-set", c.index.toString(), "--tensors", "lm_head.*");
    assertThat(none.out()).contains("Tensors (0 of 200 match --tensors lm_head.*)\n  none");

    CliRunner.Result json =
        CliRunner.run("inspect-model-set", c.index.toString(), "--tensors", "*", "--json");
    assertThat(json.status()).isEqualTo(2);
    assertThat(json.json().get("error").get("constraint").asString())
        .isEqualTo("conflicting_choices");
    CliRunner.Result bad = CliRunner.run("inspect-model-set", c.index.toString(), "--tensors", "[a");
    assertThat(bad.status()).isEqualTo(2);
    assertThat(bad.err()).contains("--tensors '[a' does not parse");
    CliRunner.Result alone =
        CliRunner.run("inspect-model-set", c.index.toString(), "--max_tensor_rows", "5");
    assertThat(alone.status()).isEqualTo(2);
    assertThat(alone.err()).contains("--max_tensor_rows limits the rows --tensors GLOB lists");
  }

  /** Off a terminal a page's digests are whole: an evidence ID cut at 60 identifies nothing. */
  @Test
  void aPipedMembersPagePrintsEvidenceIdsWhole() throws Exception {
    List<Path> m = SetFixtures.ggufSplit(dir, "p", 2, 0, 2);
    Path ev = dir.resolve("set.json");
    CliRunner.Result page =
        CliRunner.run(
            "inspect-model-set", m.get(0).toString(), "--detail", "summary", "--evidence_output",
            ev.toString(), "--view",
            "{\"collection\":\"members\",\"fields\":[\"evidence_id\",\"header_sha256\"]}");
    assertThat(page.status()).as(page.err()).isZero();
    JsonNode members =
        tools.jackson.databind.json.JsonMapper.builder().build().readTree(Files.readString(ev))
            .get("records").get(0).get("members");
    for (JsonNode member : members) {
      assertThat(page.out())
          .contains(member.get("evidence_id").asString())
          .contains(member.get("header_sha256").asString());
    }
    assertThat(page.out()).doesNotContain("cells are cut");
  }

  /** A set summary says it rests on a layout assumption, as a file's summary does. */
  @Test
  void aSetSummaryNamesTheLayoutAssumption() {
    List<Path> m = SetFixtures.ggufSplit(dir, "l", 2, 0, 2);
    CliRunner.Result assumed =
        CliRunner.run(
            "inspect-model-set", m.get(0).toString(), "--detail", "summary", "--json",
            "--assume-layout", "ggml-modern");
    assertThat(assumed.status()).as(assumed.err()).isZero();
    assertThat(assumed.json().get("kind").asString()).isEqualTo("model-set-summary");
    assertThat(assumed.json().get("assume_layout").asString()).isEqualTo("ggml-modern");
    CliRunner.Result plain =
        CliRunner.run("inspect-model-set", m.get(0).toString(), "--detail", "summary", "--json");
    assertThat(plain.json().has("assume_layout")).isFalse();
  }

  /**
   * The readable summary of a set is its summary's shape (counts over every member, types,
   * headline, the complete Evidence's ID), not the complete report's member table.
   */
  @Test
  void aReadableSetSummaryPrintsTheSummary() {
    List<Path> m = SetFixtures.ggufSplit(dir, "r", 3, 1, 2);
    CliRunner.Result json =
        CliRunner.run("inspect-model-set", m.get(0).toString(), "--detail", "summary", "--json");
    assertThat(json.status()).as(json.err()).isZero();
    JsonNode counts = json.json().get("counts");
    CliRunner.Result text =
        CliRunner.run("inspect-model-set", m.get(0).toString(), "--detail", "summary");
    assertThat(text.status()).as(text.err()).isZero();
    assertThat(text.out())
        .startsWith("Summary of the model set ")
        .contains("  kind           GGUF split set (gguf-split), 3 members (gguf)\n")
        .contains("  counts         over all members' headers: " + counts.get("metadata").asLong()
            + " metadata keys, " + counts.get("tensors").asLong() + " tensors, 1 type\n")
        .contains("\nHeadline metadata (")
        .contains("general.architecture")
        // Each run's record has its own time, so its own ID: the line is there.
        .contains("Complete Evidence: sha256:")
        // The member table is the complete report's; a summary's totals are the set's.
        .doesNotContain("Members (")
        .doesNotContain("split member");
  }

  /**
   * The complete readable report of a GGUF split set names the model as member 0 declares it; a
   * safetensors checkpoint, whose shards declare no such keys, has no model line.
   */
  @Test
  void aReadableSplitSetReportNamesTheModel() throws Exception {
    List<Path> m = SetFixtures.ggufSplit(dir, "n", 3, 1, 2);
    CliRunner.Result text = CliRunner.run("inspect-model-set", m.get(1).toString());
    assertThat(text.status()).as(text.err()).isZero();
    assertThat(text.out())
        .contains("\n  model     llama, \"tiny split\" (general.architecture and general.name of"
            + " member 0)\n");
    SetFixtures.Checkpoint c =
        SetFixtures.checkpoint(java.nio.file.Files.createDirectories(dir.resolve("nm")), 2, 1);
    CliRunner.Result st = CliRunner.run("inspect-model-set", c.index.toString());
    assertThat(st.status()).as(st.err()).isZero();
    assertThat(st.out()).contains("\n  kind ").doesNotContain("\n  model ");
  }

  /**
   * A safetensors index's metadata is kept as text (a number's digits), so the readable summary
   * claims no GGUF type for it: total_size, a JSON number, is not shown as a STRING.
   */
  @Test
  void anIndexsMetadataIsShownAsTextWithoutAType() throws Exception {
    SetFixtures.Checkpoint c =
        SetFixtures.checkpoint(java.nio.file.Files.createDirectories(dir.resolve("ix")), 2, 1);
    CliRunner.Result text =
        CliRunner.run("inspect-model-set", c.index.toString(), "--detail", "summary");
    assertThat(text.status()).as(text.err()).isZero();
    assertThat(text.out())
        .contains("\nIndex metadata (1), each value as its text (a string's or a number's)\n")
        .containsPattern("\\n  total_size +TEXT +[0-9]+\\n")
        .doesNotContain("STRING")
        .doesNotContain("Headline metadata");
  }

  @Test
  void jsonIsTheSignedSetBundleWithTheSetFirst() {
    List<Path> m = SetFixtures.ggufSplit(dir, "j", 3, 0, 2);
    CliRunner.Result r = CliRunner.run("inspect-model-set", m.get(2).toString(), "--json");
    assertThat(r.status()).as(r.err()).isZero();
    JsonNode b = r.json();
    assertThat(b.get("schema").asString()).isEqualTo("rea.bundle.v1");
    JsonNode records = b.get("records");
    assertThat(records).hasSize(4);
    assertThat(records.get(0).get("schema").asString()).isEqualTo("rea.model-set.v1");
    assertThat(records.get(0).get("set").get("kind").asString()).isEqualTo("gguf_split");
    assertThat(records.get(0).get("authentication").get("scheme").asString()).isEqualTo("ed25519");
    for (int i = 1; i <= 3; i++) {
      assertThat(records.get(i).get("evidence_id").asString())
          .isEqualTo(records.get(0).get("members").get(i - 1).get("evidence_id").asString());
    }
  }

  @Test
  void aSummaryWithAViewIsAnsweredFromTheWrittenBundle() throws Exception {
    List<Path> m = SetFixtures.ggufSplit(dir, "v", 3, 2, 2);
    Path out = dir.resolve("out").resolve("set.json");
    Files.createDirectories(out.getParent());
    CliRunner.Result r = CliRunner.run("inspect-model-set", dir.toString(), "--json",
        "--detail", "summary", "--evidence_output", out.toString(),
        "--view", "{\"collection\":\"tensors\",\"names\":[\"blk.4.weight\"]}");
    assertThat(r.status()).as(r.err()).isZero();
    JsonNode s = r.json();
    assertThat(s.get("kind").asString()).isEqualTo("model-set-summary");
    JsonNode row = s.get("page").get("rows").get(0);
    assertThat(row.get("member").asInt()).isEqualTo(2);
    assertThat(row.get("index").asInt()).isZero();
    CliRunner.Result again = CliRunner.run("inspect-analysis-view", "--source", out.toString(),
        "--json", "--view", "{\"kind\":\"model-artifact\",\"collection\":\"members\"}");
    assertThat(again.status()).as(again.err()).isZero();
    assertThat(again.json().get("total_matches").asInt()).isEqualTo(3);
  }

  /**
   * A saved set bundle answers over the whole set, or from the one member {@code --evidence_id}
   * names; an ID the bundle does not hold is refused, as it is for a file's bundle.
   */
  @Test
  void evidenceIdChoosesAMemberOfASavedSetBundle() throws Exception {
    List<Path> m =
        SetFixtures.ggufSplit(dir, "v", 3, 2, 2,
            (no, kvs) -> {
              if (no == 1) {
                kvs.put("tokenizer.ggml.tokens",
                    dev.rea.core.internal.format.gguf.GgufBuilder.array(8,
                        dev.rea.core.internal.format.gguf.GgufBuilder.str("a"),
                        dev.rea.core.internal.format.gguf.GgufBuilder.str("b")));
              }
            },
            (no, b) -> {});
    Path out = dir.resolve("out").resolve("set.json");
    Files.createDirectories(out.getParent());
    CliRunner.Result r = CliRunner.run("inspect-model-set", m.get(0).toString(), "--json",
        "--detail", "summary", "--evidence_output", out.toString());
    assertThat(r.status()).as(r.err()).isZero();
    JsonNode records = CliRunner.JSON.readTree(out.toFile()).get("records");
    String setId = records.get(0).get("evidence_id").asString();
    String second = records.get(2).get("evidence_id").asString();
    String tensors = "{\"kind\":\"model-artifact\",\"collection\":\"tensors\"}";

    CliRunner.Result whole = CliRunner.run("inspect-analysis-view", "--source", out.toString(),
        "--json", "--view", tensors);
    assertThat(whole.status()).as(whole.err()).isZero();
    assertThat(whole.json().get("total_matches").asInt()).isEqualTo(6);
    CliRunner.Result bySetId = CliRunner.run("inspect-analysis-view", "--source", out.toString(),
        "--json", "--view", tensors, "--evidence_id", setId);
    assertThat(bySetId.json().get("total_matches").asInt()).isEqualTo(6);

    CliRunner.Result member = CliRunner.run("inspect-analysis-view", "--source", out.toString(),
        "--json", "--view", tensors, "--evidence_id", second);
    assertThat(member.status()).as(member.err()).isZero();
    assertThat(member.json().get("total_matches").asInt()).isEqualTo(2);
    assertThat(member.json().get("rows").get(0).get("name").asString()).isEqualTo("blk.2.weight");

    CliRunner.Result unknown = CliRunner.run("inspect-analysis-view", "--source", out.toString(),
        "--json", "--view", tensors, "--evidence_id", "sha256:" + "0".repeat(64));
    assertThat(unknown.status()).isEqualTo(2);
    assertThat(unknown.json().get("error").get("constraint").asString())
        .isEqualTo("unknown_evidence");
    assertThat(unknown.json().get("error").get("message").asString())
        .contains(setId + " (the set)").contains(second);

    String array = "{\"kind\":\"model-artifact\",\"collection\":\"array\","
        + "\"key\":\"tokenizer.ggml.tokens\"}";
    CliRunner.Result noMember = CliRunner.run("inspect-analysis-view", "--source", out.toString(),
        "--json", "--view", array);
    assertThat(noMember.status()).isEqualTo(2);
    assertThat(noMember.json().get("error").get("constraint").asString())
        .isEqualTo("bad_argument");
    assertThat(noMember.json().get("error").get("message").asString())
        .contains(records.get(1).get("evidence_id").asString());
    CliRunner.Result page = CliRunner.run("inspect-analysis-view", "--source", out.toString(),
        "--json", "--view", array, "--evidence_id", records.get(1).get("evidence_id").asString());
    assertThat(page.status()).as(page.err()).isZero();
    assertThat(page.json().get("elements").toString()).isEqualTo("[\"a\",\"b\"]");
  }

  @Test
  void aContradictionExitsThreeNamingMemberTensorAndField() {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 2, 1, (s, b) -> {},
        map -> map.put("ghost", "model-00002-of-00002.safetensors"));
    CliRunner.Result r = CliRunner.run("inspect-model-set", c.index.toString(), "--json");
    assertThat(r.status()).isEqualTo(3);
    JsonNode e = r.json().get("error");
    assertThat(e.get("constraint").asString()).isEqualTo("set_rejected");
    JsonNode x = e.get("details").get("diagnostics").get("contradictions").get(0);
    assertThat(x.get("member").asInt()).isEqualTo(1);
    assertThat(x.get("tensor").asString()).isEqualTo("ghost");
    assertThat(x.get("field").asString()).isEqualTo("weight_map[\"ghost\"]");
    assertThat(r.json().get("partial_evidence").get("schema").asString())
        .isEqualTo("rea.model-set.v1");
    CliRunner.Result text = CliRunner.run("inspect-model-set", c.index.toString());
    assertThat(text.status()).isEqualTo(3);
    // stdout lists the contradictions (below); stderr counts them instead of listing them again.
    assertThat(text.err()).contains("set_rejected").contains("ghost")
        .contains("  contradictions: 1, listed above")
        .doesNotContain("    - member 1 (")
        // The count the list's size already says is not a line of its own.
        .doesNotContain("contradiction_count");
    // Without the readable report (a standard format on stdout), stderr lists them: one line
    // per contradiction, as a sentence, not a Java map.
    CliRunner.Result bom =
        CliRunner.run("inspect-model-set", c.index.toString(), "--format", "cyclonedx");
    assertThat(bom.out()).isEmpty();
    assertThat(bom.err())
        .contains("  contradictions:\n    - member 1 (")
        .contains("), tensor \"ghost\", weight_map[\"ghost\"]: ")
        .doesNotContain("{member=");
    // Every member was read: the report says the set was rejected, not that a read stopped.
    assertThat(text.out())
        .startsWith("REJECTED model set ")
        .contains("of the 2 members read")
        .contains("each member's header only")
        .doesNotContain("stopped")
        // Why, on stdout too: a reader who keeps only stdout sees the contradiction.
        .contains("\nContradictions (1)\n  - member 1 (")
        .contains("), tensor \"ghost\", weight_map[\"ghost\"]: the index maps the tensor")
        // No Evidence file is written for a rejected set: paging its rows is not offered.
        .doesNotContain("Tensor rows are not printed");
  }

  @Test
  void aRejectedSetReportListsTheFirstContradictionsAndCountsTheRest() {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 2, 1, (s, b) -> {},
        map -> {
          for (int i = 0; i < 11; i++) {
            map.put("ghost" + i, "model-00002-of-00002.safetensors");
          }
        });
    CliRunner.Result text = CliRunner.run("inspect-model-set", c.index.toString());
    assertThat(text.status()).isEqualTo(3);
    assertThat(text.out()).contains("\nContradictions (11)\n")
        .contains("  (3 more; --json lists the first 11)");
    long listed = text.out().lines().filter(l -> l.startsWith("  - member 1 (")).count();
    assertThat(listed).isEqualTo(8);
  }

  @Test
  void aDirectoryOfSeveralModelsListsThem() {
    SetFixtures.ggufSplit(dir, "a", 2, 1, 1);
    SetFixtures.ggufSplit(dir, "b", 2, 1, 1);
    CliRunner.Result r = CliRunner.run("inspect-model-set", dir.toString());
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("ambiguous_set").contains("a-00001-of-00002.gguf")
        .contains("b-00001-of-00002.gguf");
    // The message names the models; no diagnostic line names them again.
    assertThat(r.err().split("a-00001-of-00002\\.gguf", -1)).hasSize(2);
  }

  @Test
  void theFileCommandRefusesAnIndexNamingTheSetCommand() {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 2, 1);
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", c.index.toString());
    assertThat(r.status()).isEqualTo(3);
    assertThat(r.err()).contains("safetensors index").contains("inspect-model-set");
  }

  @Test
  void aSplitMemberSaysItsTotalsAreTheMembers() {
    List<Path> m = SetFixtures.ggufSplit(dir, "w", 3, 1, 1);
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", m.get(1).toString());
    assertThat(r.status()).as(r.err()).isZero();
    // Numbered from 0, as split.no and inspect-model-set number members.
    assertThat(r.out()).contains("member 1 of a split set of 3 (split.no 1;")
        .contains("inspect-model-set");
    CliRunner.Result s = CliRunner.run("inspect-model-artifact", m.get(0).toString(),
        "--detail", "summary");
    assertThat(s.out()).contains("member 0 of a split set of 3").contains("split.count");

    // A safetensors shard says the same of its totals, in both reports.
    SetFixtures.Checkpoint c =
        SetFixtures.checkpoint(dir.resolve("ck"), 2, 1);
    for (String detail : new String[] {"complete", "summary"}) {
      CliRunner.Result shard = CliRunner.run("inspect-model-artifact", c.shards.get(0).toString(),
          "--detail", detail);
      assertThat(shard.status()).as(shard.err()).isZero();
      assertThat(shard.out()).as(detail).contains("named as one shard of a checkpoint");
    }
  }

  @Test
  void aMembersPageGroupsSizesAndSaysWhatWasNotHashed() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 2, 400);
    CliRunner.Result r = CliRunner.run("inspect-model-set", c.index.toString(), "--detail",
        "summary", "--evidence_output", dir.resolve("set.json").toString(), "--view",
        "{\"collection\":\"members\"}");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).contains("not hashed").doesNotContain(" null ");
    long size = Files.size(c.shards.get(0));
    assertThat(size).isGreaterThan(9_999);
    assertThat(r.out()).contains("  " + Sizes.grouped(size) + "  ");
  }

  /**
   * A directory holding a model file whose name cannot be decoded is refused, naming the file by
   * its URI, instead of being read as if the file were not there; a stray undecodable name of
   * another kind is left alone. The names are made by sh, since Java cannot spell them.
   */
  @Test
  void aDirectoryWithAModelFileWhoseNameCannotBeDecodedIsRefused() throws Exception {
    Path sample = dev.rea.core.internal.format.gguf.GgufTesting.repositoryRoot()
        .resolve("samples/sample-mixed.gguf");
    Path bad = Files.createDirectories(dir.resolve("bad"));
    Path stray = Files.createDirectories(dir.resolve("stray"));
    Path byContent = Files.createDirectories(dir.resolve("content"));
    Files.copy(sample, stray.resolve("ok.gguf"));
    Process p =
        new ProcessBuilder(
                "sh", "-c",
                "cp \"$1\" \"$2/$(printf 'm\\350.gguf')\" && echo x > \"$3/$(printf 'notes\\351.txt')\""
                    + " && cp \"$1\" \"$4/ok.gguf\" && cp \"$1\" \"$4/$(printf 'other\\377.bin')\"",
                "sh", sample.toString(), bad.toString(), stray.toString(), byContent.toString())
            .inheritIO()
            .start();
    assertThat(p.waitFor()).isZero();

    CliRunner.Result refused = CliRunner.run("inspect-model-set", bad.toString());
    CliRunner.Result check = CliRunner.run("check", bad.toString());
    CliRunner.Result fine = CliRunner.run("inspect-model-set", stray.toString());

    assertThat(refused.status()).isEqualTo(3);
    assertThat(refused.err()).contains("not_found").contains(bad.toUri() + "m%E8.gguf");
    assertThat(check.status()).isEqualTo(1);
    assertThat(check.out()).contains("not valid in the locale's encoding");
    assertThat(fine.status()).as(fine.err()).isZero();
    // A model by content under a name with another ending is a model all the same.
    CliRunner.Result second = CliRunner.run("check", byContent.toString());
    assertThat(second.status()).isEqualTo(1);
    assertThat(second.out()).contains(byContent.toUri() + "other%FF.bin");
  }
}
