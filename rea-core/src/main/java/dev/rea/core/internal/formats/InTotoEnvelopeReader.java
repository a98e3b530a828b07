package dev.rea.core.internal.formats;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.auth.KeyRing;
import dev.rea.core.internal.evidence.EvidenceImport;
import dev.rea.core.internal.formats.InTotoAttestation.Subject;
import dev.rea.core.internal.io.StrictJson;
import dev.rea.core.options.Limits;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import tools.jackson.core.JsonToken;

/**
 * Reads and verifies a REA in-toto attestation ({@link InTotoAttestation}) so that its Evidence
 * can be imported: the DSSE envelope ({@link Dsse#read}), its {@code payloadType}, at least one
 * signature by a trusted key over the pre-authentication encoding ({@link Dsse#pae}), then the
 * Statement: {@code _type}, {@code subject}, {@code predicateType} and the {@code predicate}
 * object, whose exact bytes are handed back for {@link EvidenceImport} and the Evidence
 * verifier, which check the record or bundle itself (this class does not).
 *
 * <p>Keys: each signature is checked with the trusted key its {@code keyid} names; a signature
 * whose {@code keyid} is empty or names no trusted key is checked with every trusted key, since
 * DSSE's {@code keyid} is an unauthenticated hint that may only narrow the choice. Signatures
 * that do not verify are skipped, as DSSE's protocol says; one that verifies suffices.
 *
 * <p>Bounds: the envelope's size ({@link #maxEnvelopeBytes()}: the base64 of the largest
 * accepted payload, plus 64 KiB), the payload's size ({@link #maxPayloadBytes()}: the largest
 * Evidence input plus 1 MiB for the Statement around it), the envelope's depth ({@link
 * Dsse#MAX_DEPTH}), the Statement's depth (the Evidence import's depth plus one), at most {@link
 * Dsse#MAX_SIGNATURES} signatures. Every size is checked before anything is decoded from it.
 *
 * <p>Unknown properties of the envelope and the Statement are ignored (DSSE and in-toto require
 * consumers to); duplicate keys anywhere are refused. Every failure is {@code invalid_input} /
 * {@code evidence_rejected} naming the field ({@code payloadType}, {@code signatures}, {@code
 * payload._type}, {@code payload.subject[i].digest.sha256}, ...) and the byte offset (in the
 * envelope, or for {@code payload.*} fields in the decoded payload). Thread-safe.
 */
public final class InTotoEnvelopeReader {
  private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");

  private final KeyRing ring;
  private final long maxPayloadBytes;
  private final int maxStatementDepth;

  /**
   * @param ring the trusted keys ({@link KeyRing#trustedKeyIds()})
   * @param maxPayloadBytes the largest decoded payload accepted, in bytes
   * @param maxPredicateDepth the deepest container nesting accepted inside the predicate (the
   *     predicate object itself is 1)
   */
  public InTotoEnvelopeReader(KeyRing ring, long maxPayloadBytes, int maxPredicateDepth) {
    this.ring = Objects.requireNonNull(ring, "ring");
    if (maxPayloadBytes <= 0 || maxPayloadBytes > Integer.MAX_VALUE / 2) {
      throw new IllegalArgumentException("maxPayloadBytes out of range: " + maxPayloadBytes);
    }
    this.maxPayloadBytes = maxPayloadBytes;
    this.maxStatementDepth = maxPredicateDepth + 1;
  }

  /**
   * A reader whose payload may hold any Evidence the standard importer accepts: {@link
   * Limits#evidenceInputBytes()} plus 1 MiB, predicate depth {@link EvidenceImport#maxDepth()}.
   */
  public static InTotoEnvelopeReader standard(KeyRing ring) {
    EvidenceImport importer = EvidenceImport.standard();
    return new InTotoEnvelopeReader(
        ring, Limits.defaults().evidenceInputBytes() + (1 << 20), importer.maxDepth());
  }

