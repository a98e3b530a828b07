package dev.rea.core.internal.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Recomputes the small-order blocklist of {@link Ed25519PublicKeys} from the curve itself, with
 * plain BigInteger twisted Edwards arithmetic (RFC 8032 section 5.1: {@code -x^2 + y^2 = 1 + d
 * x^2 y^2} over GF(p), {@code p = 2^255 - 19}, {@code d = -121665/121666}).
 */
class Ed25519PublicKeysTest {
  static final BigInteger P = BigInteger.TWO.pow(255).subtract(BigInteger.valueOf(19));
  static final BigInteger D =
      BigInteger.valueOf(-121665).multiply(BigInteger.valueOf(121666).modInverse(P)).mod(P);
  static final BigInteger SQRT_M1 =
      BigInteger.TWO.modPow(P.subtract(BigInteger.ONE).shiftRight(2), P);

  /** An affine point (x, y). */
  record Pt(BigInteger x, BigInteger y) {
    static final Pt IDENTITY = new Pt(BigInteger.ZERO, BigInteger.ONE);

    boolean onCurve() {
      BigInteger x2 = x.multiply(x).mod(P);
      BigInteger y2 = y.multiply(y).mod(P);
      BigInteger lhs = y2.subtract(x2).mod(P);
      BigInteger rhs = BigInteger.ONE.add(D.multiply(x2).multiply(y2)).mod(P);
      return lhs.equals(rhs);
    }

    /** Twisted Edwards addition with a = -1 (complete for Ed25519). */
    Pt plus(Pt o) {
      BigInteger t = D.multiply(x).multiply(o.x).multiply(y).multiply(o.y).mod(P);
      BigInteger x3 = x.multiply(o.y).add(y.multiply(o.x))
          .multiply(BigInteger.ONE.add(t).modInverse(P)).mod(P);
      BigInteger y3 = y.multiply(o.y).add(x.multiply(o.x))
          .multiply(BigInteger.ONE.subtract(t).mod(P).modInverse(P)).mod(P);
      return new Pt(x3, y3);
    }

    Pt times(int k) {
      Pt r = IDENTITY;
      for (int i = 0; i < k; i++) {
        r = r.plus(this);
      }
      return r;
    }

    /** @return the smallest n in 1..8 with [n]P = identity, or -1 when there is none */
    int smallOrder() {
      Pt r = this;
      for (int n = 1; n <= 8; n++) {
        if (r.equals(IDENTITY)) {
          return n;
        }
        r = r.plus(this);
      }
      return -1;
    }
  }

  /** @return the point with this y and the even (sign = 0) or odd x, or null when none exists */
  static Pt fromY(BigInteger y, int sign) {
    BigInteger y2 = y.multiply(y).mod(P);
    BigInteger u = y2.subtract(BigInteger.ONE).mod(P);
    BigInteger v = D.multiply(y2).add(BigInteger.ONE).mod(P);
    BigInteger x2 = u.multiply(v.modInverse(P)).mod(P);
    // p = 5 (mod 8): a candidate root is x2^((p+3)/8), possibly times sqrt(-1).
    BigInteger x = x2.modPow(P.add(BigInteger.valueOf(3)).shiftRight(3), P);
    if (!x.multiply(x).mod(P).equals(x2)) {
      x = x.multiply(SQRT_M1).mod(P);
    }
    if (!x.multiply(x).mod(P).equals(x2)) {
      return null;
    }
    if (x.testBit(0) != (sign == 1)) {
      x = P.subtract(x).mod(P);
    }
    return new Pt(x, y);
  }

  static byte[] spki(byte[] point) {
    byte[] out = Arrays.copyOf(Ed25519PublicKeys.SPKI_PREFIX, 44);
    System.arraycopy(point, 0, out, 12, 32);
    return out;
  }

  static byte[] encode(BigInteger y, int sign) {
    byte[] be = y.toByteArray();
    byte[] le = new byte[32];
    for (int i = 0; i < 32 && i < be.length; i++) {
      le[i] = be[be.length - 1 - i];
    }
    le[31] |= (byte) (sign << 7);
    return le;
  }

