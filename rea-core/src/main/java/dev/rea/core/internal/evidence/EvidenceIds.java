package dev.rea.core.internal.evidence;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.canonical.CanonicalSink;
import dev.rea.core.internal.canonical.JsonTextCanonicalizer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.jspecify.annotations.Nullable;

/**
 * Evidence identity (CONTRACT section 5): the RFC 8785 (JSON Canonicalization Scheme) form of a
 * record without {@code evidence_id} and {@code authentication}, and {@code evidence_id =
 * "sha256:" + hex(SHA-256(canonical))}.
 *
 * <p>The canonical form is written by REA's own code straight from the typed record ({@link
 * CanonicalRecordWriter}), in one pass and without a JSON text or tree in between; the RFC's
 * reference implementation ({@code io.github.erdtman:java-json-canonicalization}) is its test
 * oracle. Text read back is canonicalized as given ({@link #canonicalize(byte[])}, {@link
 * JsonTextCanonicalizer}).
 */
public final class EvidenceIds {
  /** Prefix of every evidence ID. */
  public static final String PREFIX = "sha256:";

  private EvidenceIds() {}

  /**
   * The RFC 8785 canonical UTF-8 bytes of the record's identity-free form: the bytes the RFC's
   * canonicalization of {@link EvidenceJson#recordBytes} without {@code evidence_id} and {@code
   * authentication} gives.
   *
   * @return a new array, the caller's own
   * @throws IllegalArgumentException for a string holding an unpaired surrogate (no record REA
   *     reads or writes holds one)
   */
  public static byte[] canonicalBytes(EvidenceRecord record) {
    // Most of a large record's canonical form is its tensor rows, about 250 bytes each.
    long guess = 4096L + 256L * record.tensors().size() + 128L * record.metadata().size();
    CanonicalSink sink = CanonicalSink.toBytes((int) Math.min(guess, 1 << 26));
    CanonicalRecordWriter.write(record, sink);
    return sink.bytes();
  }

  /**
   * A record's canonical bytes and the evidence ID computed from them.
   *
   * @param canonical the RFC 8785 canonical UTF-8 bytes ({@link #canonicalBytes}); the caller's
   *     own copy
   * @param evidenceId {@code "sha256:" + hex(SHA-256(canonical))}
   */
  public record Identity(byte[] canonical, String evidenceId) {}

  /**
   * The canonical bytes of the record and their evidence ID. For the records {@link #withId}
   * returned last (up to {@value RecentRecords#SIZE}: a set inspects members ahead on worker threads and
   * signs them in order on another), the ID is the one it computed (signing, the next step of an
   * inspection delivered whole, does not hash a canonical form of megabytes again); for any other
   * record it is computed afresh. The record's own {@code evidence_id} field is never trusted.
   */
  public static Identity identity(EvidenceRecord record) {
    byte[] canonical = canonicalBytes(record);
    String known = recent.of(record);
    return new Identity(canonical, known != null ? known : idOfCanonical(canonical));
  }

  /** The evidence IDs {@link #withId} computed last. */
  private static final RecentRecords<String> recent = new RecentRecords<>();


  /**
   * The RFC 8785 canonical form of JSON text as given (Evidence read back: its identity is over
   * what was signed, not over a re-rendering): members sorted by name, numbers as the ECMAScript
   * form of the double their text reads as, strings escaped as RFC 8785 prescribes.
   *
   * @return the canonical UTF-8 bytes
   * @throws IllegalArgumentException when the text is not one JSON value, has invalid UTF-8, a
   *     duplicate name, an escaped lone surrogate, a number beyond the double range, or more than
   *     {@link JsonTextCanonicalizer#MAX_DEPTH} nested containers (the message names the offset)
   */
  public static byte[] canonicalize(byte[] jsonUtf8) {
    return JsonTextCanonicalizer.canonicalize(jsonUtf8);
  }

  /**
   * Compares the record's canonical form with given bytes as it is written, without building
   * it.
   *
   * @return the first byte offset where the record's canonical form differs from {@code
   *     canonical} (the shorter one's length when one is a prefix of the other), or -1 when they
   *     are equal
   */
  public static long mismatch(EvidenceRecord record, byte[] canonical) {
    CanonicalSink sink = CanonicalSink.comparingWith(canonical);
    CanonicalRecordWriter.write(record, sink);
    sink.finish();
    return sink.mismatch();
  }

  /** @return {@code "sha256:<hex>"} over the canonical bytes */
  public static String idOfCanonical(byte[] canonical) {
    return PREFIX + sha256Hex(canonical);
  }

  /**
   * @return the evidence ID of the record (its own {@code evidence_id} field is ignored): the
   *     canonical form streamed into SHA-256, never held whole
   */
  public static String compute(EvidenceRecord record) {
    MessageDigest md = sha256();
    CanonicalSink sink = CanonicalSink.toDigest(md);
    CanonicalRecordWriter.write(record, sink);
    sink.finish();
    return PREFIX + HexFormat.of().formatHex(md.digest());
  }

  /** @return the record with its evidence ID filled in */
  public static EvidenceRecord withId(EvidenceRecord record) {
    String id = compute(record);
    EvidenceRecord withId = record.withEvidenceId(id);
    recent.remember(withId, id);
    return withId;
  }

  /** @return lowercase hex SHA-256 of the bytes */
  public static String sha256Hex(byte[] bytes) {
    return HexFormat.of().formatHex(sha256().digest(bytes));
  }

  /** @return a new SHA-256 digest (always present in the JDK) */
  public static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }
}
