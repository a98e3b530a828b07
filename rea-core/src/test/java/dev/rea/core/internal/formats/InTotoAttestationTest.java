package dev.rea.core.internal.formats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.auth.EvidenceVerifier;
import dev.rea.core.internal.auth.KeyRing;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.internal.formats.InTotoAttestation.Subject;
import dev.rea.core.options.HashMode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The in-toto attestation of CONTRACT section 13, checked by a verifier written here from the
 * DSSE v1.0.0 protocol (PAE and the JDK's Ed25519, sharing no code with REA's signer), and read
 * back by {@link InTotoEnvelopeReader}.
 */
class InTotoAttestationTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static KeyRing ring;
  private static EvidenceRecord full;

  @BeforeAll
  static void sign() throws Exception {
    ring = FormatsTesting.newRing("intoto");
    full = FormatsTesting.signed(
        ring, FormatsTesting.resource("gguf/gguf-py-writer/gguf-py-le-v3.gguf"), HashMode.FULL);
  }

  @Test
  void theEnvelopeVerifiesWithCodeWrittenFromTheDsseSpecificationAndNoByteCanChange()
      throws Exception {
    // A small record (about 2 KB), so that every byte can be tried within a few seconds.
    EvidenceRecord small = FormatsTesting.signed(
        ring, FormatsTesting.resource("gguf/handcrafted/ok-v3-le.gguf"), HashMode.FULL);
    byte[] envelope = InTotoAttestation.ofRecord(small, DsseSigner.of(ring));
    JsonNode root = JSON.readTree(envelope);
    String type = root.get("payloadType").asString();
    byte[] body = Base64.getDecoder().decode(root.get("payload").asString());
    JsonNode signature = root.get("signatures").get(0);
    byte[] sig = Base64.getDecoder().decode(signature.get("sig").asString());
    byte[] der = publicKeyDer(ring.home().resolve(KeyRing.PUBLIC_KEY_FILE));
    PublicKey key = KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(der));

    assertThat(type).isEqualTo("application/vnd.in-toto+json");
    assertThat(signature.get("keyid").asString())
        .isEqualTo("sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(der)));
    assertThat(verify(type, body, sig, key)).isTrue();

    // Every byte of the payload, each with one bit changed (all eight positions occur), and every
    // bit of the signature fail the independent check; REA's reader refuses every payload byte
    // of a dense sample (each fourth) and every signature byte.
    assertThat(body.length).isGreaterThan(1500);
    InTotoEnvelopeReader reader = InTotoEnvelopeReader.standard(ring);
    String keyId = signature.get("keyid").asString();
    for (int i = 0; i < body.length; i++) {
      byte[] b = body.clone();
      b[i] ^= (byte) (1 << (i % 8));
      assertThat(verify(type, b, sig, key)).as("payload byte %d", i).isFalse();
      if (i % 4 == 0) {
        assertThatThrownBy(() -> reader.read(envelopeJson(type, b, keyId, sig)))
            .as("payload byte %d", i)
            .isInstanceOf(ReaException.class)
            // The signing key is trusted: the message says the envelope changed, not to trust
            // another key.
            .hasMessageContaining("the signature by the trusted key " + keyId + " does not verify:"
                + " the payload or the signature was changed after signing");
      }
    }
    for (int i = 0; i < sig.length; i++) {
      for (int bit = 0; bit < 8; bit++) {
        byte[] s = sig.clone();
        s[i] ^= (byte) (1 << bit);
        assertThat(verify(type, body, s, key)).as("signature byte %d bit %d", i, bit).isFalse();
        if (bit == i % 8) {
          assertThatThrownBy(() -> reader.read(envelopeJson(type, body, keyId, s)))
              .as("signature byte %d", i)
              .isInstanceOf(ReaException.class);
        }
      }
    }
    // A signature that names a key nobody trusts (and that no trusted key verifies): the
    // message says which directory trusts a key.
    byte[] other = sig.clone();
    other[0] ^= 1;
    assertThatThrownBy(
            () -> reader.read(envelopeJson(type, body, "sha256:" + "0".repeat(64), other)))
        .isInstanceOf(ReaException.class)
        .hasMessageContaining("no signature verifies with a trusted key (signatures by sha256:000")
        .hasMessageContaining(KeyRing.TRUSTED_DIR);
    // The same bytes, reassembled by the test, still verify: the refusals above are the flips'.
    assertThat(reader.read(envelopeJson(type, body, keyId, sig)).predicate())
        .isEqualTo(EvidenceJson.recordBytes(small, true));
  }

  @Test
  void theStatementNamesTheFileByItsFullDigestAndHoldsTheSignedRecord() throws Exception {
    byte[] envelope = InTotoAttestation.ofRecord(full, DsseSigner.of(ring));
    JsonNode statement =
        JSON.readTree(Base64.getDecoder().decode(JSON.readTree(envelope).get("payload").asString()));
    assertThat(statement.get("_type").asString()).isEqualTo("https://in-toto.io/Statement/v1");
    assertThat(statement.get("predicateType").asString()).isEqualTo("urn:rea:evidence:v1");
    assertThat(statement.get("subject")).hasSize(1);
    JsonNode subject = statement.get("subject").get(0);
    assertThat(subject.get("name").asString()).isEqualTo("gguf-py-le-v3.gguf");
    byte[] file = Files.readAllBytes(Path.of(full.artifact().path()));
    assertThat(subject.get("digest").get("sha256").asString())
        .isEqualTo(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(file)));
    assertThat(statement.get("predicate"))
        .isEqualTo(JSON.readTree(EvidenceJson.recordBytes(full, true)));
    List<String> names = List.copyOf(statement.propertyNames());
    assertThat(names).containsExactly("_type", "subject", "predicateType", "predicate");
  }

  @Test
  void theReaderHandsBackThePredicateThatEvidenceVerificationAccepts() throws Exception {
    byte[] envelope = InTotoAttestation.ofRecord(full, DsseSigner.of(ring));
    InTotoEnvelopeReader.Verified v = InTotoEnvelopeReader.standard(ring).read(envelope);
    assertThat(v.keyId()).isEqualTo(ring.keyId());
    assertThat(v.subjects())
        .containsExactly(new Subject("gguf-py-le-v3.gguf", Objects.requireNonNull(full.subject()).sha256()));
    EvidenceVerifier.Verified imported = EvidenceVerifier.standard(ring).importVerified(v.predicate());
    assertThat(imported.bundle()).isFalse();
    assertThat(imported.records()).containsExactly(full);
    InTotoEnvelopeReader.checkSubjects(v.subjects(), imported.records());
    assertThat(InTotoEnvelopeReader.looksLikeEnvelope(envelope)).isTrue();
    assertThat(InTotoEnvelopeReader.looksLikeEnvelope(EvidenceJson.recordBytes(full, true))).isFalse();
  }

  @Test
  void aHeaderHashRecordHasNoSubjectAndIsRefused() throws Exception {
    EvidenceRecord header = FormatsTesting.signed(
        ring, FormatsTesting.resource("gguf/gguf-py-writer/gguf-py-le-v3.gguf"), HashMode.HEADER);
    assertThatThrownBy(() -> InTotoAttestation.ofRecord(header, DsseSigner.of(ring)))
        .isInstanceOfSatisfying(
            ReaException.class,
            e -> {
              assertThat(e.constraint()).isEqualTo(Constraint.CONFLICTING_CHOICES);
              assertThat(e.getMessage()).contains("--hash full").contains("no subject");
              assertThat(e.path()).isEqualTo(header.artifact().path());
            });
  }

  /**
   * A base name with a line break would make {@code sha256sum --check} read two check lines, the
   * second of the name's choosing: such names, and any other control character, are refused;
   * other non-ASCII names are not.
   */
  @Test
  void aNameWithAControlCharacterIsNoSubject(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    Path model = FormatsTesting.resource("gguf/gguf-py-writer/gguf-py-le-v3.gguf");
    for (String name : List.of("a.gguf\n0000  evil.gguf", "tab\t.gguf", "del\u007f.gguf",
        "c1\u0085.gguf")) {
      Path copy = Files.copy(model, dir.resolve(name));
      EvidenceRecord r = FormatsTesting.signed(ring, copy, HashMode.FULL);
      assertThatThrownBy(() -> InTotoAttestation.ofRecord(r, DsseSigner.of(ring)))
          .as(name)
          .isInstanceOfSatisfying(
              ReaException.class,
              e -> {
                assertThat(e.constraint()).isEqualTo(Constraint.BAD_ARGUMENT);
                assertThat(e.field()).isEqualTo("subject.name");
                assertThat(e.getMessage()).contains("control character U+00").contains("rename");
              });
    }
    Path cafe = Files.copy(model, dir.resolve("caf\u00e9 model.gguf"));
    byte[] envelope =
        InTotoAttestation.ofRecord(FormatsTesting.signed(ring, cafe, HashMode.FULL), DsseSigner.of(ring));
    JsonNode statement =
        JSON.readTree(Base64.getDecoder().decode(JSON.readTree(envelope).get("payload").asString()));
    assertThat(statement.get("subject").get(0).get("name").asString()).isEqualTo("caf\u00e9 model.gguf");
  }

  @Test
  void aSetIsOneSubjectPerMemberWithTheBundleAsPredicate() throws Exception {
    EvidenceRecord second = FormatsTesting.signed(
        ring, FormatsTesting.resource("gguf/gguf-py-writer/gguf-py-le-v3-align64.gguf"), HashMode.FULL);
    List<EvidenceRecord> members = List.of(full, second);
    byte[] envelope =
        InTotoAttestation.ofFiles(
            members, g -> EvidenceJson.writeBundle(g, members), DsseSigner.of(ring));
    InTotoEnvelopeReader.Verified v = InTotoEnvelopeReader.standard(ring).read(envelope);
    assertThat(v.subjects()).extracting(Subject::name)
        .containsExactly("gguf-py-le-v3.gguf", "gguf-py-le-v3-align64.gguf");
    assertThat(v.predicate()).isEqualTo(EvidenceJson.bundleBytes(members));
    EvidenceVerifier.Verified imported = EvidenceVerifier.standard(ring).importVerified(v.predicate());
    InTotoEnvelopeReader.checkSubjects(v.subjects(), imported.records());
    // The same subjects against the records in the other order, or one record short, differ.
    assertThatThrownBy(() -> InTotoEnvelopeReader.checkSubjects(v.subjects(), List.of(second, full)))
        .isInstanceOf(ReaException.class)
        .hasMessageContaining("payload.subject[0]");
    assertThatThrownBy(() -> InTotoEnvelopeReader.checkSubjects(v.subjects(), List.of(full)))
        .hasMessageContaining("2 subjects but its predicate describes 1 files");
  }

  @Test
  void anEnvelopeSignedByAnUntrustedKeyIsRefusedNamingTheTrustedDirectory() throws Exception {
    KeyRing stranger = FormatsTesting.newRing("stranger");
    byte[] envelope = InTotoAttestation.ofRecord(full, DsseSigner.of(stranger));
    assertThatThrownBy(() -> InTotoEnvelopeReader.standard(ring).read(envelope))
        .isInstanceOfSatisfying(
            ReaException.class,
            e -> {
              assertThat(e.constraint()).isEqualTo(Constraint.EVIDENCE_REJECTED);
              assertThat(e.field()).isEqualTo("signatures");
              assertThat(e.getMessage())
                  .contains(stranger.keyId())
                  .contains(ring.home().resolve(KeyRing.TRUSTED_DIR).toString());
            });
  }

  @Test
  void theKeyIdIsOnlyAHintAndUrlSafeBase64IsAccepted() throws Exception {
    byte[] envelope = InTotoAttestation.ofRecord(full, DsseSigner.of(ring));
    JsonNode root = JSON.readTree(envelope);
    byte[] body = Base64.getDecoder().decode(root.get("payload").asString());
    byte[] sig = Base64.getDecoder().decode(root.get("signatures").get(0).get("sig").asString());
    String wrongHint = "sha256:" + "0".repeat(64);
    String urlSafe =
        "{\"payloadType\":\"application/vnd.in-toto+json\",\"extra\":{\"a\":[1]},"
            + "\"payload\":\"" + Base64.getUrlEncoder().withoutPadding().encodeToString(body)
            + "\",\"signatures\":[{\"keyid\":\"" + wrongHint + "\",\"sig\":\""
            + Base64.getUrlEncoder().withoutPadding().encodeToString(sig) + "\"}]}";
    InTotoEnvelopeReader.Verified v =
        InTotoEnvelopeReader.standard(ring).read(urlSafe.getBytes(StandardCharsets.UTF_8));
    assertThat(v.keyId()).isEqualTo(ring.keyId());
    assertThat(v.predicate()).isEqualTo(EvidenceJson.recordBytes(full, true));
  }

  @Test
  void anotherPayloadTypeOrPredicateTypeIsRefused() throws Exception {
    byte[] statement =
        InTotoAttestation.statement(
            List.of(InTotoAttestation.subjectOf(full)), g -> EvidenceJson.writeRecord(g, full, true));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Dsse.write("application/json", statement, DsseSigner.of(ring), out);
    assertThatThrownBy(() -> InTotoEnvelopeReader.standard(ring).read(out.toByteArray()))
        .isInstanceOfSatisfying(
            ReaException.class, e -> assertThat(e.field()).isEqualTo("payloadType"));

    String other = new String(statement, StandardCharsets.UTF_8)
        .replace("urn:rea:evidence:v1", "https://slsa.dev/provenance/v1");
    out.reset();
    Dsse.write(InTotoAttestation.PAYLOAD_TYPE, other.getBytes(StandardCharsets.UTF_8),
        DsseSigner.of(ring), out);
    assertThatThrownBy(() -> InTotoEnvelopeReader.standard(ring).read(out.toByteArray()))
        .isInstanceOfSatisfying(
            ReaException.class, e -> assertThat(e.field()).isEqualTo("payload.predicateType"));
  }

  @Test
  void malformedAndOversizedEnvelopesAreRefusedBeforeAnySignatureIsChecked() throws Exception {
    InTotoEnvelopeReader reader = InTotoEnvelopeReader.standard(ring);
    assertThatThrownBy(() -> reader.read(utf8("{\"payloadType\":\"x\",\"signatures\":[]}")))
        .hasMessageContaining("no payload");
    assertThatThrownBy(
            () -> reader.read(utf8("{\"payload\":\"a$b\",\"payloadType\":\"x\","
                + "\"signatures\":[{\"sig\":\"\"}]}")))
        .isInstanceOfSatisfying(ReaException.class, e -> assertThat(e.field()).isEqualTo("payload"));
    assertThatThrownBy(
            () -> reader.read(utf8("{\"payload\":\"\",\"payload\":\"\",\"payloadType\":\"x\"}")))
        .hasMessageContaining("in-toto envelope rejected");
    StringBuilder many = new StringBuilder("{\"payload\":\"\",\"payloadType\":\"x\",\"signatures\":[");
    for (int i = 0; i <= Dsse.MAX_SIGNATURES; i++) {
      many.append(i == 0 ? "" : ",").append("{\"sig\":\"\"}");
    }
    assertThatThrownBy(() -> reader.read(utf8(many + "]}")))
        .hasMessageContaining("at most " + Dsse.MAX_SIGNATURES + " signatures");

    // A payload over the reader's bound is refused by its length; an envelope over the bound on
    // the envelope (base64 of the payload bound, plus 64 KiB) is refused before it is parsed.
    byte[] envelope = InTotoAttestation.ofRecord(full, DsseSigner.of(ring));
    InTotoEnvelopeReader small = new InTotoEnvelopeReader(ring, 1024, 68);
    assertThat(small.maxEnvelopeBytes()).isEqualTo(1368 + 64 * 1024);
    assertThatThrownBy(() -> small.read(envelope))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.field()).isEqualTo("payload");
          assertThat(e.getMessage()).contains("over the limit of 1024");
        });
    String padded = new String(envelope, StandardCharsets.UTF_8)
        .replaceFirst("^\\{", "{\"pad\":\"" + "x".repeat(70_000) + "\",");
    assertThatThrownBy(() -> small.read(utf8(padded)))
        .hasMessageContaining("exceed the limit of " + small.maxEnvelopeBytes() + " bytes");
    assertThat(InTotoEnvelopeReader.standard(ring).read(utf8(padded)).keyId()).isEqualTo(ring.keyId());
  }

  @Test
  void paeIsTheDsseTestVector() {
    // protocol.md of DSSE v1.0.0, "Test Vectors".
    assertThat(new String(Dsse.pae("http://example.com/HelloWorld", utf8("hello world")),
            StandardCharsets.UTF_8))
        .isEqualTo("DSSEv1 29 http://example.com/HelloWorld 11 hello world");
  }

  /** DSSE v1.0.0 verification: Ed25519 over PAE(UTF8(type), body), PAE built here. */
  private static boolean verify(String type, byte[] body, byte[] sig, PublicKey key)
      throws Exception {
    byte[] typeBytes = type.getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream pae = new ByteArrayOutputStream();
    pae.writeBytes(("DSSEv1 " + typeBytes.length + " ").getBytes(StandardCharsets.US_ASCII));
    pae.writeBytes(typeBytes);
    pae.writeBytes((" " + body.length + " ").getBytes(StandardCharsets.US_ASCII));
    pae.writeBytes(body);
    Signature s = Signature.getInstance("Ed25519");
    s.initVerify(key);
    s.update(pae.toByteArray());
    try {
      return s.verify(sig);
    } catch (java.security.SignatureException e) {
      return false;
    }
  }

  private static byte[] publicKeyDer(Path pem) throws Exception {
    String text = Files.readString(pem)
        .replace("-----BEGIN PUBLIC KEY-----", "")
        .replace("-----END PUBLIC KEY-----", "")
        .replaceAll("\\s", "");
    return Base64.getDecoder().decode(text);
  }

  private static byte[] envelopeJson(String type, byte[] body, String keyId, byte[] sig) {
    return utf8("{\"payload\":\"" + Base64.getEncoder().encodeToString(body)
        + "\",\"payloadType\":\"" + type + "\",\"signatures\":[{\"keyid\":\"" + keyId
        + "\",\"sig\":\"" + Base64.getEncoder().encodeToString(sig) + "\"}]}");
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
