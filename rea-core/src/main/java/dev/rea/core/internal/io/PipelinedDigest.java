package dev.rea.core.internal.io;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;

/**
 * A {@link MessageDigest} that hashes on a second thread while the caller goes on reading: bytes
 * given to {@code update} are copied into chunks of {@value #CHUNK_BYTES} bytes and handed to a
 * worker thread that feeds them, in order, to the wrapped digest. The result is exactly the
 * wrapped digest's over the same bytes; only the time it is computed in changes (on a machine
 * with two cores, parsing a header or reading a file overlaps with hashing it).
 *
 * <p>Until {@link #useThread()} (or when constructed threaded), nothing is copied: updates go
 * straight to the wrapped digest. Threaded inputs smaller than one chunk never start the thread:
 * they are hashed by the caller when the digest is requested. At most {@value #CHUNKS_IN_FLIGHT} chunks wait for the worker, so
 * memory is bounded ({@code (CHUNKS_IN_FLIGHT + 1) * CHUNK_BYTES}) and a fast reader waits for
 * the hashing instead of buffering the file.
 *
 * <p>{@link #clone()} and {@link #digest()} first wait until every byte given so far is hashed;
 * {@code clone()} returns a copy of the wrapped digest's state (a plain digest of the same
 * algorithm). Waits ignore interruption (they last at most the time to hash the chunks in
 * flight) and restore the thread's interrupt status, so an interrupted caller sees its
 * cancellation at its next interruptible step, with a correct digest. {@link #close()} ends the
 * worker; call it when the digest is abandoned. Not thread-safe: one caller thread.
 */
public final class PipelinedDigest extends MessageDigest implements AutoCloseable {
  /**
   * Bytes per chunk handed to the worker: 256 KiB. Large enough that handing over costs nothing
   * measurable (a 2.2 GB full hash took 1.611 s with 256 KiB chunks and 1.635 s with 1 MiB,
   * medians of 7 alternating runs), small enough that hashing a large header on the worker adds
   * only 1 MiB to the peak RSS (1 MiB chunks added about 4 MiB: 61.7 against 56.4 MiB for the
   * Llama-3-like header, while a header under one chunk never starts the worker).
   */
  public static final int CHUNK_BYTES = 256 * 1024;

  /** Chunks that may wait for the worker. */
  public static final int CHUNKS_IN_FLIGHT = 3;

  /** A unit of work: {@code len} bytes of {@code data}, or a barrier ({@code latch}). */
  private static final class Job {
    final byte @Nullable [] data;
    final int len;
    final @Nullable CountDownLatch latch;

    Job(byte @Nullable [] data, int len, @Nullable CountDownLatch latch) {
      this.data = data;
      this.len = len;
      this.latch = latch;
    }
  }

  private static final Job STOP = new Job(null, 0, null);

  private final MessageDigest target;
  private final BlockingQueue<Job> work = new ArrayBlockingQueue<>(CHUNKS_IN_FLIGHT + 2);
  private final BlockingQueue<byte[]> free = new ArrayBlockingQueue<>(CHUNKS_IN_FLIGHT + 1);
  private int buffersMade;
  /** The buffer being filled, or null before the first byte and after a chunk was handed on. */
  private byte @Nullable [] fill;
  private int fillLen;
  private @Nullable Thread worker;
  private volatile @Nullable Throwable failure;

  private boolean threaded;

  /**
   * @param target the digest to feed; owned by this object from now on
   */
  public PipelinedDigest(MessageDigest target) {
    this(target, true);
  }

  /**
   * @param target the digest to feed; owned by this object from now on
   * @param threaded false to feed the wrapped digest directly on the caller's thread until
   *     {@link #useThread()} is called
   */
  public PipelinedDigest(MessageDigest target, boolean threaded) {
    super(target.getAlgorithm());
    this.target = target;
    this.threaded = threaded;
  }

  /**
   * From now on, hash on the worker thread. Bytes given before were already hashed, in order.
   * ({@code ModelInspector} constructs its digest threaded; with {@code -Drea.digest.thread=rest}
   * it hashes the header on the caller's thread and calls this for the rest of the file.)
   */
  public void useThread() {
    threaded = true;
  }

  @Override
  protected int engineGetDigestLength() {
    return target.getDigestLength();
  }

  @Override
  protected void engineUpdate(byte input) {
    engineUpdate(new byte[] {input}, 0, 1);
  }

  @Override
  protected void engineUpdate(byte[] input, int offset, int len) {
    java.util.Objects.checkFromIndexSize(offset, len, input.length);
    if (!threaded) {
      target.update(input, offset, len);
      return;
    }
    while (len > 0) {
      if (fill == null) {
        fill = takeBuffer();
        fillLen = 0;
      }
      int n = Math.min(len, fill.length - fillLen);
      System.arraycopy(input, offset, fill, fillLen, n);
      fillLen += n;
      offset += n;
      len -= n;
      if (fillLen == fill.length) {
        filled();
      }
    }
  }

