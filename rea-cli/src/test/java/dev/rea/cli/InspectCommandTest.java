package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.format.gguf.GgufTesting;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code rea inspect-model-artifact} end to end, in-process: exit statuses of CONTRACT section
 * 1, the bundle and error JSON of sections 5 and 6, and the readable report.
 */
class InspectCommandTest {
  @TempDir Path dir;

  private Path tinyLlama() {
    return GgufTesting.resourceFile(dir, "real/ollama_ollama-llama-2-tiny-random.gguf.gz");
  }

  @Test
  void readableReportShowsFactsTypesTensorsAndCoverage() {
    Path p = tinyLlama();
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", p.toString());
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.err()).isEmpty();
    assertThat(r.out())
        .contains("Evidence for " + p)
        .contains("GGUF v3, little-endian, alignment 32 bytes (default)")
        .contains("1,750,560 bytes")
        .contains("724,398 bytes")
        .contains("starts at byte 724,416")
        .contains("general.architecture")
        .contains("\"llama\"")
        .contains("ARRAY<STRING>[32000]")
        .contains(" of 32,000 shown)")
        .contains("Types (2)")
        .contains("Tensors (12)")
        .contains("token_embd.weight")
        .contains("[8, 32000]")
        .contains("513,048 parameters")
        .contains("Limitations (0)\n  none\n")
        // An empty section is shown as empty, as Limitations is (the summary says "none" too).
        .contains("Warnings (0)\n  none\n")
        .contains("digest none");
  }

  private static GgufBuilder llama() {
    return GgufBuilder.v3().kv("general.architecture", GgufBuilder.str("llama"));
  }

  /** Writes the model as {@code file} in the test folder, reports it and checks exit status 0. */
  private String report(String file, GgufBuilder model) throws java.io.IOException {
    Path p = dir.resolve(file);
    Files.write(p, model.bytes());
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", p.toString());
    assertThat(r.status()).as(r.err()).isZero();
    return r.out();
  }

  /**
   * Negative zero reads as Java spells floats ({@code -0.0} beside {@code 0.0}) in the report and
   * in a page; the JSON keeps RFC 8785's {@code "-0"}, and a page's numbers are not quoted as
   * text while a STRING value is.
   */
  @Test
  void negativeZeroAndLargeIntegersReadAsNumbers() throws Exception {
    // GGUF value type 6 is FLOAT32.
    GgufBuilder model =
        llama()
            .kv("x.neg", GgufBuilder.f32(-0.0f))
            .kv("x.pos", GgufBuilder.f32(0.0f))
            .kv("x.big", GgufBuilder.u64(-1L))
            .kv("x.arr", GgufBuilder.array(6, GgufBuilder.f32(0.0f), GgufBuilder.f32(-0.0f)))
            .kv("x.name", GgufBuilder.str("7"))
            .tensor("w", 0, 4);
    assertThat(report("zero.gguf", model))
        .containsPattern("x\\.neg +FLOAT32 +-0\\.0\n")
        .containsPattern("x\\.pos +FLOAT32 +0\\.0\n")
        .containsPattern("x\\.arr +ARRAY<FLOAT32>\\[2\\] +\\[0\\.0, -0\\.0\\]\n");
    Path p = dir.resolve("zero.gguf");
    CliRunner.Result json = CliRunner.run("inspect-model-artifact", p.toString(), "--json");
    assertThat(json.out()).contains("\"-0\"");
    CliRunner.Result page =
        CliRunner.run("inspect-model-artifact", p.toString(), "--detail", "summary",
            "--evidence_output", dir.resolve("zero.json").toString(), "--view",
            "{\"collection\":\"metadata\",\"fields\":[\"key\",\"type\",\"value\",\"preview\"]}");
    assertThat(page.status()).as(page.err()).isZero();
    assertThat(page.out())
        .containsPattern("x\\.neg +FLOAT32 +-0\\.0\n")
        .containsPattern("x\\.big +UINT64 +18446744073709551615\n")
        .containsPattern("x\\.arr +ARRAY +\\[0\\.0, -0\\.0\\]\n")
        .containsPattern("x\\.name +STRING +\"7\"\n");
  }

  @Test
  void anArrayOfArraysIsLabelledOnlyByWhatEveryInnerArrayShares() throws Exception {
    // GGUF value types: 5 INT32, 7 BOOL, 8 STRING, 9 ARRAY.
    String out =
        report(
            "nested.gguf",
            llama()
                .kv("test.alike", GgufBuilder.array(9,
                    GgufBuilder.array(5, GgufBuilder.i32(1), GgufBuilder.i32(2)),
                    GgufBuilder.array(5, GgufBuilder.i32(3), GgufBuilder.i32(4))))
                .kv("test.counts", GgufBuilder.array(9,
                    GgufBuilder.array(5, GgufBuilder.i32(1), GgufBuilder.i32(2)),
                    GgufBuilder.array(5, GgufBuilder.i32(3))))
                .kv("test.mixed", GgufBuilder.array(9,
                    GgufBuilder.array(5, GgufBuilder.i32(1), GgufBuilder.i32(2)),
                    GgufBuilder.array(8, GgufBuilder.str("a")),
                    GgufBuilder.array(7)))
                .tensor("w", 0, 4));
    assertThat(out)
        .containsPattern("test\\.alike +ARRAY<ARRAY<INT32>\\[2\\]>\\[2\\] +\\[\\[1, 2\\], \\[3, 4\\]\\]")
        .containsPattern("test\\.counts +ARRAY<ARRAY<INT32>>\\[2\\] +\\[\\[1, 2\\], \\[3\\]\\]")
        .containsPattern("test\\.mixed +ARRAY<ARRAY>\\[3\\] +\\[\\[1, 2\\], \\[\"a\"\\], \\[\\]\\]");
  }

  /**
   * Hang guard, not a speed goal: 32 nested arrays of one element each took 2^32 label calls
   * (minutes of CPU for a 400-byte file) when every level asked for its inner label twice.
   */
  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void thirtyTwoNestedArraysAreLabelledOnceEach() throws Exception {
    GgufBuilder.Value v = GgufBuilder.array(5, GgufBuilder.i32(7));
    String label = "ARRAY<INT32>[1]";
    for (int level = 2; level <= 32; level++) {
      v = GgufBuilder.array(9, v);
      label = "ARRAY<" + label + ">[1]";
    }
    String out = report("nested-32.gguf", llama().kv("test.deep", v).tensor("w", 0, 4));
    assertThat(out).containsPattern("test\\.deep +" + Pattern.quote(label) + " +\\[\\[\\[\\[");
  }

  @Test
  void warningsAreCountedAtTheTopNotOnlyAfterTheTables() throws Exception {
    // Type ID 31 (Q4_0_4_4) is removed upstream: a removed_type warning.
    String out = report("removed.gguf", llama().tensor("r", 31, 32).tensor("w", 0, 4));
    String top = out.substring(0, out.indexOf("Metadata ("));
    assertThat(top).containsPattern("(?m)^  warnings +1 \\(removed_type\\): see Warnings below$");
    assertThat(out).contains("Warnings (1)");
    CliRunner.Result clean = CliRunner.run("inspect-model-artifact", tinyLlama().toString());
    assertThat(clean.out()).contains("Warnings (0)").doesNotContainPattern("(?m)^  warnings ");
  }

  @Test
  void aCutTensorNameIsSaidToBeCut() throws Exception {
    String longName = "n".repeat(64);
    String out = report("long-name.gguf", llama().tensor(longName, 0, 4));
    assertThat(out).doesNotContain(longName).contains("(names are cut at 48 columns: --json gives them whole)");
    assertThat(report("short-name.gguf", llama().tensor("w", 0, 4))).doesNotContain("names are cut");
  }

  @Test
  void theTypesTableHasAnIdColumnForGgufOnly() throws Exception {
    // Safetensors dtypes have no numeric ID: no column that is always empty.
    Path st = dir.resolve("m.safetensors");
    java.nio.file.Files.write(
        st,
        dev.rea.core.internal.format.safetensors.SafetensorsBuilder.builder()
            .tensor("a", "F32", 2, 3)
            .tensor("b", "BF16", 4)
            .build());
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", st.toString());
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out())
        .containsPattern("(?m)^  TYPE +TENSORS +PARAMETERS +BYTES$")
        .containsPattern("(?m)^  BF16 +1 +4 +8$")
        .containsPattern("(?m)^  F32 +1 +6 +24$")
        .doesNotContainPattern("(?m)^  TYPE +ID ");
    CliRunner.Result gguf = CliRunner.run("inspect-model-artifact", tinyLlama().toString());
    assertThat(gguf.out()).containsPattern("(?m)^  TYPE +ID +TENSORS +PARAMETERS +BYTES$");
  }

  @Test
  void longTensorTablesAreTruncatedWithACount() {
    CliRunner.Result r =
        CliRunner.run("inspect-model-artifact", tinyLlama().toString(), "--max_tensor_rows", "5");
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.out()).contains("... 7 more tensors not shown").doesNotContain("output_norm.weight");
    CliRunner.Result one =
        CliRunner.run("inspect-model-artifact", tinyLlama().toString(), "--max_tensor_rows", "11");
    assertThat(one.out()).contains("... 1 more tensor not shown (");
    // No rows: no column headings over nothing, only the count.
    CliRunner.Result none =
        CliRunner.run("inspect-model-artifact", tinyLlama().toString(), "--max_tensor_rows", "0");
    assertThat(none.out())
        .contains("Tensors (12)\n  ... 12 more tensors not shown (")
        .doesNotContainPattern("(?m)^  # +NAME");
  }

  @Test
  void jsonIsABundleHoldingOneCompleteRecordWithItsEvidenceId() {
    Path p = tinyLlama();
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", p.toString(), "--json");
    assertThat(r.status()).isEqualTo(0);
    JsonNode bundle = r.json();
    assertThat(bundle.get("schema").asString()).isEqualTo("rea.bundle.v1");
    assertThat(bundle.get("records").size()).isEqualTo(1);
    JsonNode rec = bundle.get("records").get(0);
    assertThat(rec.get("schema").asString()).isEqualTo("rea.evidence.v1");
    assertThat(rec.get("status").asString()).isEqualTo("complete");
    assertThat(rec.get("request").get("hash").asString()).isEqualTo("header");
    assertThat(rec.get("subject").isNull()).isTrue();
    JsonNode art = rec.get("artifact");
    assertThat(art.get("path").asString()).isEqualTo(p.toString());
    assertThat(art.get("format").asString()).isEqualTo("gguf");
    assertThat(art.get("file_size").isString()).isTrue();
    assertThat(art.get("file_size").asString()).isEqualTo("1750560");
    assertThat(art.get("header_length").asString()).isEqualTo("724398");
    assertThat(art.get("sha256").isNull()).isTrue();
    assertThat(art.get("read_scope").asString()).isEqualTo("header");
    JsonNode facts = rec.get("format_facts");
    assertThat(facts.get("version").isInt()).isTrue();
    assertThat(facts.get("version").asInt()).isEqualTo(3);
    assertThat(facts.get("alignment").asInt()).isEqualTo(32);
    assertThat(facts.get("tensor_data_offset").asString()).isEqualTo("724416");
    assertThat(rec.get("metadata").size()).isEqualTo(18);
    assertThat(rec.get("tensors").size()).isEqualTo(12);
    JsonNode t0 = rec.get("tensors").get(0);
    assertThat(t0.get("index").asInt()).isEqualTo(0);
    assertThat(t0.get("name").asString()).isEqualTo("token_embd.weight");
    assertThat(t0.get("type").asString()).isEqualTo("F16");
    assertThat(t0.get("type_id").asInt()).isEqualTo(1);
    assertThat(t0.get("shape").get(0).asString()).isEqualTo("8");
    assertThat(t0.get("shape").get(1).asString()).isEqualTo("32000");
    assertThat(t0.get("byte_length").asString()).isEqualTo("512000");
    assertThat(t0.get("file_offset").asString()).isEqualTo("724416");
    assertThat(rec.get("totals").get("parameter_count").asString()).isEqualTo("513048");
    // The evidence ID is the digest of the RFC 8785 form of the record without id/authentication.
    String id = rec.get("evidence_id").asString();
    ((tools.jackson.databind.node.ObjectNode) rec).remove("evidence_id");
    ((tools.jackson.databind.node.ObjectNode) rec).remove("authentication");
    // Computed by the RFC's reference implementation, independent of REA's own writer.
    byte[] canonical =
        dev.rea.core.testing.Rfc8785Oracle.canonicalize(CliRunner.JSON.writeValueAsBytes(rec));
    assertThat(id).isEqualTo(EvidenceIds.idOfCanonical(canonical));
  }

  @Test
  void missingFileIsTargetUnavailableWithTheJsonErrorObject() {
    Path p = dir.resolve("absent.gguf");
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", p.toString(), "--json");
    assertThat(r.status()).isEqualTo(3);
    JsonNode e = r.json().get("error");
    assertThat(e.get("code").asString()).isEqualTo("target_unavailable");
    assertThat(e.get("category").asString()).isEqualTo("missing_target");
    assertThat(e.get("constraint").asString()).isEqualTo("not_found");
    assertThat(e.get("details").get("path").asString()).isEqualTo(p.toString());
    assertThat(r.json().has("partial_evidence")).isFalse();
  }

  @Test
  void rejectedFileNamesFieldAndOffsetInTextAndJson() {
    Path p =
        GgufTesting.resourceFile(dir, "real/ThreatFlux_gguf-test_model.gguf.gz");
    CliRunner.Result text = CliRunner.run("inspect-model-artifact", p.toString());
    assertThat(text.status()).isEqualTo(3);
    assertThat(text.out()).isEmpty();
    assertThat(text.err()).contains("file_format_rejected").contains("field:").contains("offset:");
    CliRunner.Result json = CliRunner.run("inspect-model-artifact", p.toString(), "--json");
    assertThat(json.status()).isEqualTo(3);
    JsonNode e = json.json().get("error");
    assertThat(e.get("constraint").asString()).isEqualTo("file_format_rejected");
    assertThat(e.get("category").asString()).isEqualTo("unsupported_target");
    assertThat(e.get("details").get("field").asString()).startsWith("tensor[");
    assertThat(e.get("details").get("offset").isString()).isTrue();
  }

  @Test
  void pytorchZipIsUnsupportedFormatWithAHint() throws Exception {
    Path p = dir.resolve("model.safetensors");
    Files.write(p, new byte[] {'P', 'K', 3, 4, 20, 0, 0, 0, 8, 0});
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", p.toString(), "--json");
    assertThat(r.status()).isEqualTo(3);
    JsonNode e = r.json().get("error");
    assertThat(e.get("constraint").asString()).isEqualTo("unsupported_format");
    assertThat(e.get("message").asString()).contains("ZIP").contains("PyTorch");
    assertThat(e.get("details").get("diagnostics").get("detected").asString()).isEqualTo("zip");
  }

  @Test
  void badOptionsAreInvalidInputWithExitTwo() {
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", "x.gguf", "--hash", "most", "--json");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.json().get("error").get("code").asString()).isEqualTo("invalid_input");
    assertThat(r.json().get("error").get("details").get("field").asString()).isEqualTo("--hash");
    CliRunner.Result unknown = CliRunner.run("inspect-model-artifact", "x.gguf", "--frobnicate");
    assertThat(unknown.status()).isEqualTo(2);
    assertThat(unknown.err()).contains("--frobnicate");
  }

  @Test
  void relativePathsAreResolvedAgainstTheWorkingDirectoryAndRecordedAbsolute() throws Exception {
    Path cwd = Path.of("").toAbsolutePath();
    Path p = Files.createTempFile(cwd.resolve("target"), "rel-", ".gguf");
    try {
      Files.write(p, GgufTesting.resource("real/ollama_ollama-test.gguf"));
      String rel = cwd.relativize(p).toString();
      CliRunner.Result r = CliRunner.run("inspect-model-artifact", rel, "--json");
      assertThat(r.status()).isEqualTo(3);
      assertThat(r.json().get("error").get("details").get("path").asString())
          .isEqualTo(cwd.resolve(rel).toString());
    } finally {
      Files.deleteIfExists(p);
    }
  }

  @Test
  void helpDescribesEveryOption() {
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", "--help");
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.out()).contains("--json").contains("--hash").contains("PATH").contains("Exit status");
  }

  /**
   * Issue 2: {@code --hash full --json} on a file larger than 2 GiB (sparse) gives the digest
   * {@code sha256sum} gives, and {@code header_sha256} is the SHA-256 of the first {@code
   * header_length} bytes.
   */
  @Test
  void fullHashOfASparseFileLargerThanTwoGibMatchesSha256sum() throws Exception {
    long elements = (1L << 29) + 64; // F32: 2 GiB + 256 bytes of tensor data
    Path p = dir.resolve("sparse.gguf");
    GgufBuilder.Built built = dev.rea.core.testing.HostileFiles.sparseF32Gguf(p, "big.weight", elements);
    long size = built.dataOffset() + elements * 4;
    assertThat(Files.size(p)).isGreaterThan(1L << 31);
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", p.toString(), "--hash", "full", "--json");
    assertThat(r.status()).isEqualTo(0);
    JsonNode rec = r.json().get("records").get(0);
    String expected = Sha256sum.of(p);
    assertThat(rec.get("artifact").get("sha256").asString()).isEqualTo(expected);
    assertThat(rec.get("subject").get("sha256").asString()).isEqualTo(expected);
    assertThat(rec.get("artifact").get("file_size").asString()).isEqualTo(Long.toString(size));
    assertThat(rec.get("artifact").get("bytes_read").asString()).isEqualTo(Long.toString(size));
    long headerLength = Long.parseLong(rec.get("artifact").get("header_length").asString());
    assertThat(headerLength).isEqualTo(built.headerLength());
    assertThat(rec.get("artifact").get("header_sha256").asString())
        .isEqualTo(EvidenceIds.sha256Hex(Arrays.copyOf(built.bytes(), (int) headerLength)));
    assertThat(rec.get("tensors").get(0).get("byte_length").asString())
        .isEqualTo(Long.toString(elements * 4));
  }
}
