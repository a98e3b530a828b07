package dev.rea.cli;

import static dev.rea.core.internal.format.gguf.GgufBuilder.str;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.testing.SetFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code rea diff} with model sets on either side (CONTRACT sections 9 and 11): a split set
 * against the file it merges into shows the same tensors with only where they sit changed.
 */
class DiffSetsTest {
  @TempDir Path dir;

  /** The file gguf-split would merge {@link SetFixtures#ggufSplit} into: same keys, same tensors. */
  private Path merged(int tensors) throws Exception {
    GgufBuilder b =
        GgufBuilder.v3()
            .kv("general.architecture", str("llama"))
            .kv("general.name", str("tiny split"))
            .kv("llama.block_count", GgufBuilder.u32(2));
    for (int t = 0; t < tensors; t++) {
      b.tensor("blk." + t + ".weight", 0, 8, 2);
    }
    return Files.write(dir.resolve("merged.gguf"), b.build().bytes());
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    for (JsonNode n : array) {
      out.add(n.isString() ? n.asString() : n.get("key").asString());
    }
    return out;
  }

  /** {@code member:key} of each metadata row or change of a set side. */
  private static List<String> memberKeys(JsonNode array) {
    List<String> out = new ArrayList<>();
    for (JsonNode n : array) {
      out.add(n.get("member").asInt() + ":" + n.get("key").asString());
    }
    return out;
  }

  /**
   * A shard after the first with another {@code __metadata__} value is a change of that shard's
   * metadata, named by its member index in the JSON and in the readable form.
   */
  @Test
  void aLaterShardsMetadataIsCompared() throws Exception {
    SetFixtures.Checkpoint a = SetFixtures.checkpoint(Files.createDirectories(dir.resolve("a")), 3, 2);
    SetFixtures.Checkpoint b =
        SetFixtures.checkpoint(
            Files.createDirectories(dir.resolve("b")), 3, 2,
            (no, builder) -> {
              if (no == 2) {
                builder.metadata("format", "tf");
              }
            },
            m -> {});

    CliRunner.Result json = CliRunner.run("diff", a.dir.toString(), b.dir.toString(), "--json");

    assertThat(json.status()).as(json.out() + json.err()).isEqualTo(1);
    JsonNode m = json.json().get("metadata");
    assertThat(m.get("added")).isEmpty();
    assertThat(m.get("removed")).isEmpty();
    assertThat(memberKeys(m.get("changed"))).containsExactly("1:format");
    assertThat(m.get("changed").get(0).get("a").get("value").asString()).isEqualTo("pt");
    assertThat(m.get("changed").get(0).get("b").get("value").asString()).isEqualTo("tf");
    assertThat(json.json().get("format_facts")).isEmpty();

    CliRunner.Result text = CliRunner.run("diff", a.dir.toString(), b.dir.toString());
    assertThat(text.out())
        .contains("The declarations differ:\n")
        .contains("  ~ metadata member 1: format: \"pt\" -> \"tf\"\n");
  }

  /** A key added to a later member of a GGUF split set is an added row of that member. */
  @Test
  void aKeyAddedToALaterSplitMemberIsAdded() throws Exception {
    List<List<Path>> ab = twoSplits(2, "general.architecture", str("mistral"));
    List<Path> a = ab.get(0);
    List<Path> b = ab.get(1);

    CliRunner.Result json = CliRunner.run("diff", a.get(0).toString(), b.get(0).toString(), "--json");

    assertThat(json.status()).as(json.out() + json.err()).isEqualTo(1);
    JsonNode m = json.json().get("metadata");
    assertThat(memberKeys(m.get("added"))).containsExactly("1:general.architecture");
    // The row keeps its index within its member's file, with the member beside it.
    assertThat(m.get("added").get(0).toString()).startsWith("{\"index\":3,\"member\":1,\"key\":");
    assertThat(m.get("removed")).isEmpty();
    assertThat(m.get("changed")).isEmpty();

    CliRunner.Result text = CliRunner.run("diff", a.get(0).toString(), b.get(0).toString());
    assertThat(text.out()).contains("  + metadata member 1: general.architecture = \"mistral\"\n");
  }

