package dev.rea.core.evidence;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.lang.ref.SoftReference;
import java.lang.ref.WeakReference;
import org.erdtman.jcs.JsonCanonicalizer;
import org.jspecify.annotations.Nullable;

/**
 * Evidence identity (CONTRACT section 5): the RFC 8785 (JSON Canonicalization Scheme) form of a
 * record without {@code evidence_id} and {@code authentication}, and {@code evidence_id =
 * "sha256:" + hex(SHA-256(canonical))}. Canonicalisation uses the RFC's reference Java
 * implementation ({@code io.github.erdtman:java-json-canonicalization}).
 */
public final class EvidenceIds {
  /** Prefix of every evidence ID. */
  public static final String PREFIX = "sha256:";

  private EvidenceIds() {}

  /**
   * The RFC 8785 canonical UTF-8 bytes of the record's identity-free form: the record's JSON text
   * ({@link EvidenceJson#recordBytes} without {@code evidence_id} and {@code authentication})
   * canonicalized by the RFC's reference implementation.
   */
  public static byte[] canonicalBytes(EvidenceRecord record) {
    return identity(record).canonical();
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
   * The canonical bytes of the record and their evidence ID. For the record {@link #withId}
   * returned last, both are the ones it computed (no second canonicalization or SHA-256 of a
   * canonical form that is megabytes long for a large header); for any other record they are
   * computed afresh. The record's own {@code evidence_id} field is never trusted.
   */
  public static Identity identity(EvidenceRecord record) {
    Canonical last = lastCanonical;
    if (last != null && last.of.get() == record) {
      byte[] bytes = last.bytes.get();
      if (bytes != null) {
        return new Identity(bytes.clone(), last.id);
      }
    }
    byte[] canonical = canonicalize(EvidenceJson.recordBytes(record, false));
    return new Identity(canonical, idOfCanonical(canonical));
  }

  /**
   * The canonical form and evidence ID {@link #withId} computed last, for the record it returned:
   * signing that record (the next step of every inspection that is delivered whole) needs the
   * same bytes and ID, and canonicalizing and hashing a large record twice costs as much as the
   * inspection. Keyed by identity (a record is immutable; a copy is canonicalized afresh); the
   * record is held weakly and the bytes softly, so the entry never keeps either alive.
   */
  private record Canonical(WeakReference<EvidenceRecord> of, SoftReference<byte[]> bytes, String id) {}

  private static volatile @Nullable Canonical lastCanonical;

  /** @return RFC 8785 canonical UTF-8 bytes of arbitrary JSON text */
  public static byte[] canonicalize(byte[] jsonUtf8) {
    try {
      return new JsonCanonicalizer(jsonUtf8).getEncodedUTF8();
    } catch (IOException e) {
      throw new UncheckedIOException("JSON could not be canonicalized", e);
    }
  }

  /** @return {@code "sha256:<hex>"} over the canonical bytes */
  public static String idOfCanonical(byte[] canonical) {
    return PREFIX + sha256Hex(canonical);
  }

  /** @return the evidence ID of the record (its own {@code evidence_id} field is ignored) */
  public static String compute(EvidenceRecord record) {
    return identity(record).evidenceId();
  }

  /** @return the record with its evidence ID filled in */
  public static EvidenceRecord withId(EvidenceRecord record) {
    Identity identity = identity(record);
    EvidenceRecord withId = record.withEvidenceId(identity.evidenceId());
    lastCanonical =
        new Canonical(
            new WeakReference<>(withId), new SoftReference<>(identity.canonical()), identity.evidenceId());
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

  /** Used in tests: the canonical text. */
  static String canonicalText(EvidenceRecord record) {
    return new String(canonicalBytes(record), StandardCharsets.UTF_8);
  }
}