  /** @return the largest decoded payload accepted, in bytes */
  public long maxPayloadBytes() {
    return maxPayloadBytes;
  }

  /** @return the largest envelope accepted, in bytes */
  public long maxEnvelopeBytes() {
    return (maxPayloadBytes + 2) / 3 * 4 + 64 * 1024;
  }

  /**
   * What a verified envelope holds. A class rather than a record because it holds the
   * predicate's bytes, which a record would compare by reference.
   */
  public static final class Verified {
    private final String keyId;
    private final List<Subject> subjects;
    private final byte[] predicate;

    /**
     * @param keyId the ID of the trusted key whose signature verified, computed from that key
     *     (the envelope's own hint is not trusted)
     * @param subjects the Statement's subjects, in order
     * @param predicate the predicate object's UTF-8 JSON, byte for byte as in the payload
     */
    public Verified(String keyId, List<Subject> subjects, byte[] predicate) {
      this.keyId = Objects.requireNonNull(keyId, "keyId");
      this.subjects = List.copyOf(subjects);
      this.predicate = Objects.requireNonNull(predicate, "predicate");
    }

    /** @return the ID of the trusted key whose signature verified */
    public String keyId() {
      return keyId;
    }

    /** @return the Statement's subjects, in order */
    public List<Subject> subjects() {
      return subjects;
    }

    /**
     * @return the predicate object's UTF-8 JSON, byte for byte as in the payload (the array
     *     itself, a copy of the payload's range: the caller may keep it)
     */
    public byte[] predicate() {
      return predicate;
    }
  }

