package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.auth.EvidenceSigner;
import dev.rea.core.internal.auth.EvidenceVerifier;
import dev.rea.core.internal.auth.KeyRing;
import dev.rea.core.internal.evidence.EvidenceFiles;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.format.gguf.GgufTesting;
import dev.rea.core.internal.view.EvidenceLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Evidence that travels on the command line: signed bundles, {@code --detail summary}, {@code
 * --evidence_output}, {@code --view}, and {@code inspect-analysis-view} over the written file.
 */
class EvidenceCliTest {
  @TempDir Path dir;

  private Path tinyLlama() {
    return GgufTesting.resourceFile(dir, "real/ollama_ollama-llama-2-tiny-random.gguf.gz");
  }

  private static String withKind(String inlineView) {
    return "{\"kind\":\"model-artifact\"," + inlineView.substring(1);
  }

  @Test
  void completeJsonIsASignedBundleThatVerifies() throws Exception {
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", tinyLlama().toString(), "--json");
    assertThat(r.status()).isEqualTo(0);
    JsonNode auth = r.json().get("records").get(0).get("authentication");
    KeyRing ring = KeyRing.open(CliRunner.HOME);
    assertThat(auth.get("scheme").asString()).isEqualTo("ed25519");
    assertThat(auth.get("key_id").asString()).isEqualTo(ring.keyId());
    assertThat(auth.get("signature").asString()).hasSize(88);
    EvidenceVerifier.Verified v =
        EvidenceVerifier.standard(ring).importVerified(r.out().getBytes(StandardCharsets.UTF_8));
    assertThat(v.bundle()).isTrue();
    assertThat(v.records().get(0).evidenceId())
        .isEqualTo(r.json().get("records").get(0).get("evidence_id").asString());
    assertThat(Files.readString(CliRunner.HOME.resolve(KeyRing.KEY_FILE)))
        .contains("PRIVATE KEY");
  }

  @Test
  void summaryWithEvidenceOutputWritesTheSignedBundleItPointsAt() throws Exception {
    Path ev = dir.resolve("evidence.json");
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", tinyLlama().toString(),
        "--detail", "summary", "--evidence_output", ev.toString(), "--json");
    assertThat(r.status()).isEqualTo(0);
    JsonNode s = r.json();
    assertThat(s.get("kind").asString()).isEqualTo("model-artifact-summary");
    assertThat(s.has("page")).isFalse();
    assertThat(r.err()).doesNotContain("was not written");
    // Without --evidence_output, the JSON summary's parent Evidence is kept nowhere: stderr says so.
    CliRunner.Result unsaved = CliRunner.run("inspect-model-artifact", tinyLlama().toString(),
        "--detail", "summary", "--json");
    assertThat(unsaved.status()).isEqualTo(0);
    assertThat(unsaved.json().get("parent_evidence_id").asString()).startsWith("sha256:");
    assertThat(unsaved.err())
        .isEqualTo("rea: the complete Evidence (parent_evidence_id) was not written anywhere; add"
            + " --evidence_output FILE to keep it" + System.lineSeparator());
    assertThat(s.get("counts").get("tensors").asInt()).isEqualTo(12);
    assertThat(s.get("headline_metadata").get(0).get("key").asString()).isEqualTo("general.architecture");
    assertThat(s.get("headline_metadata").get(0).get("value").asString()).isEqualTo("llama");
    JsonNode bundle = CliRunner.JSON.readTree(Files.readAllBytes(ev));
    assertThat(bundle.get("schema").asString()).isEqualTo("rea.bundle.v1");
    assertThat(bundle.get("records").get(0).get("evidence_id").asString())
        .isEqualTo(s.get("parent_evidence_id").asString());
    EvidenceVerifier.standard(KeyRing.open(CliRunner.HOME)).importVerified(Files.readAllBytes(ev));
    try (var files = Files.list(dir)) {
      assertThat(files.filter(p -> p.getFileName().toString().endsWith(".tmp")).count()).isZero();
    }

