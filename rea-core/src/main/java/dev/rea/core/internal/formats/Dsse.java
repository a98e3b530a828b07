package dev.rea.core.internal.formats;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.internal.io.StrictJson;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * The DSSE v1.0.0 envelope (secure-systems-lab/dsse, {@code envelope.md} and {@code protocol.md}
 * of tag v1.0.0): the pre-authentication encoding that is signed, the JSON envelope that carries
 * payload, payload type and signatures, and its strict reading.
 *
 * <p>Envelope shape, as written: {@code {"payload": base64(BODY), "payloadType": TYPE,
 * "signatures": [{"keyid": KEYID, "sig": base64(SIGNATURE)}]}}, standard base64 with padding
 * (RFC 4648 section 4). Read: standard or URL-safe base64 (section 5), with or without padding, as
 * the protocol requires of verifiers; unknown properties are ignored, as the envelope's parsing
 * rules require; a missing or null {@code keyid} is the empty key ID.
 */
public final class Dsse {
  /** The most signatures read from one envelope; more is refused before any is checked. */
  public static final int MAX_SIGNATURES = 16;

  /**
   * The deepest container nesting read in an envelope (the envelope object is 1, {@code
   * signatures} 2, a signature 3); deeper unknown properties are refused, not skipped.
   */
  static final int MAX_DEPTH = 8;

  private static final byte[] PREFIX = "DSSEv1 ".getBytes(StandardCharsets.US_ASCII);

  private Dsse() {}

