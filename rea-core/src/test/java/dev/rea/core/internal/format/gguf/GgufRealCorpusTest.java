package dev.rea.core.internal.format.gguf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.evidence.ValueType;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 2 "Must show" over real GGUF files: the committed subset ({@code src/test/resources/gguf/
 * real}, always) and every file of {@code ../shared/corpus/gguf/} (when present), each through
 * {@link dev.rea.core.internal.inspect.ModelInspector} so detection and the record are covered.
 */
class GgufRealCorpusTest {
  @TempDir Path tmp;

  /** Expected verdict of one real file. */
  private record Expect(
      String file,
      Constraint rejected,
      String field,
      long offset,
      String why,
      int version,
      int kv,
      int tensors) {
    static Expect accept(String file, int version, int kv, int tensors) {
      return new Expect(file, null, null, -1, null, version, kv, tensors);
    }

    static Expect reject(String file, Constraint c, String field, long offset, String why) {
      return new Expect(file, c, field, offset, why, 0, 0, 0);
    }
  }

  /**
   * Every file of {@code ../shared/corpus/gguf/} with the verdict a careful reader expects. KV
   * counts are the ones {@code ../shared/corpus/gguf/SOURCES.md} lists (read there with the C
   * reader and gguf-py).
   */
  private static final List<Expect> CORPUS =
      List.of(
          Expect.accept("ggml-vocab-baichuan.gguf", 3, 18, 0),
          Expect.accept("ggml-vocab-bert-bge.gguf", 3, 20, 0),
          Expect.accept("ggml-vocab-deepseek-coder.gguf", 3, 25, 0),
          Expect.accept("ggml-vocab-deepseek-llm.gguf", 3, 23, 0),
          Expect.accept("ggml-vocab-falcon.gguf", 3, 18, 0),
          Expect.accept("ggml-vocab-gpt-2.gguf", 3, 16, 0),
          Expect.accept("ggml-vocab-gpt-neox.gguf", 3, 17, 0),
          Expect.accept("ggml-vocab-llama-spm.gguf", 3, 22, 0),
          Expect.accept("ggml-vocab-mpt.gguf", 3, 17, 0),
          Expect.accept("ggml-vocab-phi-3.gguf", 3, 26, 0),
          Expect.accept("ggml-vocab-refact.gguf", 3, 18, 0),
          Expect.accept("ggml-vocab-starcoder.gguf", 3, 19, 0),
          Expect.accept("ggml-vocab-falcon.v2-ff5a3f0.gguf", 2, 17, 0),
          Expect.accept("ggml-vocab-llama.v3-2756c4f.gguf", 3, 17, 0),
          Expect.accept("ollama_ollama-llama-2-tiny-random.gguf", 3, 18, 12),
          // GGUF v1 (u32 counts): refused with the raw version bytes.
          Expect.reject(
              "ggml-vocab-llama.v1-6381d4e.gguf",
              Constraint.UNSUPPORTED_VERSION,
              "version",
              4,
              "01 00 00 00"),
          // 6 bytes: the magic and two of the four version bytes.
          Expect.reject(
              "ollama_ollama-test.gguf",
              Constraint.FILE_FORMAT_REJECTED,
              "version",
              4,
              "needs 4 bytes but the file has 2 bytes left"),
          // Three nonempty F32 tensors all at offset 0: tensor[1] is the first proven overlap.
          Expect.reject(
              "ThreatFlux_gguf-test_model.gguf",
              Constraint.FILE_FORMAT_REJECTED,
              "tensor[1].offset",
              353,
              "tensor[1] overlaps tensor[0]: both nonempty tensors start at offset 0"),
          // EF BF BD replaced bert.embedding_length's 80 byte; key 5's length now reads 1572864.
          Expect.reject(
              "uShure_llama-jni-bridge-CORRUPTED-ggml-vocab-bert-bge.gguf",
              Constraint.FILE_FORMAT_REJECTED,
              "metadata[5].key",
              212,
              "declares 1572864 bytes"));

  @Test
  void everyRealCorpusFileGetsItsVerdict() throws Exception {
    Path dir = GgufTesting.corpusOrSkip("gguf");
    Set<String> present;
    try (Stream<Path> s = Files.list(dir)) {
      present =
          s.map(p -> p.getFileName().toString())
              .filter(n -> n.endsWith(".gguf"))
              .collect(Collectors.toSet());
    }
    Set<String> listed = new HashSet<>();
    for (Expect e : CORPUS) {
      listed.add(e.file());
      check(e, dir.resolve(e.file()));
    }
    assertThat(listed).as("the table lists every corpus file").isEqualTo(present);
  }

