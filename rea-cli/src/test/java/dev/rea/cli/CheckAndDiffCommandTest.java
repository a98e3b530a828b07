package dev.rea.cli;

import static dev.rea.core.internal.format.gguf.GgufBuilder.str;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.testing.SetFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code rea check} gives the verdicts of CONTRACT section 12, {@code rea diff} section 11's. */
class CheckAndDiffCommandTest {
  private static final long F32 = 0;
  private static final long Q4_K = 12;

  @TempDir Path dir;

  private Path write(String name, GgufBuilder b) throws Exception {
    return Files.write(dir.resolve(name), b.bytes());
  }

  private static GgufBuilder llama() {
    return GgufBuilder.v3().kv("general.architecture", str("llama"));
  }

  private static String sha256(Path p) throws Exception {
    return HexFormat.of()
        .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
  }

  @Test
  void anUntouchedFilePasses() throws Exception {
    Path ok = write("ok.gguf", llama().tensor("w", F32, 8, 4));
    CliRunner.Result r = CliRunner.run("check", ok.toString());
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out().strip()).isEqualTo("OK " + ok);
  }

  /** A changed tensor's amounts are grouped by thousands, as the type and total lines are. */
  @Test
  void aChangedTensorsAmountsAreGroupedAsTheTotalsAre() throws Exception {
    Path a = write("g1.gguf", llama().tensor("w", F32, 64, 16));
    Path b = write("g2.gguf", llama().tensor("w", F32, 64, 32));
    CliRunner.Result r = CliRunner.run("diff", a.toString(), b.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).contains(
        "  ~ tensor w: shape [64, 16] -> [64, 32]; parameter_count 1,024 -> 2,048; byte_length"
            + " 4,096 -> 8,192");
  }

  /**
   * A gguf-split output of one file, {@code NAME-00001-of-00001.gguf}, is a split set by its name
   * (CONTRACT section 9): check FILE, check DIR and diff judge its split keys alike, so a valid
   * one passes and one whose split.no is 5 fails whichever way it is named on the command line.
   */
  @Test
  void aSplitOfOneIsJudgedAsItsSetWhicheverWayItIsNamed() throws Exception {
    List<Path> good = SetFixtures.ggufSplit(Files.createDirectories(dir.resolve("g1")), "m", 1, 2,
        0, (no, b) -> {});
    CliRunner.Result ok = CliRunner.run("check", good.get(0).toString());
    assertThat(ok.status()).as(ok.out()).isZero();
    List<Path> bad = SetFixtures.ggufSplit(Files.createDirectories(dir.resolve("b1")), "m", 1, 2,
        0, (no, kvs) -> kvs.put("split.no", GgufBuilder.u16(5)), (no, b) -> {});
    for (Path p : List.of(bad.get(0), bad.get(0).getParent())) {
      CliRunner.Result r = CliRunner.run("check", p.toString());
      assertThat(r.status()).as(p.toString()).isEqualTo(1);
      assertThat(r.out()).as(p.toString())
          .startsWith("FAIL " + p + ": set_rejected: ")
          .contains("split.no is 5; member 0 must have split.no 0");
    }
    CliRunner.Result diff = CliRunner.run("diff", bad.get(0).toString(), good.get(0).toString());
    assertThat(diff.status()).isEqualTo(3);
    assertThat(diff.err()).contains("set_rejected");
  }

  /**
   * A directory of one model file passes as that file: the line names it, and says that the
   * directories in it (where a broken model may sit) were not read.
   */
  @Test
  void aDirectoryOfOneModelNamesTheFileItJudged() throws Exception {
    Path d = Files.createDirectories(dir.resolve("one"));
    Files.write(d.resolve("m1.gguf"), llama().tensor("w", F32, 8, 4).bytes());
    CliRunner.Result flat = CliRunner.run("check", d.toString());
    assertThat(flat.status()).as(flat.err()).isZero();
    assertThat(flat.out()).isEqualTo("OK " + d + " (its one model file, m1.gguf)\n");
    Files.write(Files.createDirectories(d.resolve("sub")).resolve("cut.gguf"), new byte[] {'G'});
    CliRunner.Result deep = CliRunner.run("check", d.toString());
    assertThat(deep.status()).as(deep.err()).isZero();
    assertThat(deep.out()).isEqualTo("OK " + d + " (its one model file, m1.gguf; the directories"
        + " in it are not read: scan DIR)\n");
  }

  /**
   * CONTRACT section 12 checks files or sets: a directory, an index or a split member is checked
   * as the whole model, failing on what inspect-model-set refuses and on the set's warnings.
   */
  @Test
  void aSetIsCheckedAsOneModel() throws Exception {
    Path ok = write("ok.gguf", llama().tensor("w", F32, 8, 4));
    Path index = java.nio.file.Files.writeString(ok.resolveSibling("model.safetensors.index.json"),
        "{\"weight_map\":{\"w\":\"model-00001-of-00002.safetensors\"}}");
    CliRunner.Result r = CliRunner.run("check", ok.getParent().toString(), index.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out())
        .contains("FAIL " + ok.getParent() + ": ambiguous_set: the directory holds 2 models")
        .contains("FAIL " + index + ": not_found: ")
        .contains("model-00001-of-00002.safetensors");

    SetFixtures.Checkpoint c =
        SetFixtures.checkpoint(java.nio.file.Files.createDirectories(dir.resolve("ckpt")), 2, 3);
    CliRunner.Result good = CliRunner.run("check", c.index.getParent().toString(), c.index.toString());
    assertThat(good.status()).as(good.out()).isZero();
    // The index was read as the directory's set: one verdict covers both PATHs.
    assertThat(good.out().lines())
        .containsExactly("OK " + c.index.getParent() + " (the set of 2 files and its index)");
    assertThat(good.err()).contains("1 more PATH was a file of a model set checked above");
    // Every file of the checkpoint given one by one (a shell's DIR/*): one set, read once.
    List<String> each = new ArrayList<>(List.of("check"));
    each.add(c.shards.get(1).toString());
    each.add(c.index.toString());
    each.add(c.shards.get(0).toString());
    CliRunner.Result glob = CliRunner.run(each.toArray(new String[0]));
    assertThat(glob.status()).as(glob.out() + glob.err()).isZero();
    // The line under a shard's name says it covers the whole set.
    assertThat(glob.out().lines())
        .containsExactly("OK " + c.shards.get(1) + " (the set of 2 files and its index)");
    assertThat(glob.err()).contains("2 more PATHs were files of a model set checked above");
    assertThat(CliRunner.run("check", c.index.toString(), c.index.toString(), "--json")
            .json().get("units").size())
        .as("the same index twice: one unit").isEqualTo(1);
    CliRunner.Result json = CliRunner.run("check", c.index.toString(), "--json");
    assertThat(json.json().get("units").get(0).get("evidence_id").asString()).startsWith("sha256:");

    // The index declaring another byte total is the set's warning, which --allow can let through.
    String text = java.nio.file.Files.readString(c.index);
    java.nio.file.Files.writeString(
        c.index, text.replaceFirst("\"total_size\": \\d+", "\"total_size\": 7"));
    CliRunner.Result warned = CliRunner.run("check", c.index.toString());
    assertThat(warned.status()).isEqualTo(1);
    assertThat(warned.out())
        .startsWith(
            "FAIL " + c.index + " (the set of 2 files and its index): index_total_size_mismatch: ");
    assertThat(
            CliRunner.run("check", c.index.toString(), "--allow", "index_total_size_mismatch")
                .status())
        .isZero();

    // A set of several files has no one SHA-256 to expect.
    CliRunner.Result digest =
        CliRunner.run("check", c.index.toString(), "--expect-sha256", "0".repeat(64),
            "--allow", "index_total_size_mismatch");
    assertThat(digest.status()).isEqualTo(1);
    assertThat(digest.out()).contains("sha256_mismatch: ").contains("a set of 2 files has no single SHA-256");
  }

  /**
   * A shard named alone is its checkpoint's member, and a file whose header says it is one part
   * of a split set is not a whole model: check reads both as inspect-model-set does, instead of
   * passing the one file.
   */
  @Test
  void aShardOrARenamedSplitMemberIsCheckedAsItsSet() throws Exception {
    SetFixtures.Checkpoint c =
        SetFixtures.checkpoint(
            Files.createDirectories(dir.resolve("ckpt")), 2, 1, (s, b) -> {},
            map -> map.put("ghost", "model-00002-of-00002.safetensors"));
    Path shard = c.shards.get(0);
    CliRunner.Result broken = CliRunner.run("check", shard.toString());
    assertThat(broken.status()).as(broken.out()).isEqualTo(1);
    assertThat(broken.out()).startsWith("FAIL " + shard + ": set_rejected: ").contains("ghost");
    // --expect-sha256 names the one file's digest: the shard alone.
    assertThat(CliRunner.run("check", shard.toString(), "--expect-sha256", sha256(shard)).status())
        .isZero();

    // Named as a shard, with no index beside it: the set's warning, which --allow lets through.
    Path alone = Files.createDirectories(dir.resolve("alone"));
    Path lone = Files.copy(shard, alone.resolve(shard.getFileName()));
    CliRunner.Result unindexed = CliRunner.run("check", lone.toString());
    assertThat(unindexed.status()).isEqualTo(1);
    assertThat(unindexed.out()).startsWith("FAIL " + lone + ": shard_without_index: ");
    assertThat(CliRunner.run("check", lone.toString(), "--allow", "shard_without_index").status())
        .isZero();

    java.util.List<Path> members = SetFixtures.ggufSplit(Files.createDirectories(dir.resolve("g")),
        "s", 3, 1, 1);
    // With --expect-sha256 a split member is the one file the digest names, as a shard is: its
    // own digest passes it alone (no set scope on its line, and no other member is needed),
    // another member's digest fails it.
    Files.delete(members.get(2));
    CliRunner.Result own = CliRunner.run("check", members.get(1).toString(), "--expect-sha256",
        sha256(members.get(1)));
    assertThat(own.status()).as(own.out()).isZero();
    assertThat(own.out()).isEqualTo("OK " + members.get(1) + "\n");
    CliRunner.Result other = CliRunner.run("check", members.get(1).toString(), "--expect-sha256",
        sha256(members.get(0)));
    assertThat(other.status()).isEqualTo(1);
    assertThat(other.out()).startsWith("FAIL " + members.get(1) + ": sha256_mismatch: ");
    Path renamed = Files.copy(members.get(1), dir.resolve("model.gguf"));
    CliRunner.Result member = CliRunner.run("check", renamed.toString());
    assertThat(member.status()).isEqualTo(1);
    assertThat(member.out()).startsWith("FAIL " + renamed + ": split_member_alone: ");

    // split.count 3 with no split.no: still one part of three by its own account, as scan and
    // inspect-model-set read it, not a whole model.
    java.util.List<Path> numberless = SetFixtures.ggufSplit(
        Files.createDirectories(dir.resolve("n")), "n", 3, 1, 1,
        (no, kvs) -> kvs.remove("split.no"), (no, b) -> {});
    Path lost = Files.copy(numberless.get(0), dir.resolve("lost.gguf"));
    CliRunner.Result noNumber = CliRunner.run("check", lost.toString());
    assertThat(noNumber.status()).as(noNumber.out()).isEqualTo(1);
    assertThat(noNumber.out()).startsWith("FAIL " + lost + ": split_member_alone: ");
  }

  @Test
  void aKQuantFileCutShortFailsWithItsWarning() throws Exception {
    Path cut = write("cut.gguf", llama().tensor("blk.0.ffn_down.weight", Q4_K, 256, 4).truncate(100));
    CliRunner.Result r = CliRunner.run("check", cut.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).startsWith("FAIL " + cut + ": short_under_every_layout: ");

    CliRunner.Result allowed =
        CliRunner.run("check", cut.toString(), "--allow", "short_under_every_layout");
    assertThat(allowed.status()).as("--allow lets the named warning pass").isZero();
    assertThat(allowed.out().strip()).isEqualTo("OK " + cut);
    CliRunner.Result misspelt =
        CliRunner.run("check", cut.toString(), "--allow", "short_under_every_layuot", "--json");
    assertThat(misspelt.status()).as("a code REA has no warning for is refused").isEqualTo(2);
    assertThat(misspelt.json().get("error").get("message").asString())
        .contains("short_under_every_layuot")
        .contains("short_under_every_layout");

    CliRunner.Result strict =
        CliRunner.run(
            "check", cut.toString(), "--allow", "short_under_every_layout", "--fail-on", "limitations");
    assertThat(strict.status()).as("the layout limitation fails it now").isEqualTo(1);
    assertThat(strict.out()).contains("FAIL ").contains("layout");
    // A limitation's paragraph is cut to its first sentence on the line ("e.g." ends none);
    // --json keeps it whole.
    assertThat(strict.out())
        .contains("k_quant_layout_ambiguous: Q4_K (type ID 12) has two released storage layouts")
        .contains("e.g. b1500)")
        .doesNotContain("The header does not record which one wrote the file")
        .contains("(limitations in their first sentence: --json has them whole)")
        .endsWith("--allow layout_assumed then lets the statement pass)\n");
    CliRunner.Result whole =
        CliRunner.run(
            "check", cut.toString(), "--allow", "short_under_every_layout", "--fail-on",
            "limitations", "--json");
    assertThat(whole.json().get("units").get(0).get("reasons").toString())
        .contains("The header does not record which one wrote the file");

    // --fail-on warnings, as rea scan takes it, is check's default: the limitation passes.
    CliRunner.Result asScan =
        CliRunner.run(
            "check", cut.toString(), "--allow", "short_under_every_layout", "--fail-on", "warnings");
    assertThat(asScan.status()).as(asScan.err()).isZero();
    assertThat(asScan.out().strip()).isEqualTo("OK " + cut);
    CliRunner.Result other = CliRunner.run("check", cut.toString(), "--fail-on", "errors");
    assertThat(other.status()).isEqualTo(2);
    assertThat(other.err()).contains("--fail-on takes 'warnings'").contains("'limitations'");
  }

  /** Two K types' limitations: the second says what differs and points back for the rest. */
  @Test
  void aSecondKTypesLimitationPointsBackToTheFirst() throws Exception {
    Path kq =
        write(
            "two-k.gguf",
            llama().tensor("a.weight", Q4_K, 256, 4).tensor("b.weight", Q4_K + 1, 256, 4));
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", kq.toString());
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("[k_quant_layout_ambiguous] Q4_K (type ID 12) has two released storage layouts")
        .contains("[k_quant_layout_ambiguous] Q5_K (type ID 13) has two released storage layouts")
        .contains(
            "so the byte length and storage of 1 tensor are unknown. The rest reads as for the"
                + " k_quant_layout_ambiguous above.");
    assertThat(r.out().split("candidates_fitting_ranges lists", -1)).hasSize(2);
    CliRunner.Result json = CliRunner.run("inspect-model-artifact", kq.toString(), "--json");
    assertThat(json.out().split("candidates_fitting_ranges lists", -1))
        .as("the record keeps each message whole").hasSize(3);
    // check says the shared explanation once, and how a known writer's file passes.
    CliRunner.Result check = CliRunner.run("check", kq.toString(), "--fail-on", "limitations");
    assertThat(check.status()).isEqualTo(1);
    assertThat(check.out())
        .contains("k_quant_layout_ambiguous: Q4_K (type ID 12) has two released storage layouts:")
        .contains("; k_quant_layout_ambiguous: Q5_K (type ID 13) ... as above")
        .contains("(--assume-layout ggml-modern states the layouts of a file known to come from"
            + " current ggml; --allow layout_assumed then lets the statement pass)");
    assertThat(check.out().split("two released storage layouts", -1)).hasSize(2);
  }

  /**
   * A K-quant file can pass --fail-on limitations once its layout is stated and the limitation
   * that records the statement is allowed by name; the layout ambiguity itself stays a reason
   * without the statement.
   */
  @Test
  void aStatedLayoutsLimitationCanBeAllowed() throws Exception {
    Path whole = write("kq.gguf", llama().tensor("blk.0.ffn_down.weight", Q4_K, 256, 4));
    CliRunner.Result ambiguous = CliRunner.run("check", whole.toString(), "--fail-on", "limitations");
    assertThat(ambiguous.status()).isEqualTo(1);
    assertThat(ambiguous.out()).contains("k_quant_layout_ambiguous: ");

    CliRunner.Result assumed =
        CliRunner.run(
            "check", whole.toString(), "--fail-on", "limitations", "--assume-layout", "ggml-modern");
    assertThat(assumed.status()).isEqualTo(1);
    assertThat(assumed.out()).contains("layout_assumed: ").doesNotContain("k_quant_layout_ambiguous");

    CliRunner.Result allowed =
        CliRunner.run(
            "check", whole.toString(), "--fail-on", "limitations", "--assume-layout", "ggml-modern",
            "--allow", "layout_assumed");
    assertThat(allowed.status()).as(allowed.out() + allowed.err()).isZero();
    assertThat(allowed.out().strip()).isEqualTo("OK " + whole);

    CliRunner.Result notStated =
        CliRunner.run(
            "check", whole.toString(), "--fail-on", "limitations", "--allow", "layout_assumed");
    assertThat(notStated.status()).as("allowing the statement's limitation allows no other").isEqualTo(1);
    assertThat(notStated.out()).contains("k_quant_layout_ambiguous: ");

    CliRunner.Result unknown = CliRunner.run("check", whole.toString(), "--allow", "layout_asumed");
    assertThat(unknown.status()).isEqualTo(2);
    assertThat(unknown.err()).contains("'layout_asumed'", "layout_assumed", "short_under_every_layout");
  }

  @Test
  void aTypeIdNoGgmlDefinesFailsUnlessAllowed() throws Exception {
    // Q4_K's ID 12 with its third byte flipped: 0x00FF000C = 16711692, which no ggml defines.
    Path flipped =
        write(
            "flipped.gguf",
            llama().tensor(new GgufBuilder.Tensor("blk.0.ffn_down.weight", 16711692L, 256).dataBytes(144)));
    CliRunner.Result r = CliRunner.run("check", flipped.toString(), "--json");
    assertThat(r.status()).as(r.err()).isEqualTo(1);
    JsonNode reason = r.json().get("units").get(0).get("reasons").get(0);
    assertThat(reason.get("code").asText()).isEqualTo("unknown_type_id");
    assertThat(reason.get("message").asText()).contains("16711692", "damaged header");

    CliRunner.Result allowed = CliRunner.run("check", flipped.toString(), "--allow", "unknown_type_id");
    assertThat(allowed.status()).as(allowed.out()).isZero();
    assertThat(allowed.out().strip()).isEqualTo("OK " + flipped);

    // ID 4 was released (and removed before GGUF): a limitation, no warning.
    Path removed =
        write("removed.gguf", llama().tensor(new GgufBuilder.Tensor("w", 4L, 32).dataBytes(20)));
    assertThat(CliRunner.run("check", removed.toString()).status()).isZero();
  }

  @Test
  void theLayoutAssumptionIsRecordedAndSaidPlainly() throws Exception {
    Path k = write("k.gguf", llama().tensor("blk.0.ffn_down.weight", Q4_K, 256, 4));
    CliRunner.Result json =
        CliRunner.run(
            "inspect-model-artifact", k.toString(), "--assume-layout", "ggml-modern", "--json",
            "--detail", "complete");
    assertThat(json.status()).as(json.err()).isZero();
    JsonNode record = json.json().get("records").get(0);
    assertThat(record.get("request").get("assume_layout").asText()).isEqualTo("ggml-modern");
    assertThat(record.get("coverage").get("storage_sizes").asText()).isEqualTo("assumed");
    assertThat(record.get("tensors").get(0).get("byte_length").asText()).isEqualTo("576");
    assertThat(record.get("limitations").get(0).get("code").asText()).isEqualTo("layout_assumed");

    CliRunner.Result text =
        CliRunner.run("inspect-model-artifact", k.toString(), "--assume-layout", "ggml-modern");
    assertThat(text.status()).as(text.err()).isZero();
    assertThat(text.out()).contains("ASSUMED ggml-modern", "rest on this assumption");
    CliRunner.Result summary =
        CliRunner.run(
            "inspect-model-artifact", k.toString(), "--assume-layout", "ggml-modern",
            "--detail", "summary");
    assertThat(summary.out()).contains("ASSUMED ggml-modern", "rest on this assumption");
    assertThat(CliRunner.run("inspect-model-artifact", k.toString(), "--detail", "summary").out())
        .doesNotContain("ASSUMED");
    assertThat(CliRunner.run("inspect-model-artifact", k.toString()).out())
        .doesNotContain("ASSUMED")
        .contains("candidates fitting the declared ranges: K256");

    // A K64-shaped row is refused under the assumption, by check and diff too.
    Path k64 =
        write("k64.gguf", llama().tensor(new GgufBuilder.Tensor("w", Q4_K, 64, 4).dataBytes(152)));
    assertThat(CliRunner.run("check", k64.toString()).status()).isZero();
    CliRunner.Result refused = CliRunner.run("check", k64.toString(), "--assume-layout", "ggml-modern");
    assertThat(refused.status()).isEqualTo(1);
    assertThat(refused.out()).contains("file_format_rejected", "assumed ggml-modern layout");
    assertThat(
            CliRunner.run("diff", k.toString(), k.toString(), "--assume-layout", "ggml-modern")
                .status())
        .isZero();
    assertThat(CliRunner.run("check", k.toString(), "--assume-layout", "ggml-ancient").status())
        .isEqualTo(2);
  }

  @Test
  void aRejectedFileFailsWithItsConstraintAndOffset() throws Exception {
    Path bad = write("bad.gguf", llama().tensor("w", F32, 8, 4).truncate(1));
    CliRunner.Result r = CliRunner.run("check", bad.toString(), "--json");
    assertThat(r.status()).isEqualTo(1);
    JsonNode unit = r.json().get("units").get(0);
    assertThat(r.json().get("kind").asText()).isEqualTo("check");
    assertThat(r.json().get("ok").asBoolean()).isFalse();
    assertThat(unit.get("ok").asBoolean()).isFalse();
    assertThat(unit.get("evidence_id").isNull()).isTrue();
    assertThat(unit.get("reasons").get(0).get("code").asText()).isEqualTo("file_format_rejected");
    assertThat(unit.get("reasons").get(0).get("offset").asText()).matches("[0-9]+");
  }

  @Test
  void theExpectedDigestDecides() throws Exception {
    Path ok = write("ok.gguf", llama().tensor("w", F32, 8, 4));
    String right = sha256(ok);
    assertThat(CliRunner.run("check", ok.toString(), "--expect-sha256", right.toUpperCase()).status())
        .isZero();
    String wrong = right.substring(0, 63) + (right.endsWith("0") ? "1" : "0");
    CliRunner.Result r = CliRunner.run("check", ok.toString(), "--expect-sha256", wrong);
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).contains("sha256_mismatch: the file's SHA-256 is " + right);
    CliRunner.Result malformed = CliRunner.run("check", ok.toString(), "--expect-sha256", "abc");
    assertThat(malformed.status()).isEqualTo(2);
  }

  @Test
  void everyFileGetsItsLineAndOneFailureFailsTheRun() throws Exception {
    Path ok = write("ok.gguf", llama().tensor("w", F32, 8, 4));
    Path missing = dir.resolve("missing.gguf");
    CliRunner.Result r = CliRunner.run("check", ok.toString(), missing.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out().lines())
        .containsExactly("OK " + ok, "FAIL " + missing + ": not_found: no such file: " + missing);
  }

  /**
   * Two safetensors headers with the same declarations in another member order: the same, and
   * the report says the bytes differ where no declaration looks (a NaN's payload bits are another
   * such place: CONTRACT section 2 writes every NaN as "NaN").
   */
  @Test
  void diffSaysWhenTheSameDeclarationsSitInDifferentBytes() throws Exception {
    Path a = dir.resolve("a.safetensors");
    Path b = dir.resolve("b.safetensors");
    Files.write(a, safetensors("{\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}"));
    Files.write(b, safetensors("{\"w\":{\"shape\":[2],\"dtype\":\"F32\",\"data_offsets\":[0,8]}}"));
    CliRunner.Result r = CliRunner.run("diff", a.toString(), b.toString());
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("The declarations are the same. The headers' bytes differ (header_sha256 above)");
  }

  private static byte[] safetensors(String json) {
    byte[] body = json.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    java.nio.ByteBuffer buf =
        java.nio.ByteBuffer.allocate(8 + body.length + 8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    buf.putLong(body.length).put(body);
    return buf.array();
  }

  @Test
  void diffSaysSameForTheSameDeclarationsAndListsWhatChanged() throws Exception {
    Path a = write("a.gguf", llama().tensor("w", F32, 8, 4));
    Path b = write("b.gguf", llama().tensor("w", F32, 8, 4));
    Path c = write("c.gguf", llama().kv("general.name", str("changed")).tensor("w", F32, 8, 4));
    CliRunner.Result same = CliRunner.run("diff", a.toString(), b.toString());
    assertThat(same.status()).as(same.err()).isZero();
    assertThat(same.out()).contains("The declarations are the same.").doesNotContain("bytes differ");
    CliRunner.Result differ = CliRunner.run("diff", a.toString(), c.toString());
    assertThat(differ.status()).isEqualTo(1);
    assertThat(differ.out()).contains("+ metadata general.name = \"changed\"");
    CliRunner.Result asJson = CliRunner.run("diff", a.toString(), c.toString(), "--json");
    assertThat(asJson.json().get("same_declarations").asBoolean()).isFalse();

    // Hashed whole, files whose tensor data differs: the same declarations, other contents.
    Path d = dir.resolve("d.gguf");
    byte[] bytes = Files.readAllBytes(b);
    bytes[bytes.length - 1] ^= 1;
    Files.write(d, bytes);
    CliRunner.Result data = CliRunner.run("diff", a.toString(), d.toString(), "--hash", "full");
    assertThat(data.status()).as(data.err()).isZero();
    assertThat(data.out()).contains("The declarations are the same.")
        .contains("The files' contents differ all the same (sha256 above)");
    assertThat(CliRunner.run("diff", a.toString(), b.toString(), "--hash", "full").out())
        .doesNotContain("contents differ");
  }

  @Test
  void aFittedDiffKeepsEveryWordAndNoLineIsWiderThanTheScreen() throws Exception {
    Path a = write("a.gguf", withVocabulary("tok500").tensor("w", F32, 8, 4));
    Path b =
        write("b.gguf", withVocabulary("TOK500").kv("general.name", str("a changed name"))
            .tensor("w", F32, 8, 4));
    CliRunner.Result r = CliRunner.run("diff", a.toString(), b.toString(), "--json");
    byte[] json = r.out().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    java.io.StringWriter whole = new java.io.StringWriter();
    DiffReport.print(new java.io.PrintWriter(whole), json, Screen.UNLIMITED);
    java.io.StringWriter fitted = new java.io.StringWriter();
    DiffReport.print(new java.io.PrintWriter(fitted), json, Screen.of(40));

    String wide = "  ~ metadata tokenizer.ggml.tokens: STRING[1000] sha256 ";
    assertThat(whole.toString()).contains(wide);
    assertThat(fitted.toString()).doesNotContain(wide).contains("  ~ metadata tokenizer.ggml.tokens:");
    for (String line : fitted.toString().split("\n")) {
      // A path or digest longer than the screen stays whole on a line of its own.
      if (line.strip().indexOf(' ') > 0) {
        assertThat(TextTable.columns(line)).as(line).isLessThanOrEqualTo(40);
      }
    }
    // The continuation of a change line is indented under its text, four columns in.
    assertThat(fitted.toString()).contains("\n      ");
    assertThat(words(fitted.toString())).isEqualTo(words(whole.toString()));
  }

  private static java.util.List<String> words(String text) {
    return java.util.Arrays.stream(text.split("\\s+")).filter(w -> !w.isEmpty()).toList();
  }

  /** A bundle of several records is no side: the message says how to take one record out. */
  @Test
  void aBundleOfSeveralRecordsSaysHowToTakeOneOut() throws Exception {
    Path a = write("a.gguf", llama().tensor("w", F32, 8, 4));
    Path b = write("b.gguf", llama().tensor("v", F32, 8, 4));
    tools.jackson.databind.json.JsonMapper json = tools.jackson.databind.json.JsonMapper.builder().build();
    tools.jackson.databind.node.ArrayNode records = json.createArrayNode();
    for (Path m : java.util.List.of(a, b)) {
      Path saved = dir.resolve(m.getFileName() + ".json");
      assertThat(CliRunner.run("inspect-model-artifact", m.toString(), "--evidence_output",
          saved.toString()).status()).isZero();
      records.add(json.readTree(saved.toFile()).get("records").get(0));
    }
    tools.jackson.databind.node.ObjectNode bundle = json.createObjectNode();
    bundle.put("schema", "rea.bundle.v1");
    bundle.set("records", records);
    Path two = Files.writeString(dir.resolve("two.json"), json.writeValueAsString(bundle));
    CliRunner.Result r = CliRunner.run("diff", two.toString(), a.toString());
    assertThat(r.status()).as(r.err()).isEqualTo(2);
    assertThat(r.err()).contains("the bundle holds 2 records")
        .contains("jq '.records[0]' two.json > one.json");
    // So taken out, one record is a side.
    Files.writeString(dir.resolve("one.json"), json.writeValueAsString(records.get(1)));
    CliRunner.Result one = CliRunner.run("diff", dir.resolve("one.json").toString(), b.toString());
    assertThat(one.status()).as(one.err()).isZero();
  }

  /** Long strings that differ past the cut are shown where they differ, not cut alike. */
  @Test
  void longStringsThatDifferPastTheCutAreShownWhereTheyDiffer() throws Exception {
    String common = "word ".repeat(30);
    Path a = write("a.gguf", llama().kv("general.description", str(common + "alpha"))
        .tensor("w", F32, 8, 4));
    Path b = write("b.gguf", llama().kv("general.description", str(common + "omega"))
        .tensor("w", F32, 8, 4));
    CliRunner.Result r = CliRunner.run("diff", a.toString(), b.toString(), "--wide");
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out())
        .contains("~ metadata general.description: ...\"word word word word alpha\" (155")
        .contains("-> ...\"word word word word omega\" (155 characters, first difference at"
            + " character 151)");
  }

  /** Names that differ only in Unicode normalization look alike: the readable diff says why. */
  @Test
  void namesThatDifferOnlyInNormalizationAreExplained() throws Exception {
    Path a = write("a.gguf", llama().tensor("blk.0.caf\u00e9.weight", F32, 8, 4));
    Path b = write("b.gguf", llama().tensor("blk.0.cafe\u0301.weight", F32, 8, 4));
    CliRunner.Result r = CliRunner.run("diff", a.toString(), b.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out())
        .contains("+ tensor blk.0.cafe\\u0301.weight")
        .contains("- tensor blk.0.caf\u00e9.weight")
        .contains("they differ in Unicode normalization (U+00E9 -> U+0301)");
    Path c = write("c.gguf", llama().tensor("blk.0.other.weight", F32, 8, 4));
    assertThat(CliRunner.run("diff", a.toString(), c.toString()).out())
        .doesNotContain("normalization");
  }

  /**
   * A name removed beside a changed one that a terminal draws alike (e and a combining accent,
   * against é as one code point) is shown with its mark escaped, so the two lines name two
   * tensors visibly.
   */
  @Test
  void aRemovedNameThatLooksLikeAChangedOneIsShownApart() throws Exception {
    Path a = write("a.gguf", llama()
        .tensor("blk.0.caf\u00e9.weight", F32, 8, 4)
        .tensor("blk.0.cafe\u0301.weight", F32, 8, 4));
    Path b = write("b.gguf", llama().tensor("blk.0.caf\u00e9.weight", F32, 8, 2));
    CliRunner.Result r = CliRunner.run("diff", a.toString(), b.toString());
    assertThat(r.status()).as(r.err()).isEqualTo(1);
    assertThat(r.out())
        .contains("- tensor blk.0.cafe\\u0301.weight: F32 [8, 4]\n")
        .contains("~ tensor blk.0.caf\u00e9.weight: shape [8, 4] -> [8, 2]");
    // The readable inspection shows the two rows apart the same way.
    CliRunner.Result inspect = CliRunner.run("inspect-model-artifact", a.toString());
    assertThat(inspect.out()).contains("blk.0.cafe\\u0301.weight").contains("blk.0.caf\u00e9.weight");
  }

  @Test
  void diffReadsSavedEvidenceAsOneSide() throws Exception {
    Path a = write("a.gguf", llama().tensor("w", F32, 8, 4));
    Path saved = dir.resolve("a-evidence.json");
    assertThat(
            CliRunner.run("inspect-model-artifact", a.toString(), "--evidence_output", saved.toString())
                .status())
        .isZero();
    Files.write(a, llama().tensor("w", F32, 8, 8).bytes());
    CliRunner.Result r = CliRunner.run("diff", saved.toString(), a.toString(), "--json");
    assertThat(r.status()).as(r.err()).isEqualTo(1);
    JsonNode fields = r.json().get("tensors").get("changed").get(0).get("fields");
    assertThat(fields.get("shape").get(0).get(1).asText()).isEqualTo("4");
    assertThat(fields.get("shape").get(1).get(1).asText()).isEqualTo("8");
    // Which side is the saved reading, and from when: the JSON's observed_at, the report's line.
    String savedAt = r.json().get("a").get("observed_at").asText();
    assertThat(savedAt).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
    assertThat(r.json().get("b").get("observed_at").asText()).isNotEmpty();
    CliRunner.Result text = CliRunner.run("diff", saved.toString(), a.toString());
    assertThat(text.out())
        .contains("A: " + a + " (gguf)\n")
        .contains("   saved Evidence " + saved + ", observed_at " + savedAt + "\n");
    assertThat(text.out().lines().filter(l -> l.contains("saved Evidence"))).hasSize(1);
  }

  /**
   * A trial saved a K-quant file's Evidence under --assume-layout and compared it with the file:
   * "The declarations differ", byte_length 576 -> none, and nothing said the two readings made
   * different assumptions. Each side now carries its assumption, and the report says why.
   */
  @Test
  void diffSaysWhenTheSidesWereReadUnderDifferentLayoutAssumptions() throws Exception {
    Path k = write("k.gguf", llama().tensor("blk.0.ffn_down.weight", Q4_K, 256, 4));
    Path saved = dir.resolve("k-assumed.json");
    assertThat(
            CliRunner.run("inspect-model-artifact", k.toString(), "--assume-layout", "ggml-modern",
                    "--evidence_output", saved.toString())
                .status())
        .isZero();
    CliRunner.Result json = CliRunner.run("diff", saved.toString(), k.toString(), "--json");
    assertThat(json.status()).as(json.err()).isEqualTo(1);
    assertThat(json.json().get("a").get("assume_layout").asText()).isEqualTo("ggml-modern");
    assertThat(json.json().get("b").get("assume_layout").isNull()).isTrue();
    CliRunner.Result text = CliRunner.run("diff", saved.toString(), k.toString());
    assertThat(text.out())
        .contains("Note: A was read assuming the ggml-modern layouts and B without a layout"
            + " assumption: the byte lengths");
    // The same assumption on both sides: no note, and the same declarations.
    CliRunner.Result both =
        CliRunner.run("diff", saved.toString(), k.toString(), "--assume-layout", "ggml-modern");
    assertThat(both.status()).as(both.out()).isZero();
    assertThat(both.out()).doesNotContain("Note: A was read");
  }

  /** A 1,000-token vocabulary whose token 500 is {@code token500}. */
  private static GgufBuilder withVocabulary(String token500) {
    java.util.List<GgufBuilder.Value> tokens = new java.util.ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      tokens.add(str(i == 500 ? token500 : "tok" + i));
    }
    return llama().kv("tokenizer.ggml.tokens", GgufBuilder.array(GgufBuilder.STRING, tokens));
  }

  @Test
  void diffSeesAVocabularyChangedOnlyAtElement500() throws Exception {
    Path a = write("a.gguf", withVocabulary("tok500").tensor("w", F32, 8, 4));
    Path b = write("b.gguf", withVocabulary("TOK500").tensor("w", F32, 8, 4));
    Path same = write("same.gguf", withVocabulary("tok500").tensor("w", F32, 8, 4));
    CliRunner.Result r = CliRunner.run("diff", a.toString(), b.toString(), "--json");
    assertThat(r.status()).as(r.err()).isEqualTo(1);
    JsonNode m = r.json().get("metadata");
    assertThat(m.get("changed")).hasSize(1);
    assertThat(m.get("changed").get(0).get("key").asText()).isEqualTo("tokenizer.ggml.tokens");
    assertThat(m.get("changed").get(0).get("a").get("count").asText()).isEqualTo("1000");
    assertThat(m.get("arrays_compared_by_preview")).isEmpty();
    CliRunner.Result readable = CliRunner.run("diff", a.toString(), b.toString());
    assertThat(readable.status()).isEqualTo(1);
    assertThat(readable.out()).contains("~ metadata tokenizer.ggml.tokens: STRING[1000] sha256 ");
    CliRunner.Result unchanged = CliRunner.run("diff", a.toString(), same.toString());
    assertThat(unchanged.status()).as(unchanged.out()).isZero();
  }

  @Test
  void analysisViewPagesAnArrayFromTheModelFileTheEvidenceNames() throws Exception {
    Path a = write("a.gguf", withVocabulary("tok500").tensor("w", F32, 8, 4));
    Path saved = dir.resolve("a-evidence.json");
    assertThat(
            CliRunner.run("inspect-model-artifact", a.toString(), "--evidence_output", saved.toString())
                .status())
        .isZero();
    String view =
        "{\"kind\":\"model-artifact\",\"collection\":\"array\",\"key\":\"tokenizer.ggml.tokens\","
            + "\"offset\":499,\"limit\":2}";
    CliRunner.Result r =
        CliRunner.run("inspect-analysis-view", "--source", saved.toString(), "--view", view, "--json");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.json().get("elements").get(1).asText()).isEqualTo("tok500");
    assertThat(r.json().get("next_offset").asText()).isEqualTo("501");
    CliRunner.Result readable =
        CliRunner.run("inspect-analysis-view", "--source", saved.toString(), "--view", view);
    assertThat(readable.out()).contains("  500  tok500");
    // Rewritten since the Evidence was saved: execution_failure (exit 4), target_changed.
    Files.write(a, withVocabulary("TOK500").tensor("w", F32, 8, 4).bytes());
    CliRunner.Result changed =
        CliRunner.run("inspect-analysis-view", "--source", saved.toString(), "--view", view, "--json");
    assertThat(changed.status()).isEqualTo(4);
    assertThat(changed.out()).contains("target_changed");
  }

  /**
   * A big-endian copy of a file stores the same array values in other bytes: {@code value_sha256}
   * (CONTRACT section 11) differs, and the readable form says why beside the changed array.
   */
  @Test
  void aBigEndianCopysArraysAreExplained() throws Exception {
    long u32Type = 4;
    GgufBuilder.Value ids = GgufBuilder.array(u32Type, GgufBuilder.u32(1), GgufBuilder.u32(2));
    Path little = write("le.gguf", llama().kv("x.ids", ids).tensor("w", F32, 8, 4));
    Path big = write("be.gguf", llama().kv("x.ids", ids).tensor("w", F32, 8, 4).bigEndian());

    CliRunner.Result json = CliRunner.run("diff", little.toString(), big.toString(), "--json");
    assertThat(json.status()).as(json.err()).isEqualTo(1);
    assertThat(json.json().get("format_facts").toString())
        .isEqualTo("[{\"field\":\"byte_order\",\"a\":\"little\",\"b\":\"big\"}]");
    JsonNode changed = json.json().get("metadata").get("changed");
    assertThat(changed).hasSize(1);
    assertThat(changed.get(0).get("a").get("value_sha256"))
        .isNotEqualTo(changed.get(0).get("b").get("value_sha256"));

    String note =
        "  note: arrays compared by value_sha256 hash their bytes in file order; the byte order"
            + " differs, so equal values can hash differently\n";
    CliRunner.Result text = CliRunner.run("diff", little.toString(), big.toString());
    assertThat(text.out()).contains("  ~ metadata x.ids: UINT32[2] sha256 ").contains(note);
    // Without a changed array, there is nothing to explain.
    Path bigNoArray = write("be2.gguf", llama().tensor("w", F32, 8, 4).bigEndian());
    Path littleNoArray = write("le2.gguf", llama().tensor("w", F32, 8, 4));
    assertThat(CliRunner.run("diff", littleNoArray.toString(), bigNoArray.toString()).out())
        .contains("  ~ format fact byte_order: little -> big\n")
        .doesNotContain("note:");
  }

  @Test
  void everyReadableDiffLineSaysWhetherItWasAddedRemovedOrChanged() throws Exception {
    Path a = write("ft1.gguf", llama().kv("general.file_type", GgufBuilder.u32(1)).tensor("w", F32, 8, 4));
    Path b =
        write(
            "ft15.gguf",
            llama().kv("general.file_type", GgufBuilder.u32(15)).tensor("w", F32, 8, 8).tensor("q", Q4_K, 256, 4));

    CliRunner.Result text = CliRunner.run("diff", a.toString(), b.toString());

    assertThat(text.status()).as(text.err()).isEqualTo(1);
    String out = text.out();
    assertThat(out)
        .contains("  ~ metadata general.file_type: 1 (MOSTLY_F16) -> 15 (MOSTLY_Q4_K_M)\n")
        .contains("  ~ format fact tensor_data_offset: ")
        .contains("  + type Q4_K: (none) -> 1 tensor")
        .contains("  ~ type F32: 1 tensor")
        .contains("  ~ totals: ")
        .contains("  + tensor q: Q4_K [256, 4]\n");
    String differences = out.substring(out.indexOf("The declarations differ:\n") + 25);
    for (String line : differences.split("\n")) {
      assertThat(line).as("a difference, marked").matches("  [-+~] .*");
    }
    // And the other way round, the type only A has is removed.
    assertThat(CliRunner.run("diff", b.toString(), a.toString()).out())
        .contains("  - type Q4_K: 1 tensor")
        .contains("  - tensor q: Q4_K [256, 4]\n");
  }

  @Test
  void tensorsThatOnlyMovedAreCountedAfterTheRealChanges() throws Exception {
    GgufBuilder before = llama().tensor("first", F32, 8, 4);
    GgufBuilder after = llama().tensor("first", F32, 8, 8);
    for (int i = 0; i < 12; i++) {
      before.tensor("t" + i, F32, 4);
      after.tensor("t" + i, F32, 4);
    }
    Path a = write("m1.gguf", before);
    Path b = write("m2.gguf", after);

    String out = CliRunner.run("diff", a.toString(), b.toString()).out();

    assertThat(out)
        .contains("  ~ tensor first: shape [8, 4] -> [8, 8]")
        .contains("  ~ 12 tensors changed only where the data lies (offset differs in 12,"
            + " file_offset in 12): t0, t1,")
        .contains("t7, ... (--json lists each)")
        .doesNotContain("~ tensor t0");
    // --json keeps one entry per tensor.
    JsonNode changed = CliRunner.run("diff", a.toString(), b.toString(), "--json").json()
        .get("tensors").get("changed");
    assertThat(changed).hasSize(13);

    // A longer header moves every tensor's data and nothing else: said so, and nine names are
    // all shown (a "..." would hide one name in as much room).
    String header = diffOfALongerHeader("u", 9);
    assertThat(header)
        .contains("  ~ 9 tensors changed only where the data lies (file_offset differs in 9: the"
            + " tensor data starts elsewhere): u0, u1, u2, u3, u4, u5, u6, u7, u8\n");

    // Past the 256 changes --json lists, the count says it is of those, and the rest are counted.
    String capped = diffOfALongerHeader("v", 300);
    assertThat(capped)
        .contains("  ~ 256 tensors of the 256 listed changes changed only where the data lies")
        .contains("... and 44 more changed tensors")
        .doesNotContain("(--json lists each)");
  }

  /**
   * @return the readable diff of two files of {@code n} F32 tensors named {@code prefix0...},
   *     the second with a longer header (a 40-character general.name), so that only where each
   *     tensor's data lies changes
   */
  private String diffOfALongerHeader(String prefix, int n) throws Exception {
    GgufBuilder shorter = llama();
    GgufBuilder longer = llama().kv("general.name", GgufBuilder.str("x".repeat(40)));
    for (int i = 0; i < n; i++) {
      shorter.tensor(prefix + i, F32, 4);
      longer.tensor(prefix + i, F32, 4);
    }
    return CliRunner.run(
            "diff",
            write(prefix + "1.gguf", shorter).toString(),
            write(prefix + "2.gguf", longer).toString())
        .out();
  }
}
