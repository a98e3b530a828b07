package dev.rea.core.internal.formats;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.evidence.EvidenceJson;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import tools.jackson.core.JsonGenerator;

/**
 * REA Evidence as an in-toto attestation (CONTRACT section 13, {@code --format in-toto}): an
 * in-toto Statement v1 (in-toto/attestation {@code spec/v1/statement.md}) signed in a DSSE
 * envelope ({@link Dsse}) whose {@code payloadType} is {@value #PAYLOAD_TYPE}.
 *
 * <p>Statement, field by field (compact UTF-8 JSON, in this order): {@code _type} {@value
 * #STATEMENT_TYPE}; {@code subject}, one {@code {"name": NAME, "digest": {"sha256": HEX}}} per
 * file, where NAME is the file's base name (the last element of the Evidence's {@code
 * artifact.path}; the whole path stays in the predicate) and HEX the verified full SHA-256 of the
 * Evidence's {@code subject}; {@code predicateType} {@value #PREDICATE_TYPE}; {@code predicate}
 * the complete Evidence: for one file the signed record exactly as {@link EvidenceJson} writes
 * it, for a model set the bundle of the set record followed by its member records ({@code
 * {"schema": "rea.bundle.v1", "records": [...]}}, CONTRACT section 9), with one subject per
 * member.
 *
 * <p>The envelope's one signature is by the REA key ({@link DsseSigner}), its {@code keyid} the
 * CONTRACT section 5 key ID. Read back by {@link InTotoEnvelopeReader}. Stateless.
 */
public final class InTotoAttestation {
  /** The in-toto Statement type. */
  public static final String STATEMENT_TYPE = "https://in-toto.io/Statement/v1";

  /** The predicate type of REA Evidence. */
  public static final String PREDICATE_TYPE = "urn:rea:evidence:v1";

  /** The DSSE payload type of an in-toto Statement (in-toto/attestation {@code envelope.md}). */
  public static final String PAYLOAD_TYPE = "application/vnd.in-toto+json";

  private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");

  private InTotoAttestation() {}

  /**
   * One subject of a Statement.
   *
   * @param name the file's base name
   * @param sha256 the file's full SHA-256, 64 lowercase hex digits
   */
  public record Subject(String name, String sha256) {
    public Subject {
      Objects.requireNonNull(name, "name");
      if (!SHA256_HEX.matcher(sha256).matches()) {
        throw new IllegalArgumentException("sha256 must be 64 lowercase hex digits: " + sha256);
      }
    }
  }

  /** Writes the predicate value: one JSON object. */
  @FunctionalInterface
  public interface Predicate {
    /** Writes one complete JSON object to {@code g}. */
    void write(JsonGenerator g);
  }

  /**
   * The subject of one file's Evidence.
   *
   * @param record a record
   * @return its base name and verified full SHA-256
   * @throws ReaException {@code invalid_input} / {@code conflicting_choices} when the record has
   *     no verified full SHA-256 (it was made with {@code --hash header}, or the hash did not
   *     complete): without a full digest there is no subject; {@code bad_argument} (field {@code
   *     subject.name}) when the file's base name holds a control character (a C0 or C1 control,
   *     or DEL)
   */
  public static Subject subjectOf(EvidenceRecord record) throws ReaException {
    String path = record.artifact().path();
    if (record.subject() == null) {
      throw ReaException.builder(
              Constraint.CONFLICTING_CHOICES,
              "--format in-toto needs --hash full: without a full SHA-256 of "
                  + ReaException.truncateForMessage(path)
                  + " there is no subject to attest")
          .path(path)
          .diagnostic("format", "in-toto")
          .diagnostic("hash", record.request().hash())
          .build();
    }
    String name = baseName(path);
    int bad = firstControl(name);
    if (bad >= 0) {
      // sha256sum --check and other line-oriented checkers would read a name with a line break
      // as two lines, the second a check of the signer's choosing.
      throw ReaException.builder(
              Constraint.BAD_ARGUMENT,
              String.format(
                  java.util.Locale.ROOT,
                  "--format in-toto names each file by its base name, and the name of %s holds the"
                      + " control character U+%04X, which line-oriented checkers (sha256sum"
                      + " --check) misread: rename the file to attest it",
                  ReaException.truncateForMessage(path),
                  (int) name.charAt(bad)))
          .path(path)
          .field("subject.name")
          .diagnostic("format", "in-toto")
          .build();
    }
    return new Subject(name, record.subject().sha256());
  }

