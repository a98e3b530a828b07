package dev.rea.core.internal.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.options.Cancellation;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link HeaderInput#readFully}: exact bytes, every byte hashed once and in order. */
class HeaderInputReadFullyTest {

  /** A channel over bytes that returns at most {@code step} bytes per read. */
  static final class Throttled implements ReadableByteChannel {
    private final byte[] data;
    private final int step;
    private int pos;

    Throttled(byte[] data, int step) {
      this.data = data;
      this.step = step;
    }

    @Override
    public int read(ByteBuffer dst) {
      if (pos == data.length) {
        return -1;
      }
      int n = Math.min(Math.min(step, dst.remaining()), data.length - pos);
      dst.put(data, pos, n);
      pos += n;
      return n;
    }

    @Override
    public boolean isOpen() {
      return true;
    }

    @Override
    public void close() {}
  }

  private static String sha(byte[] b, int len) throws Exception {
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    md.update(b, 0, len);
    return HexFormat.of().formatHex(md.digest());
  }

  private static HeaderInput input(byte[] data, int step, int capacity, long size)
      throws Exception {
    return new HeaderInput(
        new Throttled(data, step), size, MessageDigest.getInstance("SHA-256"), Cancellation.none(), capacity);
  }

  @Test
  void bytesAndDigestAreExactForEverySplit() throws Exception {
    SplittableRandom r = new SplittableRandom(5);
    byte[] data = new byte[3000];
    r.nextBytes(data);
    for (int capacity : new int[] {16, 64, 1024, 1 << 20}) {
      for (int step : new int[] {1, 3, 7, 100, 5000}) {
        for (int k = 0; k < 20; k++) {
          int before = r.nextInt(40);
          int len = r.nextInt(2500);
          HeaderInput in = input(data, step, capacity, data.length);
          in.skip(before);
          byte[] dst = new byte[len + 10];
          in.readFully(dst, 5, len);
          assertThat(Arrays.copyOfRange(dst, 5, 5 + len))
              .isEqualTo(Arrays.copyOfRange(data, before, before + len));
          assertThat(in.position()).isEqualTo(before + len);
          assertThat(HexFormat.of().formatHex(in.consumedDigest().digest()))
              .isEqualTo(sha(data, before + len));
          // Reading continues where readFully stopped.
          if (before + len < data.length) {
            assertThat(in.u8()).isEqualTo(data[before + len] & 0xFF);
          }
          in.hashRest(null, null);
          assertThat(HexFormat.of().formatHex(in.digest().digest())).isEqualTo(sha(data, data.length));
        }
      }
    }
  }

  @Test
  void tooFewBytesLeftConsumesNothing() throws Exception {
    byte[] data = new byte[100];
    HeaderInput in = input(data, 100, 16, data.length);
    in.skip(10);
    assertThatThrownBy(() -> in.readFully(new byte[200], 0, 91))
        .isInstanceOfSatisfying(
            ReaException.class,
            e -> {
              assertThat(e.constraint()).isEqualTo(Constraint.FILE_FORMAT_REJECTED);
              assertThat(e.offset()).isEqualTo(10);
            });
    assertThat(in.position()).isEqualTo(10);
  }

  @Test
  void aChannelThatEndsEarlyIsATargetChange() throws Exception {
    byte[] data = new byte[100];
    HeaderInput in = input(data, 30, 16, 500);
    assertThatThrownBy(() -> in.readFully(new byte[200], 0, 200))
        .isInstanceOfSatisfying(
            ReaException.class, e -> assertThat(e.constraint()).isEqualTo(Constraint.TARGET_CHANGED));
  }

  @Test
  void cancellationIsChecked() throws Exception {
    byte[] data = new byte[100];
    Cancellation c = Cancellation.none();
    HeaderInput in =
        new HeaderInput(new Throttled(data, 10), data.length, MessageDigest.getInstance("SHA-256"), c, 16);
    c.cancel();
    assertThatThrownBy(() -> in.readFully(new byte[50], 0, 50))
        .isInstanceOfSatisfying(
            ReaException.class, e -> assertThat(e.constraint()).isEqualTo(Constraint.CANCELLED));
  }

  @Test
  void badIndicesAreAProgrammingError() throws Exception {
    HeaderInput in = input(new byte[10], 10, 16, 10);
    assertThatThrownBy(() -> in.readFully(new byte[4], 2, 3)).isInstanceOf(IndexOutOfBoundsException.class);
  }
}