  /**
   * @param json any JSON text
   * @return whether it is shaped as a DSSE envelope: a top-level object with {@code payloadType}
   *     and {@code payload} and without {@code schema} (which every Evidence record and bundle
   *     has), wherever in the object they are (REA writes {@code payload} first, so a large
   *     envelope's {@code payloadType} comes after megabytes of base64). Only a hint for choosing
   *     a reader; {@link #read} decides. Text that is not such an object, or not JSON, is judged
   *     by its first MiB: whether the names appear there.
   */
  public static boolean looksLikeEnvelope(byte[] json) {
    try (tools.jackson.core.JsonParser p = StrictJson.hintParser(json)) {
      if (p.nextToken() == JsonToken.START_OBJECT) {
        boolean payload = false;
        boolean type = false;
        boolean schema = false;
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
          String name = p.currentName();
          payload |= name.equals("payload");
          type |= name.equals("payloadType");
          schema |= name.equals("schema");
          p.nextToken();
          p.skipChildren();
        }
        if (p.currentToken() == JsonToken.END_OBJECT) {
          return payload && type && !schema;
        }
      }
    } catch (tools.jackson.core.JacksonException notJson) {
      // Judged by its start below; the reader chosen says what is wrong.
    }
    int n = Math.min(json.length, 1 << 20);
    String head = new String(json, 0, n, java.nio.charset.StandardCharsets.UTF_8);
    return head.contains("\"payloadType\"")
        && head.contains("\"payload\"")
        && !head.contains("\"schema\"");
  }

  /**
   * Verifies an envelope and reads its Statement.
   *
   * @param envelope the envelope's UTF-8 JSON
   * @return the verifying key, the subjects and the predicate's bytes
   * @throws ReaException {@code evidence_rejected}: the envelope is malformed or too large, its
   *     {@code payloadType} is not {@value InTotoAttestation#PAYLOAD_TYPE}, no signature verifies
   *     with a trusted key (the message names the {@code trusted/} directory), or the Statement is
   *     malformed, of another {@code _type} or {@code predicateType}, or has no subject
   */
  public Verified read(byte[] envelope) throws ReaException {
    Dsse.Envelope e = Dsse.read(envelope, maxEnvelopeBytes());
    if (!InTotoAttestation.PAYLOAD_TYPE.equals(e.payloadType())) {
      throw reject(
          "payloadType",
          "payloadType must be "
              + InTotoAttestation.PAYLOAD_TYPE
              + ", found "
              + ReaException.truncateForMessage(e.payloadType()));
    }
    if (e.payload().length > maxPayloadBytes) {
      throw reject(
          "payload",
          "the payload has " + e.payload().length + " bytes, over the limit of " + maxPayloadBytes);
    }
    String keyId = verifiedKey(e);
    return statement(e.payload(), keyId);
  }

  /** @return the ID of a trusted key that signed the envelope */
  private String verifiedKey(Dsse.Envelope e) throws ReaException {
    byte[] pae = Dsse.pae(e.payloadType(), e.payload());
    List<String> named = new ArrayList<>();
    // Signatures that name a trusted key and do not verify under it: the envelope was changed
    // after signing, which trusting another key would not mend.
    List<String> broken = new ArrayList<>();
    for (Dsse.Signature s : e.signatures()) {
      byte[] sig = Dsse.decodeBase64(s.sig());
      if (sig == null || sig.length != 64) {
        continue;
      }
      named.add(s.keyId().isEmpty() ? "(no keyid)" : ReaException.truncateForMessage(s.keyId()));
      PublicKey hinted = s.keyId().isEmpty() ? null : ring.trustedKey(s.keyId());
      if (hinted != null) {
        if (KeyRing.verify(hinted, pae, sig)) {
          return s.keyId();
        }
        broken.add(ReaException.truncateForMessage(s.keyId()));
        continue;
      }
      for (String id : ring.trustedKeyIds()) {
        PublicKey key = ring.trustedKey(id);
        if (key != null && KeyRing.verify(key, pae, sig)) {
          return id;
        }
      }
    }
    if (!broken.isEmpty()) {
      throw reject(
          "signatures",
          "the signature by the trusted key "
              + String.join(", ", broken)
              + " does not verify: the payload or the signature was changed after signing (the"
              + " envelope is not what that key signed)");
    }
    throw reject(
        "signatures",
        "no signature verifies with a trusted key (signatures by "
            + (named.isEmpty() ? "nobody: none is 64 bytes of base64" : String.join(", ", named))
            + "); place the signer's public key in "
            + ring.home().resolve(KeyRing.TRUSTED_DIR)
            + " to trust it");
  }

  private Verified statement(byte[] payload, String keyId) throws ReaException {
    try (StrictJson in =
        StrictJson.open(
            payload,
            maxPayloadBytes,
            maxStatementDepth,
            Constraint.EVIDENCE_REJECTED,
            "in-toto statement")) {
      in.next();
      String type = null;
      String predicateType = null;
      List<Subject> subjects = null;
      byte[] predicate = null;
      String name;
      while ((name = in.nextName()) != null) {
        switch (name) {
          case "_type" -> type = in.string(() -> "payload._type");
          case "predicateType" -> predicateType = in.string(() -> "payload.predicateType");
          case "subject" -> subjects = subjects(in);
          case "predicate" -> predicate = predicate(in, payload);
          default -> {
            in.next();
            in.skipValue();
          }
        }
      }
      long end = payload.length;
      if (!InTotoAttestation.STATEMENT_TYPE.equals(type)) {
        throw in.errorAt(
            end, "payload._type", "_type must be " + InTotoAttestation.STATEMENT_TYPE);
      }
      if (!InTotoAttestation.PREDICATE_TYPE.equals(predicateType)) {
        throw in.errorAt(
            end,
            "payload.predicateType",
            "predicateType must be " + InTotoAttestation.PREDICATE_TYPE);
      }
      if (subjects == null || subjects.isEmpty()) {
        throw in.errorAt(end, "payload.subject", "the Statement has no subject");
      }
      if (predicate == null) {
        throw in.errorAt(end, "payload.predicate", "the Statement has no predicate");
      }
      return new Verified(keyId, subjects, predicate);
    }
  }

  private static List<Subject> subjects(StrictJson in) throws ReaException {
    in.startArray(() -> "payload.subject");
    List<Subject> out = new ArrayList<>();
    while (in.nextElement()) {
      String at = "payload.subject[" + out.size() + "]";
      in.requireObject(() -> at);
      String subjectName = null;
      String sha256 = null;
      String name;
      while ((name = in.nextName()) != null) {
        if (name.equals("name")) {
          subjectName = in.string(() -> at + ".name");
        } else if (name.equals("digest")) {
          sha256 = sha256(in, at + ".digest");
        } else {
          in.next();
          in.skipValue();
        }
      }
      if (subjectName == null || sha256 == null) {
        throw in.error(at, "a subject needs a name and a digest.sha256");
      }
      out.add(new Subject(subjectName, sha256));
    }
    return out;
  }

  /** Reads a digest set, keeping its {@code sha256} (other algorithms are ignored). */
  private static String sha256(StrictJson in, String at) throws ReaException {
    in.startObject(() -> at);
    String sha256 = null;
    String name;
    while ((name = in.nextName()) != null) {
      if (name.equals("sha256")) {
        sha256 = in.string(() -> at + ".sha256");
        if (!SHA256_HEX.matcher(sha256).matches()) {
          throw in.error(at + ".sha256", "sha256 must be 64 lowercase hex digits");
        }
      } else {
        in.next();
        in.skipValue();
      }
    }
    if (sha256 == null) {
      throw in.error(at, "the digest has no sha256");
    }
    return sha256;
  }

  /** @return the bytes of the predicate object, from its opening to its closing brace */
  private static byte[] predicate(StrictJson in, byte[] payload) throws ReaException {
    if (in.next() != JsonToken.START_OBJECT) {
      throw in.error("payload.predicate", "the predicate must be an object");
    }
    long start = in.offset();
    in.skipValue();
    long end = in.parser().currentLocation().getByteOffset();
    if (start < 0 || end <= start || end > payload.length || payload[(int) end - 1] != '}') {
      throw in.error("payload.predicate", "the predicate's extent could not be located");
    }
    return Arrays.copyOfRange(payload, (int) start, (int) end);
  }

  /**
   * Checks that the Statement's subjects are those of the files whose Evidence its predicate
   * holds: the same count, and in order the same base name and full SHA-256 ({@link
   * InTotoAttestation#subjectOf}).
   *
   * @param subjects the verified Statement's subjects
   * @param files the imported records that describe a file (for a set, its members in order)
   * @throws ReaException {@code evidence_rejected} at {@code payload.subject} on any difference
   */
  public static void checkSubjects(List<Subject> subjects, List<EvidenceRecord> files)
      throws ReaException {
    if (subjects.size() != files.size()) {
      throw reject(
          "payload.subject",
          "the Statement has "
              + subjects.size()
              + " subjects but its predicate describes "
              + files.size()
              + " files");
    }
    for (int i = 0; i < files.size(); i++) {
      EvidenceRecord r = files.get(i);
      Subject s = subjects.get(i);
      String name = InTotoAttestation.baseName(r.artifact().path());
      String sha = r.subject() == null ? null : r.subject().sha256();
      if (!s.name().equals(name) || !s.sha256().equals(sha)) {
        throw reject(
            "payload.subject[" + i + "]",
            "subject "
                + ReaException.truncateForMessage(s.name())
                + " sha256:"
                + s.sha256()
                + " is not the file the predicate describes ("
                + ReaException.truncateForMessage(name)
                + (sha == null ? ", without a full SHA-256)" : " sha256:" + sha + ")"));
      }
    }
  }

  private static ReaException reject(String field, String reason) {
    return ReaException.builder(
            Constraint.EVIDENCE_REJECTED, "in-toto envelope rejected: " + reason + " at " + field)
        .field(field)
        .diagnostic("reason", reason)
        .build();
  }
}
