package dev.rea.core.internal.format.safetensors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ErrorCategory;
import dev.rea.core.error.ErrorCode;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Coverage;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fifteen real files of {@code ../shared/corpus/safetensors/} (facts from its {@code
 * SOURCES.md}, cross-checked against the official reader there): fourteen accepted with exact
 * tensor counts, dtype counts, parameter counts, metadata, header lengths, data bytes and SHA-256,
 * and the abuse file rejected. Every file goes through {@link ModelInspector} with a full hash.
 * The seven committed copies under {@code src/test/resources/safetensors/} run always; the
 * shared corpus runs when present and prints {@link SafetensorsCorpus#skipped} otherwise.
 */
class SafetensorsCorpusTest {

  /** What one accepted file declares. */
  record Expected(
      String file,
      long jsonLength,
      long fileSize,
      String sha256,
      int tensors,
      Map<String, int[]> dtypes, // label -> {tensor count, parameter count}
      long parameters,
      Map<String, String> metadata, // null when __metadata__ is absent
      long dataBytes) {
    @Override
    public String toString() {
      return file;
    }
  }

  private static Map<String, int[]> dtypes(Object... labelCountParams) {
    Map<String, int[]> m = new LinkedHashMap<>();
    for (int i = 0; i < labelCountParams.length; i += 3) {
      m.put(
          (String) labelCountParams[i],
          new int[] {(Integer) labelCountParams[i + 1], (Integer) labelCountParams[i + 2]});
    }
    return m;
  }

  private static Map<String, int[]> each(int count, int params, String... labels) {
    Map<String, int[]> m = new LinkedHashMap<>();
    for (String l : labels) {
      m.put(l, new int[] {count, params});
    }
    return m;
  }

  private static final String[] FLUX12 = {
    "BF16", "BOOL", "F16", "F32", "F64", "F8_E4M3", "F8_E5M2", "I16", "I32", "I64", "I8", "U8"
  };
  private static final String[] FLUX9 = {
    "BOOL", "F16", "F32", "F64", "I16", "I32", "I64", "I8", "U8"
  };

  static final List<Expected> ACCEPTED =
      List.of(
          new Expected(
              "FluxML_SafeTensors.jl_test_non_sharded_model.safetensors",
              2528,
              6841,
              "efc377724e5d7f424e73cd6a64a6d9c9808945cfb95992cb692b012a82724374",
              36,
              each(3, 123, FLUX12),
              1476,
              null,
              4305),
          new Expected(
              "FluxML_SafeTensors.jl_test_non_sharded_model.with_metadata.safetensors",
              2576,
              6889,
              "a1e35851164f0f45011b677f0b8dc0be3f3fe7f842c538d7139bc801d6a52971",
              36,
              each(3, 123, FLUX12),
              1476,
              Map.of("test", "metadata", "version", "2.2"),
              4305),
          new Expected(
              "FluxML_SafeTensors.jl_test_non_sharded_model.numpy.safetensors",
              1840,
              5661,
              "f20154d5d1657697f814461358cf0812ba96e9907880b3379128ebebaf4c15cc",
              27,
              each(3, 123, FLUX9),
              1107,
              null,
              3813),
          new Expected(
              "FluxML_SafeTensors.jl_test_sharded_model-00001-of-00006.safetensors",
              1272,
              2048,
              "85770d682b1580553b5ad7d0954d33a162cbe70a10b8ad6f719e5c304fac2d13",
              19,
              dtypes(
                  "BOOL", 2, 18, "F16", 3, 123, "F32", 2, 18, "F64", 2, 18, "I16", 2, 18, "I32", 2,
                  18, "I64", 2, 18, "I8", 2, 18, "U8", 2, 18),
              267,
              Map.of("format", "pt"),
              768),
          new Expected(
              "FluxML_SafeTensors.jl_test_sharded_model-00005-of-00006.safetensors",
              544,
              1464,
              "5eaa9d263a402862107335e7606f224c9fe3a66124452ee879248575be3f7f0c",
              7,
              dtypes("BF16", 2, 18, "F8_E4M3", 2, 18, "F8_E5M2", 2, 18, "I64", 1, 105),
              159,
              Map.of("format", "pt"),
              912),
          new Expected(
              "syoyo_safetensors-cpp_gen_model.safetensors",
              136,
              2704,
              "083bae3fbb2b56b8f529cfbd998e2b41cc6d05d36476ad99c70e8325c1cc4c5f",
              2,
              dtypes("F64", 2, 320),
              320,
              null,
              2560),
          new Expected(
              "tmanabe_safetensors-java_sample.safetensors",
              136,
              192,
              "0f7f7fb4f0e07b3717c1c6b89e02d6e724e1faaf7b81e186a007decd89118675",
              2,
              dtypes("F32", 1, 4, "I64", 1, 4),
              8,
              null,
              48),
          new Expected(
              "jkrukowski_swift-safetensors_data.safetensors",
              60,
              84,
              "5860a1db541437c971bd2dde08494ecd24c70a0a6d5c2a81076cddbde9e4c503",
              1,
              dtypes("I32", 1, 4),
              4,
              null,
              16),
          new Expected(
              "mlverse_safetensors_hello.safetensors",
              128,
              736,
              "9b5306a5f92e1b7183454e82cf8aa5c3963b2fd872ad9e96076323d1c42b73d0",
              2,
              dtypes("F32", 2, 150),
              150,
              null,
              600),
          new Expected(
              "huggingface_candle_csm_voices.safetensors",
              144,
              291806,
              "a00ce33c297681eaa7b382cade3813e150807473c9b4a3710a3ce4343b823463",
              2,
              dtypes("I64", 1, 32406, "U8", 1, 32406),
              64812,
              null,
              291654),
          new Expected(
              "huggingface_candle_encodec_jfk-codes.safetensors",
              72,
              13328,
              "858546558211e073f8389ce674c89422fd30b675f406e82eac395e577e8d3480",
              1,
              dtypes("I64", 1, 1656),
              1656,
              null,
              13248),
          new Expected(
              "foundation-model-stack_fastsafetensors_examples_a.safetensors",
              96,
              360,
              "ae1f29ee64d60a7ae400d79a2a83858d502b4a009b99155df3945ca9de7e2d15",
              1,
              dtypes("F16", 1, 128),
              128,
              Map.of("fst", "sample"),
              256),
          new Expected(
              "CoffeeVampir3_Model-Saving-Test-Repo_model.safetensors",
              320,
              2048,
              "810df85aba0cd4e8f5666f626bf43f17168de90d57be9491ba0574c2ba5df943",
              4,
              dtypes("F32", 4, 430),
              430,
              Map.of("version", "1.0", "git_tag", "v1.45"),
              1720),
          new Expected(
              "AliBayatMokhtari_mnist-tinygrad_model.safetensors",
              152,
              406688,
              "d8b0a00d4d2f36bedae34eda7afd0f061d9f102f0e978e98d34901c32d8aa6c6",
              2,
              dtypes("F32", 2, 101632),
              101632,
              null,
              406528));

  static final String ABUSE = "syoyo_safetensors-cpp_test_safetensors_abuse_attempt_1.safetensors";

  static Stream<Expected> accepted() {
    return ACCEPTED.stream();
  }

  static Stream<Expected> committedAccepted() {
    return ACCEPTED.stream().filter(e -> SafetensorsCorpus.committed(e.file()).isPresent());
  }

  private static Path shared(String name) {
    return sharedDirectory(name).resolve(name);
  }

  private static Path sharedDirectory(String what) {
    Optional<Path> dir = SafetensorsCorpus.sharedDirectory();
    if (dir.isEmpty()) {
      System.out.println(SafetensorsCorpus.skipped() + " (" + what + ")");
    }
    assumeTrue(dir.isPresent(), SafetensorsCorpus.skipped());
    return dir.get();
  }

  @ParameterizedTest(name = "shared corpus: {0}")
  @MethodSource("accepted")
  void sharedCorpusFileIsAccepted(Expected e) throws Exception {
    check(shared(e.file()), e);
  }

  @Test
  void sharedCorpusAbuseFileIsRejected() throws Exception {
    checkAbuse(shared(ABUSE));
  }

  @Test
  void sharedCorpusHoldsExactlyTheFifteenFiles() throws IOException {
    Path dir = sharedDirectory("directory listing");
    try (Stream<Path> s = Files.list(dir)) {
      List<String> names =
          s.map(p -> p.getFileName().toString())
              .filter(n -> n.endsWith(".safetensors"))
              .sorted()
              .collect(Collectors.toList());
      List<String> expected =
          Stream.concat(ACCEPTED.stream().map(Expected::file), Stream.of(ABUSE))
              .sorted()
              .collect(Collectors.toList());
      assertThat(names).containsExactlyElementsOf(expected);
    }
  }

  @ParameterizedTest(name = "committed: {0}")
  @MethodSource("committedAccepted")
  void committedFileIsAccepted(Expected e) throws Exception {
    check(SafetensorsCorpus.committed(e.file()).orElseThrow(), e);
  }

  @Test
  void committedSubsetIsPresent() {
    assertThat(committedAccepted().count()).isEqualTo(6);
    assertThat(SafetensorsCorpus.committed(ABUSE)).isPresent();
  }

  @Test
  void committedAbuseFileIsRejected() throws Exception {
    checkAbuse(SafetensorsCorpus.committed(ABUSE).orElseThrow());
  }

  private static void checkAbuse(Path path) {
    Inspection result =
        ModelInspector.standard()
            .run(path, HashMode.FULL, new ModelInspector.Listener() {}, Cancellation.none());
    assertThat(result.partialEvidence()).isEmpty();
    assertThat(result.failure())
        .hasValueSatisfying(
            ex -> {
              assertThat(ex.constraint()).isEqualTo(Constraint.FILE_FORMAT_REJECTED);
              assertThat(ex.code()).isEqualTo(ErrorCode.TARGET_UNAVAILABLE);
              assertThat(ex.category()).isEqualTo(ErrorCategory.UNSUPPORTED_TARGET);
              assertThat(ex.field()).isEqualTo("json_length");
              assertThat(ex.offset()).isZero();
              assertThat(ex.diagnostics()).containsEntry("json_length", "1000");
              assertThat(ex.diagnostics()).containsEntry("bytes_left", "80");
              assertThat(ex.path()).isEqualTo(path.toString());
            });
  }

  private static void check(Path path, Expected e) throws Exception {
    byte[] bytes = Files.readAllBytes(path);
    assertThat(bytes.length).as("file size").isEqualTo(e.fileSize());
    EvidenceRecord r = ModelInspector.standard().inspect(path.toAbsolutePath(), HashMode.FULL);
    long header = 8 + e.jsonLength();

    assertThat(r.status()).isEqualTo(EvidenceRecord.STATUS_COMPLETE);
    assertThat(r.artifact().format()).isEqualTo("safetensors");
    assertThat(r.artifact().fileSize()).isEqualTo(e.fileSize());
    assertThat(r.artifact().headerLength()).isEqualTo(header);
    assertThat(r.artifact().sha256()).isEqualTo(e.sha256());
    assertThat(r.artifact().headerSha256()).isEqualTo(sha256(Arrays.copyOf(bytes, (int) header)));
    assertThat(r.formatFacts()).isEqualTo(new FormatFacts.Safetensors(e.jsonLength(), header));
    assertThat(r.coverage())
        .isEqualTo(
            new Coverage(
                Coverage.COMPLETE,
                Coverage.COMPLETE,
                Coverage.COMPLETE,
                Coverage.COMPLETE,
                Coverage.VERIFIED));
    assertThat(r.limitations()).isEmpty();

    // Tensors: count, name order (code points), offsets, storage.
    List<TensorRow> t = r.tensors();
    assertThat(t).hasSize(e.tensors());
    long covered = 0;
    for (int i = 0; i < t.size(); i++) {
      TensorRow row = t.get(i);
      assertThat(row.index()).isEqualTo(i);
      if (i > 0) {
        assertThat(compareCodePoints(t.get(i - 1).name(), row.name())).as("name order").isNegative();
      }
      assertThat(row.typeId()).isNull();
      assertThat(row.fileOffset()).isEqualTo(header + row.offset());
      assertThat(row.storageValidation()).isEqualTo(StorageValidation.CONSISTENT);
      long product = 1;
      for (long d : row.shape()) {
        product *= d;
      }
      assertThat(row.parameterCount()).isEqualTo(product);
      covered += row.byteLength();
    }
    assertThat(covered).as("ranges cover the byte buffer").isEqualTo(e.dataBytes());
    assertThat(e.fileSize()).isEqualTo(header + e.dataBytes());

    // Types: exact labels, tensor counts and parameter counts.
    Map<String, int[]> got = new LinkedHashMap<>();
    for (TypeRow tr : r.types()) {
      assertThat(tr.typeId()).isNull();
      got.put(tr.type(), new int[] {tr.tensorCount(), tr.parameterCount().intValueExact()});
    }
    assertThat(got.keySet()).containsExactlyInAnyOrderElementsOf(e.dtypes().keySet());
    for (Map.Entry<String, int[]> x : e.dtypes().entrySet()) {
      assertThat(got.get(x.getKey())).as(x.getKey()).containsExactly(x.getValue());
    }
    assertThat(r.totals().tensorCount()).isEqualTo(e.tensors());
    assertThat(r.totals().parameterCount()).isEqualTo(BigInteger.valueOf(e.parameters()));
    assertThat(r.totals().byteLength()).isEqualTo(BigInteger.valueOf(e.dataBytes()));

    // Metadata: exact key/value pairs, in key order.
    List<MetadataRow> m = r.metadata();
    if (e.metadata() == null) {
      assertThat(m).isEmpty();
    } else {
      List<String> keys = e.metadata().keySet().stream().sorted().collect(Collectors.toList());
      assertThat(m).extracting(MetadataRow::key).containsExactlyElementsOf(keys);
      for (MetadataRow row : m) {
        assertThat(row.type()).isEqualTo(ValueType.STRING);
        assertThat(row.value())
            .isEqualTo(new MetadataValue.StringValue(e.metadata().get(row.key())));
      }
    }
  }

  private static int compareCodePoints(String a, String b) {
    return dev.rea.core.internal.evidence.Derivations.compareCodePoints(a, b);
  }

  private static String sha256(byte[] b) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
  }
}
