package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.internal.format.gguf.GgufTesting;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * What a person meets first: usage errors, version, help, key creation and the hints given for
 * common slips. Each case asserts the exit status and the words that tell what to do.
 */
class CliUsabilityTest {
  @TempDir Path dir;

  @Test
  void noCommandPrintsUsageOnStderrWithStatusTwo() {
    CliRunner.Result r = CliRunner.run();
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).contains("Usage: rea").contains("inspect-model-artifact").contains("mcp");
  }

  @Test
  void versionNamesTheBuild() {
    CliRunner.Result r = CliRunner.run("--version");
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.out()).startsWith("rea ");
  }

  @Test
  void eachCommandNamesTheBuildToo() {
    String version = CliRunner.run("--version").out();
    for (String command :
        new String[] {"inspect-model-artifact", "inspect-analysis-view", "diff", "check", "mcp"}) {
      for (String option : new String[] {"--version", "-V"}) {
        CliRunner.Result r = CliRunner.run(command, option);
        assertThat(r.status()).as(command).isEqualTo(0);
        assertThat(r.out()).as(command).startsWith("rea ").isEqualTo(version);
      }
    }
  }

  /**
   * {@code rea} and {@code inspect-model-artifact} have models built through picocli's API
   * ({@link CommandModels}), not read from annotations: their usage stays what the annotations
   * gave, down to the synopsis, the option rows, their order and the standard help options last.
   */
  @Test
  void inspectUsageIsTheOneTheAnnotationsGave() {
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", "--help");
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.out())
        .startsWith(
            String.join(
                "\n",
                "Report what a GGUF or safetensors file declares, from its header alone.",
                "Usage: rea inspect-model-artifact [-hV] [--json] [--wide]",
                "                                  [--assume-layout=ggml-modern]",
                "                                  [--evidence_output=FILE]",
                "                                  [--format=rea|in-toto|cyclonedx]",
                "                                  [--hash=header|full] [--max_tensor_rows=N]",
                "                                  [--tensors=GLOB] [--view=JSON]",
                "                                  [--detail=complete|summary]... PATH",
                "Inspects a GGUF (v2/v3, little- or big-endian v3) or safetensors file and"));
    String[] rows = {
      "      PATH                 The model file. A relative path is resolved against",
      "      --json               Print JSON on stdout: the signed Evidence bundle (or",
      "      --hash=header|full   header (default): read and hash only the header.",
      "      --assume-layout, --assume_layout=ggml-modern",
      "      --max_tensor_rows, --max-tensor-rows=N",
      "                             40; 0 shows none; --json always has every row).",
      "      --detail=complete|summary",
      "      --evidence_output, --evidence-output=FILE",
      "      --view=JSON          Answer one page of a view in the same run (see the",
      "  -h, --help               Show this help message and exit.",
      "  -V, --version            Print version information and exit."
    };
    int at = -1;
    for (String row : rows) {
      int i = r.out().indexOf(row + "\n");
      assertThat(i).as(row).isGreaterThan(at);
      at = i;
    }
    CliRunner.Result top = CliRunner.run("--help");
    assertThat(top.out())
        .startsWith("Usage: rea [-hV] [COMMAND]\n")
        .contains("  -h, --help      Show this help message and exit.\n")
        .contains("  -V, --version   Print version information and exit.\nCommands:\n")
        .endsWith("Run 'rea help <command>' for a command's options.\n");
  }

  @Test
  void anOptionBeforeTheCommandNameSaysWhereOptionsGo() {
    CliRunner.Result json = CliRunner.run("--json", "inspect-model-artifact", "x.gguf");
    assertThat(json.status()).isEqualTo(2);
    assertThat(json.json().get("error").get("message").asString())
        .isEqualTo(
            "Unknown option: '--json' (options go after the command name:"
                + " rea inspect-model-artifact ... --json)");
    CliRunner.Result readable = CliRunner.run("--hash", "full", "inspect-model-artifact", "x");
    assertThat(readable.status()).isEqualTo(2);
    assertThat(readable.err())
        .contains("options go after the command name: rea inspect-model-artifact ... --hash");
    // Without a command name there is nothing to point at.
    assertThat(CliRunner.run("--bogus").err()).doesNotContain("options go after");
  }

  @Test
  void aMissingPathIsAUsageError() {
    CliRunner.Result r = CliRunner.run("inspect-model-artifact");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err())
        .contains("Missing required parameter: 'PATH'")
        .contains("Try 'rea inspect-model-artifact --help'");
    CliRunner.Result json = CliRunner.run("inspect-model-artifact", "--json");
    assertThat(json.status()).isEqualTo(2);
    assertThat(json.json().get("error").get("constraint").asString()).isEqualTo("bad_argument");
    assertThat(json.json().get("error").get("message").asString())
        .isEqualTo("Missing required parameter: 'PATH'");
  }

  @Test
  void aPathHoldingTheReplacementCharacterIsRefusedNotOpened() throws Exception {
    // The JVM gives U+FFFD for bytes of the command line that are not valid in the locale's
    // encoding; a file whose name really holds U+FFFD must not be taken for the one meant.
    Path other = dir.resolve("m\uFFFD.gguf");
    Files.write(other, dev.rea.core.internal.format.gguf.GgufBuilder.v3().tensor("w", 0, 4).bytes());
    String[][] runs = {
      {"inspect-model-artifact", other.toString()},
      {"inspect-model-artifact", other.toString(), "--json"},
      {"inspect-model-artifact", dir.resolve("ok.gguf").toString(), "--detail", "summary",
          "--evidence_output", dir.resolve("ev\uFFFD.json").toString()},
      {"inspect-analysis-view", "--source", dir.resolve("e\uFFFD.json").toString(), "--view",
          "{\"kind\":\"model-artifact\",\"collection\":\"types\"}"},
    };
    String[] fields = {"PATH", "PATH", "--evidence_output", "--source"};
    for (int i = 0; i < runs.length; i++) {
      CliRunner.Result r = CliRunner.run(runs[i]);
      assertThat(r.status()).as(String.join(" ", runs[i])).isEqualTo(2);
      String said = i == 1 ? r.json().get("error").get("message").asString() : r.err();
      assertThat(said).contains(fields[i] + " holds U+FFFD, the character Java puts in place of bytes");
    }
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactly("m\uFFFD.gguf");
    }
  }

  @Test
  void aFileNameStartingWithADashGetsAHint() {
    CliRunner.Result json = CliRunner.run("inspect-model-artifact", "-model.gguf", "--json");
    assertThat(json.status()).isEqualTo(2);
    assertThat(json.json().get("error").get("message").asString())
        .isEqualTo(
            "Missing required parameter: 'PATH' ('-model.gguf' was read as an option; for a file"
                + " whose name starts with '-', write ./-model.gguf or put -- before it)");
    assertThat(CliRunner.run("inspect-model-artifact", "--hash=full", "-m.gguf").err())
        .contains("'-m.gguf' was read as an option");
    // Known options alone are no reason for the hint, and after -- there is nothing to hint.
    assertThat(CliRunner.run("inspect-model-artifact", "--hash=full", "--json").json()
            .get("error").get("message").asString())
        .isEqualTo("Missing required parameter: 'PATH'");
    // After --, the name is the file: looked for, not refused as a usage error.
    CliRunner.Result after = CliRunner.run("inspect-model-artifact", "--json", "--", "-no-such.gguf");
    assertThat(after.status()).isEqualTo(3);
    assertThat(after.json().get("error").get("constraint").asString()).isEqualTo("not_found");
  }

  @Test
  void helpListsCommandsWithCompleteOneLineSummaries() {
    CliRunner.Result r = CliRunner.run("--help");
    assertThat(r.status()).isEqualTo(0);
    assertThat(r.out())
        .contains("Report what a GGUF or safetensors file declares, from")
        .contains("its header alone.")
        .contains("Serve REA to agents over MCP (stdio).");
    // Every status a command can end with, 1 (diff, check, scan) included.
    String statuses = r.out().substring(r.out().indexOf("Exit status:")).replaceAll("\\s+", " ");
    for (String s : List.of(" 0 ", " 1 ", " 2 ", " 3 ", " 4 ", " 5 ", " 130 ", " 141 ", " 143 ")) {
      assertThat(statuses).contains(s);
    }
    // Examples are short enough not to be wrapped inside a file name or JSON string.
    CliRunner.Result h = CliRunner.run("help", "inspect-model-artifact");
    assertThat(h.out()).contains("      --evidence_output ev.json --json").contains("\"names\":[\"token_embd.weight\"]}'");
  }

  @Test
  void aMistypedCommandSuggestsTheRealOnesAndTheRightHelp() {
    CliRunner.Result r = CliRunner.run("inspectt", "x.gguf");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("Did you mean").contains("Try 'rea --help'").doesNotContain("rea rea");
  }

  @Test
  void anEmptyPathIsABadArgumentNotTheWorkingDirectory() {
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", "", "--json");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.json().get("error").get("constraint").asString()).isEqualTo("bad_argument");
    assertThat(r.json().get("error").get("message").asString()).contains("empty");
  }

  @Test
  void anEvidenceOutputInAMissingDirectoryIsRefusedBeforeTheFileIsRead() {
    Path model = GgufTesting.resourceFile(dir, "real/ollama_ollama-test.gguf");
    CliRunner.Result r =
        CliRunner.run(
            "inspect-model-artifact",
            model.toString(),
            "--evidence_output",
            dir.resolve("no/such/dir/ev.json").toString());
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("bad_argument").contains("does not exist").doesNotContain(".tmp");
  }

  @Test
  void negativeTensorRowCountsAreRefused() {
    Path model = GgufTesting.resourceFile(dir, "real/ollama_ollama-test.gguf");
    CliRunner.Result r =
        CliRunner.run("inspect-model-artifact", model.toString(), "--max_tensor_rows", "-1");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("--max_tensor_rows must be 0 or more");
  }

  @Test
  void aModelGivenAsEvidenceGetsAHintToInspectIt() {
    Path model = GgufTesting.resourceFile(dir, "real/ollama_ollama-llama-2-tiny-random.gguf.gz");
    CliRunner.Result r =
        CliRunner.run(
            "inspect-analysis-view",
            "--source",
            model.toString(),
            "--view",
            "{\"kind\":\"model-artifact\",\"collection\":\"tensors\"}");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err())
        .contains("evidence_rejected")
        .contains(
            "this is a GGUF model file, not saved Evidence: inspect it with inspect-model-artifact"
                + " (save its Evidence with --evidence_output FILE and query that file)");
  }

  @Test
  void savedEvidenceGivenAsAModelGetsAHintToReadItAsEvidence() throws Exception {
    Path model = GgufTesting.resourceFile(dir, "real/ollama_ollama-llama-2-tiny-random.gguf.gz");
    Path bundle = dir.resolve("bundle.json");
    Path record = dir.resolve("record.json");
    CliRunner.Result saved =
        CliRunner.run("inspect-model-artifact", model.toString(), "--evidence_output", bundle.toString());
    assertThat(saved.status()).as(saved.err()).isZero();
    JsonNode first = CliRunner.JSON.readTree(Files.readAllBytes(bundle)).get("records").get(0);
    Files.write(record, CliRunner.JSON.writeValueAsBytes(first));
    for (Object[] c : new Object[][] {{bundle, "a rea.bundle.v1 bundle"}, {record, "a rea.evidence.v1 record"}}) {
      CliRunner.Result r = CliRunner.run("inspect-model-artifact", c[0].toString(), "--json");
      assertThat(r.status()).isEqualTo(3);
      JsonNode e = r.json().get("error");
      assertThat(e.get("constraint").asString()).isEqualTo("unsupported_format");
      assertThat(e.get("code").asString()).isEqualTo("target_unavailable");
      assertThat(e.get("message").asString())
          .isEqualTo(
              "unsupported format: the file is Evidence that REA saved ("
                  + c[1]
                  + "), not a model: read it with inspect-analysis-view --source FILE --view"
                  + " '{\"kind\":\"model-artifact\",\"collection\":\"tensors\"}'");
      assertThat(e.get("details").get("diagnostics").get("detected").asString())
          .isEqualTo("rea_evidence");
      CliRunner.Result readable = CliRunner.run("inspect-model-artifact", c[0].toString());
      assertThat(readable.err()).contains("not a model: read it with inspect-analysis-view --source FILE");
    }
  }

  @Test
  void aSummaryOrPageGivenAsEvidenceGetsAHintToUseTheSavedEvidence() throws Exception {
    Path model = GgufTesting.resourceFile(dir, "real/ollama_ollama-llama-2-tiny-random.gguf.gz");
    Path evidence = dir.resolve("ev.json");
    CliRunner.Result summary =
        CliRunner.run(
            "inspect-model-artifact", model.toString(), "--detail", "summary", "--evidence_output",
            evidence.toString(), "--view", "{\"collection\":\"tensors\",\"limit\":1}", "--json");
    assertThat(summary.status()).as(summary.out()).isZero();
    Path summaryFile = Files.writeString(dir.resolve("summary.json"), summary.out());
    CliRunner.Result page =
        CliRunner.run("inspect-analysis-view", "--source", evidence.toString(), "--view",
            "{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"limit\":1}", "--json");
    assertThat(page.status()).as(page.out()).isZero();
    Path pageFile = Files.writeString(dir.resolve("page.json"), page.out());
    for (Object[] c : new Object[][] {{summaryFile, "summary"}, {pageFile, "page"}}) {
      CliRunner.Result r =
          CliRunner.run("inspect-analysis-view", "--source", c[0].toString(), "--view",
              "{\"kind\":\"model-artifact\",\"collection\":\"tensors\"}", "--json");
      assertThat(r.status()).isEqualTo(2);
      JsonNode e = r.json().get("error");
      assertThat(e.get("constraint").asString()).isEqualTo("evidence_rejected");
      assertThat(e.get("message").asString())
          .isEqualTo(
              "this is a model-artifact "
                  + c[1]
                  + ", not saved Evidence: query the complete Evidence that --evidence_output FILE"
                  + " wrote (the "
                  + c[1]
                  + "'s parent_evidence_id names it)");
      assertThat(e.get("details").get("diagnostics").get("detected").asString())
          .isEqualTo("model-artifact-" + c[1]);
    }
    // The saved Evidence itself is answered.
    assertThat(page.json().get("kind").asString()).isEqualTo("model-artifact-page");
  }

  @Test
  void creatingASigningKeySaysWhereItIs() throws Exception {
    Path home = dir.resolve("fresh-home");
    Path model = GgufTesting.resourceFile(dir, "real/ollama_ollama-llama-2-tiny-random.gguf.gz");
    CliRunner.Result first =
        CliRunner.runWithHome(home, "inspect-model-artifact", model.toString(), "--json");
    assertThat(first.status()).isEqualTo(0);
    assertThat(first.err()).contains("created a signing key pair in " + home);
    assertThat(Files.exists(home.resolve("signing-key.pub.pem"))).isTrue();
    CliRunner.Result second =
        CliRunner.runWithHome(home, "inspect-model-artifact", model.toString(), "--json");
    assertThat(second.err()).doesNotContain("created a signing key");
  }

  @Test
  void severalFilesGetTheOneFilePerRunHint() throws Exception {
    Path a = GgufTesting.resourceFile(dir, "real/ollama_ollama-test.gguf");
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", a.toString(), a.toString());
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("Unmatched argument").contains("takes one file per run")
        .contains("inspect-model-set PATH").contains("scan PATH...");
    CliRunner.Result option = CliRunner.run("inspect-model-artifact", a.toString(), "--jsn");
    assertThat(option.err()).doesNotContain("one file per run");
  }

  @Test
  void helpTextIsWrappedByParagraphNotByLine() {
    for (String command :
        new String[] {
          "inspect-model-artifact", "inspect-analysis-view", "diff", "check", "mcp", "scan"
        }) {
      CliRunner.Result h = CliRunner.run("help", command);
      assertThat(h.status()).isZero();
      for (String line : h.out().split("\n")) {
        // Under 80: picocli re-wraps a longer footer line, leaving a word alone on a line.
        assertThat(line.length()).as("%s: %s", command, line).isLessThan(80);
      }
    }
    // Footer lines are printed as written, but picocli re-wraps one of 80 characters or more,
    // leaving a word alone on a line: each is shorter.
    picocli.CommandLine all = ReaMain.commandLine(java.util.Map.of());
    for (picocli.CommandLine c : all.getSubcommands().values()) {
      for (String line : c.getCommandSpec().usageMessage().footer()) {
        assertThat(line.length()).as("%s footer: %s", c.getCommandName(), line).isLessThan(80);
      }
    }
    // A sentence is not broken after every source line (the old help left "reports" alone).
    assertThat(CliRunner.run("help", "inspect-model-artifact").out())
        .doesNotContainPattern("(?m)^reports$")
        .contains("141");
  }

  @Test
  void pagesQuoteStringValuesAsTheReportDoes() throws Exception {
    // Three strings holding a tab, a comma and a quote: bare, they read as four elements.
    Path model = dir.resolve("tags.gguf");
    Files.write(
        model,
        dev.rea.core.internal.format.gguf.GgufBuilder.v3()
            .kv("general.architecture", dev.rea.core.internal.format.gguf.GgufBuilder.str("llama"))
            .kv("general.tags", dev.rea.core.internal.format.gguf.GgufBuilder.array(8,
                dev.rea.core.internal.format.gguf.GgufBuilder.str("a\tb"),
                dev.rea.core.internal.format.gguf.GgufBuilder.str("c, d"),
                dev.rea.core.internal.format.gguf.GgufBuilder.str("e\"f")))
            .tensor("w", 0, 4, 2)
            .bytes());
    Path ev = dir.resolve("tags.json");
    CliRunner.Result page =
        CliRunner.run("inspect-model-artifact", model.toString(), "--detail", "summary",
            "--evidence_output", ev.toString(), "--view",
            "{\"collection\":\"metadata\",\"keys\":[\"general.tags\",\"general.architecture\"]}");
    assertThat(page.status()).as(page.err()).isZero();
    assertThat(page.out())
        .contains("[\"a\\tb\", \"c, d\", \"e\\\"f\"]")
        .containsPattern("general\\.architecture +STRING +\"llama\"");
    CliRunner.Result tensors =
        CliRunner.run("inspect-analysis-view", "--source", ev.toString(), "--view",
            "{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"fields\":[\"name\",\"shape\"]}");
    assertThat(tensors.status()).as(tensors.err()).isZero();
    // A shape (decimal strings) stays bare; a name is one cell, bare.
    assertThat(tensors.out()).containsPattern("(?m)^  0 +w +\\[4, 2\\]$");
  }

  /** @return a GGUF file in {@link #dir} with general.architecture, {@code key} and one tensor */
  private Path modelWithString(String file, String key, String value) throws Exception {
    return Files.write(
        dir.resolve(file),
        dev.rea.core.internal.format.gguf.GgufBuilder.v3()
            .kv("general.architecture", dev.rea.core.internal.format.gguf.GgufBuilder.str("llama"))
            .kv(key, dev.rea.core.internal.format.gguf.GgufBuilder.str(value))
            .tensor("w", 0, 4)
            .bytes());
  }

  @Test
  void aValueIsNeverCutInsideACharacter() throws Exception {
    // The cut (72 UTF-16 units) falls between the two halves of U+1F600.
    String value = "A".repeat(71) + "\uD83D\uDE00" + "B".repeat(10);
    Path model = modelWithString("emoji.gguf", "r.emoji", value);
    CliRunner.Result report = CliRunner.run("inspect-model-artifact", model.toString());
    assertThat(report.status()).isZero();
    assertThat(report.out())
        .contains("\"" + "A".repeat(71) + "\"... (82 characters)")
        .doesNotContain("A?")
        .doesNotContain("\uD83D\"");
  }

  @Test
  void cutValuesSayWhereTheWholeValueIs() throws Exception {
    String template = "{% for message in messages %}" + "x".repeat(200) + "{% endfor %}";
    Path model = modelWithString("long.gguf", "tokenizer.chat_template", template);
    CliRunner.Result report = CliRunner.run("inspect-model-artifact", model.toString());
    assertThat(report.status()).isZero();
    // The hint names only ways that give the whole value: a readable page cuts it too.
    assertThat(report.out())
        .contains(
            "(strings are cut at 72 characters: --json gives them whole, as does"
                + " inspect-analysis-view --json with \"keys\" for a value that fits its 64 KiB"
                + " page)");
    assertThat(report.out()).contains("(names this report; each run has its own)");

    Path ev = dir.resolve("ev.json");
    assertThat(
            CliRunner.run("inspect-model-artifact", model.toString(), "--evidence_output", ev.toString())
                .status())
        .isZero();
    CliRunner.Result page =
        CliRunner.run(
            "inspect-analysis-view", "--source", ev.toString(), "--view",
            "{\"kind\":\"model-artifact\",\"collection\":\"metadata\",\"keys\":[\"tokenizer.chat_template\"]}");
    assertThat(page.status()).as(page.err()).isZero();
    assertThat(page.out()).contains("cells are cut at 60 characters: add --json");
    assertThat(page.out()).doesNotContain(template);
    CliRunner.Result whole =
        CliRunner.run(
            "inspect-analysis-view", "--source", ev.toString(), "--json", "--view",
            "{\"kind\":\"model-artifact\",\"collection\":\"metadata\",\"keys\":[\"tokenizer.chat_template\"]}");
    assertThat(whole.json().get("rows").get(0).get("value").asString()).isEqualTo(template);

    CliRunner.Result noKind =
        CliRunner.run(
            "inspect-analysis-view", "--source", ev.toString(), "--view",
            "{\"collection\":\"metadata\"}");
    assertThat(noKind.status()).isEqualTo(2);
    assertThat(noKind.err()).contains("add \"kind\":\"model-artifact\" to the view object");
  }

  @Test
  void aFileCutShortOfItsTensorDataSaysItMayBeTruncated() throws Exception {
    byte[] whole =
        dev.rea.core.internal.format.gguf.GgufBuilder.v3()
            .kv("general.architecture", dev.rea.core.internal.format.gguf.GgufBuilder.str("llama"))
            .tensor("w", 0, 1024)
            .bytes();
    Path cut = dir.resolve("cut.gguf");
    Files.write(cut, java.util.Arrays.copyOf(whole, whole.length - 100));
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", cut.toString());
    assertThat(r.status()).isEqualTo(3);
    assertThat(r.err()).contains("ends past the end of the file").contains("incomplete download");
  }

  @Test
  void problemsWithTrustedKeysAreWarnedAbout() throws Exception {
    Path home = dir.resolve("warn-home");
    Path model = GgufTesting.resourceFile(dir, "real/ollama_ollama-llama-2-tiny-random.gguf.gz");
    assertThat(CliRunner.runWithHome(home, "inspect-model-artifact", model.toString(), "--json").status())
        .isZero();
    Path trusted = Files.createDirectories(home.resolve("trusted"));
    Files.writeString(trusted.resolve("colleague.pem"), "not a key");
    CliRunner.Result r = CliRunner.runWithHome(home, "inspect-model-artifact", model.toString(), "--json");
    assertThat(r.status()).isZero();
    assertThat(r.err()).contains("rea: warning: colleague.pem");
  }
}