  @Test
  void theCurveConstantsAreRight() {
    // Base point B: y = 4/5, x even (RFC 8032 section 5.1). Its order is the large prime L.
    BigInteger by = BigInteger.valueOf(4).multiply(BigInteger.valueOf(5).modInverse(P)).mod(P);
    Pt b = fromY(by, 0);
    assertThat(b).isNotNull();
    assertThat(b.onCurve()).isTrue();
    assertThat(b.x()).isEqualTo(new BigInteger(
        "15112221349535400772501151409588531511454012693041857206046113283949847762202"));
    assertThat(b.smallOrder()).isEqualTo(-1);
    assertThat(Ed25519PublicKeys.P).isEqualTo(P);
  }

  @Test
  void everyBlockedYIsAPointOfOrderDividing8WithTheStatedOrder() {
    assertThat(Ed25519PublicKeys.SMALL_ORDER_Y).hasSize(5);
    for (var e : Ed25519PublicKeys.SMALL_ORDER_Y.entrySet()) {
      BigInteger y = e.getKey();
      for (int sign = 0; sign <= 1; sign++) {
        Pt p = fromY(y, sign);
        assertThat(p).as("a point with y = %s exists", y).isNotNull();
        assertThat(p.onCurve()).isTrue();
        assertThat(p.times(8)).as("[8]P for y = %s", y).isEqualTo(Pt.IDENTITY);
        int order = p.smallOrder();
        assertThat(e.getValue()).contains("order " + order);
        // The rule refuses the encoding with either sign bit.
        assertThat(Ed25519PublicKeys.problem(spki(encode(y, sign))))
            .contains("small order").contains("order " + order);
      }
    }
  }

  @Test
  void theBlockedYsAreExactlyThoseOfThe8TorsionPoints() {
    // E(GF(p)) is Z/8 x Z/L, so its points of order dividing 8 are the multiples of any point T of
    // order exactly 8: the blocklist must be exactly their y-coordinates.
    BigInteger order8 = Ed25519PublicKeys.littleEndian(HexFormat.of().parseHex(
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"));
    Pt t = fromY(order8, 0);
    assertThat(t.smallOrder()).isEqualTo(8);
    Set<Pt> torsion = new HashSet<>();
    Set<BigInteger> ys = new HashSet<>();
    for (int k = 0; k < 8; k++) {
      Pt q = t.times(k);
      torsion.add(q);
      ys.add(q.y());
    }
    assertThat(torsion).hasSize(8);
    assertThat(ys).isEqualTo(Ed25519PublicKeys.SMALL_ORDER_Y.keySet());
    assertThat(ys).contains(BigInteger.ONE, BigInteger.ZERO, P.subtract(BigInteger.ONE));
  }

  @Test
  void aFreshJdkKeyIsNotBlockedAndHasLargeOrder() throws Exception {
    for (int i = 0; i < 8; i++) {
      PublicKey k = KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPublic();
      byte[] spki = k.getEncoded();
      assertThat(Ed25519PublicKeys.isEd25519Spki(spki)).isTrue();
      assertThat(Ed25519PublicKeys.problem(spki)).isNull();
      BigInteger y = Ed25519PublicKeys.encodedY(spki);
      Pt a = fromY(y, (spki[43] >> 7) & 1);
      assertThat(a).isNotNull();
      assertThat(a.onCurve()).isTrue();
      assertThat(a.smallOrder()).isEqualTo(-1);
      assertThat(a.times(8)).isNotEqualTo(Pt.IDENTITY);
    }
  }

  @Test
  void nonCanonicalEncodingsAndWrongShapesAreRefused() {
    for (BigInteger y : new BigInteger[] {
        P, P.add(BigInteger.ONE), BigInteger.TWO.pow(255).subtract(BigInteger.ONE)}) {
      assertThat(Ed25519PublicKeys.problem(spki(encode(y, 0))))
          .isEqualTo(
              "its encoded y-coordinate is not below p = 2^255 - 19 (a non-canonical encoding)");
    }
    // p - 1 is canonical but of order 2.
    assertThat(Ed25519PublicKeys.problem(spki(encode(P.subtract(BigInteger.ONE), 0))))
        .contains("order 2");
    assertThat(Ed25519PublicKeys.problem(new byte[43])).contains("not a 44-byte");
    byte[] wrongPrefix = spki(encode(BigInteger.TEN, 0));
    wrongPrefix[5] ^= 1;
    assertThat(Ed25519PublicKeys.problem(wrongPrefix)).contains("not a 44-byte");
  }
}
