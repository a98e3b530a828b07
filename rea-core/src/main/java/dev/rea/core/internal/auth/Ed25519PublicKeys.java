package dev.rea.core.internal.auth;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Which Ed25519 public keys REA refuses to trust although the JDK accepts them: keys whose point
 * has small order, and non-canonical encodings.
 *
 * <p>Why: Ed25519 verification checks {@code [S]B = R + [k]A} with {@code k} a hash of {@code R},
 * {@code A} and the message. When {@code A} has small order, {@code [k]A} takes at most 8 values,
 * so a forger who sets {@code S = 0} and picks {@code R} among the small-order points succeeds
 * for about one message in eight without any private key; when {@code A} is the identity point
 * (encoding {@code 01} followed by 31 zero bytes), {@code R} = identity and {@code S = 0} verify
 * for every message, and the JDK's {@code Ed25519} {@code Signature} accepts them. Such a key in
 * {@code trusted/} would let anyone forge Evidence. A key made by a key generator is a multiple of
 * the base point, of prime order, and never has small order.
 *
 * <p>The rule, applied to the 32 bytes of the SubjectPublicKeyInfo (RFC 8410 section 4: the
 * 12-byte prefix {@code 302a300506032b6570032100} then the RFC 8032 point encoding):
 *
 * <ul>
 *   <li>the encoding is the 255-bit little-endian {@code y} coordinate plus the sign bit of
 *       {@code x} in the top bit (RFC 8032 section 5.1.2); the sign bit is ignored here;
 *   <li>{@code y >= p = 2^255 - 19} is refused: RFC 8032 section 5.1.3 step 1 says decoding
 *       fails, and such encodings alias small values ({@code p} is 0, {@code p + 1} is 1);
 *   <li>{@code y} equal to the y-coordinate of one of the 8 points of order dividing 8 is refused:
 *       {@code 1} (the identity, order 1), {@code p - 1} (order 2), {@code 0} (the two points of
 *       order 4) and the two values shared by the four points of order 8. These are the entries
 *       of libsodium's small-order blocklist ({@code ge25519_has_small_order} in {@code
 *       src/libsodium/crypto_core/ed25519/ref10/ed25519_ref10.c}, github.com/jedisct1/libsodium),
 *       read as integers with the sign bit cleared. {@code Ed25519PublicKeysTest} recomputes them
 *       with twisted Edwards arithmetic (RFC 8032 section 5.1: {@code a = -1}, {@code d =
 *       -121665/121666 mod p}) and checks that they are exactly the y-coordinates of the 8-torsion
 *       points.
 * </ul>
 *
 * <p>Points with a small-order component but a large-order part (mixed order) are not refused:
 * no single signature verifies for them under every message.
 */
final class Ed25519PublicKeys {
  /** The field prime {@code 2^255 - 19} (RFC 7748 section 4.1). */
  static final BigInteger P = BigInteger.TWO.pow(255).subtract(BigInteger.valueOf(19));

  /** DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410 section 10.1 shows an example). */
  static final byte[] SPKI_PREFIX = HexFormat.of().parseHex("302a300506032b6570032100");

  /** Length of an Ed25519 SubjectPublicKeyInfo in bytes: the prefix and the 32-byte point. */
  static final int SPKI_BYTES = 44;

  /** The y-coordinates of the points of order 1, 2, 4 and 8, with what each is. */
  static final Map<BigInteger, String> SMALL_ORDER_Y = smallOrderY();

  private Ed25519PublicKeys() {}

  private static Map<BigInteger, String> smallOrderY() {
    Map<BigInteger, String> m = new LinkedHashMap<>();
    m.put(BigInteger.ONE, "y = 1, the identity point (order 1)");
    m.put(P.subtract(BigInteger.ONE), "y = p - 1, the point of order 2");
    m.put(BigInteger.ZERO, "y = 0, a point of order 4");
    String order8 = ", a point of order 8";
    BigInteger a = littleEndian(
        HexFormat.of().parseHex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"));
    BigInteger b = littleEndian(
        HexFormat.of().parseHex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"));
    m.put(a, "y = " + a + order8);
    m.put(b, "y = " + b + order8);
    return java.util.Collections.unmodifiableMap(m);
  }

  /**
   * @param bytes little-endian bytes
   * @return their unsigned value
   */
  static BigInteger littleEndian(byte[] bytes) {
    byte[] be = new byte[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      be[i] = bytes[bytes.length - 1 - i];
    }
    return new BigInteger(1, be);
  }

  /** @return true when {@code der} is 44 bytes starting with the Ed25519 SPKI prefix */
  static boolean isEd25519Spki(byte[] der) {
    return der.length == SPKI_BYTES
        && Arrays.equals(der, 0, SPKI_PREFIX.length, SPKI_PREFIX, 0, SPKI_PREFIX.length);
  }

  /**
   * @param spki the DER SubjectPublicKeyInfo of an Ed25519 key ({@code PublicKey.getEncoded()})
   * @return the encoded {@code y} coordinate: the point's 255 low bits, little-endian (the sign
   *     bit of {@code x} cleared)
   * @throws IllegalArgumentException when {@code spki} is not 44 bytes with the Ed25519 prefix
   */
  static BigInteger encodedY(byte[] spki) {
    if (!isEd25519Spki(spki)) {
      throw new IllegalArgumentException("not a 44-byte Ed25519 SubjectPublicKeyInfo");
    }
    byte[] point = Arrays.copyOfRange(spki, SPKI_PREFIX.length, SPKI_BYTES);
    point[31] &= 0x7F;
    return littleEndian(point);
  }

  /**
   * Says why a public key cannot be trusted, or nothing when it can.
   *
   * @param spki the DER SubjectPublicKeyInfo of an Ed25519 key ({@code PublicKey.getEncoded()})
   * @return null for a usable key; otherwise the reason, e.g. {@code "its point has small order
   *     (y = 1, the identity point (order 1))"}
   */
  static @Nullable String problem(byte[] spki) {
    BigInteger y;
    try {
      y = encodedY(spki);
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
    if (y.compareTo(P) >= 0) {
      return "its encoded y-coordinate is not below p = 2^255 - 19 (a non-canonical encoding)";
    }
    String small = SMALL_ORDER_Y.get(y);
    if (small != null) {
      return "its point has small order (" + small + "): a signature of it proves nothing";
    }
    return null;
  }
}