    CliRunner.Result text = CliRunner.run("inspect-model-artifact", tinyLlama().toString(),
        "--detail", "summary", "--evidence_output", ev.toString());
    assertThat(text.status()).isEqualTo(0);
    assertThat(text.out()).contains("Summary of ").containsPattern("general\\.architecture +STRING +\"llama\"")
        .contains("12 tensors").contains("Complete Evidence: sha256:").contains(ev.toString());
  }

  @Test
  void aBundleOfSeveralRecordsNamesTheOptionThatChoosesOne() throws Exception {
    Path st = dir.resolve("m.safetensors");
    Files.write(
        st,
        dev.rea.core.internal.format.safetensors.SafetensorsBuilder.builder().tensor("a", "F32", 2).build());
    CliRunner.Result one = CliRunner.run("inspect-model-artifact", tinyLlama().toString(), "--json");
    CliRunner.Result other = CliRunner.run("inspect-model-artifact", st.toString(), "--json");
    JsonNode first = one.json();
    JsonNode second = other.json();
    // Each record's bytes as written (a bundle of one: {"schema":...,"records":[RECORD]}).
    String a = recordText(one.out());
    String b = recordText(other.out());
    Path two = Files.writeString(
        dir.resolve("two.json"), "{\"schema\":\"rea.bundle.v1\",\"records\":[" + a + "," + b + "]}");
    String view = "{\"kind\":\"model-artifact\",\"collection\":\"types\"}";
    CliRunner.Result unchosen =
        CliRunner.run("inspect-analysis-view", "--source", two.toString(), "--view", view);
    assertThat(unchosen.status()).isEqualTo(2);
    assertThat(unchosen.err())
        .contains("the bundle holds 2 records; choose one with --evidence_id: ")
        .contains(first.get("records").get(0).get("evidence_id").asString());
    CliRunner.Result chosen =
        CliRunner.run("inspect-analysis-view", "--source", two.toString(), "--view", view,
            "--evidence_id", second.get("records").get(0).get("evidence_id").asString());
    assertThat(chosen.status()).as(chosen.err()).isZero();
    assertThat(chosen.out()).contains("of " + st).contains("F32");
  }

  private static String recordText(String bundleOfOne) {
    String open = "\"records\":[";
    int from = bundleOfOne.indexOf(open) + open.length();
    int to = bundleOfOne.lastIndexOf("]}");
    return bundleOfOne.substring(from, to);
  }

  @Test
  void viewAnswerEqualsInspectAnalysisViewOnTheWrittenFile() throws Exception {
    Path model = tinyLlama();
    String[] views = {
      "{\"collection\":\"tensors\",\"names\":[\"token_embd.weight\",\"output.weight\"],"
          + "\"fields\":[\"name\",\"type\",\"shape\",\"file_offset\",\"byte_length\"]}",
      "{\"collection\":\"tensors\",\"types\":[\"F32\"],\"offset\":1,\"limit\":2}",
      "{\"collection\":\"metadata\",\"keys\":[\"tokenizer.ggml.tokens\",\"general.architecture\"]}",
      "{\"collection\":\"types\",\"fields\":[]}",
      "{\"collection\":\"tensors\",\"names\":[]}",
    };
    for (int i = 0; i < views.length; i++) {
      Path ev = dir.resolve("ev-" + i + ".json");
      CliRunner.Result inspect = CliRunner.run("inspect-model-artifact", model.toString(),
          "--detail", "summary", "--evidence_output", ev.toString(), "--view", views[i], "--json");
      assertThat(inspect.status()).as(inspect.out() + inspect.err()).isEqualTo(0);
      JsonNode page = inspect.json().get("page");
      assertThat(page.get("kind").asString()).isEqualTo("model-artifact-page");
      assertThat(page.get("source").get("kind").asString()).isEqualTo("evidence-file");
      assertThat(page.get("parent_evidence_id").asString())
          .isEqualTo(inspect.json().get("parent_evidence_id").asString());

      CliRunner.Result query = CliRunner.run("inspect-analysis-view", "--source", ev.toString(),
          "--view", withKind(views[i]), "--json");
      assertThat(query.status()).as(query.out() + query.err()).isEqualTo(0);
      assertThat(query.out().trim()).isEqualTo(CliRunner.JSON.writeValueAsString(page));
      assertThat(query.json()).isEqualTo(page);
    }
    // Spot-check the first view's rows.
    CliRunner.Result q = CliRunner.run("inspect-analysis-view", "--source",
        dir.resolve("ev-0.json").toString(), "--view", withKind(views[0]), "--json");
    JsonNode rows = q.json().get("rows");
    assertThat(rows.size()).isEqualTo(2);
    assertThat(rows.get(0).get("name").asString()).isEqualTo("token_embd.weight");
    assertThat(rows.get(0).get("shape").toString()).isEqualTo("[\"8\",\"32000\"]");
    assertThat(rows.get(0).get("file_offset").asString()).isEqualTo("724416");
    assertThat(rows.get(0).has("parameter_count")).isFalse();
    CliRunner.Result readable = CliRunner.run("inspect-analysis-view", "--source",
        dir.resolve("ev-0.json").toString(), "--view", withKind(views[0]));
    assertThat(readable.status()).isEqualTo(0);
    assertThat(readable.out()).contains("Page of tensors: matches 1 to 2 of 2 (last page)")
        .contains("from Evidence sha256:")
        .containsPattern("INDEX +NAME +TYPE +SHAPE +FILE_OFFSET")
        .containsPattern("0 +token_embd\\.weight +F16 +\\[8, 32000\\] +724,416");
    CliRunner.Result none = CliRunner.run("inspect-analysis-view", "--source",
        dir.resolve("ev-0.json").toString(), "--view",
        "{\"kind\":\"model-artifact\",\"collection\":\"metadata\",\"keys\":[\"no.such.key\"]}");
    assertThat(none.status()).as(none.out()).isEqualTo(0);
    assertThat(none.out()).contains("Page of metadata: no rows match (last page)");
  }

  /**
   * A readable page shows amounts as the readable report does: grouped by thousands, and
   * "unknown" where the Evidence has null (a Q8_1 tensor's byte length), never "null".
   */
  @Test
  void readablePagesShowAmountsLikeTheReport() throws Exception {
    Path model = dir.resolve("sample.gguf");
    Files.write(model, dev.rea.core.internal.format.gguf.SampleMixedGguf.bytes());
    Path ev = dir.resolve("sample-ev.json");
    CliRunner.Result written = CliRunner.run("inspect-model-artifact", model.toString(),
        "--detail", "summary", "--evidence_output", ev.toString());
    assertThat(written.status()).as(written.err()).isEqualTo(0);
    assertThat(written.out())
        .contains("35,520 parameters (declared), byte total unknown (the limitations say why;"
            + " --assume-layout ggml-modern settles the layouts a header leaves open)");
    CliRunner.Result page = CliRunner.run("inspect-analysis-view", "--source", ev.toString(),
        "--view", "{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"limit\":6}");
    assertThat(page.status()).as(page.err()).isEqualTo(0);
    assertThat(page.out())
        .containsPattern("0 +token_embd\\.weight +F16 +1 +\\[64, 16\\] +1,024 +0 +1,920 +2,048 +consistent")
        .containsPattern("4 +blk\\.0\\.attn_v\\.weight +Q8_1 +9 +\\[64, 64\\] +4,096 +8,960 +10,880 +unknown +unknown")
        .doesNotContain("null");
  }

  @Test
  void conflictingAndIncompleteChoicesAreRefusedBeforeTheFileIsRead() {
    String missing = dir.resolve("absent.gguf").toString();
    String ev = dir.resolve("e.json").toString();
    String v = "{\"collection\":\"tensors\"}";
    // Complete detail only by default: the message says what --view needs, not "conflicting".
    CliRunner.Result byDefault =
        CliRunner.run("inspect-model-artifact", missing, "--view", v, "--evidence_output", ev, "--json");
    assertError(byDefault, 2, "conflicting_choices", "--view");
    assertThat(byDefault.json().get("error").get("message").asString())
        .isEqualTo("--view needs --detail summary (complete detail is the default)");
    CliRunner.Result explicit =
        CliRunner.run("inspect-model-artifact", missing, "--detail", "complete", "--view", v,
            "--evidence_output", ev, "--json");
    assertError(explicit, 2, "conflicting_choices", "--view");
    assertThat(explicit.json().get("error").get("message").asString())
        .isEqualTo("--view selects rows for summary delivery; complete detail and a selection are"
            + " conflicting choices (use --detail summary)");
    // Without --evidence_output either, one message names both requirements.
    CliRunner.Result both = CliRunner.run("inspect-model-artifact", missing, "--view", v, "--json");
    assertError(both, 2, "conflicting_choices", "--view");
    assertThat(both.json().get("error").get("message").asString())
        .isEqualTo("--view needs --detail summary (complete detail is the default) together with"
            + " --evidence_output FILE: the page is answered from, and points at, the complete"
            + " Evidence written there");
    CliRunner.Result bothExplicit =
        CliRunner.run("inspect-model-artifact", missing, "--detail", "complete", "--view", v, "--json");
    assertError(bothExplicit, 2, "conflicting_choices", "--view");
    assertThat(bothExplicit.json().get("error").get("message").asString())
        .endsWith("(use --detail summary, with --evidence_output FILE for the complete Evidence the"
            + " page points at)");
    assertError(CliRunner.run("inspect-model-artifact", missing, "--detail", "summary", "--detail", "complete",
        "--json"), 2, "conflicting_choices", "--detail");
    assertError(CliRunner.run("inspect-model-artifact", missing, "--detail", "summary", "--view", v, "--json"),
        2, "bad_argument", "--evidence_output");
    assertError(CliRunner.run("inspect-model-artifact", missing, "--detail", "brief", "--json"),
        2, "bad_argument", "--detail");
    assertError(CliRunner.run("inspect-model-artifact", missing, "--detail", "summary", "--evidence_output", ev,
        "--view", "{\"collection\":\"metadata\",\"names\":[\"x\"]}", "--json"), 2, "bad_view", "view.names");
    assertError(CliRunner.run("inspect-model-artifact", missing, "--detail", "summary", "--evidence_output", ev,
        "--view", "{\"collection\":\"tensors\"", "--json"), 2, "bad_view", null);
    assertThat(Files.exists(Path.of(ev))).isFalse();
    // The checks passed: now the missing file is what fails.
    assertError(CliRunner.run("inspect-model-artifact", missing, "--detail", "summary", "--evidence_output", ev,
        "--view", v, "--json"), 3, "not_found", null);
  }

  /** Output paths that cannot be written are refused before the model is read, each plainly. */
  @Test
  void anOutputWhoseDirectoryIsMissingOrAFileIsRefusedSayingWhich() throws Exception {
    String model = tinyLlama().toString();
    Path aFile = Files.write(dir.resolve("plain.txt"), new byte[] {1});
    String[][] cases = {
      {dir.resolve("missing/ev.json").toString(),
          "the directory " + dir.resolve("missing") + " does not exist (create it first)"},
      {aFile.resolve("ev.json").toString(), aFile + " is not a directory, so it cannot hold ev.json"},
      {dir.toString(), dir + " is a directory; give a file name"},
      {dir.resolve("x") + "/", dir.resolve("x") + "/ ends with '/', which names a directory; give a file name"},
    };
    for (String[] c : cases) {
      CliRunner.Result r = CliRunner.run("inspect-model-artifact", model, "--evidence_output", c[0], "--json");
      assertError(r, 2, "bad_argument", "--evidence_output");
      assertThat(r.json().get("error").get("message").asString()).as(c[0]).contains(c[1]);
    }
  }

  /** An output that is a link to earlier Evidence is written through: the link stays. */
  @Test
  void anOutputThatIsALinkToEarlierEvidenceIsWrittenThroughTheLink() throws Exception {
    String model = tinyLlama().toString();
    Path target = dir.resolve("kept/ev.json");
    Files.createDirectories(target.getParent());
    assertThat(CliRunner.run("inspect-model-artifact", model, "--evidence_output", target.toString())
        .status()).isEqualTo(0);
    byte[] first = Files.readAllBytes(target);
    Path link = Files.createSymbolicLink(dir.resolve("link.json"), target);
    CliRunner.Result r =
        CliRunner.run("inspect-model-artifact", model, "--evidence_output", link.toString());
    assertThat(r.status()).as(r.err()).isEqualTo(0);
    assertThat(Files.isSymbolicLink(link)).isTrue();
    assertThat(Files.readSymbolicLink(link)).isEqualTo(target);
    byte[] second = Files.readAllBytes(target);
    assertThat(second).isNotEqualTo(first); // another observed_at, another evidence ID
    assertThat(new String(second, java.nio.charset.StandardCharsets.UTF_8)).startsWith("{\"schema\":\"rea.bundle.v1\"");
    try (var listing = Files.list(target.getParent())) {
      assertThat(listing.map(p -> p.getFileName().toString())).containsExactly("ev.json");
    }
  }

  /** A link that leads nowhere, or round in a loop, is refused and kept, not replaced. */
  @Test
  void anOutputThatIsADanglingOrLoopingLinkIsRefusedAndKept() throws Exception {
    String model = tinyLlama().toString();
    Path dangling = Files.createSymbolicLink(dir.resolve("dang.json"), dir.resolve("nowhere.json"));
    Path loopA = dir.resolve("loop-a.json");
    Path loopB = Files.createSymbolicLink(dir.resolve("loop-b.json"), loopA);
    Files.createSymbolicLink(loopA, loopB);
    for (Path link : List.of(dangling, loopA)) {
      CliRunner.Result r = CliRunner.run("inspect-model-artifact", model, "--evidence_output", link.toString(), "--json");
      assertError(r, 2, "bad_argument", "--evidence_output");
      assertThat(r.json().get("error").get("message").asString())
          .contains(link + " is a symbolic link to ")
          .contains("which does not exist (or the links form a loop)");
      assertThat(Files.isSymbolicLink(link)).isTrue();
    }
    assertThat(Files.exists(dir.resolve("nowhere.json"))).isFalse();
  }

  private static void assertError(CliRunner.Result r, int status, String constraint, String field) {
    assertThat(r.status()).as(r.out() + r.err()).isEqualTo(status);
    JsonNode e = r.json().get("error");
    assertThat(e.get("constraint").asString()).isEqualTo(constraint);
    if (field != null) {
      assertThat(e.get("details").get("field").asString()).isEqualTo(field);
    }
  }

  @Test
  void analysisViewNeedsKindAndRefusesMissingOrForeignEvidence() throws Exception {
    Path ev = dir.resolve("ev.json");
    assertThat(CliRunner.run("inspect-model-artifact", tinyLlama().toString(), "--detail", "summary",
        "--evidence_output", ev.toString()).status()).isEqualTo(0);
    assertError(CliRunner.run("inspect-analysis-view", "--source", ev.toString(), "--view",
        "{\"collection\":\"tensors\"}", "--json"), 2, "bad_view", "view.kind");
    assertError(CliRunner.run("inspect-analysis-view", "--source", dir.resolve("nope.json").toString(),
        "--view", "{\"kind\":\"model-artifact\",\"collection\":\"tensors\"}", "--json"), 3, "not_found", null);

    // Another provider's home does not trust this key until its public key is placed in trusted/.
    Path other = dir.resolve("other-home");
    String view = "{\"kind\":\"model-artifact\",\"collection\":\"types\"}";
    CliRunner.Result refused = CliRunner.runWithHome(other, "inspect-analysis-view", "--source",
        ev.toString(), "--view", view, "--json");
    assertError(refused, 2, "evidence_rejected", "records[0].authentication.key_id");
    assertThat(refused.json().get("error").get("message").asString()).contains("not trusted")
        .contains(other.resolve("trusted").toString());
    // Reading Evidence creates nothing in the reader's home: no key pair, not even the directory.
    assertThat(refused.err()).doesNotContain("created a signing key");
    assertThat(other).doesNotExist();
    Files.createDirectories(other.resolve("trusted"));
    Files.copy(CliRunner.HOME.resolve(KeyRing.PUBLIC_KEY_FILE), other.resolve("trusted").resolve("colleague.pem"));
    CliRunner.Result trusted = CliRunner.runWithHome(other, "inspect-analysis-view", "--source",
        ev.toString(), "--view", view, "--json");
    assertThat(trusted.status()).as(trusted.out()).isEqualTo(0);
    assertThat(trusted.json().get("total_matches").asInt()).isEqualTo(2);
    try (var files = Files.list(other)) {
      assertThat(files.map(f -> f.getFileName().toString())).containsExactly("trusted");
    }
  }

  @Test
  void bundlesWithSeveralRecordsNeedAnEvidenceId() throws Exception {
    KeyRing ring = KeyRing.open(CliRunner.HOME);
    EvidenceSigner signer = new EvidenceSigner(ring);
    EvidenceRecord a = signer.sign(GgufTesting.inspect(tinyLlama()));
    EvidenceRecord b = signer.sign(GgufTesting.inspectBytes(dir, "small.gguf",
        GgufBuilder.v3().kv("general.architecture", GgufBuilder.str("phi3")).build().bytes()));
    Path two = dir.resolve("two.json");
    EvidenceFiles.writeAtomically(two, EvidenceJson.bundleBytes(List.of(a, b)));
    String view = "{\"kind\":\"model-artifact\",\"collection\":\"metadata\",\"keys\":[\"general.architecture\"]}";
    CliRunner.Result r = CliRunner.run("inspect-analysis-view", "--source", two.toString(), "--view", view, "--json");
    assertError(r, 2, "bad_argument", "evidence_id");
    assertThat(r.json().get("error").get("message").asString()).contains(a.evidenceId()).contains(b.evidenceId());
    CliRunner.Result chosen = CliRunner.run("inspect-analysis-view", "--source", two.toString(), "--view", view,
        "--evidence_id", b.evidenceId(), "--json");
    assertThat(chosen.status()).isEqualTo(0);
    assertThat(chosen.json().get("rows").get(0).get("value").asString()).isEqualTo("phi3");
    assertError(CliRunner.run("inspect-analysis-view", "--source", two.toString(), "--view", view,
        "--evidence_id", "sha256:" + "0".repeat(64), "--json"), 2, "unknown_evidence", "evidence_id");
    // A single record file (not a bundle) answers too.
    Path one = dir.resolve("one.json");
    EvidenceFiles.writeAtomically(one, EvidenceJson.recordBytes(a, true));
    assertThat(CliRunner.run("inspect-analysis-view", "--source", one.toString(), "--view", view, "--json")
        .json().get("rows").get(0).get("value").asString()).isEqualTo("llama");
  }

  /**
   * Every byte of a small evidence file written by the CLI, flipped (one bit per byte, cycling
   * through the 8 bit positions), makes {@code inspect-analysis-view} refuse the file, except a
   * flip that keeps the RFC 8785 meaning (there is none in this file: it has no escapes and no
   * number exponents, which {@code ByteFlipTest} in rea-core covers with every bit of every byte).
   */
  @Test
  void flippingAnyByteOfTheEvidenceFileMakesInspectAnalysisViewRefuseIt() throws Exception {
    Path model = GgufTesting.inspectBytes(dir, "m.gguf", GgufBuilder.v3()
        .kv("general.architecture", GgufBuilder.str("llama"))
        .kv("llama.context_length", GgufBuilder.u32(4096))
        .tensor("token_embd.weight", 0, 4, 2)
        .tensor("blk.0.attn_q.weight", 16, 32, 2)
        .build().bytes()).artifact().path().transform(Path::of);
    Path ev = dir.resolve("small-evidence.json");
    String view = "{\"kind\":\"model-artifact\",\"collection\":\"tensors\"}";
    CliRunner.Result written = CliRunner.run("inspect-model-artifact", model.toString(), "--detail", "summary",
        "--evidence_output", ev.toString(), "--view", view.replace("\"kind\":\"model-artifact\",", ""), "--json");
    assertThat(written.status()).isEqualTo(0);
    byte[] original = Files.readAllBytes(ev);
    CliRunner.Result untouched = CliRunner.run("inspect-analysis-view", "--source", ev.toString(), "--view", view, "--json");
    assertThat(untouched.status()).isEqualTo(0);
    assertThat(untouched.json()).isEqualTo(written.json().get("page"));
    assertThat(new String(original, StandardCharsets.UTF_8)).doesNotContain("\\u").doesNotContain("E-");

    Path flipped = dir.resolve("flipped.json");
    int refused = 0;
    for (int i = 0; i < original.length; i++) {
      byte[] m = original.clone();
      m[i] ^= (byte) (1 << (i % 8));
      Files.write(flipped, m);
      CliRunner.Result r = CliRunner.run("inspect-analysis-view", "--source", flipped.toString(), "--view", view, "--json");
      assertThat(r.status()).as("byte %d: %s", i, r.out()).isEqualTo(2);
      assertThat(r.json().get("error").get("constraint").asString()).as("byte %d", i).isEqualTo("evidence_rejected");
      refused++;
    }
    assertThat(refused).isEqualTo(original.length);
    System.out.printf("inspect-analysis-view refused all %d single-byte flips of %s%n", refused, ev.getFileName());
  }

  @Test
  void loaderSeesTheSameRecordTheCliWrote() throws Exception {
    Path ev = dir.resolve("ev.json");
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", tinyLlama().toString(), "--json",
        "--evidence_output", ev.toString());
    assertThat(r.status()).isEqualTo(0);
    // stdout and the file hold the same signed bundle.
    assertThat(r.out().trim()).isEqualTo(Files.readString(ev));
    EvidenceLoader.Loaded loaded = new EvidenceLoader(EvidenceVerifier.standard(KeyRing.open(CliRunner.HOME)))
        .loadFile(ev);
    assertThat(loaded.records()).hasSize(1);
    assertThat(loaded.records().get(0).record().tensors()).hasSize(12);
  }
}
