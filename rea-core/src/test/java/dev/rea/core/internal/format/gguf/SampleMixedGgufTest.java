package dev.rea.core.internal.format.gguf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.evidence.Warning;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The committed {@code samples/sample-mixed.gguf} is what {@link SampleMixedGguf} builds. */
class SampleMixedGgufTest {
  private static Path committed() {
    return GgufTesting.repositoryRoot().resolve(SampleMixedGguf.PATH);
  }

  @Test
  void committedSampleIsExactlyWhatTheBuilderWrites() throws Exception {
    if (Boolean.getBoolean("rea.regenerateSamples")) {
      SampleMixedGguf.main(new String[0]);
    }
    byte[] generated = SampleMixedGguf.bytes();
    assertThat(committed()).as("run SampleMixedGguf.main to create it").exists();
    byte[] onDisk = Files.readAllBytes(committed());
    assertThat(onDisk).as("committed sample = regenerated sample").isEqualTo(generated);
    assertThat(onDisk.length).isLessThan(64 * 1024).isEqualTo(45952);
  }

  @Test
  void sampleDeclaresItsMixedTypes() throws Exception {
    EvidenceRecord r = GgufTesting.inspect(committed());
    FormatFacts.Gguf f = (FormatFacts.Gguf) r.formatFacts();
    assertThat(f.version()).isEqualTo(3);
    assertThat(f.byteOrder()).isEqualTo("little");
    assertThat(f.alignment()).isEqualTo(32);
    assertThat(f.tensorDataOffset()).isEqualTo(1920);
    assertThat(r.artifact().headerLength()).isEqualTo(1894);
    assertThat(r.metadata()).hasSize(19);
    assertThat(r.metadata().get(0).value()).isEqualTo(new MetadataValue.StringValue("llama"));
    MetadataValue.ArrayValue tokens = (MetadataValue.ArrayValue) r.metadata().get(13).value();
    assertThat(r.metadata().get(13).key()).isEqualTo("tokenizer.ggml.tokens");
    assertThat(tokens.count()).isEqualTo(16);
    assertThat(tokens.preview()).hasSize(8);
    assertThat(tokens.previewComplete()).isFalse();

    assertThat(r.tensors()).hasSize(12);
    assertThat(r.tensors())
        .extracting(TensorRow::type)
        .containsExactly(
            "F16", "F32", "Q8_0", "Q4_0", "Q8_1", "Q4_K", "AMBIGUOUS_24", "BF16", "Q8_0", "F32",
            "F32", "F16");
    TensorRow last = r.tensors().get(11);
    assertThat(last.fileOffset() + last.byteLength()).isEqualTo(45952);
    assertThat(r.types())
        .extracting(TypeRow::type, TypeRow::tensorCount)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("F32", 3),
            org.assertj.core.groups.Tuple.tuple("F16", 2),
            org.assertj.core.groups.Tuple.tuple("Q4_0", 1),
            org.assertj.core.groups.Tuple.tuple("Q8_0", 2),
            org.assertj.core.groups.Tuple.tuple("Q8_1", 1),
            org.assertj.core.groups.Tuple.tuple("Q4_K", 1),
            org.assertj.core.groups.Tuple.tuple("AMBIGUOUS_24", 1),
            org.assertj.core.groups.Tuple.tuple("BF16", 1));
    assertThat(r.types().get(3).byteLength()).isEqualTo(BigInteger.valueOf(13056));
    assertThat(r.types().get(4).byteLength()).isNull();
    assertThat(r.totals().parameterCount()).isEqualTo(BigInteger.valueOf(35520));
    assertThat(r.totals().byteLength()).isNull();
    assertThat(r.limitations())
        .extracting(Limitation::code)
        .containsExactly("q8_1_layout_ambiguous", "k_quant_layout_ambiguous", "ambiguous_type_id");
    assertThat(r.limitations()).extracting(Limitation::tensorIndices)
        .containsExactly(java.util.List.of(4), java.util.List.of(5), java.util.List.of(6));
    assertThat(r.coverage().storageSizes()).isEqualTo("partial");
    // The Q4_K tensor's rows are 64 elements, which only K64 blocks hold, and K64 needs 2,432
    // bytes where 2,304 lie before the next tensor: no released layout holds the declaration.
    assertThat(r.warnings()).extracting(Warning::code).containsExactly("overlap_under_every_layout");
    assertThat(r.warnings().get(0).message())
        .contains("tensor[6] starts at file offset 17792, inside the 2432 bytes tensor[5] (Q4_K)");
  }
}
