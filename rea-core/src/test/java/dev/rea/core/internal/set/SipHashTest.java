package dev.rea.core.internal.set;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * SipHash-2-4 against the reference vectors of Aumasson and Bernstein (key 00 01 .. 0f, message
 * 00 01 .. n-1; the paper's appendix and its reference implementation's table).
 */
class SipHashTest {
  private static final long K0 = 0x0706050403020100L;
  private static final long K1 = 0x0F0E0D0C0B0A0908L;

  private static long vector(int n) {
    byte[] m = new byte[n];
    for (int i = 0; i < n; i++) {
      m[i] = (byte) i;
    }
    return SipHash.hash(K0, K1, m, 0, n);
  }

  @Test
  void referenceVectors() {
    assertThat(vector(0)).isEqualTo(0x726fdb47dd0e0e31L);
    assertThat(vector(1)).isEqualTo(0x74f839c593dc67fdL);
    assertThat(vector(8)).isEqualTo(0x93f5f5799a932462L);
    assertThat(vector(15)).isEqualTo(0xa129ca6149be45e5L);
  }

  @Test
  void anOffsetIntoALargerArrayHashesTheSameBytes() {
    byte[] m = new byte[20];
    for (int i = 0; i < 15; i++) {
      m[3 + i] = (byte) i;
    }
    assertThat(SipHash.hash(K0, K1, m, 3, 15)).isEqualTo(0xa129ca6149be45e5L);
  }
}