  /**
   * A member whose alignment differs from its set's first member's shows that member's fact, so
   * the moved {@code file_offset}s are explained.
   */
  @Test
  void aLaterMembersAlignmentIsAFormatFact() throws Exception {
    List<List<Path>> ab = twoSplits(3, "general.alignment", GgufBuilder.u32(64));
    List<Path> a = ab.get(0);
    List<Path> b = ab.get(1);

    CliRunner.Result json = CliRunner.run("diff", a.get(0).toString(), b.get(0).toString(), "--json");

    assertThat(json.status()).as(json.out() + json.err()).isEqualTo(1);
    assertThat(json.json().get("format_facts").toString())
        .isEqualTo(
            "[{\"field\":\"member[2].alignment\",\"a\":32,\"b\":64},"
                + "{\"field\":\"member[2].alignment_source\",\"a\":\"default\",\"b\":\"metadata\"}]");
    assertThat(memberKeys(json.json().get("metadata").get("added")))
        .containsExactly("2:general.alignment");

    CliRunner.Result text = CliRunner.run("diff", a.get(0).toString(), b.get(0).toString());
    assertThat(text.out()).contains("  ~ format fact member[2].alignment: 32 -> 64\n");
    // The same set on both sides is the same, its odd member included.
    assertThat(CliRunner.run("diff", b.get(0).toString(), b.get(1).toString()).status()).isZero();
  }

  @Test
  void aSplitSetAgainstItsMergedFileShowsOnlyWhereTensorsSit() throws Exception {
    List<Path> members = SetFixtures.ggufSplit(dir.resolve("split"), "m", 3, 2, 2);
    Path merged = merged(6);

    CliRunner.Result r = CliRunner.run("diff", members.get(1).toString(), merged.toString(), "--json");

    assertThat(r.status()).as(r.err()).isEqualTo(1);
    JsonNode d = r.json();
    assertThat(d.get("same_declarations").asBoolean()).isFalse();
    assertThat(d.get("format_facts").toString())
        .isEqualTo(
            "[{\"field\":\"set_kind\",\"a\":\"gguf_split\",\"b\":\"single_file\"},"
                + "{\"field\":\"members\",\"a\":3,\"b\":1}]");
    // Every member declares the split keys; each member's are compared as that member's.
    assertThat(memberKeys(d.get("metadata").get("removed")))
        .containsExactly(
            "0:split.no", "0:split.count", "0:split.tensors.count",
            "1:split.no", "1:split.count", "1:split.tensors.count",
            "2:split.no", "2:split.count", "2:split.tensors.count");
    assertThat(d.get("metadata").get("added")).isEmpty();
    assertThat(d.get("metadata").get("changed")).isEmpty();
    JsonNode t = d.get("tensors");
    assertThat(t.get("added")).isEmpty();
    assertThat(t.get("removed")).isEmpty();
    assertThat(t.get("order_changed").asBoolean()).isFalse();
    // Member 0 holds blk.0 and blk.1 in both, after a header of another length; the rest moved
    // into the one file.
    Set<String> moved = new HashSet<>();
    Set<String> shifted = new HashSet<>();
    for (JsonNode c : t.get("changed")) {
      Set<String> fields = new HashSet<>();
      c.get("fields").propertyNames().forEach(fields::add);
      assertThat(fields).as(c.toString()).isSubsetOf("member", "offset", "file_offset");
      (fields.contains("member") ? moved : shifted).add(c.get("name").asString());
      if (!fields.contains("member")) {
        assertThat(fields).as(c.toString()).containsExactly("file_offset");
      }
    }
    assertThat(moved)
        .containsExactlyInAnyOrder("blk.2.weight", "blk.3.weight", "blk.4.weight", "blk.5.weight");
    assertThat(shifted).containsExactlyInAnyOrder("blk.0.weight", "blk.1.weight");
    assertThat(d.get("types")).isEmpty();
    assertThat(d.get("totals").get("a")).isEqualTo(d.get("totals").get("b"));
    assertThat(d.get("a").get("path").asString()).isEqualTo(members.get(0).toString());
  }

