package dev.rea.core.internal.format.safetensors;

import static dev.rea.core.internal.format.safetensors.SafetensorsBuilder.builder;
import static dev.rea.core.internal.format.safetensors.SafetensorsBuilder.file;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.error.Constraint;
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
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.Limits;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows, order, coverage and atomicity of safetensors inspection, end to end through {@link
 * ModelInspector} where detection and coverage matter.
 */
class SafetensorsInspectionTest {
  @TempDir Path dir;

  private EvidenceRecord inspect(byte[] bytes, HashMode mode) throws Exception {
    Path p = dir.resolve("m-" + System.nanoTime() + ".safetensors");
    Files.write(p, bytes);
    return ModelInspector.standard().inspect(p, mode);
  }

  private ReaException inspectFails(byte[] bytes, HashMode mode) throws Exception {
    Inspection.Failed f = failed(bytes, mode);
    assertThat(f.partial()).as("a rejected header leaves no partial Evidence").isNull();
    return f.error();
  }

  private Inspection.Failed failed(byte[] bytes, HashMode mode) throws Exception {
    Path p = dir.resolve("bad-" + System.nanoTime() + ".safetensors");
    Files.write(p, bytes);
    Inspection r =
        ModelInspector.standard().run(p, mode, new ModelInspector.Listener() {}, Cancellation.none());
    if (r instanceof Inspection.Failed f) {
      return f;
    }
    throw new AssertionError("accepted: " + r.orThrow().tensors().size());
  }

  @Test
  void namesAndKeysSortByCodePointNotUtf16() throws Exception {
    String bmpHigh = "\uFF61"; // U+FF61, UTF-16 unit 0xFF61
    String astral = "\uD83D\uDE00"; // U+1F600, UTF-16 units 0xD83D 0xDE00
    // UTF-16 order puts the astral character first; code-point order puts it last.
    assertThat(astral.compareTo(bmpHigh)).isNegative();
    byte[] f =
        builder()
            .tensor(astral, "U8", 1)
            .tensor("b", "U8", 1)
            .tensor(bmpHigh, "U8", 1)
            .tensor("a", "U8", 1)
            .metadata(astral, "1")
            .metadata(bmpHigh, "2")
            .metadata("z", "3")
            .build();
    EvidenceRecord r = inspect(f, HashMode.HEADER);
    assertThat(r.tensors()).extracting(TensorRow::name).containsExactly("a", "b", bmpHigh, astral);
    assertThat(r.tensors()).extracting(TensorRow::index).containsExactly(0, 1, 2, 3);
    assertThat(r.metadata()).extracting(MetadataRow::key).containsExactly("z", bmpHigh, astral);
    assertThat(r.metadata()).extracting(MetadataRow::index).containsExactly(0, 1, 2);
    assertThat(r.metadata().get(2).value()).isEqualTo(new MetadataValue.StringValue("1"));
    // Offsets follow the declarations, not the row order.
    assertThat(r.tensors().get(3).offset()).isZero();
    assertThat(r.tensors().get(0).offset()).isEqualTo(3);
  }

  @Test
  void rowsCarryOffsetsFileOffsetsAndFacts() throws Exception {
    SafetensorsBuilder.Builder b =
        builder().tensor("w", "F32", 2, 3).tensor("b", "BF16", 3).padTo8();
    byte[] f = b.build();
    long n = b.json().getBytes(StandardCharsets.UTF_8).length;
    assertThat(n % 8).isZero();
    EvidenceRecord r = inspect(f, HashMode.HEADER);
    assertThat(r.formatFacts()).isEqualTo(new FormatFacts.Safetensors(n, 8 + n));
    assertThat(r.artifact().headerLength()).isEqualTo(8 + n);
    TensorRow bias = r.tensors().get(0);
    TensorRow w = r.tensors().get(1);
    assertThat(w.offset()).isZero();
    assertThat(w.fileOffset()).isEqualTo(8 + n);
    assertThat(w.byteLength()).isEqualTo(24);
    assertThat(w.parameterCount()).isEqualTo(6);
    assertThat(bias.offset()).isEqualTo(24);
    assertThat(bias.fileOffset()).isEqualTo(8 + n + 24);
    assertThat(bias.byteLength()).isEqualTo(6);
    assertThat(r.types()).extracting(TypeRow::type).containsExactly("BF16", "F32");
    assertThat(r.totals().byteLength()).isEqualTo(BigInteger.valueOf(30));
    assertThat(r.totals().parameterCount()).isEqualTo(BigInteger.valueOf(9));
    assertThat(r.artifact().fileSize()).isEqualTo(8 + n + 30);
  }

