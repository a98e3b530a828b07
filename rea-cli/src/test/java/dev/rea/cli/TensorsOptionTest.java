package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.internal.format.gguf.GgufTesting;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code --tensors GLOB} on both commands (CONTRACT section 12), over ollama's tiny Llama 2. */
class TensorsOptionTest {
  @TempDir Path dir;

  Path model() {
    return GgufTesting.resourceFile(dir, "real/ollama_ollama-llama-2-tiny-random.gguf.gz");
  }

  /** @return the NAME cells of the readable report's tensor table */
  static List<String> tableNames(String report) {
    List<String> names = new ArrayList<>();
    boolean in = false;
    for (String line : report.split("\n")) {
      if (line.startsWith("Tensors (")) {
        in = true;
      } else if (in && line.isEmpty()) {
        break;
      } else if (in && !line.startsWith("  #")) {
        names.add(line.trim().split(" +")[1]);
      }
    }
    return names;
  }

  @Test
  void theReadableReportShowsLayerZeroOnly() {
    CliRunner.Result all = CliRunner.run("inspect-model-artifact", model().toString());
    CliRunner.Result layer0 =
        CliRunner.run("inspect-model-artifact", model().toString(), "--tensors", "blk.0.*");
    assertThat(layer0.status()).isZero();
    List<String> expected = new ArrayList<>();
    for (String n : tableNames(all.out())) {
      if (n.startsWith("blk.0.")) {
        expected.add(n);
      }
    }
    assertThat(tableNames(all.out())).hasSize(12);
    assertThat(expected).hasSize(9);
    assertThat(tableNames(layer0.out())).isEqualTo(expected);
    assertThat(layer0.out()).contains("Tensors (9 of 12 match --tensors blk.0.*)");
    // Everything but the tensor table is as without the option.
    String[] parts = all.out().split("\nTensors \\(");
    assertThat(layer0.out().split("\nTensors \\(")[0].replaceAll("sha256:[0-9a-f]{64}", "ID")
            .replaceAll("modified [^)]*", "M"))
        .isEqualTo(parts[0].replaceAll("sha256:[0-9a-f]{64}", "ID").replaceAll("modified [^)]*", "M"));
    assertThat(layer0.out().substring(layer0.out().indexOf("\nLimitations")))
        .isEqualTo(all.out().substring(all.out().indexOf("\nLimitations")));
  }

  @Test
  void aPatternMatchingNothingShowsNone() {
    CliRunner.Result r =
        CliRunner.run("inspect-model-artifact", model().toString(), "--tensors", "blk.1.*");
    assertThat(r.status()).isZero();
    assertThat(r.out()).contains("Tensors (0 of 12 match --tensors blk.1.*)\n  none\n");
  }

  @Test
  void aBadPatternIsInvalidInputNamingTheOptionAndPosition() {
    CliRunner.Result r = CliRunner.run(
        "inspect-model-artifact", model().toString(), "--tensors", "blk.[0-9", "--json");
    // --json conflicts first: the option filters the readable report only.
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.json().get("error").get("constraint").asString()).isEqualTo("conflicting_choices");
    assertThat(r.json().get("error").get("message").asString()).contains("name_glob");
    CliRunner.Result bad =
        CliRunner.run("inspect-model-artifact", model().toString(), "--tensors", "blk.[0-9");
    assertThat(bad.status()).isEqualTo(2);
    assertThat(bad.out()).isEmpty();
    assertThat(bad.err()).contains("--tensors 'blk.[0-9' does not parse").contains("position: 4");
    CliRunner.Result summary = CliRunner.run(
        "inspect-model-artifact", model().toString(), "--tensors", "blk.*", "--detail", "summary");
    assertThat(summary.status()).isEqualTo(2);
    assertThat(summary.err()).contains("conflicting_choices").contains("--detail summary");
    // A standard format replaces the report too: the pattern is refused, not silently dropped.
    CliRunner.Result bom = CliRunner.run(
        "inspect-model-artifact", model().toString(), "--tensors", "blk.*", "--format", "cyclonedx");
    assertThat(bom.status()).isEqualTo(2);
    assertThat(bom.out()).isEmpty();
    assertThat(bom.err()).contains("conflicting_choices").contains("--format cyclonedx");
  }

  Path evidence() {
    Path ev = dir.resolve("ev.json");
    CliRunner.Result w = CliRunner.run(
        "inspect-model-artifact", model().toString(), "--evidence_output", ev.toString());
    assertThat(w.status()).isZero();
    return ev;
  }

  @Test
  void analysisViewTakesThePatternAloneOrBesideAView() {
    Path ev = evidence();
    CliRunner.Result alone = CliRunner.run(
        "inspect-analysis-view", "--source", ev.toString(), "--tensors", "blk.0.ffn_*", "--json");
    assertThat(alone.status()).isZero();
    JsonNode page = alone.json();
    assertThat(page.get("collection").asString()).isEqualTo("tensors");
    List<String> names = new ArrayList<>();
    for (JsonNode row : page.get("rows")) {
      names.add(row.get("name").asString());
    }
    assertThat(names).containsExactly("blk.0.ffn_gate.weight", "blk.0.ffn_up.weight",
        "blk.0.ffn_down.weight", "blk.0.ffn_norm.weight");

    CliRunner.Result withView = CliRunner.run("inspect-analysis-view", "--source", ev.toString(),
        "--tensors", "blk.0.ffn_*", "--json", "--view",
        "{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"types\":[\"F32\"],"
            + "\"fields\":[\"name\"]}");
    assertThat(withView.status()).isZero();
    assertThat(withView.json().get("rows").toString())
        .isEqualTo("[{\"index\":9,\"name\":\"blk.0.ffn_norm.weight\"}]");

    CliRunner.Result readable = CliRunner.run(
        "inspect-analysis-view", "--source", ev.toString(), "--tensors", "output*");
    assertThat(readable.status()).isZero();
    assertThat(readable.out()).contains("matches 1 to 2 of 2").contains("output_norm.weight")
        .contains("output.weight").doesNotContain("blk.0");
  }

  @Test
  void analysisViewRefusesPatternsThatCannotApply() {
    Path ev = evidence();
    CliRunner.Result neither =
        CliRunner.run("inspect-analysis-view", "--source", ev.toString(), "--json");
    assertThat(neither.status()).isEqualTo(2);
    assertThat(neither.json().get("error").get("message").asString()).contains("--tensors GLOB");
    CliRunner.Result metadata = CliRunner.run("inspect-analysis-view", "--source", ev.toString(),
        "--tensors", "x*", "--json", "--view",
        "{\"kind\":\"model-artifact\",\"collection\":\"metadata\"}");
    assertThat(metadata.status()).isEqualTo(2);
    assertThat(metadata.json().get("error").get("details").get("field").asString())
        .isEqualTo("--tensors");
    CliRunner.Result twice = CliRunner.run("inspect-analysis-view", "--source", ev.toString(),
        "--tensors", "x*", "--json", "--view",
        "{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"name_glob\":\"y*\"}");
    assertThat(twice.json().get("error").get("constraint").asString())
        .isEqualTo("conflicting_choices");
    CliRunner.Result inView = CliRunner.run("inspect-analysis-view", "--source", ev.toString(),
        "--json", "--view",
        "{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"name_glob\":\"[z-a]\"}");
    assertThat(inView.status()).isEqualTo(2);
    assertThat(inView.json().get("error").get("constraint").asString()).isEqualTo("bad_view");
    assertThat(inView.json().get("error").get("details").get("field").asString())
        .isEqualTo("view.name_glob");
  }
}
