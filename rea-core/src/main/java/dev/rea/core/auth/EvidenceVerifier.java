package dev.rea.core.auth;

import dev.rea.core.Limits;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Authentication;
import dev.rea.core.evidence.EvidenceIds;
import dev.rea.core.evidence.EvidenceImport;
import dev.rea.core.evidence.EvidenceJson;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.RecordChecks;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Objects;

/**
 * Authenticates Evidence before anything is indexed (CONTRACT section 5). For each record:
 *
 * <ol>
 *   <li>strict import ({@link EvidenceImport}: bounds, syntax, unknown and missing properties,
 *       value types) and {@link RecordChecks} (schema, positional indices, unique tensor names,
 *       metadata keys and type labels, derived totals);
 *   <li>the RFC 8785 canonical form of the record's own bytes without {@code evidence_id} and
 *       {@code authentication} must equal the canonical form of the record as understood (so a
 *       value REA would render differently, e.g. a FLOAT32 written with excess digits, is
 *       refused rather than silently normalised);
 *   <li>{@code evidence_id} must be {@code "sha256:" + hex(SHA-256(canonical))};
 *   <li>{@code authentication} must be present, {@code scheme: "ed25519"}, name a trusted key
 *       ({@link KeyRing#trustedKey}) and carry a canonical base64 64-byte signature that verifies
 *       over the canonical bytes.
 * </ol>
 *
 * <p>Any failure is {@code invalid_input} / {@code evidence_rejected} with the reason and the
 * field path ({@code records[i].} prefixed in bundles). Thread-safe.
 */
public final class EvidenceVerifier {
  private final KeyRing ring;
  private final EvidenceImport importer;
  private final Limits limits;

  /**
   * @param ring trusted keys
   * @param importer the strict importer (its limits bound the input)
   * @param limits preview and nesting bounds for {@link RecordChecks}
   */
  public EvidenceVerifier(KeyRing ring, EvidenceImport importer, Limits limits) {
    this.ring = Objects.requireNonNull(ring, "ring");
    this.importer = Objects.requireNonNull(importer, "importer");
    this.limits = Objects.requireNonNull(limits, "limits");
  }

  /** @return a verifier with the default import bounds and limits */
  public static EvidenceVerifier standard(KeyRing ring) {
    return new EvidenceVerifier(ring, EvidenceImport.standard(), Limits.defaults());
  }

  /** @return the importer in use (for its input bound) */
  public EvidenceImport importer() {
    return importer;
  }

  /**
   * Verified records from one input.
   *
   * @param bundle true when the input was a bundle
   * @param records the authenticated records in input order
   */
  public record Verified(boolean bundle, List<EvidenceRecord> records) {
    public Verified {
      records = List.copyOf(records);
    }
  }

  /**
   * Imports and authenticates a record or a bundle.
   *
   * @param json UTF-8 JSON text
   * @throws ReaException {@code evidence_rejected} for any failure
   */
  public Verified importVerified(byte[] json) throws ReaException {
    EvidenceImport.Imported imported = importer.read(json);
    List<EvidenceRecord> out = new ArrayList<>(imported.records().size());
    for (int i = 0; i < imported.records().size(); i++) {
      EvidenceImport.ImportedRecord ir = imported.records().get(i);
      String prefix = imported.bundle() ? "records[" + i + "]." : "";
      byte[] rendered = EvidenceJson.recordBytes(ir.record(), false);
      byte[] raw = canonicalize(ir.identityFreeJson(), prefix);
      // Byte-equal text (the usual case: REA wrote the file) needs no second canonicalisation.
      byte[] model = Arrays.equals(ir.identityFreeJson(), rendered)
          ? raw
          : EvidenceIds.canonicalize(rendered);
      if (!Arrays.equals(raw, model)) {
        throw RecordChecks.reject(
            prefix.isEmpty() ? "record" : prefix.substring(0, prefix.length() - 1),
            "a value is not in the form REA writes for its declared type"
                + firstDifference(raw, model));
      }
      check(ir.record(), raw, prefix);
      out.add(ir.record());
    }
    return new Verified(imported.bundle(), out);
  }

  /**
   * Authenticates a record held in memory (e.g. supplied inline as an object).
   *
   * @throws ReaException {@code evidence_rejected} for any failure
   */
  public void verify(EvidenceRecord record) throws ReaException {
    RecordChecks.check(record, "", limits, true);
    check(record, EvidenceIds.canonicalBytes(record), "");
  }

  /** Identity and signature; {@link RecordChecks} has already run on {@code r}. */
  private void check(EvidenceRecord r, byte[] canonical, String prefix) throws ReaException {
    String id = EvidenceIds.idOfCanonical(canonical);
    if (!id.equals(r.evidenceId())) {
      throw RecordChecks.reject(
          prefix + "evidence_id",
          "evidence_id " + r.evidenceId() + " does not match the content (" + id + ")");
    }
    Authentication a = r.authentication();
    if (a == null) {
      throw RecordChecks.reject(prefix + "authentication", "the record is not signed");
    }
    if (!EvidenceSigner.SCHEME.equals(a.scheme())) {
      throw RecordChecks.reject(prefix + "authentication.scheme", "scheme must be ed25519");
    }
    PublicKey key = ring.trustedKey(a.keyId());
    if (key == null) {
      throw RecordChecks.reject(
          prefix + "authentication.key_id",
          "the record is signed by key "
              + a.keyId()
              + ", which is not trusted; place its public key in "
              + ring.home().resolve(KeyRing.TRUSTED_DIR)
              + " to trust it");
    }
    byte[] sig;
    try {
      sig = Base64.getDecoder().decode(a.signature());
    } catch (IllegalArgumentException e) {
      sig = null;
    }
    if (sig == null
        || sig.length != 64
        || !Base64.getEncoder().encodeToString(sig).equals(a.signature())) {
      throw RecordChecks.reject(
          prefix + "authentication.signature",
          "the signature is not the canonical base64 of 64 bytes");
    }
    if (!KeyRing.verify(key, canonical, sig)) {
      throw RecordChecks.reject(
          prefix + "authentication.signature",
          "the signature does not verify with key " + a.keyId());
    }
  }

  private static byte[] canonicalize(byte[] json, String prefix) throws ReaException {
    try {
      return EvidenceIds.canonicalize(json);
    } catch (RuntimeException e) {
      throw RecordChecks.reject(
          prefix.isEmpty() ? "record" : prefix.substring(0, prefix.length() - 1),
          "the record cannot be put in RFC 8785 canonical form: " + e.getMessage());
    }
  }

  private static String firstDifference(byte[] a, byte[] b) {
    int n = Math.min(a.length, b.length);
    int i = 0;
    while (i < n && a[i] == b[i]) {
      i++;
    }
    int from = Math.max(0, i - 40);
    String around =
        new String(a, from, Math.min(a.length, i + 40) - from, java.nio.charset.StandardCharsets.UTF_8);
    return " (canonical forms differ at byte " + i + ", near: " + ReaException.truncateForMessage(around) + ")";
  }
}