  @Test
  void unknownDtypeKeepsItsRangeWithPartialStorageCoverage() throws Exception {
    byte[] f =
        builder()
            .tensorBytes("q", "F128", 32, 2)
            .tensor("x", "F16", 4)
            .tensorBytes("y", "f32", 4, 1)
            .tensorBytes("z", "F128", 16, 1)
            .build();
    EvidenceRecord r = inspect(f, HashMode.FULL);
    assertThat(r.tensors()).extracting(TensorRow::storageValidation)
        .containsExactly(
            StorageValidation.UNKNOWN,
            StorageValidation.CONSISTENT,
            StorageValidation.UNKNOWN,
            StorageValidation.UNKNOWN);
    // byte_length of an unknown dtype is its validated declared range.
    assertThat(r.tensors()).extracting(TensorRow::byteLength).containsExactly(32L, 8L, 4L, 16L);
    assertThat(r.coverage().storageSizes()).isEqualTo(Coverage.PARTIAL);
    assertThat(r.coverage().ranges()).isEqualTo(Coverage.COMPLETE);
    assertThat(r.coverage().header()).isEqualTo(Coverage.COMPLETE);
    assertThat(r.limitations()).hasSize(2);
    assertThat(r.limitations().get(0).code()).isEqualTo("unknown_dtype");
    assertThat(r.limitations().get(0).message())
        .contains("\"F128\"")
        .contains("; 2 tensors keep their declared data_offsets range")
        .contains("but their shapes cannot be checked");
    assertThat(r.limitations().get(0).tensorIndices()).containsExactly(0, 3);
    assertThat(r.limitations().get(1).message())
        .contains("\"f32\"")
        .contains("; 1 tensor keeps its declared data_offsets range")
        .contains("but its shape cannot be checked");
    assertThat(r.limitations().get(1).tensorIndices()).containsExactly(2);
    TypeRow f128 = r.types().stream().filter(t -> t.type().equals("F128")).findFirst().orElseThrow();
    assertThat(f128.tensorCount()).isEqualTo(2);
    assertThat(f128.byteLength()).isEqualTo(BigInteger.valueOf(48));
    assertThat(f128.parameterCount()).isEqualTo(BigInteger.valueOf(3));
    assertThat(r.totals().byteLength()).isEqualTo(BigInteger.valueOf(60));
    // The record serializes (names and labels as declared).
    String json = new String(EvidenceJson.recordBytes(r, true), StandardCharsets.UTF_8);
    assertThat(json).contains("\"storage_validation\":\"unknown\"").contains("\"F128\"");
  }

  @Test
  void emptyAndNulNamesAreKeptAndWritten() throws Exception {
    EvidenceRecord r = inspect(builder().tensor("", "U8", 1).tensor("\u0000x", "U8", 2).build(), HashMode.HEADER);
    assertThat(r.tensors()).extracting(TensorRow::name).containsExactly("", "\u0000x");
    String json = new String(EvidenceJson.recordBytes(r, true), StandardCharsets.UTF_8);
    assertThat(json).contains("\"name\":\"\\u0000x\"");
  }

  @Test
  void leadingWhitespaceLongerThanTheDetectionProbeIsAccepted() throws Exception {
    byte[] f = builder().leading(" ".repeat(700) + "\n\t\r").tensor("a", "U8", 3).build();
    EvidenceRecord r = inspect(f, HashMode.HEADER);
    assertThat(r.tensors()).hasSize(1);
    assertThat(r.artifact().format()).isEqualTo("safetensors");
  }

  @Test
  void rejectionsCarryNoUnvalidatedContent() throws Exception {
    String secret = "SECRET-METADATA-VALUE";
    // A valid metadata entry, then an overlap found only after the whole JSON was read.
    String j =
        "{\"__metadata__\":{\"k\":\""
            + secret
            + "\"},\"a\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4]},"
            + "\"b\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[2,4]}}";
    for (HashMode mode : HashMode.values()) {
      Inspection.Failed f = failed(file(j, 4), mode);
      ReaException e = f.error();
      assertThat(e.constraint()).isEqualTo(Constraint.FILE_FORMAT_REJECTED);
      assertThat(e.field()).isEqualTo("tensors[\"b\"].data_offsets");
      assertThat(f.partial()).isNull();
      String all = e.getMessage() + e.field() + e.diagnostics();
      assertThat(all).doesNotContain(secret);
      String wire = new String(EvidenceJson.errorBytes(e), StandardCharsets.UTF_8);
      assertThat(wire).doesNotContain(secret).doesNotContain("partial_evidence");
    }
  }