  /**
   * The pre-authentication encoding of DSSE v1.0.0 ({@code protocol.md}): {@code "DSSEv1" SP
   * LEN(type) SP type SP LEN(body) SP body}, where LEN is the ASCII decimal of the byte length
   * without leading zeros and SP one space (0x20).
   *
   * @param payloadType the payload type, encoded as UTF-8
   * @param body the serialized body
   * @return the bytes that are signed
   */
  public static byte[] pae(String payloadType, byte[] body) {
    byte[] type = payloadType.getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + type.length + 48);
    out.writeBytes(PREFIX);
    out.writeBytes(Integer.toString(type.length).getBytes(StandardCharsets.US_ASCII));
    out.write(' ');
    out.writeBytes(type);
    out.write(' ');
    out.writeBytes(Integer.toString(body.length).getBytes(StandardCharsets.US_ASCII));
    out.write(' ');
    out.writeBytes(body);
    return out.toByteArray();
  }

  /**
   * Signs {@code body} and writes the envelope with one signature.
   *
   * @param payloadType the payload type
   * @param body the serialized body
   * @param signer signs {@link #pae} of the two
   * @param out where the envelope's UTF-8 JSON goes (not closed)
   */
  public static void write(String payloadType, byte[] body, DsseSigner signer, OutputStream out) {
    byte[] sig = signer.sign(pae(payloadType, body));
    try (JsonGenerator g = EvidenceJson.generatorKeepingOpen(out)) {
      g.writeStartObject();
      g.writeName("payload");
      // Streams the base64 from the body: no second copy of it as a String.
      g.writeBinary(body);
      g.writeStringProperty("payloadType", payloadType);
      g.writeName("signatures");
      g.writeStartArray();
      g.writeStartObject();
      g.writeStringProperty("keyid", signer.keyId());
      g.writeStringProperty("sig", Base64.getEncoder().encodeToString(sig));
      g.writeEndObject();
      g.writeEndArray();
      g.writeEndObject();
    }
  }

  /** One signature of an envelope, as read. */
  public record Signature(String keyId, String sig) {
    public Signature {
      Objects.requireNonNull(keyId, "keyId");
      Objects.requireNonNull(sig, "sig");
    }
  }

  /**
   * An envelope as read, before any signature is checked. A class rather than a record because
   * it holds the payload's bytes, which a record would compare by reference.
   */
  public static final class Envelope {
    private final String payloadType;
    private final byte[] payload;
    private final List<Signature> signatures;

    /**
     * @param payloadType the declared payload type
     * @param payload the decoded payload bytes (kept, not copied)
     * @param signatures the signatures in envelope order (at least one)
     */
    public Envelope(String payloadType, byte[] payload, List<Signature> signatures) {
      this.payloadType = Objects.requireNonNull(payloadType, "payloadType");
      this.payload = Objects.requireNonNull(payload, "payload");
      this.signatures = List.copyOf(signatures);
    }

    /** @return the declared payload type */
    public String payloadType() {
      return payloadType;
    }

    /** @return the decoded payload bytes (the array itself: callers do not modify it) */
    public byte[] payload() {
      return payload;
    }

    /** @return the signatures in envelope order */
    public List<Signature> signatures() {
      return signatures;
    }
  }

  /**
   * Reads an envelope strictly (bounded size and depth, UTF-8, no duplicate keys; see {@link
   * StrictJson}) without checking any signature.
   *
   * @param json the envelope's UTF-8 JSON
   * @param maxBytes the largest envelope accepted, in bytes
   * @return the envelope
   * @throws ReaException {@code evidence_rejected} naming the field ({@code payload}, {@code
   *     payloadType}, {@code signatures}, {@code signatures[i].sig}, {@code signatures[i].keyid})
   *     and byte offset: malformed JSON, a missing or mistyped field, a payload that is not
   *     base64, no signature or more than {@value #MAX_SIGNATURES}
   */
  public static Envelope read(byte[] json, long maxBytes) throws ReaException {
    try (StrictJson in =
        StrictJson.open(json, maxBytes, MAX_DEPTH, Constraint.EVIDENCE_REJECTED, "in-toto envelope")) {
      in.next();
      String payload = null;
      long payloadAt = -1;
      String type = null;
      List<Signature> signatures = null;
      String name;
      while ((name = in.nextName()) != null) {
        switch (name) {
          case "payload" -> {
            payload = in.string(() -> "payload");
            payloadAt = in.offset();
          }
          case "payloadType" -> type = in.string(() -> "payloadType");
          case "signatures" -> signatures = signatures(in);
          default -> {
            in.next();
            in.skipValue();
          }
        }
      }
      long end = json.length;
      if (payload == null) {
        throw in.errorAt(end, "payload", "the envelope has no payload");
      }
      if (type == null) {
        throw in.errorAt(end, "payloadType", "the envelope has no payloadType");
      }
      if (signatures == null || signatures.isEmpty()) {
        throw in.errorAt(end, "signatures", "the envelope has no signature");
      }
      byte[] body = decodeBase64(payload);
      if (body == null) {
        throw in.errorAt(payloadAt, "payload", "the payload is not base64 (standard or URL-safe)");
      }
      return new Envelope(type, body, signatures);
    }
  }

  private static List<Signature> signatures(StrictJson in) throws ReaException {
    in.startArray(() -> "signatures");
    List<Signature> out = new ArrayList<>();
    while (in.nextElement()) {
      int i = out.size();
      if (i == MAX_SIGNATURES) {
        throw in.error(
            "signatures[" + i + "]", "an envelope holds at most " + MAX_SIGNATURES + " signatures");
      }
      in.requireObject(() -> "signatures[" + i + "]");
      String keyId = "";
      String sig = null;
      String name;
      while ((name = in.nextName()) != null) {
        switch (name) {
          case "keyid" -> {
            String k = in.nullableString(() -> "signatures[" + i + "].keyid");
            keyId = k == null ? "" : k;
          }
          case "sig" -> sig = in.string(() -> "signatures[" + i + "].sig");
          default -> {
            in.next();
            in.skipValue();
          }
        }
      }
      if (sig == null) {
        throw in.error("signatures[" + i + "].sig", "the signature has no sig");
      }
      out.add(new Signature(keyId, sig));
    }
    return out;
  }

  /**
   * Decodes base64 in either alphabet of RFC 4648 (standard, section 4; URL-safe, section 5),
   * with or without padding; no whitespace and no mixing of the two alphabets.
   *
   * @return the bytes, or null when {@code text} is not such base64
   */
  public static byte @Nullable [] decodeBase64(String text) {
    boolean url = text.indexOf('-') >= 0 || text.indexOf('_') >= 0;
    try {
      return (url ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(text);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
