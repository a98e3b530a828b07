package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.format.gguf.GgufTesting;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The readable summary's type table and the file type's name (issue 19, item 5). */
class SummaryTypesCliTest {
  @TempDir Path dir;

  Path q4km() {
    byte[] bytes = GgufBuilder.v3()
        .kv("general.architecture", GgufBuilder.str("llama"))
        .kv("general.file_type", GgufBuilder.u32(15))
        .tensor("token_embd.weight", 12, 256, 4) // Q4_K
        .tensor("output.weight", 14, 256, 4) // Q6_K
        .tensor("output_norm.weight", 0, 256) // F32
        .build()
        .bytes();
    return GgufTesting.write(dir, "q4km.gguf", bytes);
  }

  @Test
  void theSummaryNamesEachTypeAndTheFileType() {
    CliRunner.Result r =
        CliRunner.run("inspect-model-artifact", q4km().toString(), "--detail", "summary");
    assertThat(r.status()).isZero();
    assertThat(r.out())
        .contains(
            "\nTypes (3)\n"
                + "  TYPE  ID  TENSORS  PARAMETERS  BYTES\n"
                + "  F32   0   1        256         1,024\n"
                + "  Q4_K  12  1        1,024       unknown\n"
                + "  Q6_K  14  1        1,024       unknown\n")
        .containsPattern("general\\.file_type +UINT32 +15 \\(MOSTLY_Q4_K_M\\)\n");
  }

  @Test
  void theCompleteReportNamesTheFileTypeInItsMetadata() {
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", q4km().toString());
    assertThat(r.status()).isZero();
    assertThat(r.out()).containsPattern("general\\.file_type +UINT32 +15 \\(MOSTLY_Q4_K_M\\)\n");
  }

  @Test
  void anUnnamedFileTypeStaysANumber() {
    byte[] bytes = GgufBuilder.v3().kv("general.file_type", GgufBuilder.u32(41)).build().bytes();
    Path p = GgufTesting.write(dir, "f41.gguf", bytes);
    CliRunner.Result summary =
        CliRunner.run("inspect-model-artifact", p.toString(), "--detail", "summary");
    assertThat(summary.out()).containsPattern("general\\.file_type +UINT32 +41\n")
        .contains("Types (0)\n  none\n");
    CliRunner.Result json =
        CliRunner.run("inspect-model-artifact", p.toString(), "--detail", "summary", "--json");
    assertThat(json.json().get("file_type").toString()).isEqualTo("{\"value\":41,\"name\":null}");
  }
}