  @Test
  void aSetAgainstItsOwnSavedEvidenceIsTheSame() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir.resolve("ckpt"), 3, 4);
    Path saved = dir.resolve("set.json");
    CliRunner.Result inspected =
        CliRunner.run("inspect-model-set", c.dir.toString(), "--json");
    assertThat(inspected.status()).as(inspected.err()).isZero();
    Files.writeString(saved, inspected.out());

    CliRunner.Result r = CliRunner.run("diff", c.dir.toString(), saved.toString());

    assertThat(r.status()).as(r.out() + r.err()).isZero();
  }

  @Test
  void aSummaryGivenAsEvidenceIsNamedAsOne() throws Exception {
    Path model = merged(2);
    CliRunner.Result summary =
        CliRunner.run("inspect-model-artifact", model.toString(), "--detail", "summary", "--json");
    Path saved = Files.writeString(dir.resolve("summary.json"), summary.out());

    CliRunner.Result r = CliRunner.run("diff", saved.toString(), model.toString(), "--json");

    assertThat(r.status()).as(r.out()).isNotIn(0, 1);
    JsonNode e = r.json().get("error");
    assertThat(e.get("constraint").asString()).isEqualTo("evidence_rejected");
    assertThat(e.get("message").asString()).contains("parent_evidence_id");
  }

  @Test
  void savedEvidenceWithSpacesBetweenTokensIsStillEvidence() throws Exception {
    Path model = merged(2);
    CliRunner.Result saved = CliRunner.run("inspect-model-artifact", model.toString(), "--json");
    String spaced = saved.out().replaceFirst("^\\{\"schema\":", "{ \"schema\" : ");
    assertThat(spaced).startsWith("{ \"schema\" : ");
    Path file = Files.writeString(dir.resolve("spaced.json"), spaced);

    CliRunner.Result r = CliRunner.run("diff", file.toString(), model.toString());

    assertThat(r.status()).as(r.out() + r.err()).isZero();
  }

  @Test
  void aSetsInTotoEnvelopeIsReadBackAsTheSet() throws Exception {
    List<Path> members = SetFixtures.ggufSplit(dir.resolve("split"), "m", 3, 2, 2);
    CliRunner.Result attested =
        CliRunner.run(
            "inspect-model-set", members.get(0).toString(), "--hash", "full", "--format", "in-toto");
    assertThat(attested.status()).as(attested.err()).isZero();
    Path envelope = Files.writeString(dir.resolve("set.intoto.json"), attested.out());

    CliRunner.Result same = CliRunner.run("diff", envelope.toString(), members.get(1).toString());
    assertThat(same.status()).as(same.out() + same.err()).isZero();

    CliRunner.Result page =
        CliRunner.run(
            "inspect-analysis-view", "--source", envelope.toString(), "--json", "--view",
            "{\"kind\":\"model-artifact\",\"collection\":\"members\"}");
    assertThat(page.status()).as(page.err()).isZero();
    assertThat(page.json().get("total_matches").asInt()).isEqualTo(3);

    // One byte of the signed payload changed: refused, not read.
    String text = attested.out();
    int at = text.indexOf("\"payload\":\"") + 20;
    char c = text.charAt(at);
    Path tampered =
        Files.writeString(
            dir.resolve("tampered.json"),
            text.substring(0, at) + (c == 'A' ? 'B' : 'A') + text.substring(at + 1));
    CliRunner.Result refused = CliRunner.run("diff", tampered.toString(), members.get(1).toString());
    assertThat(refused.status()).isNotIn(0, 1);
  }

  @Test
  void aRenamedTensorInOneShardIsReportedByName() throws Exception {
    List<Path> a = SetFixtures.ggufSplit(dir.resolve("a"), "m", 2, 2, 2);
    List<Path> b =
        SetFixtures.ggufSplit(
            dir.resolve("b"), "m", 2, 2, 0,
            (no, kvs) -> kvs.put("split.tensors.count", GgufBuilder.i32(4)),
            (no, builder) -> {
              if (no == 2) {
                builder.tensor("blk.2.weight.renamed", 0, 8, 2).tensor("blk.3.weight", 0, 8, 2);
              }
            });

    CliRunner.Result r = CliRunner.run("diff", a.get(0).toString(), b.get(0).toString(), "--json");

    assertThat(r.status()).as(r.err()).isEqualTo(1);
    JsonNode t = r.json().get("tensors");
    assertThat(texts(t.get("added"))).containsExactly("blk.2.weight.renamed");
    assertThat(texts(t.get("removed"))).containsExactly("blk.2.weight");
    assertThat(r.json().get("format_facts")).isEmpty();
  }

  /**
   * Two like split sets of three members in {@code a/} and {@code b/}, member {@code member} (1 to
   * 3) of {@code b} with {@code key} set to {@code value}.
   *
   * @return the members of {@code a}, then those of {@code b}
   */
  private List<List<Path>> twoSplits(int member, String key, GgufBuilder.Value value) {
    List<Path> a = SetFixtures.ggufSplit(dir.resolve("a"), "m", 3, 2, 2);
    List<Path> b = SetFixtures.ggufSplit(dir.resolve("b"), "m", 3, 2, 2,
        (no, kvs) -> {
          if (no == member) {
            kvs.put(key, value);
          }
        },
        (no, builder) -> {});
    return List.of(a, b);
  }

  /**
   * Two like checkpoints in {@code a/} and {@code b/}, the index of the one at {@code edited} (0
   * or 1) with its first match of {@code regex} replaced by {@code replacement}.
   */
  private SetFixtures.Checkpoint[] twoCheckpoints(int edited, String regex, String replacement)
      throws Exception {
    SetFixtures.Checkpoint[] ab = {
      SetFixtures.checkpoint(Files.createDirectories(dir.resolve("a")), 2, 3),
      SetFixtures.checkpoint(Files.createDirectories(dir.resolve("b")), 2, 3)
    };
    String index = Files.readString(ab[edited].index);
    String changed = index.replaceFirst(regex, replacement);
    assertThat(changed).isNotEqualTo(index);
    Files.writeString(ab[edited].index, changed);
    return ab;
  }

  /** @return the one format fact {@code rea diff a b --json} finds, checked to be {@code field} */
  private static JsonNode onlyFact(
      SetFixtures.Checkpoint a, SetFixtures.Checkpoint b, String field) {
    CliRunner.Result json = CliRunner.run("diff", a.index.toString(), b.index.toString(), "--json");
    assertThat(json.status()).as(json.err()).isEqualTo(1);
    JsonNode facts = json.json().get("format_facts");
    assertThat(facts).hasSize(1);
    assertThat(facts.get(0).get("field").asString()).isEqualTo(field);
    return facts.get(0);
  }

  /**
   * An index key set to JSON null on one side and absent on the other is a difference that reads
   * as one: the absent side has no property in the JSON and reads {@code absent}.
   */
  @Test
  void anIndexKeySetToNullDiffersFromAnAbsentOne() throws Exception {
    SetFixtures.Checkpoint[] ab =
        twoCheckpoints(0, "\"total_size\":", "\"x\": null, \"total_size\":");
    SetFixtures.Checkpoint a = ab[0];
    SetFixtures.Checkpoint b = ab[1];
    JsonNode fact = onlyFact(a, b, "index.x");
    assertThat(fact.has("a")).isTrue();
    assertThat(fact.get("a").isNull()).isTrue();
    assertThat(fact.has("b")).isFalse();

    CliRunner.Result text = CliRunner.run("diff", a.index.toString(), b.index.toString());
    assertThat(text.out()).contains("  ~ format fact index.x: null -> absent\n");
    CliRunner.Result back = CliRunner.run("diff", b.index.toString(), a.index.toString());
    assertThat(back.out()).contains("  ~ format fact index.x: absent -> null\n");
  }

  /**
   * The index's own {@code metadata} is a declaration of the set ({@code index.total_size}), and
   * the readable form prints numbers, shapes and a set's missing header digest as a person would.
   */
  @Test
  void twoCheckpointsCompareTheirIndexMetadataAndReadAsNumbers() throws Exception {
    SetFixtures.Checkpoint[] ab = twoCheckpoints(1, "\"total_size\": \\d+", "\"total_size\": 999");
    SetFixtures.Checkpoint a = ab[0];
    SetFixtures.Checkpoint b = ab[1];
    JsonNode fact = onlyFact(a, b, "index.total_size");
    assertThat(fact.get("b").asString()).isEqualTo("999");
    assertThat(fact.get("a").asString()).isNotEqualTo("999").matches("\\d+");
    assertThat(CliRunner.run("diff", a.index.toString(), a.index.toString()).status()).isZero();

    CliRunner.Result text = CliRunner.run("diff", a.index.toString(), b.index.toString());
    assertThat(text.out())
        .contains(
            "  ~ format fact index.total_size: \""
                + fact.get("a").asString()
                + "\" -> \"999\"")
        .contains("header_sha256 none for a set")
        .doesNotContain("unknown");

    // A tensor's numbers and shape, and a UINT64 value, are printed without JSON's quotes; a
    // STRING value keeps them (it is text, even when it reads as a number).
    Path x =
        Files.write(
            dir.resolve("x.gguf"),
            GgufBuilder.v3()
                .kv("general.architecture", str("llama"))
                .kv("general.name", str("4096"))
                .kv("llama.context_length", GgufBuilder.u64(4096))
                .kv("llama.block_count", GgufBuilder.u32(2))
                .tensor("w", 0, 8, 2)
                .bytes());
    Path y =
        Files.write(
            dir.resolve("y.gguf"),
            GgufBuilder.v3()
                .kv("general.architecture", str("llama"))
                .kv("general.name", str("8192"))
                .kv("llama.context_length", GgufBuilder.u64(8192))
                .kv("llama.block_count", GgufBuilder.u64(2))
                .tensor("w", 0, 8, 4)
                .bytes());
    CliRunner.Result files = CliRunner.run("diff", x.toString(), y.toString());
    assertThat(files.status()).isEqualTo(1);
    assertThat(files.out())
        .contains("  ~ metadata llama.context_length: 4096 -> 8192")
        .contains("  ~ tensor w: shape [8, 2] -> [8, 4]; parameter_count 16 -> 32; byte_length 64 -> 128")
        .contains("  ~ metadata general.name: \"4096\" -> \"8192\"")
        // Another type with the same spelling is a change, and says so.
        .contains("  ~ metadata llama.block_count: UINT32 2 -> UINT64 2")
        .contains("  ~ totals: 1 tensor, 16 parameters, 64 bytes -> 1 tensor, 32 parameters, 128 bytes");
  }

  /** A shard given alone is compared as that file (a set of one), and the readable diff says so. */
  @Test
  void aShardGivenAloneIsComparedAsThatFileWithANote() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 2, 2);
    Path shard = c.index.resolveSibling("model-00001-of-00002.safetensors");

    CliRunner.Result r = CliRunner.run("diff", c.index.toString(), shard.toString());
    CliRunner.Result json = CliRunner.run("diff", c.index.toString(), shard.toString(), "--json");
    CliRunner.Result plain = CliRunner.run("diff", c.index.toString(), c.index.toString());

    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).contains("  note: B is one safetensors file, which may be one shard of a"
        + " checkpoint: compared as that file alone");
    assertThat(json.out()).doesNotContain("note:");
    assertThat(plain.out()).doesNotContain("note:");
  }
}