  @Override
  protected void engineUpdate(ByteBuffer input) {
    if (!threaded) {
      target.update(input);
      return;
    }
    while (input.hasRemaining()) {
      if (fill == null) {
        fill = takeBuffer();
        fillLen = 0;
      }
      int n = Math.min(input.remaining(), fill.length - fillLen);
      input.get(fill, fillLen, n);
      fillLen += n;
      if (fillLen == fill.length) {
        filled();
      }
    }
  }

  @Override
  protected byte[] engineDigest() {
    drain();
    return target.digest();
  }

  @Override
  protected void engineReset() {
    drain();
    target.reset();
  }

  /**
   * Waits until every byte given so far is hashed, then returns a copy of the wrapped digest's
   * state.
   */
  @Override
  public MessageDigest clone() {
    drain();
    try {
      return (MessageDigest) target.clone();
    } catch (CloneNotSupportedException e) {
      throw new IllegalStateException("digest cannot be cloned: " + target.getAlgorithm(), e);
    }
  }

  /** Ends the worker thread (if any); pending chunks are dropped. Idempotent. */
  @Override
  public void close() {
    if (worker != null) {
      work.clear();
      putUninterruptibly(work, STOP);
      worker = null;
    }
  }

  /** @return true once a chunk has been handed to the worker thread (tests) */
  boolean workerStarted() {
    return worker != null;
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * Bytes of the first buffer: it doubles up to {@link #CHUNK_BYTES} as it fills ({@link
   * #filled}), so that hashing a header of a few kilobytes, which never starts the worker,
   * allocates a few kilobytes and not a whole chunk (a scan of 10,000 small models allocated
   * 2.5 GB of chunks for 110 MB of headers, JFR).
   */
  static final int FIRST_BUFFER_BYTES = 16 * 1024;

  private byte[] takeBuffer() {
    byte[] b = free.poll();
    if (b != null) {
      return b;
    }
    if (buffersMade < CHUNKS_IN_FLIGHT + 1) {
      return new byte[buffersMade++ == 0 ? FIRST_BUFFER_BYTES : CHUNK_BYTES];
    }
    return takeUninterruptibly(free);
  }

  /** The buffer being filled is full: a first buffer grows; a whole chunk goes to the worker. */
  private void filled() {
    byte[] f = Objects.requireNonNull(fill, "called with a full buffer");
    if (f.length < CHUNK_BYTES) {
      fill = java.util.Arrays.copyOf(f, (int) Math.min(CHUNK_BYTES, 2L * f.length));
    } else {
      submitFill();
    }
  }

  private void submitFill() {
    checkFailure();
    if (worker == null) {
      startWorker();
    }
    putUninterruptibly(
        work, new Job(Objects.requireNonNull(fill, "called with a buffer to hand on"), fillLen, null));
    fill = null;
    fillLen = 0;
  }

  /** Hashes everything given so far (on this thread when the worker never started). */
  private void drain() {
    if (worker == null) {
      if (fillLen > 0) {
        target.update(Objects.requireNonNull(fill, "bytes were given"), 0, fillLen);
        fillLen = 0;
      }
      return;
    }
    if (fillLen > 0) {
      submitFill();
    }
    CountDownLatch done = new CountDownLatch(1);
    putUninterruptibly(work, new Job(null, 0, done));
    boolean interrupted = false;
    while (true) {
      try {
        done.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    checkFailure();
  }

  private void startWorker() {
    Thread t =
        new Thread(
            () -> {
              while (true) {
                Job j = takeUninterruptibly(work);
                if (j == STOP) {
                  return;
                }
                CountDownLatch latch = j.latch;
                if (latch != null) {
                  latch.countDown();
                  continue;
                }
                byte[] data = Objects.requireNonNull(j.data, "a job without a latch has data");
                try {
                  if (failure == null) {
                    target.update(data, 0, j.len);
                  }
                } catch (Throwable e) {
                  failure = e;
                }
                free.offer(data);
              }
            },
            "rea-digest");
    t.setDaemon(true);
    t.start();
    worker = t;
  }

  private void checkFailure() {
    Throwable f = failure;
    if (f != null) {
      throw new IllegalStateException("hashing failed on the digest thread", f);
    }
  }

  private static <T> T takeUninterruptibly(BlockingQueue<T> q) {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return q.take();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static <T> void putUninterruptibly(BlockingQueue<T> q, T item) {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          q.put(item);
          return;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
