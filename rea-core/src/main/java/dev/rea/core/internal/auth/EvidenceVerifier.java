package dev.rea.core.internal.auth;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Authentication;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.evidence.EvidenceImport;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.internal.evidence.RecordChecks;
import dev.rea.core.options.Limits;
import java.io.OutputStream;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Authenticates Evidence before anything is indexed (CONTRACT section 5).
 *
 * <p>First, before any record is built, a cheap screen ({@link EvidenceImport#check}: bounds and
 * syntax; then {@link EvidenceImport.Checked#screenAuthentication}: one streaming pass, no tree)
 * refuses an input in which any record has no {@code authentication}, a scheme other than {@code
 * ed25519}, a malformed {@code key_id} or {@code signature}, or a {@code key_id} that the {@link
 * KeyRing} does not trust. So Evidence nobody trusted signed costs one pass of the tokenizer,
 * never the record objects, indices and canonical forms below (whose size follows the input's).
 *
 * <p>Then, for each record:
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
  private final Observer observer;

  /** The steps of {@link #importVerified}, in order, as reported to an {@link Observer}. */
  public enum Stage {
    /** Every record's {@code authentication} passed the screen; {@code n} = records screened. */
    AUTHENTICATION_SCREENED,
    /** Every record object was built and passed {@link RecordChecks}; {@code n} = records. */
    RECORDS_BUILT,
    /** Record {@code n}'s canonical form was built and matched the record as understood. */
    CANONICAL_FORM_BUILT,
    /** Record {@code n}'s identity and signature were verified. */
    SIGNATURE_VERIFIED
  }

  /**
   * Told each step {@link #importVerified} completes (a seam for tests that check which work an
   * input caused, and for diagnostics). Called on the verifying thread; must not throw.
   */
  @FunctionalInterface
  public interface Observer {
    /**
     * @param stage the step completed
     * @param n a count or a record index, as the stage says
     */
    void reached(Stage stage, int n);
  }

  /**
   * @param ring trusted keys
   * @param importer the strict importer (its limits bound the input)
   * @param limits preview and nesting bounds for {@link RecordChecks}
   */
  public EvidenceVerifier(KeyRing ring, EvidenceImport importer, Limits limits) {
    this(ring, importer, limits, (stage, n) -> {});
  }

  /**
   * @param ring trusted keys
   * @param importer the strict importer (its limits bound the input)
   * @param limits preview and nesting bounds for {@link RecordChecks}
   * @param observer told each step {@link #importVerified} completes
   */
  public EvidenceVerifier(KeyRing ring, EvidenceImport importer, Limits limits, Observer observer) {
    this.ring = Objects.requireNonNull(ring, "ring");
    this.importer = Objects.requireNonNull(importer, "importer");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.observer = Objects.requireNonNull(observer, "observer");
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
   * Imports and authenticates a record or a bundle: the screen, then the full checks (see the
   * class comment).
   *
   * @param json UTF-8 JSON text
   * @throws ReaException {@code evidence_rejected} for any failure, naming the field ({@code
   *     records[i].} prefixed in bundles) and, for the screen's refusals, the byte offset of the
   *     refused value: {@code authentication} ("the record is not signed"), {@code
   *     authentication.scheme}, {@code authentication.key_id} (malformed, or not trusted: the
   *     message names the directory to place its public key in), {@code
   *     authentication.signature}
   */
  public Verified importVerified(byte[] json) throws ReaException {
    EvidenceImport.Checked input = importer.check(json);
    int[] screened = {0};
    input.screenAuthentication(claim -> {
      screen(claim);
      screened[0]++;
    });
    observer.reached(Stage.AUTHENTICATION_SCREENED, screened[0]);
    EvidenceImport.Imported imported = input.read();
    observer.reached(Stage.RECORDS_BUILT, imported.records().size());
    List<EvidenceRecord> out = new ArrayList<>(imported.records().size());
    for (int i = 0; i < imported.records().size(); i++) {
      EvidenceImport.ImportedRecord ir = imported.records().get(i);
      String prefix = imported.bundle() ? "records[" + i + "]." : "";
      byte[] raw = canonicalize(ir, prefix);
      // The record as understood, compared as it is written (no second copy of the form).
      long differsAt = EvidenceIds.mismatch(ir.record(), raw);
      if (differsAt >= 0) {
        throw RecordChecks.reject(
            prefix.isEmpty() ? "record" : prefix.substring(0, prefix.length() - 1),
            "a value is not in the form REA writes for its declared type"
                + firstDifference(raw, differsAt));
      }
      observer.reached(Stage.CANONICAL_FORM_BUILT, i);
      check(ir.record(), raw, prefix);
      observer.reached(Stage.SIGNATURE_VERIFIED, i);
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

  /**
   * The screen: what a record's {@code authentication} alone decides (the same rules and messages
   * as {@link #check}, which still runs on every record afterwards).
   */
  private void screen(EvidenceImport.AuthenticationClaim claim) throws ReaException {
    authenticate(claim.authentication(), claim::reject);
  }

  /** Builds the refusal of one {@code authentication} member ("" for the object itself). */
  private interface Refusal {
    ReaException at(String member, String reason);
  }

  /** The trusted key a record names and its signature's bytes. */
  private record Trusted(String keyId, PublicKey key, byte[] signature) {}

  /**
   * What {@code authentication} alone decides, in order: signed at all, the scheme, the key_id's
   * spelling, a trusted key, a canonical 64-byte signature.
   */
  private Trusted authenticate(@Nullable Authentication a, Refusal refuse) throws ReaException {
    if (a == null) {
      throw refuse.at("", NOT_SIGNED);
    }
    if (!EvidenceSigner.SCHEME.equals(a.scheme())) {
      throw refuse.at("scheme", BAD_SCHEME);
    }
    if (!RecordChecks.EVIDENCE_ID.matcher(a.keyId()).matches()) {
      throw refuse.at("key_id", "key_id must be sha256: and 64 lowercase hex digits");
    }
    PublicKey key = ring.trustedKey(a.keyId());
    if (key == null) {
      throw refuse.at("key_id", untrusted(a.keyId()));
    }
    byte[] sig = signatureBytes(a.signature());
    if (sig == null) {
      throw refuse.at("signature", BAD_SIGNATURE);
    }
    return new Trusted(a.keyId(), key, sig);
  }

  private static final String NOT_SIGNED = "the record is not signed";
  private static final String BAD_SCHEME = "scheme must be ed25519";
  private static final String BAD_SIGNATURE =
      "the signature is not the canonical base64 of 64 bytes";

  private String untrusted(String keyId) {
    return "the record is signed by key "
        + keyId
        + ", which is not trusted; place its public key in "
        + ring.home().resolve(KeyRing.TRUSTED_DIR)
        + " to trust it";
  }

  /** @return the 64 signature bytes, or null unless {@code text} is their canonical base64 */
  private static byte @Nullable [] signatureBytes(String text) {
    if (text.length() != 88) {
      return null;
    }
    byte[] sig;
    try {
      sig = Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
    return sig.length == 64 && Base64.getEncoder().encodeToString(sig).equals(text) ? sig : null;
  }

  /** Identity and signature; {@link RecordChecks} has already run on {@code r}. */
  private void check(EvidenceRecord r, byte[] canonical, String prefix) throws ReaException {
    String id = EvidenceIds.idOfCanonical(canonical);
    if (!id.equals(r.evidenceId())) {
      throw RecordChecks.reject(
          prefix + "evidence_id",
          "evidence_id " + r.evidenceId() + " does not match the content (" + id + ")");
    }
    // RecordChecks has checked the key_id's spelling already; the rest is the screen's rules.
    Authentication a = r.authentication();
    Trusted trusted =
        authenticate(
            a,
            (member, why) ->
                RecordChecks.reject(
                    prefix + "authentication" + (member.isEmpty() ? "" : "." + member), why));
    if (!KeyRing.verify(trusted.key(), canonical, trusted.signature())) {
      throw RecordChecks.reject(
          prefix + "authentication.signature",
          "the signature does not verify with key " + trusted.keyId());
    }
  }

  /**
   * The canonical form of the record's text as read ({@link EvidenceIds#canonicalize}): the
   * typed record cannot stand for it, since import reads a FLOAT32 number as a float and so
   * accepts texts (excess digits) whose canonical form is not the record's.
   */
  private static byte[] canonicalize(EvidenceImport.ImportedRecord ir, String prefix)
      throws ReaException {
    try {
      return EvidenceIds.canonicalize(ir.identityFreeJson());
    } catch (RuntimeException e) {
      throw RecordChecks.reject(
          prefix.isEmpty() ? "record" : prefix.substring(0, prefix.length() - 1),
          "the record cannot be put in RFC 8785 canonical form: " + e.getMessage());
    }
  }

  /** @return where the canonical forms differ, with the text's form around that offset */
  private static String firstDifference(byte[] a, long at) {
    int i = (int) at;
    int from = Math.max(0, i - 40);
    String around =
        new String(a, from, Math.min(a.length, i + 40) - from, java.nio.charset.StandardCharsets.UTF_8);
    return " (canonical forms differ at byte " + i + ", near: " + ReaException.truncateForMessage(around) + ")";
  }
}