  @Test
  void longNamesAreTruncatedInErrors() throws Exception {
    String name = "n".repeat(10_000);
    String j = "{\"" + name + "\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,5]}}";
    ReaException e = SafetensorsReads.reject(file(j, 5), Limits.defaults());
    assertThat(e.field()).startsWith("tensors[\"nnnn").endsWith("... (10000 chars)\"].data_offsets");
    assertThat(e.field().length()).isLessThan(300);
    assertThat(e.getMessage().length()).isLessThan(1000);
  }

  @Test
  void anUnknownDtypeLabelIsChargedToTheBudget() {
    String label = "X".repeat(300);
    byte[] f = builder().tensorBytes("a", label, 1, 1).build();
    Limits tight = Limits.builder().retainedBudgetBytes(400).build();
    ReaException e = SafetensorsReads.reject(f, tight);
    assertThat(e.constraint()).isEqualTo(Constraint.RETAINED_BUDGET);
    assertThat(e.field()).isEqualTo("tensors[\"a\"].dtype");
  }

  @Test
  void shapeDimensionsAreChargedBeforeTheyAreKept() {
    // 100,000 dimensions of 1 at 8 bytes each exceed a 500,000-byte budget.
    String dims = String.join(",", java.util.Collections.nCopies(100_000, "1"));
    String j = "{\"a\":{\"dtype\":\"U8\",\"shape\":[" + dims + "],\"data_offsets\":[0,1]}}";
    Limits tight = Limits.builder().retainedBudgetBytes(500_000).build();
    ReaException e = SafetensorsReads.reject(file(j, 1), tight);
    assertThat(e.constraint()).isEqualTo(Constraint.RETAINED_BUDGET);
    assertThat(e.field()).startsWith("tensors[\"a\"].shape[");
  }

  @Test
  void keysOfIgnoredObjectsAreChargedToo() {
    String keys =
        java.util.stream.IntStream.range(0, 20_000)
            .mapToObj(i -> "\"k" + i + "\":0")
            .collect(Collectors.joining(","));
    String j = "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1],\"x\":{" + keys + "}}}";
    ReaException e = SafetensorsReads.reject(file(j, 1), Limits.builder().retainedBudgetBytes(1_000_000).build());
    assertThat(e.constraint()).isEqualTo(Constraint.RETAINED_BUDGET);
    assertThat(e.field()).startsWith("tensors[\"a\"][\"x\"][\"k");
    // With the default 32 MiB budget the same header is fine.
    assertThat(SafetensorsReadsAccess.tensors(file(j, 1))).isEqualTo(1);
  }

  @Test
  void headerDigestCoversExactlyTheHeaderWhateverTheBufferSize() throws Exception {
    SafetensorsBuilder.Builder b = builder().metadata("m", "v".repeat(5000));
    for (int i = 0; i < 50; i++) {
      b.tensor("t" + i, "F16", 3, 7);
    }
    byte[] f = b.build();
    ParsedHeader small = SafetensorsReads.read(f, Limits.defaults(), 16);
    ParsedHeader big = SafetensorsReads.read(f, Limits.defaults());
    assertThat(small).isEqualTo(big);
    EvidenceRecord r = inspect(f, HashMode.HEADER);
    byte[] header = java.util.Arrays.copyOf(f, (int) r.artifact().headerLength());
    assertThat(r.artifact().headerSha256())
        .isEqualTo(
            java.util.HexFormat.of()
                .formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(header)));
    assertThat(r.artifact().bytesRead()).isLessThanOrEqualTo(f.length);
  }

  @Test
  void aTopLevelArrayReachesTheReaderAndIsRejectedThere() throws Exception {
    // A length prefix followed by JSON text is a (malformed) safetensors file: the reader says
    // what is wrong, rather than detection calling it an unknown format.
    assertThatThrownBy(() -> inspect(file("[]", 0), HashMode.HEADER))
        .isInstanceOfSatisfying(
            ReaException.class,
            e -> {
              assertThat(e.constraint()).isEqualTo(Constraint.FILE_FORMAT_REJECTED);
              assertThat(e.offset()).isEqualTo(8L);
            });
    // Without the prefix's JSON, detection still refuses it.
    assertThatThrownBy(() -> inspect(file("\u0000[]", 0), HashMode.HEADER))
        .isInstanceOfSatisfying(
            ReaException.class, e -> assertThat(e.constraint()).isEqualTo(Constraint.UNSUPPORTED_FORMAT));
  }

  /** Small adapter so assertions read as counts. */
  static final class SafetensorsReadsAccess {
    static int tensors(byte[] f) {
      try {
        return SafetensorsReads.read(f).tensors().size();
      } catch (ReaException e) {
        throw new AssertionError(e.getMessage(), e);
      }
    }
  }
}
