package dev.rea.core.internal.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ErrorCode;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.testing.TestRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EvidenceVerifierTest {
  @TempDir Path tmp;
  KeyRing ring;
  EvidenceSigner signer;
  EvidenceVerifier verifier;

  @BeforeEach
  void setUp() throws ReaException {
    ring = KeyRing.open(tmp.resolve("home"));
    signer = new EvidenceSigner(ring);
    verifier = EvidenceVerifier.standard(ring);
  }

  static ReaException rejected(ThrowingRunnable r) {
    try {
      r.run();
    } catch (ReaException e) {
      assertThat(e.constraint()).isEqualTo(Constraint.EVIDENCE_REJECTED);
      assertThat(e.code()).isEqualTo(ErrorCode.INVALID_INPUT);
      return e;
    }
    throw new AssertionError("expected evidence_rejected");
  }

  interface ThrowingRunnable {
    void run() throws ReaException;
  }

  @Test
  void signedRecordRoundTripsThroughImport() throws ReaException {
    EvidenceRecord signed = signer.sign(TestRecords.small());
    assertThat(signed.evidenceId()).isEqualTo(TestRecords.small().evidenceId());
    assertThat(signed.authentication().keyId()).isEqualTo(ring.keyId()).startsWith("sha256:");
    byte[] json = EvidenceJson.recordBytes(signed, true);
    EvidenceVerifier.Verified v = verifier.importVerified(json);
    assertThat(v.bundle()).isFalse();
    assertThat(v.records()).containsExactly(signed);
    verifier.verify(signed);
  }

  @Test
  void signingAFreshRecordGivesWhatIdentifyingThenSigningGives() throws ReaException {
    EvidenceRecord small = TestRecords.manyTensors(3);
    EvidenceRecord large = TestRecords.manyTensors(5_000);
    // One below and one above the size at which the id is computed on a second thread.
    assertThat(EvidenceIds.canonicalBytes(small).length)
        .isLessThan(EvidenceSigner.SECOND_THREAD_BYTES);
    assertThat(EvidenceIds.canonicalBytes(large).length)
        .isGreaterThanOrEqualTo(EvidenceSigner.SECOND_THREAD_BYTES);
    for (EvidenceRecord fresh : List.of(small, large)) {
      EvidenceRecord together = signer.signFresh(fresh.withEvidenceId(null));
      assertThat(together).isEqualTo(signer.sign(fresh));
      assertThat(together.evidenceId()).isEqualTo(EvidenceIds.compute(fresh));
      verifier.verify(together);
    }
  }

  @Test
  void bundleOfTwoRoundTrips() throws ReaException {
    EvidenceRecord a = signer.sign(TestRecords.small());
    EvidenceRecord b = signer.sign(TestRecords.manyTensors(10));
    byte[] json = EvidenceJson.bundleBytes(List.of(a, b));
    EvidenceVerifier.Verified v = verifier.importVerified(json);
    assertThat(v.bundle()).isTrue();
    assertThat(v.records()).containsExactly(a, b);
  }

  @Test
  void unsignedRecordIsRefused() {
    byte[] json = EvidenceJson.recordBytes(TestRecords.small(), true);
    ReaException e = rejected(() -> verifier.importVerified(json));
    assertThat(e.field()).isEqualTo("authentication");
    assertThat(e.getMessage()).contains("not signed");
  }

  @Test
  void untrustedKeyIsRefusedUntilItsPublicKeyIsTrusted() throws Exception {
    KeyRing other = KeyRing.open(tmp.resolve("other"));
    assertThat(other.keyId()).isNotEqualTo(ring.keyId());
    EvidenceRecord foreign = new EvidenceSigner(other).sign(TestRecords.small());
    byte[] json = EvidenceJson.recordBytes(foreign, true);

    ReaException e = rejected(() -> verifier.importVerified(json));
    assertThat(e.field()).isEqualTo("authentication.key_id");
    assertThat(e.getMessage()).contains(other.keyId()).contains("not trusted");

    Path trusted = tmp.resolve("home").resolve(KeyRing.TRUSTED_DIR);
    Files.createDirectories(trusted);
    Files.copy(tmp.resolve("other").resolve(KeyRing.PUBLIC_KEY_FILE), trusted.resolve("colleague.pem"));
    KeyRing reopened = KeyRing.open(tmp.resolve("home"));
    assertThat(reopened.keyId()).isEqualTo(ring.keyId());
    assertThat(reopened.trustedKeyIds()).containsExactly(ring.keyId(), other.keyId());
    EvidenceVerifier.Verified v = EvidenceVerifier.standard(reopened).importVerified(json);
    assertThat(v.records()).containsExactly(foreign);
  }

  @Test
  void signatureByAnotherKeyUnderATrustedKeyIdIsRefused() throws Exception {
    KeyRing other = KeyRing.open(tmp.resolve("other"));
    EvidenceRecord foreign = new EvidenceSigner(other).sign(TestRecords.small());
    // Claim our key ID while keeping the other key's signature.
    EvidenceRecord forged = foreign.withAuthentication(new dev.rea.core.evidence.Authentication(
        "ed25519", ring.keyId(), foreign.authentication().signature()));
    ReaException e = rejected(() -> verifier.importVerified(EvidenceJson.recordBytes(forged, true)));
    assertThat(e.field()).isEqualTo("authentication.signature");
    assertThat(e.getMessage()).contains("does not verify");
  }

  @Test
  void changedContentWithOldIdIsRefused() throws ReaException {
    EvidenceRecord signed = signer.sign(TestRecords.small());
    String text = new String(EvidenceJson.recordBytes(signed, true), StandardCharsets.UTF_8);
    String tampered = text.replace("\"llama.context_length\",\"type\":\"UINT32\",\"value\":4096",
        "\"llama.context_length\",\"type\":\"UINT32\",\"value\":8192");
    assertThat(tampered).isNotEqualTo(text);
    ReaException e = rejected(() -> verifier.importVerified(tampered.getBytes(StandardCharsets.UTF_8)));
    assertThat(e.field()).isEqualTo("evidence_id");
    assertThat(e.getMessage()).contains("does not match the content");
  }

  @Test
  void float32WithExcessDigitsIsRefusedAsNonCanonical() throws ReaException {
    EvidenceRecord signed = signer.sign(TestRecords.small());
    String text = new String(EvidenceJson.recordBytes(signed, true), StandardCharsets.UTF_8);
    // 1.0E-5 as a float is 9.99999974737875E-6 as a double: same FLOAT32, different JSON number.
    String tampered = text.replace("\"value\":1.0E-5", "\"value\":9.99999974737875E-6");
    assertThat(tampered).isNotEqualTo(text);
    ReaException e = rejected(() -> verifier.importVerified(tampered.getBytes(StandardCharsets.UTF_8)));
    assertThat(e.getMessage()).contains("not in the form REA writes");
  }

  @Test
  void reformattedJsonWithSameMeaningIsAccepted() throws ReaException {
    EvidenceRecord signed = signer.sign(TestRecords.small());
    String text = new String(EvidenceJson.recordBytes(signed, true), StandardCharsets.UTF_8);
    String spaced = "\n  " + text.replace(",\"", ",\n  \"").replace("\":", "\" :\t") + "\n";
    EvidenceVerifier.Verified v = verifier.importVerified(spaced.getBytes(StandardCharsets.UTF_8));
    assertThat(v.records()).containsExactly(signed);
  }

  @Test
  void nonCanonicalBase64SignatureIsRefused() throws ReaException {
    EvidenceRecord signed = signer.sign(TestRecords.small());
    String sig = signed.authentication().signature();
    assertThat(sig).endsWith("==");
    // The last character before "==" carries 4 unused bits; changing them keeps the bytes.
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    int last = alphabet.indexOf(sig.charAt(sig.length() - 3));
    String alias = sig.substring(0, sig.length() - 3) + alphabet.charAt(last ^ 1) + "==";
    assertThat(java.util.Base64.getDecoder().decode(alias))
        .isEqualTo(java.util.Base64.getDecoder().decode(sig));
    EvidenceRecord forged = signed.withAuthentication(
        new dev.rea.core.evidence.Authentication("ed25519", ring.keyId(), alias));
    ReaException e = rejected(() -> verifier.importVerified(EvidenceJson.recordBytes(forged, true)));
    assertThat(e.field()).isEqualTo("authentication.signature");
    assertThat(e.getMessage()).contains("canonical base64");
  }
  /** Records every stage the verifier reports, as "STAGE n". */
  static final class Stages implements EvidenceVerifier.Observer {
    final List<String> seen = new java.util.ArrayList<>();

    @Override
    public void reached(EvidenceVerifier.Stage stage, int n) {
      seen.add(stage + " " + n);
    }
  }

  private EvidenceVerifier observed(KeyRing r, Stages stages) {
    return new EvidenceVerifier(r, dev.rea.core.internal.evidence.EvidenceImport.standard(),
        dev.rea.core.options.Limits.defaults(), stages);
  }

  private static String text(byte[] json) {
    return new String(json, StandardCharsets.UTF_8);
  }

  /** @return the UTF-8 byte offset of the first {@code needle} in {@code json} */
  private static long byteOffset(byte[] json, String needle) {
    String t = text(json);
    int i = t.indexOf(needle);
    assertThat(i).isNotNegative();
    return t.substring(0, i).getBytes(StandardCharsets.UTF_8).length;
  }

  @Test
  void aLargeRecordByAnUntrustedKeyIsRefusedByTheScreenBeforeAnythingIsBuilt() throws Exception {
    // A complete, valid record of 50,000 tensor rows signed by a key this ring does not trust.
    KeyRing other = KeyRing.open(tmp.resolve("other"));
    EvidenceRecord foreign = new EvidenceSigner(other).sign(TestRecords.manyTensors(50_000));
    byte[] json = EvidenceJson.recordBytes(foreign, true);
    assertThat(json.length).isGreaterThan(5_000_000);
    long keyIdAt = byteOffset(json, "\"" + other.keyId() + "\"");
    assertThat(keyIdAt).isPositive();

    Stages stages = new Stages();
    ReaException e = rejected(() -> observed(ring, stages).importVerified(json));
    assertThat(e.field()).isEqualTo("authentication.key_id");
    assertThat(e.offset()).isEqualTo(keyIdAt);
    assertThat(e.getMessage()).isEqualTo("evidence rejected at authentication.key_id: the record"
        + " is signed by key " + other.keyId() + ", which is not trusted; place its public key in "
        + tmp.resolve("home").resolve(KeyRing.TRUSTED_DIR) + " to trust it (byte " + keyIdAt + ")");
    // Nothing past the screen ran: no record built, no canonical form, no signature check.
    assertThat(stages.seen).isEmpty();

    // The same bytes, once the key is trusted, go all the way (so the screen was what stopped them).
    Path trusted = Files.createDirectories(tmp.resolve("home").resolve(KeyRing.TRUSTED_DIR));
    Files.copy(tmp.resolve("other").resolve(KeyRing.PUBLIC_KEY_FILE), trusted.resolve("o.pem"));
    Stages all = new Stages();
    EvidenceVerifier.Verified v = observed(KeyRing.open(tmp.resolve("home")), all)
        .importVerified(json);
    assertThat(v.records()).hasSize(1);
    assertThat(all.seen).containsExactly("AUTHENTICATION_SCREENED 1", "RECORDS_BUILT 1",
        "CANONICAL_FORM_BUILT 0", "SIGNATURE_VERIFIED 0");
  }

  @Test
  void aForgedKeyIdOfZerosInABundleIsRefusedBeforeEarlierRecordsAreBuilt() throws Exception {
    EvidenceRecord good = signer.sign(TestRecords.small());
    EvidenceRecord big = signer.sign(TestRecords.manyTensors(2_000));
    String zeros = "sha256:" + "0".repeat(64);
    EvidenceRecord forged = big.withAuthentication(new dev.rea.core.evidence.Authentication(
        "ed25519", zeros, big.authentication().signature()));
    byte[] json = EvidenceJson.bundleBytes(List.of(good, forged));
    Stages stages = new Stages();
    ReaException e = rejected(() -> observed(ring, stages).importVerified(json));
    assertThat(e.field()).isEqualTo("records[1].authentication.key_id");
    assertThat(e.offset()).isEqualTo(byteOffset(json, "\"" + zeros + "\""));
    assertThat(e.getMessage()).contains("signed by key " + zeros + ", which is not trusted")
        .contains("place its public key in " + tmp.resolve("home").resolve(KeyRing.TRUSTED_DIR));
    assertThat(stages.seen).isEmpty();
  }

  /** Rewrites the authentication object of a signed small record and expects the screen's refusal. */
  private ReaException screened(String replacement) throws ReaException {
    EvidenceRecord signed = signer.sign(TestRecords.small());
    String json = text(EvidenceJson.recordBytes(signed, true));
    int at = json.indexOf(",\"authentication\":");
    assertThat(at).isPositive();
    int end = json.indexOf('}', at) + 1;
    String forged = json.substring(0, at) + replacement + json.substring(end);
    Stages stages = new Stages();
    ReaException e = rejected(
        () -> observed(ring, stages).importVerified(forged.getBytes(StandardCharsets.UTF_8)));
    assertThat(stages.seen).isEmpty();
    return e;
  }

  @Test
  void theScreenRefusesEachMalformedAuthenticationWithItsField() throws ReaException {
    String sig = "\"signature\":\"" + "A".repeat(86) + "==\"";
    String key = "\"key_id\":\"" + ring.keyId() + "\"";

    ReaException e = screened("");
    assertThat(e.field()).isEqualTo("authentication");
    assertThat(e.getMessage()).contains("the record is not signed");
    assertThat(e.offset()).isEqualTo(0L);

    e = screened(",\"authentication\":\"ed25519\"");
    assertThat(e.field()).isEqualTo("authentication");
    assertThat(e.getMessage()).contains("expected an object");

    e = screened(",\"authentication\":{\"scheme\":\"rsa\"," + key + "," + sig + "}");
    assertThat(e.field()).isEqualTo("authentication.scheme");
    assertThat(e.getMessage()).contains("scheme must be ed25519");

    e = screened(",\"authentication\":{\"scheme\":\"ed25519\",\"key_id\":\"sha256:ABC\"," + sig + "}");
    assertThat(e.field()).isEqualTo("authentication.key_id");
    assertThat(e.getMessage()).contains("key_id must be sha256: and 64 lowercase hex digits");

    e = screened(",\"authentication\":{\"scheme\":\"ed25519\"," + key + ",\"signature\":\"abc\"}");
    assertThat(e.field()).isEqualTo("authentication.signature");
    assertThat(e.getMessage()).contains("not the canonical base64 of 64 bytes");

    e = screened(",\"authentication\":{\"scheme\":\"ed25519\"," + key + "}");
    assertThat(e.field()).isEqualTo("authentication.signature");
    assertThat(e.getMessage()).contains("required property authentication.signature is missing");

    e = screened(",\"authentication\":{\"scheme\":\"ed25519\"," + key + "," + sig
        + ",\"extra\":1}");
    assertThat(e.field()).isEqualTo("authentication.extra");
    assertThat(e.getMessage()).contains("unknown property");

    e = screened(",\"authentication\":{\"scheme\":\"ed25519\",\"key_id\":7," + sig + "}");
    assertThat(e.field()).isEqualTo("authentication.key_id");
    assertThat(e.getMessage()).contains("expected a string");
  }

  @Test
  void aRecordForgedUnderTheIdentityKeyIsRefused() throws Exception {
    // The identity point as a "trusted" key: R = identity, S = 0 verifies any message with it.
    byte[] spki = KeyRingTest.IDENTITY_SPKI;
    Path trusted = Files.createDirectories(tmp.resolve("home").resolve(KeyRing.TRUSTED_DIR));
    Files.writeString(trusted.resolve("identity.pem"), KeyRingTest.pem(spki));
    String identityId = "sha256:" + java.util.HexFormat.of()
        .formatHex(dev.rea.core.internal.evidence.EvidenceIds.sha256().digest(spki));
    EvidenceRecord record = TestRecords.small();
    byte[] rs = java.util.HexFormat.of().parseHex("01" + "00".repeat(63));
    EvidenceRecord forged = record.withAuthentication(new dev.rea.core.evidence.Authentication(
        "ed25519", identityId, java.util.Base64.getEncoder().encodeToString(rs)));

    KeyRing reopened = KeyRing.open(tmp.resolve("home"));
    assertThat(reopened.problems()).hasSize(1);
    assertThat(reopened.problems().get(0))
        .startsWith("identity.pem: holds no usable Ed25519 public key: its point has small order");
    assertThat(reopened.trustedKeyIds()).containsExactly(reopened.keyId());

    Stages stages = new Stages();
    ReaException e = rejected(() -> observed(reopened, stages)
        .importVerified(EvidenceJson.recordBytes(forged, true)));
    assertThat(e.field()).isEqualTo("authentication.key_id");
    assertThat(e.getMessage()).contains(identityId).contains("not trusted");
    assertThat(stages.seen).isEmpty();
    // Held in memory (an inline record), it is refused the same way.
    ReaException inline = rejected(() -> EvidenceVerifier.standard(reopened).verify(forged));
    assertThat(inline.field()).isEqualTo("authentication.key_id");
  }
}
