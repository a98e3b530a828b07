package dev.rea.core.internal.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

/**
 * One read from a caller's channel that cannot spin. A blocking channel reads at least one byte,
 * or returns -1 at its end; a channel that keeps returning 0 (a non-blocking one, an adapter's
 * mistake, as a library caller's {@code SeekableSource} may hand over) would keep a read loop
 * busy for ever.
 */
public final class ChannelReads {
  /** Reads in a row that may return no bytes before the channel is taken to be broken. */
  public static final int MAX_EMPTY_READS = 1000;

  private ChannelReads() {}

  /**
   * Reads into {@code dst}, trying again while the channel returns no bytes, up to {@link
   * #MAX_EMPTY_READS} times.
   *
   * @return the bytes read (at least one), -1 at the end, or 0 when {@code dst} has no room or
   *     the channel returned no bytes {@link #MAX_EMPTY_READS} times in a row
   * @throws IOException as the channel throws it
   */
  public static int read(ReadableByteChannel channel, ByteBuffer dst) throws IOException {
    for (int empty = 0; ; empty++) {
      int n = channel.read(dst);
      if (n != 0 || !dst.hasRemaining() || empty == MAX_EMPTY_READS) {
        return n;
      }
      Thread.yield();
    }
  }
}
