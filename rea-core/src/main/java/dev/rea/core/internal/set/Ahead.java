package dev.rea.core.internal.set;

import dev.rea.core.evidence.Inspection;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.internal.io.Background;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A set's member inspections started ahead of the member being checked, on {@value #WINDOW}
 * worker threads, so that a machine with two or more cores reads, parses and identifies members
 * while the caller's thread checks and writes the one before. Results are taken in member order,
 * so the cross-checks, the set record and a member sink see the members exactly as when they are
 * inspected one after another, and the set's bytes are the same either way. At most {@value
 * #WINDOW} members beyond the one taken are started or finished and waiting: memory stays that
 * of a few members, never of the set.
 *
 * <p>Used only for local files hashed by header: a full hash reports one progress stream over the
 * members in order (and reads each whole, which the disk, not a core, bounds), and a caller's
 * {@link dev.rea.core.source.SetSource} is not required to be used from several threads. Then,
 * and when the machine has one core or the system property {@code rea.set.ahead} is {@code
 * false} (for comparisons), each member is inspected on the caller's thread when taken.
 *
 * <p>Not thread-safe: one caller takes the members, in order, each once.
 */
final class Ahead implements AutoCloseable {
  /** Members started beyond the one being checked (and worker threads). */
  static final int WINDOW = 2;

  private static final AtomicInteger THREADS = new AtomicInteger();

  private final @Nullable ExecutorService pool;
  private final SetFiles files;
  private final List<String> members;
  private final Cancellation cancellation;
  private final ArrayDeque<Future<Inspection>> started = new ArrayDeque<>();
  private int next;

  private Ahead(@Nullable ExecutorService pool, SetFiles files, List<String> members,
      Cancellation cancellation) {
    this.pool = pool;
    this.files = files;
    this.members = members;
    this.cancellation = cancellation;
  }

  /**
   * @param files the set's directory
   * @param hash the hash mode: only {@link HashMode#HEADER} is inspected ahead
   * @param members the member names, in member order
   * @param cancellation the set's cancellation, which each inspection ahead watches too
   */
  static Ahead of(SetFiles files, HashMode hash, List<String> members, Cancellation cancellation) {
    boolean ahead =
        !"false".equals(System.getProperty("rea.set.ahead"))
            && hash == HashMode.HEADER
            && files.concurrent()
            && members.size() > 1
            && Runtime.getRuntime().availableProcessors() > 1;
    ExecutorService pool = !ahead ? null : Executors.newFixedThreadPool(WINDOW, r -> {
      Thread t = new Thread(r, "rea-set-member-" + THREADS.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    return new Ahead(pool, files, members, cancellation);
  }

  /**
   * Member k's inspection: the one started ahead, or {@code here} run now when none is.
   *
   * @param k the member's index; 0 on the first call, one more on each next call
   * @param here the inspection on the caller's thread
   * @throws RuntimeException or {@link Error} as the inspection threw it
   */
  Inspection take(int k, Supplier<Inspection> here) {
    if (pool == null) {
      return here.get();
    }
    while (next < members.size() && next <= k + WINDOW) {
      String name = members.get(next);
      started.add(pool.submit(() -> files.inspect(
          name, HashMode.HEADER, new ModelInspector.Listener() {}, cancellation)));
      next++;
    }
    Future<Inspection> f = started.poll();
    if (f == null) {
      return here.get();
    }
    try {
      return f.get();
    } catch (InterruptedException e) {
      // As on one thread: the inspection here sees the interrupt.
      Thread.currentThread().interrupt();
      f.cancel(false);
      return here.get();
    } catch (ExecutionException e) {
      throw Background.unwrap(e, "inspecting member " + k);
    }
  }

  /** Drops the inspections started and not taken (a set that failed or was cancelled). */
  @Override
  public void close() {
    if (pool == null) {
      return;
    }
    for (Future<Inspection> f : started) {
      f.cancel(false);
    }
    started.clear();
    pool.shutdown();
  }
}
