package dev.rea.core.internal.set;

/**
 * SipHash-2-4 (J.-P. Aumasson and D. J. Bernstein, "SipHash: a fast short-input PRF",
 * INDOCRYPT 2012): a keyed 64-bit pseudorandom function of a byte string. Under a key drawn at
 * random and never shown, its outputs cannot be predicted or made to collide by whoever writes
 * the input, which is what {@link WeightMap}'s table and {@link MappedNames}' sums rely on.
 * Stateless.
 */
final class SipHash {
  private SipHash() {}

  /**
   * @param k0 the key's first 8 bytes, little-endian
   * @param k1 the key's last 8 bytes, little-endian
   * @return SipHash-2-4 of {@code b[off..off+len)}
   */
  static long hash(long k0, long k1, byte[] b, int off, int len) {
    long[] v = {
      k0 ^ 0x736f6d6570736575L, k1 ^ 0x646f72616e646f6dL,
      k0 ^ 0x6c7967656e657261L, k1 ^ 0x7465646279746573L
    };
    int blocks = len >>> 3;
    // Every 8-byte block, then the last 0 to 7 bytes with the length in the top byte.
    for (int i = 0; i <= blocks; i++) {
      long m = i < blocks
          ? littleEndian(b, off + 8 * i, 8)
          : littleEndian(b, off + 8 * blocks, len & 7) | ((long) len << 56);
      v[3] ^= m;
      rounds(v, 2);
      v[0] ^= m;
    }
    v[2] ^= 0xFF;
    rounds(v, 4);
    return v[0] ^ v[1] ^ v[2] ^ v[3];
  }

  /** {@code n} SipRounds over the state. */
  private static void rounds(long[] v, int n) {
    long v0 = v[0];
    long v1 = v[1];
    long v2 = v[2];
    long v3 = v[3];
    for (int r = 0; r < n; r++) {
      v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
      v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
      v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
      v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
    }
    v[0] = v0;
    v[1] = v1;
    v[2] = v2;
    v[3] = v3;
  }

  private static long littleEndian(byte[] b, int at, int n) {
    long v = 0;
    for (int i = n - 1; i >= 0; i--) {
      v = (v << 8) | (b[at + i] & 0xFFL);
    }
    return v;
  }
}
