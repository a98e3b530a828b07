package dev.rea.core.internal.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.quicktheories.generators.SourceDSL;

/** The pipelined digest gives the wrapped digest's result for every way of feeding it. */
class PipelinedDigestTest {
  private static MessageDigest sha() throws Exception {
    return MessageDigest.getInstance("SHA-256");
  }

  @Test
  void anySplitOfAnyInputGivesTheSameDigestAsSha256() {
    qt().withExamples(150)
        .forAll(SourceDSL.longs().all())
        .checkAssert(
            seed -> {
              try {
                Random r = new Random(seed);
                // Up to three chunks and a bit, so the worker starts in most examples.
                byte[] data = new byte[r.nextInt(3 * PipelinedDigest.CHUNK_BYTES + 5000)];
                r.nextBytes(data);
                MessageDigest expected = sha();
                try (PipelinedDigest d = new PipelinedDigest(sha(), r.nextInt(4) != 0)) {
                  int at = 0;
                  byte[] prefixDigest = null;
                  int prefixEnd = r.nextInt(data.length + 1);
                  while (at < data.length) {
                    int n = Math.min(data.length - at, 1 + r.nextInt(r.nextBoolean() ? 300_000 : 70));
                    if (at < prefixEnd && at + n > prefixEnd) {
                      n = prefixEnd - at;
                    }
                    if (r.nextInt(8) == 0) {
                      // Switching to the worker mid-way keeps the order of the bytes.
                      d.useThread();
                    }
                    switch (r.nextInt(3)) {
                      case 0:
                        d.update(data, at, n);
                        break;
                      case 1:
                        d.update(ByteBuffer.wrap(data, at, n));
                        break;
                      default:
                        ByteBuffer direct = ByteBuffer.allocateDirect(n);
                        direct.put(data, at, n).flip();
                        d.update(direct);
                    }
                    at += n;
                    if (at == prefixEnd && prefixDigest == null) {
                      // A clone mid-way is the digest of the prefix; hashing goes on after it.
                      prefixDigest = d.clone().digest();
                    }
                  }
                  expected.update(data);
                  assertThat(d.digest()).isEqualTo(expected.digest());
                  if (prefixDigest != null) {
                    MessageDigest p = sha();
                    p.update(data, 0, prefixEnd);
                    assertThat(prefixDigest).isEqualTo(p.digest());
                  }
                }
              } catch (Exception e) {
                throw new AssertionError(e);
              }
            });
  }

  @Test
  void anInterruptedCallerStillGetsTheRightDigestAndKeepsItsInterrupt() throws Exception {
    byte[] data = new byte[5 * PipelinedDigest.CHUNK_BYTES + 17];
    new Random(7).nextBytes(data);
    byte[] got;
    try (PipelinedDigest d = new PipelinedDigest(sha())) {
      Thread.currentThread().interrupt();
      d.update(data);
      assertThat(d.workerStarted()).isTrue();
      got = d.digest();
      assertThat(Thread.interrupted()).isTrue();
    }
    assertThat(got).isEqualTo(sha().digest(data));
  }

  @Test
  void unthreadedUpdatesGoStraightToTheTarget() throws Exception {
    MessageDigest target = sha();
    PipelinedDigest d = new PipelinedDigest(target, false);
    byte[] data = new byte[3 * PipelinedDigest.CHUNK_BYTES];
    d.update(data);
    assertThat(d.workerStarted()).isFalse();
    // The target already holds the bytes: its own clone digests them.
    assertThat(((MessageDigest) target.clone()).digest()).isEqualTo(sha().digest(data));
    d.useThread();
    d.update(data);
    assertThat(d.workerStarted()).isTrue();
    MessageDigest both = sha();
    both.update(data);
    both.update(data);
    assertThat(d.digest()).isEqualTo(both.digest());
    d.close();
  }

  @Test
  void smallInputsNeverStartTheWorkerAndCloseIsIdempotent() throws Exception {
    PipelinedDigest d = new PipelinedDigest(sha());
    d.update("abc".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    assertThat(d.workerStarted()).isFalse();
    assertThat(java.util.HexFormat.of().formatHex(d.digest()))
        .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    d.close();
    d.close();
    assertThat(d.getDigestLength()).isEqualTo(32);
  }
}
