package dev.rea.core.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ErrorCode;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceJson;
import dev.rea.core.evidence.EvidenceRecord;
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
}