  /** @return the index of the first C0 or C1 control character or DEL in {@code s}, or -1 */
  static int firstControl(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || (c >= 0x7F && c <= 0x9F)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * @param path a path as REA records it
   * @return the text after its last separator ({@code /}, or the platform's), or the whole path
   *     when it ends in one
   */
  public static String baseName(String path) {
    int cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf(java.io.File.separatorChar));
    return cut < 0 || cut == path.length() - 1 ? path : path.substring(cut + 1);
  }

  /**
   * The signed envelope of one file's Evidence.
   *
   * @param signed a record with its {@code evidence_id} and {@code authentication}
   * @param signer the REA key
   * @return the envelope's UTF-8 JSON
   * @throws ReaException {@code conflicting_choices} when the record has no full SHA-256 ({@link
   *     #subjectOf})
   * @throws IllegalArgumentException when the record is not signed
   */
  public static byte[] ofRecord(EvidenceRecord signed, DsseSigner signer) throws ReaException {
    requireSigned(signed);
    Subject subject = subjectOf(signed);
    return envelope(List.of(subject), g -> EvidenceJson.writeRecord(g, signed, true), signer);
  }

  /**
   * The signed envelope of several files' Evidence (a model set), the predicate being the bundle
   * of the given records in order; the subjects are those of the {@code files} records.
   *
   * @param files the records that have a file subject, in member order
   * @param bundle writes the predicate (the set's bundle: set record, then member records)
   * @param signer the REA key
   * @return the envelope's UTF-8 JSON
   * @throws ReaException {@code conflicting_choices} when a record has no full SHA-256
   */
  public static byte[] ofFiles(List<EvidenceRecord> files, Predicate bundle, DsseSigner signer)
      throws ReaException {
    if (files.isEmpty()) {
      throw new IllegalArgumentException("a Statement needs at least one subject");
    }
    List<Subject> subjects = new ArrayList<>(files.size());
    for (EvidenceRecord r : files) {
      requireSigned(r);
      subjects.add(subjectOf(r));
    }
    return envelope(subjects, bundle, signer);
  }

  /**
   * The signed envelope of a Statement.
   *
   * @param subjects at least one subject
   * @param predicate writes the predicate object
   * @param signer the REA key
   * @return the envelope's UTF-8 JSON
   */
  public static byte[] envelope(List<Subject> subjects, Predicate predicate, DsseSigner signer) {
    byte[] statement = statement(subjects, predicate);
    ByteArrayOutputStream out = new ByteArrayOutputStream(statement.length / 3 * 4 + 512);
    Dsse.write(PAYLOAD_TYPE, statement, signer, out);
    return out.toByteArray();
  }

  /**
   * The Statement's UTF-8 JSON (the envelope's payload).
   *
   * @param subjects at least one subject
   * @param predicate writes the predicate object
   */
  public static byte[] statement(List<Subject> subjects, Predicate predicate) {
    if (subjects.isEmpty()) {
      throw new IllegalArgumentException("a Statement needs at least one subject");
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
    try (JsonGenerator g = EvidenceJson.generator(out)) {
      g.writeStartObject();
      g.writeStringProperty("_type", STATEMENT_TYPE);
      g.writeName("subject");
      g.writeStartArray();
      for (Subject s : subjects) {
        g.writeStartObject();
        g.writeStringProperty("name", s.name());
        g.writeName("digest");
        g.writeStartObject();
        g.writeStringProperty("sha256", s.sha256());
        g.writeEndObject();
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeStringProperty("predicateType", PREDICATE_TYPE);
      g.writeName("predicate");
      predicate.write(g);
      g.writeEndObject();
    }
    return out.toByteArray();
  }

  private static void requireSigned(EvidenceRecord r) {
    if (r.evidenceId() == null || r.authentication() == null) {
      throw new IllegalArgumentException(
          "the predicate must be signed Evidence: " + r.artifact().path() + " is not signed");
    }
  }
}
