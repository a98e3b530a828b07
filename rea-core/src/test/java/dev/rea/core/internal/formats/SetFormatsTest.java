package dev.rea.core.internal.formats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.Rea;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.evidence.SetInspection;
import dev.rea.core.internal.auth.KeyRing;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.testing.SetFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.cyclonedx.Version;
import org.cyclonedx.parsers.JsonParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A model set's Evidence in the standard formats (CONTRACT section 13), through the front door
 * ({@link Rea#inTotoEnvelope(ModelSetRecord, List)}, {@link Rea#cycloneDxBom(ModelSetRecord,
 * List)}) for a safetensors checkpoint with an index and a GGUF split set: the BOM validated
 * with cyclonedx-core-java's 1.6 JSON schema validator, the attestation's subjects checked
 * against digests computed here with the JDK, and its envelope read back with REA's key.
 */
class SetFormatsTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path dir;

  private record Inspected(Rea rea, ModelSetRecord set, List<EvidenceRecord> members) {}

  private Inspected inspect(Path path, HashMode hash) throws ReaException {
    Rea rea = Rea.builder().home(dir.resolve("home")).build();
    List<EvidenceRecord> members = new ArrayList<>();
    SetInspection.Complete done =
        rea.inspectSet(path, InspectOptions.builder().hash(hash).build(), (k, r) -> members.add(rea.sign(r)))
            .orThrow();
    return new Inspected(rea, rea.sign(done.set()), members);
  }

  private Path safetensorsIndex() {
    return SetFixtures.checkpoint(mkdir("st"), 3, 4).index;
  }

  private Path ggufSplit() {
    return SetFixtures.ggufSplit(mkdir("gguf"), "Tiny-Q8_0", 3, 2, 2).get(1);
  }

  private Path mkdir(String name) {
    try {
      return Files.createDirectories(dir.resolve(name));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aSafetensorsIndexSetIsOneValidatedParentComponentWithAComponentPerShard() throws Exception {
    Inspected s = inspect(safetensorsIndex(), HashMode.FULL);
    byte[] bom = Rea.cycloneDxBom(s.set(), s.members());
    assertThat(new JsonParser().validate(bom, Version.VERSION_16)).isEmpty();
    JsonNode parent = JSON.readTree(bom).get("components").get(0);
    assertThat(parent.get("type").asString()).isEqualTo("machine-learning-model");
    assertThat(parent.get("name").asString()).isEqualTo("model.safetensors.index.json");
    assertThat(parent.get("bom-ref").asString()).isEqualTo(s.set().evidenceId());
    assertThat(property(parent, "rea:set_kind")).isEqualTo("safetensors_index");
    assertThat(property(parent, "rea:member_count")).isEqualTo("3");
    assertThat(property(parent, "rea:tensor_count")).isEqualTo("12");
    assertThat(property(parent, "rea:index_sha256"))
        .isEqualTo(sha256(dir.resolve("st").resolve("model.safetensors.index.json")));
    JsonNode members = parent.get("components");
    assertThat(members).hasSize(3);
    for (int i = 0; i < 3; i++) {
      String name = "model-0000" + (i + 1) + "-of-00003.safetensors";
      assertThat(members.get(i).get("name").asString()).isEqualTo(name);
      assertThat(members.get(i).get("hashes").get(0).get("content").asString())
          .isEqualTo(sha256(dir.resolve("st").resolve(name)));
      assertThat(property(members.get(i), "rea:evidence_id"))
          .isEqualTo(s.set().members().get(i).evidenceId());
    }
  }

  @Test
  void aGgufSplitSetIsNamedByItsPrefixAndValidates() throws Exception {
    Inspected s = inspect(ggufSplit(), HashMode.HEADER);
    byte[] bom = Rea.cycloneDxBom(s.set(), s.members());
    assertThat(new JsonParser().validate(bom, Version.VERSION_16)).isEmpty();
    JsonNode parent = JSON.readTree(bom).get("components").get(0);
    assertThat(parent.get("name").asString()).isEqualTo("Tiny-Q8_0");
    assertThat(property(parent, "rea:set_kind")).isEqualTo("gguf_split");
    assertThat(parent.get("components")).hasSize(3);
    // A header-only read has no file digest: no hashes, the header digest as a property.
    assertThat(parent.get("components").get(0).has("hashes")).isFalse();
    assertThat(property(parent.get("components").get(2), "rea:header_sha256"))
        .isEqualTo(s.members().get(2).artifact().headerSha256());
  }

  @Test
  void theSetAttestationNamesEveryMemberByItsDigestAndCarriesTheBundle() throws Exception {
    Path any = ggufSplit();
    Inspected s = inspect(any, HashMode.FULL);
    byte[] envelope = s.rea().inTotoEnvelope(s.set(), s.members());
    KeyRing ring = KeyRing.openForReading(dir.resolve("home"));
    InTotoEnvelopeReader.Verified v = InTotoEnvelopeReader.standard(ring).read(envelope);
    assertThat(v.subjects()).hasSize(3);
    for (int i = 0; i < 3; i++) {
      String name = SetFixtures.splitName("Tiny-Q8_0", i + 1, 3);
      assertThat(v.subjects().get(i).name()).isEqualTo(name);
      assertThat(v.subjects().get(i).sha256()).isEqualTo(sha256(any.resolveSibling(name)));
    }
    JsonNode statement =
        JSON.readTree(Base64.getDecoder().decode(JSON.readTree(envelope).get("payload").asString()));
    JsonNode records = statement.get("predicate").get("records");
    assertThat(statement.get("predicate").get("schema").asString()).isEqualTo("rea.bundle.v1");
    assertThat(records).hasSize(4);
    assertThat(records.get(0).get("evidence_id").asString()).isEqualTo(s.set().evidenceId());
    // The predicate is the bundle inspect-model-set --json prints: REA reads it back as a set.
    assertThat(s.rea().readSetEvidence(v.predicate()).evidenceId()).isEqualTo(s.set().evidenceId());
  }

  @Test
  void aSetReadForItsHeadersOnlyHasNoSubjects() throws Exception {
    Inspected s = inspect(safetensorsIndex(), HashMode.HEADER);
    assertThatThrownBy(() -> s.rea().inTotoEnvelope(s.set(), s.members()))
        .isInstanceOf(ReaException.class)
        .hasMessageContaining("--hash full");
  }

  private static String property(JsonNode component, String name) {
    for (JsonNode p : component.get("properties")) {
      if (p.get("name").asString().equals(name)) {
        return p.get("value").asString();
      }
    }
    throw new AssertionError("no property " + name + " in " + component);
  }

  private static String sha256(Path file) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
  }
}