  @Test
  void committedRealFilesGetTheirVerdicts() throws Exception {
    Map<String, String> committed =
        Map.of(
            "ollama_ollama-llama-2-tiny-random.gguf",
                "81f226c62d28ed4a1a9b9fa080fcd9f0cc40e0f9d5680036583ff98fbcd035cb",
            "ggml-vocab-llama-spm.gguf",
                "16c3724582d59aa8bf84711894e833f916ee46a31d80e21312759c48bf8d0e69",
            "ggml-vocab-falcon.v2-ff5a3f0.gguf",
                "ffbc7c119de7e9aab8f4257d617e3fa55f942a9f9ca84139ef3f5b1ca53836a8",
            "ggml-vocab-llama.v1-6381d4e.gguf",
                "5e7501fc284947aba7a9d9dc29b96378b24a831dcaed414724ada0eb321844c0",
            "ollama_ollama-test.gguf",
                "c52bcb4d83afb62ecfa85b9291a4f6e1fe5437f334815a29d7c7ab221dba1a31",
            "ThreatFlux_gguf-test_model.gguf",
                "da601a3d3915cb7497c30e66c0fa030689c921bc748602a7df8dad642dcc1fe5",
            "uShure_llama-jni-bridge-CORRUPTED-ggml-vocab-bert-bge.gguf",
                "f0667c03eff2016bc268ed2ac990098a8d9000de4d17b47e22b0c14a62ded596");
    for (Expect e : CORPUS) {
      String sha = committed.get(e.file());
      if (sha == null) {
        continue;
      }
      String resource = "real/" + e.file() + (e.file().equals("ollama_ollama-test.gguf") ? "" : ".gz");
      byte[] bytes = GgufTesting.resource(resource);
      assertThat(GgufTesting.sha256(bytes)).as(e.file() + " is the original").isEqualTo(sha);
      check(e, GgufTesting.write(tmp, e.file(), bytes));
    }
  }

  private static void check(Expect e, Path file) throws IOException {
    if (e.rejected() == null) {
      EvidenceRecord r;
      try {
        r = GgufTesting.inspect(file);
      } catch (ReaException x) {
        throw new AssertionError(e.file() + " was rejected: " + x.getMessage(), x);
      }
      FormatFacts.Gguf f = (FormatFacts.Gguf) r.formatFacts();
      assertThat(r.artifact().format()).isEqualTo("gguf");
      assertThat(f.version()).as(e.file() + " version").isEqualTo(e.version());
      assertThat(f.byteOrder()).isEqualTo("little");
      assertThat(r.metadata()).as(e.file() + " metadata rows").hasSize(e.kv());
      assertThat(r.tensors()).as(e.file() + " tensors").hasSize(e.tensors());
      if (e.tensors() == 0) {
        // Vocab files end at the directory: the data offset is the directory end (no padding).
        assertThat(f.tensorDataOffset()).isEqualTo(Files.size(file));
        assertThat(r.artifact().headerLength()).isEqualTo(Files.size(file));
      }
      for (MetadataRow m : r.metadata()) {
        if (m.value() instanceof MetadataValue.ArrayValue a) {
          assertThat(a.preview().size()).isLessThanOrEqualTo(8);
          assertThat(a.previewComplete())
              .isEqualTo(Long.compareUnsigned(a.count(), a.preview().size()) == 0);
        }
      }
    } else {
      ReaException x = catchThrowableOfType(() -> GgufTesting.inspect(file), ReaException.class);
      assertThat(x).as(e.file() + " must be rejected").isNotNull();
      assertThat(x.constraint()).as(e.file() + ": " + x.getMessage()).isEqualTo(e.rejected());
      assertThat(x.field()).as(e.file()).isEqualTo(e.field());
      assertThat(x.offset()).as(e.file()).isEqualTo(e.offset());
      assertThat(x.getMessage()).as(e.file()).contains(e.why());
      assertThat(x.path()).isEqualTo(file.toAbsolutePath().toString());
    }
  }

  @Test
  void llamaSpmVocabHasItsDeclarations() throws Exception {
    Path file = GgufTesting.resourceFile(tmp, "real/ggml-vocab-llama-spm.gguf.gz");
    EvidenceRecord r = GgufTesting.inspect(file);
    assertThat(r.metadata()).hasSize(22);
    assertThat(r.artifact().headerLength()).isEqualTo(723869);
    assertThat(r.artifact().headerSha256())
        .isEqualTo("16c3724582d59aa8bf84711894e833f916ee46a31d80e21312759c48bf8d0e69");
    assertThat(row(r, "general.architecture").value())
        .isEqualTo(new MetadataValue.StringValue("llama"));
    assertThat(row(r, "llama.context_length").type()).isEqualTo(ValueType.UINT32);
    assertThat(row(r, "llama.context_length").value())
        .isEqualTo(new MetadataValue.IntegerValue(4096));
    assertThat(row(r, "llama.attention.layer_norm_rms_epsilon").value())
        .isEqualTo(new MetadataValue.FloatValue(1e-5f));
    assertThat(row(r, "tokenizer.ggml.add_bos_token").value())
        .isEqualTo(new MetadataValue.BoolValue(true));

    MetadataRow tokens = row(r, "tokenizer.ggml.tokens");
    assertThat(tokens.index()).isEqualTo(14);
    MetadataValue.ArrayValue a = (MetadataValue.ArrayValue) tokens.value();
    assertThat(a.elementType()).isEqualTo(ValueType.STRING);
    assertThat(a.count()).isEqualTo(32000);
    assertThat(a.previewComplete()).isFalse();
    assertThat(a.preview())
        .containsExactly(
            str("<unk>"), str("<s>"), str("</s>"), str("<0x00>"), str("<0x01>"), str("<0x02>"),
            str("<0x03>"), str("<0x04>"));
    MetadataValue.ArrayValue types = (MetadataValue.ArrayValue) row(r, "tokenizer.ggml.token_type").value();
    assertThat(types.elementType()).isEqualTo(ValueType.INT32);
    assertThat(types.count()).isEqualTo(32000);
    assertThat(types.preview().get(0)).isEqualTo(new MetadataValue.IntegerValue(2));
    assertThat(r.tensors()).isEmpty();
    assertThat(r.totals().tensorCount()).isZero();
  }

