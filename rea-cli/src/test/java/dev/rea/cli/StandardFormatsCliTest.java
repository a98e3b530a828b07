package dev.rea.cli;

import static dev.rea.core.internal.format.gguf.GgufBuilder.str;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.testing.SetFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code --format} of CONTRACT section 13 on the command line. */
class StandardFormatsCliTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path dir;

  private Path model(String name) throws Exception {
    return Files.write(
        dir.resolve(name),
        GgufBuilder.v3().kv("general.architecture", str("llama")).tensor("w", 0, 8, 4).bytes());
  }

  @Test
  void inTotoNeedsAFullHashAndIsReadBackAsSavedEvidence() throws Exception {
    Path m = model("m.gguf");
    CliRunner.Result refused = CliRunner.run("inspect-model-artifact", m.toString(), "--format", "in-toto");
    assertThat(refused.status()).isEqualTo(2);
    assertThat(refused.err()).contains("conflicting_choices").contains("--hash full");

    CliRunner.Result r =
        CliRunner.run("inspect-model-artifact", m.toString(), "--hash", "full", "--format", "in-toto");
    assertThat(r.status()).as(r.err()).isZero();
    JsonNode envelope = r.json();
    assertThat(envelope.get("payloadType").asText()).isEqualTo("application/vnd.in-toto+json");
    JsonNode statement =
        JSON.readTree(Base64.getDecoder().decode(envelope.get("payload").asText()));
    assertThat(statement.get("predicateType").asText()).isEqualTo("urn:rea:evidence:v1");
    assertThat(statement.get("subject").get(0).get("name").asText()).isEqualTo("m.gguf");
    assertThat(statement.get("subject").get(0).get("digest").get("sha256").asText())
        .isEqualTo(Sha256sum.of(m));

    Path saved = Files.write(dir.resolve("m.intoto.json"), r.out().getBytes(StandardCharsets.UTF_8));
    CliRunner.Result page =
        CliRunner.run(
            "inspect-analysis-view", "--source", saved.toString(), "--json", "--view",
            "{\"kind\":\"model-artifact\",\"collection\":\"tensors\"}");
    assertThat(page.status()).as(page.err()).isZero();
    assertThat(page.json().get("total_matches").asInt()).isEqualTo(1);
    CliRunner.Result diff = CliRunner.run("diff", saved.toString(), m.toString());
    assertThat(diff.status()).as(diff.out() + diff.err()).isZero();

    // One byte of the payload changed: the envelope no longer verifies.
    String forged =
        r.out().replace(envelope.get("payload").asText(),
            Base64.getEncoder().encodeToString(
                new String(Base64.getDecoder().decode(envelope.get("payload").asText()), StandardCharsets.UTF_8)
                    .replace("\"m.gguf\"", "\"n.gguf\"").getBytes(StandardCharsets.UTF_8)));
    Path bad = Files.write(dir.resolve("forged.json"), forged.getBytes(StandardCharsets.UTF_8));
    CliRunner.Result rejected = CliRunner.run("diff", bad.toString(), m.toString());
    assertThat(rejected.status()).isEqualTo(2);
    assertThat(rejected.err()).contains("evidence_rejected");
  }

  /**
   * REA writes {@code payload} first: an envelope over 1 MiB has its {@code payloadType} past the
   * first MiB, and is still read back as an envelope (a trial found it taken for a record:
   * "no schema property").
   */
  @Test
  void anEnvelopeOverOneMebibyteIsReadBack() throws Exception {
    GgufBuilder b = GgufBuilder.v3().kv("general.architecture", str("llama"));
    for (int i = 0; i < 6000; i++) {
      b.tensor("blk." + i + ".attn_q.weight", 0, 1);
    }
    Path m = Files.write(dir.resolve("many.gguf"), b.bytes());
    CliRunner.Result r =
        CliRunner.run("inspect-model-artifact", m.toString(), "--hash", "full", "--format", "in-toto");
    assertThat(r.status()).as(r.err()).isZero();
    Path saved = Files.write(dir.resolve("many.intoto.json"), r.out().getBytes(StandardCharsets.UTF_8));
    assertThat(Files.size(saved)).isGreaterThan(1L << 20);
    assertThat(r.out().indexOf("\"payloadType\"")).isGreaterThan(1 << 20);
    CliRunner.Result page =
        CliRunner.run(
            "inspect-analysis-view", "--source", saved.toString(), "--json", "--view",
            "{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"names\":[\"blk.5999.attn_q.weight\"]}");
    assertThat(page.status()).as(page.err()).isZero();
    assertThat(page.json().get("total_matches").asInt()).isEqualTo(1);

    // Rewritten by another tool (a long unknown first member; a long indent), it is still a
    // side of rea diff, as inspect-analysis-view reads it (a trial had diff take both for
    // models).
    JsonNode envelope = JSON.readTree(r.out());
    String members = "\"payload\":" + envelope.get("payload") + ",\"payloadType\":"
        + envelope.get("payloadType") + ",\"signatures\":" + envelope.get("signatures");
    Path unknownFirst = Files.writeString(dir.resolve("unknown-first.json"),
        "{\"x\":\"" + "a".repeat(1000) + "\"," + members + "}");
    Path indented = Files.writeString(dir.resolve("indented.json"),
        " ".repeat(1_100_000) + "{" + members + "}");
    for (Path side : List.of(unknownFirst, indented)) {
      CliRunner.Result diff = CliRunner.run("diff", side.toString(), m.toString());
      assertThat(diff.status()).as(side + ": " + diff.err()).isZero();
    }
  }

  @Test
  void cycloneDxDescribesTheFileAsAModelComponent() throws Exception {
    Path m = model("m.gguf");
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", m.toString(), "--format", "cyclonedx");
    assertThat(r.status()).as(r.err()).isZero();
    JsonNode bom = r.json();
    assertThat(bom.get("bomFormat").asText()).isEqualTo("CycloneDX");
    assertThat(bom.get("specVersion").asText()).isEqualTo("1.6");
    assertThat(bom.get("components").get(0).get("type").asText()).isEqualTo("machine-learning-model");
    CliRunner.Result summary =
        CliRunner.run("inspect-model-artifact", m.toString(), "--format", "cyclonedx", "--detail", "summary");
    assertThat(summary.status()).isEqualTo(2);
  }

  @Test
  void aSetAttestationHasASubjectPerMemberAndTheSetBundleAsPredicate() throws Exception {
    List<Path> m = SetFixtures.ggufSplit(dir, "s", 3, 1, 2);
    CliRunner.Result refused = CliRunner.run("inspect-model-set", m.get(0).toString(), "--format", "in-toto");
    assertThat(refused.status()).isEqualTo(2);
    assertThat(refused.err()).contains("conflicting_choices").contains("--hash full");

    CliRunner.Result r = CliRunner.run(
        "inspect-model-set", m.get(1).toString(), "--hash", "full", "--format", "in-toto");
    assertThat(r.status()).as(r.err()).isZero();
    JsonNode statement =
        JSON.readTree(Base64.getDecoder().decode(r.json().get("payload").asText()));
    JsonNode subjects = statement.get("subject");
    assertThat(subjects).hasSize(3);
    for (int i = 0; i < 3; i++) {
      assertThat(subjects.get(i).get("name").asText()).isEqualTo(m.get(i).getFileName().toString());
      assertThat(subjects.get(i).get("digest").get("sha256").asText()).isEqualTo(Sha256sum.of(m.get(i)));
    }
    JsonNode records = statement.get("predicate").get("records");
    assertThat(records).hasSize(4);
    assertThat(records.get(0).get("schema").asText()).isEqualTo("rea.model-set.v1");
    // The bundle --json prints: the set record, then each member's record, which it lists.
    for (int i = 1; i <= 3; i++) {
      assertThat(records.get(i).get("artifact").get("path").asText()).isEqualTo(m.get(i - 1).toString());
      assertThat(records.get(i).get("evidence_id").asText())
          .isEqualTo(records.get(0).get("members").get(i - 1).get("evidence_id").asText());
    }
  }

  @Test
  void aSetBomHoldsTheMembersUnderOneComponentAndNeedsCompleteDetail() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 2, 3);
    CliRunner.Result r = CliRunner.run("inspect-model-set", c.index.toString(), "--format", "cyclonedx");
    assertThat(r.status()).as(r.err()).isZero();
    JsonNode parent = r.json().get("components").get(0);
    assertThat(r.json().get("components")).hasSize(1);
    assertThat(parent.get("name").asText()).isEqualTo("model.safetensors.index.json");
    assertThat(parent.get("components")).hasSize(2);
    assertThat(parent.get("components").get(1).get("name").asText())
        .isEqualTo("model-00002-of-00002.safetensors");
    // --json does not turn the BOM back into REA's bundle.
    CliRunner.Result json = CliRunner.run("inspect-model-set", c.index.toString(), "--format", "cyclonedx", "--json");
    assertThat(json.status()).as(json.err()).isZero();
    assertThat(json.json().get("bomFormat").asText()).isEqualTo("CycloneDX");
    CliRunner.Result summary = CliRunner.run(
        "inspect-model-set", c.index.toString(), "--format", "cyclonedx", "--detail", "summary");
    assertThat(summary.status()).isEqualTo(2);
    assertThat(summary.err()).contains("conflicting_choices");
    CliRunner.Result sarif = CliRunner.run("inspect-model-set", c.index.toString(), "--format", "sarif");
    assertThat(sarif.status()).isEqualTo(2);
    assertThat(sarif.err()).contains("bad_argument");
  }

  @Test
  void checkWritesSarifWithTheRejectionsOffset() throws Exception {
    Path ok = model("ok.gguf");
    Path bad =
        Files.write(
            dir.resolve("bad.gguf"),
            GgufBuilder.v3().kv("general.architecture", str("llama")).tensor("w", 0, 8, 4).truncate(1).bytes());
    CliRunner.Result json = CliRunner.run("check", bad.toString(), "--json");
    String offset = json.json().get("units").get(0).get("reasons").get(0).get("offset").asText();
    CliRunner.Result r = CliRunner.run("check", ok.toString(), bad.toString(), "--format", "sarif");
    assertThat(r.status()).isEqualTo(1);
    JsonNode sarif = r.json();
    assertThat(sarif.get("version").asText()).isEqualTo("2.1.0");
    JsonNode results = sarif.get("runs").get(0).get("results");
    assertThat(results).hasSize(1);
    assertThat(results.get(0).get("ruleId").asText()).isEqualTo("file_format_rejected");
    assertThat(results.get(0).get("level").asText()).isEqualTo("error");
    assertThat(
            results.get(0).get("locations").get(0).get("physicalLocation").get("region").get("byteOffset").asText())
        .isEqualTo(offset);
  }

  /**
   * A set rejected for one member's header: the SARIF result is located in that member, where its
   * byte offset is, not at the set's path.
   */
  @Test
  void checkLocatesASetMembersRejectionInTheMember() throws Exception {
    List<Path> m = SetFixtures.ggufSplit(Files.createDirectories(dir.resolve("split")), "s", 3, 1, 1);
    byte[] last = Files.readAllBytes(m.get(2));
    Files.write(m.get(2), java.util.Arrays.copyOf(last, last.length - 10));
    CliRunner.Result json = CliRunner.run("check", m.get(0).toString(), "--json");
    JsonNode reason = json.json().get("units").get(0).get("reasons").get(0);
    assertThat(reason.get("message").asText()).startsWith("member 2 (s-00003-of-00003.gguf");
    String offset = reason.get("offset").asText();
    CliRunner.Result r = CliRunner.run("check", m.get(0).toString(), "--format", "sarif");
    assertThat(r.status()).isEqualTo(1);
    JsonNode results = r.json().get("runs").get(0).get("results");
    assertThat(results).hasSize(1);
    JsonNode at = results.get(0).get("locations").get(0).get("physicalLocation");
    assertThat(at.get("artifactLocation").get("uri").asText())
        .isEqualTo(m.get(2).toUri().toString());
    assertThat(at.get("region").get("byteOffset").asText()).isEqualTo(offset);

    // Members that contradict each other, the set named by its directory: the result is in the
    // member the contradiction was found in, not at the directory.
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(
        Files.createDirectories(dir.resolve("ck")), 2, 1, (k, b) -> {},
        map -> map.put("ghost", "model-00002-of-00002.safetensors"));
    CliRunner.Result contradicted = CliRunner.run("check", c.dir.toString(), "--format", "sarif");
    assertThat(contradicted.status()).isEqualTo(1);
    JsonNode result = contradicted.json().get("runs").get(0).get("results").get(0);
    assertThat(result.get("ruleId").asText()).isEqualTo("set_rejected");
    assertThat(result.get("locations").get(0).get("physicalLocation").get("artifactLocation")
            .get("uri").asText())
        .endsWith(".safetensors");
  }

  /**
   * A set's own warning, the set named by its directory: the SARIF result points at the index
   * (a code-scanning service locates results in files, not directories).
   */
  @Test
  void checkLocatesASetsWarningInItsIndex() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(Files.createDirectories(dir.resolve("w")), 2, 1);
    Files.writeString(
        c.index, Files.readString(c.index).replaceFirst("\"total_size\": \\d+", "\"total_size\": 7"));
    CliRunner.Result r = CliRunner.run("check", c.dir.toString(), "--format", "sarif");
    assertThat(r.status()).as(r.err()).isEqualTo(1);
    JsonNode results = r.json().get("runs").get(0).get("results");
    assertThat(results).hasSize(1);
    assertThat(results.get(0).get("ruleId").asText()).isEqualTo("index_total_size_mismatch");
    assertThat(results.get(0).get("locations").get(0).get("physicalLocation")
            .get("artifactLocation").get("uri").asText())
        .isEqualTo(c.index.toUri().toString());
  }

  /** A set that fails prints no report on the stdout a standard format's document goes to. */
  @Test
  void aFailedSetPrintsNothingOnStdoutInAStandardFormat() throws Exception {
    List<Path> m = SetFixtures.ggufSplit(Files.createDirectories(dir.resolve("gone")), "g", 3, 1, 1);
    Files.delete(m.get(2));
    for (String format : new String[] {"cyclonedx", "in-toto"}) {
      CliRunner.Result r = format.equals("in-toto")
          ? CliRunner.run("inspect-model-set", m.get(0).toString(), "--format", format,
              "--hash", "full")
          : CliRunner.run("inspect-model-set", m.get(0).toString(), "--format", format);
      assertThat(r.status()).as(format).isEqualTo(3);
      assertThat(r.out()).as(format).isEmpty();
      assertThat(r.err()).as(format).contains("not_found");
    }
    // REA's own readable report still shows the partial set.
    assertThat(CliRunner.run("inspect-model-set", m.get(0).toString()).out())
        .startsWith("PARTIAL model set")
        .contains("2 members read, ");
  }
}
