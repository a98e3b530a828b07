package dev.rea.core.internal.formats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.internal.auth.EvidenceSigner;
import dev.rea.core.internal.auth.KeyRing;
import dev.rea.core.internal.formats.FormatsTesting.Input;
import dev.rea.core.options.HashMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.cyclonedx.Version;
import org.cyclonedx.exception.ParseException;
import org.cyclonedx.model.Bom;
import org.cyclonedx.model.Component;
import org.cyclonedx.parsers.JsonParser;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The CycloneDX 1.6 BOM of CONTRACT section 13: validated with the CycloneDX library's own JSON
 * schema validator for every file of the golden test that REA gives Evidence for (committed files
 * and, when present, the shared corpus) and for a set, and read back field by field.
 */
class CycloneDxBomTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final KeyRing RING = FormatsTesting.newRing("cyclonedx");

  @TestFactory
  Stream<DynamicTest> everyCommittedFileGivesAValidBom() throws Exception {
    return perFile(FormatsTesting.committedInputs(), 60);
  }

  @TestFactory
  Stream<DynamicTest> everyCorpusFileGivesAValidBom() throws Exception {
    Optional<List<Input>> corpus = FormatsTesting.corpusInputs();
    Assumptions.assumeTrue(corpus.isPresent(), "skipped: the shared corpus is absent");
    return perFile(corpus.get(), 40);
  }

  /** One test per file REA gives Evidence for (both hash modes); at least {@code atLeast}. */
  private static Stream<DynamicTest> perFile(List<Input> inputs, int atLeast) {
    List<DynamicTest> tests = new ArrayList<>();
    for (Input in : inputs) {
      byte[] bytes = in.bytes();
      for (HashMode mode : HashMode.values()) {
        EvidenceRecord record;
        try {
          record = new EvidenceSigner(RING).sign(FormatsTesting.inspectBytes(in.name(), bytes, mode));
        } catch (ReaException refused) {
          continue;
        }
        tests.add(DynamicTest.dynamicTest(in.name() + " " + mode.wire(), () -> checkFile(record)));
      }
    }
    assertThat(tests).hasSizeGreaterThanOrEqualTo(2 * atLeast);
    return tests.stream();
  }

  private static void checkFile(EvidenceRecord r) throws Exception {
    byte[] bom = CycloneDxBom.ofFiles(List.of(r), "9.8.7");
    assertValid(bom);
    JsonNode root = JSON.readTree(bom);
    assertThat(root.get("specVersion").asString()).isEqualTo("1.6");
    assertThat(root.get("metadata").get("timestamp").asString())
        .isEqualTo(r.observedAt().replaceFirst("\\.\\d+Z$", "Z"));
    JsonNode tool = root.get("metadata").get("tools").get("components").get(0);
    assertThat(tool.get("name").asString()).isEqualTo("REA");
    assertThat(tool.get("version").asString()).isEqualTo("9.8.7");
    assertThat(root.get("components")).hasSize(1);
    checkComponent(root.get("components").get(0), r);
    // The library reads the BOM back as a machine-learning model with the same hash.
    Component parsed = new JsonParser().parse(bom).getComponents().get(0);
    assertThat(parsed.getType()).isEqualTo(Component.Type.MACHINE_LEARNING_MODEL);
    assertThat(parsed.getHashes() == null ? null : parsed.getHashes().get(0).getValue())
        .isEqualTo(r.subject() == null ? null : r.subject().sha256());
  }

  /** Checks one file's component against its record. */
  private static void checkComponent(JsonNode c, EvidenceRecord r) {
    assertThat(c.get("type").asString()).isEqualTo("machine-learning-model");
    assertThat(c.get("bom-ref").asString()).isEqualTo(r.evidenceId());
    String path = r.artifact().path();
    assertThat(c.get("name").asString()).isEqualTo(path.substring(path.lastIndexOf('/') + 1));
    if (r.subject() == null) {
      assertThat(c.has("hashes")).isFalse();
    } else {
      assertThat(c.get("hashes").get(0).get("alg").asString()).isEqualTo("SHA-256");
      assertThat(c.get("hashes").get(0).get("content").asString()).isEqualTo(r.subject().sha256());
    }
    Map<String, String> expected = new LinkedHashMap<>();
    expected.put("rea:format", r.artifact().format());
    expected.put("rea:file_size", Long.toString(r.artifact().fileSize()));
    expected.put("rea:header_sha256", r.artifact().headerSha256());
    expected.put("rea:evidence_id", r.evidenceId());
    expected.put("rea:status", r.status());
    expected.put("rea:tensor_count", Integer.toString(r.tensors().size()));
    expected.put("rea:parameter_count", r.totals().parameterCount().toString());
    if (r.totals().byteLength() != null) {
      expected.put("rea:byte_length", r.totals().byteLength().toString());
    }
    assertThat(properties(c)).containsExactlyEntriesOf(expected);
    String declared = null;
    for (MetadataRow row : r.metadata()) {
      if (row.key().equals("general.architecture") && row.value() instanceof MetadataValue.StringValue s) {
        declared = s.value();
      }
    }
    if (declared == null) {
      assertThat(c.has("modelCard")).isFalse();
    } else {
      assertThat(c.get("modelCard").get("modelParameters").get("modelArchitecture").asString())
          .isEqualTo(declared);
    }
  }

  @Test
  void theCorpusHoldsArchitecturesThatBecomeModelCards() throws Exception {
    // The committed vocabulary files declare general.architecture: their components carry it.
    EvidenceRecord r = FormatsTesting.inspectBytes(
        "llama.gguf",
        new Input("x", FormatsTesting.resource("gguf/real/ggml-vocab-llama-spm.gguf.gz")).bytes(),
        HashMode.HEADER);
    JsonNode c = JSON.readTree(CycloneDxBom.ofFiles(List.of(r), "1")).get("components").get(0);
    assertThat(c.get("modelCard").get("modelParameters").get("modelArchitecture").asString())
        .isEqualTo("llama");
  }

  @Test
  void aSetIsOneParentComponentHoldingItsMembers() throws Exception {
    List<EvidenceRecord> members = new ArrayList<>();
    for (String name : List.of("gguf-py-le-v3.gguf", "gguf-py-le-v3-align64.gguf")) {
      members.add(FormatsTesting.signed(
          RING, FormatsTesting.resource("gguf/gguf-py-writer/" + name), HashMode.FULL));
    }
    CycloneDxBom.ModelSet set =
        new CycloneDxBom.ModelSet(
            "gguf-py-le-v3", "gguf_split", "sha256:" + "ab".repeat(32),
            members.get(0).observedAt(), null, members);
    byte[] bom = CycloneDxBom.ofSet(set, "1.2.3");
    assertValid(bom);
    JsonNode root = JSON.readTree(bom);
    assertThat(root.get("components")).hasSize(1);
    JsonNode parent = root.get("components").get(0);
    assertThat(parent.get("type").asString()).isEqualTo("machine-learning-model");
    assertThat(parent.get("name").asString()).isEqualTo("gguf-py-le-v3");
    assertThat(parent.has("hashes")).isFalse();
    Map<String, String> p = properties(parent);
    assertThat(p).containsEntry("rea:set_kind", "gguf_split")
        .containsEntry("rea:member_count", "2")
        .containsEntry("rea:evidence_id", "sha256:" + "ab".repeat(32))
        .containsEntry("rea:tensor_count",
            Integer.toString(members.get(0).tensors().size() + members.get(1).tensors().size()))
        .containsEntry("rea:parameter_count",
            members.get(0).totals().parameterCount().add(members.get(1).totals().parameterCount())
                .toString())
        .doesNotContainKey("rea:index_sha256");
    assertThat(parent.get("components")).hasSize(2);
    for (int i = 0; i < 2; i++) {
      checkComponent(parent.get("components").get(i), members.get(i));
    }
    Bom parsed = new JsonParser().parse(bom);
    assertThat(parsed.getComponents().get(0).getComponents()).extracting(Component::getName)
        .containsExactly("gguf-py-le-v3.gguf", "gguf-py-le-v3-align64.gguf");
  }

  @Test
  void theSameEvidenceGivesTheSameBomAndOtherEvidenceAnotherSerialNumber() throws Exception {
    EvidenceRecord a = FormatsTesting.signed(
        RING, FormatsTesting.resource("gguf/handcrafted/ok-v3-le.gguf"), HashMode.FULL);
    EvidenceRecord b = FormatsTesting.signed(
        RING, FormatsTesting.resource("gguf/handcrafted/ok-v2-le.gguf"), HashMode.FULL);
    byte[] first = CycloneDxBom.ofFiles(List.of(a), "1");
    assertThat(CycloneDxBom.ofFiles(List.of(a), "1")).isEqualTo(first);
    assertThat(JSON.readTree(CycloneDxBom.ofFiles(List.of(b), "1")).get("serialNumber"))
        .isNotEqualTo(JSON.readTree(first).get("serialNumber"));
  }

  @Test
  void theValidatorRefusesABomThatBreaksTheSchema() throws Exception {
    EvidenceRecord r = FormatsTesting.signed(
        RING, FormatsTesting.resource("gguf/handcrafted/ok-v3-le.gguf"), HashMode.FULL);
    String bom = new String(CycloneDxBom.ofFiles(List.of(r), "1"), StandardCharsets.UTF_8);
    // Without this control, a validator that accepted everything would pass every test above.
    for (String broken :
        List.of(
            bom.replace("\"machine-learning-model\"", "\"ml-model\""),
            bom.replace("\"alg\":\"SHA-256\",\"content\":\"", "\"alg\":\"SHA-256\",\"content\":\"z"),
            bom.replace("\"specVersion\":\"1.6\",", "\"specVersion\":\"1.6\",\"extra\":1,"))) {
      assertThat(broken).isNotEqualTo(bom);
      assertThat(new JsonParser().validate(broken.getBytes(StandardCharsets.UTF_8), Version.VERSION_16))
          .isNotEmpty();
    }
  }

  private static void assertValid(byte[] bom) throws Exception {
    List<ParseException> errors = new JsonParser().validate(bom, Version.VERSION_16);
    assertThat(errors).as(new String(bom, StandardCharsets.UTF_8)).isEmpty();
  }

  private static Map<String, String> properties(JsonNode component) {
    Map<String, String> out = new LinkedHashMap<>();
    for (JsonNode p : component.get("properties")) {
      out.put(p.get("name").asString(), p.get("value").asString());
    }
    return out;
  }
}