  @Test
  void tinyLlamaHasItsTensors() throws Exception {
    Path file = GgufTesting.resourceFile(tmp, "real/ollama_ollama-llama-2-tiny-random.gguf.gz");
    EvidenceRecord r = GgufTesting.inspect(file);
    FormatFacts.Gguf f = (FormatFacts.Gguf) r.formatFacts();
    assertThat(r.artifact().headerLength()).isEqualTo(724398);
    assertThat(f.tensorDataOffset()).isEqualTo(724416);
    assertThat(f.alignment()).isEqualTo(32);
    assertThat(f.alignmentSource()).isEqualTo("default");
    assertThat(r.metadata()).hasSize(18);
    assertThat(r.tensors()).hasSize(12);
    TensorRow first = r.tensors().get(0);
    assertThat(first.name()).isEqualTo("token_embd.weight");
    assertThat(first.type()).isEqualTo("F16");
    assertThat(first.typeId()).isEqualTo(1L);
    assertThat(first.shape()).containsExactly(8L, 32000L);
    assertThat(first.parameterCount()).isEqualTo(256000);
    assertThat(first.offset()).isZero();
    assertThat(first.fileOffset()).isEqualTo(724416);
    assertThat(first.byteLength()).isEqualTo(512000L);
    assertThat(first.storageValidation()).isEqualTo(StorageValidation.CONSISTENT);
    TensorRow last = r.tensors().get(11);
    assertThat(last.name()).isEqualTo("output.weight");
    assertThat(last.offset()).isEqualTo(514144);
    // The last range ends exactly at the end of the file.
    assertThat(last.fileOffset() + last.byteLength()).isEqualTo(1750560);
    assertThat(r.types())
        .containsExactly(
            new TypeRow("F32", 0L, 3, BigInteger.valueOf(24), BigInteger.valueOf(96)),
            new TypeRow("F16", 1L, 9, BigInteger.valueOf(513024), BigInteger.valueOf(1026048)));
    assertThat(r.totals().parameterCount()).isEqualTo(BigInteger.valueOf(513048));
    assertThat(r.totals().byteLength()).isEqualTo(BigInteger.valueOf(1026144));
    assertThat(r.coverage().storageSizes()).isEqualTo("complete");
    assertThat(r.coverage().ranges()).isEqualTo("complete");
    assertThat(r.limitations()).isEmpty();
    assertThat(r.warnings()).isEmpty();
  }

  @Test
  void v1FileDiagnosticsCarryTheRawVersion() throws Exception {
    Path file = GgufTesting.resourceFile(tmp, "real/ggml-vocab-llama.v1-6381d4e.gguf.gz");
    ReaException x = catchThrowableOfType(() -> GgufTesting.inspect(file), ReaException.class);
    assertThat(x.constraint()).isEqualTo(Constraint.UNSUPPORTED_VERSION);
    assertThat(x.code().wireName()).isEqualTo("target_unavailable");
    assertThat(x.diagnostics())
        .containsEntry("version_bytes", "01000000")
        .containsEntry("version_uint32_le", 1L)
        .containsEntry("version_uint32_be", 16777216L)
        .containsEntry("byte_order", "unknown");
  }

  @Test
  void sixByteFileIsCutInsideTheVersion() throws Exception {
    Path file = GgufTesting.resourceFile(tmp, "real/ollama_ollama-test.gguf");
    assertThatThrownBy(() -> GgufTesting.inspect(file))
        .isInstanceOfSatisfying(
            ReaException.class,
            x -> {
              assertThat(x.constraint()).isEqualTo(Constraint.FILE_FORMAT_REJECTED);
              assertThat(x.field()).isEqualTo("version");
              assertThat(x.offset()).isEqualTo(4L);
            });
  }

  private static MetadataValue str(String s) {
    return new MetadataValue.StringValue(s);
  }

  private static MetadataRow row(EvidenceRecord r, String key) {
    return r.metadata().stream()
        .filter(m -> m.key().equals(key))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no key " + key));
  }
}
