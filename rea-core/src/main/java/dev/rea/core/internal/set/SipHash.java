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
    long v0 = k0 ^ 0x736f6d6570736575L;
    long v1 = k1 ^ 0x646f72616e646f6dL;
    long v2 = k0 ^ 0x6c7967656e657261L;
    long v3 = k1 ^ 0x7465646279746573L;
    int blocks = len >>> 3;
    // Every 8-byte block, then the last 0 to 7 bytes with the length in the top byte; then the
    // finalization. Two compression rounds a block, four at the end (written out, not in a
    // helper: the state is four longs, and a helper would need an array for every name hashed).
    for (int i = 0, rounds = 2; i <= blocks + 1; i++) {
      long m = 0;
      if (i < blocks) {
        m = littleEndian(b, off + 8 * i, 8);
      } else if (i == blocks) {
        m = littleEndian(b, off + 8 * blocks, len & 7) | ((long) len << 56);
      } else {
        v2 ^= 0xFF;
        rounds = 4;
      }
      v3 ^= m;
      for (int r = 0; r < rounds; r++) {
        v0 += v1; v1 = Long.rotateLeft(v1, 13); v1 ^= v0; v0 = Long.rotateLeft(v0, 32);
        v2 += v3; v3 = Long.rotateLeft(v3, 16); v3 ^= v2;
        v0 += v3; v3 = Long.rotateLeft(v3, 21); v3 ^= v0;
        v2 += v1; v1 = Long.rotateLeft(v1, 17); v1 ^= v2; v2 = Long.rotateLeft(v2, 32);
      }
      v0 ^= m;
    }
    return v0 ^ v1 ^ v2 ^ v3;
  }

  private static long littleEndian(byte[] b, int at, int n) {
    long v = 0;
    for (int i = n - 1; i >= 0; i--) {
      v = (v << 8) | (b[at + i] & 0xFFL);
    }
    return v;
  }
}
