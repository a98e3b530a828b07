package dev.rea.cli.scan;

import dev.rea.core.Rea;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.FileIdentity;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.options.LayoutAssumption;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * Runs a scan (CONTRACT section 10): the walk on the calling thread ({@link TreeWalker}), {@code
 * jobs} worker threads inspecting units ({@link UnitWork}), and between them a queue of at most
 * {@link #QUEUE_PER_JOB} units per worker, so the walk waits when the workers are behind and
 * memory is bounded by the workers, not by the tree. Lines are written in completion order.
 *
 * <p>The cancellation (SIGINT, SIGTERM) stops the walk at its next entry and the workers at
 * their next unit; an inspection running then ends as cancelled and writes no line, so the
 * output holds only whole lines of finished units. A failure to write the output (or a bundle),
 * or a defect, stops the scan the same way and is {@link Outcome#FAILED}.
 */
public final class ScanEngine {
  /** Units queued per worker. */
  static final int QUEUE_PER_JOB = 64;

  /**
   * What the scan does besides walking.
   *
   * @param jobs worker threads (1 or more)
   * @param hash the inspections' hash mode
   * @param listSkipped whether skipped entries get lines ({@code --list-skipped})
   * @param bundles where signed bundles go ({@code --bundles DIR}), or null
   * @param advice the command line's advice added to a failure's message before it is written
   *     (as {@code inspect-model-artifact} adds it)
   * @param layout the layout assumption every inspection makes ({@code --assume-layout},
   *     CONTRACT section 12); a line of a unit inspected under one says so ({@link ScanLine})
   */
  public record Settings(
      int jobs,
      HashMode hash,
      boolean listSkipped,
      @Nullable Path bundles,
      UnaryOperator<ReaException> advice,
      LayoutAssumption layout) {
    public Settings {
      if (jobs < 1) {
        throw new IllegalArgumentException("jobs must be 1 or more: " + jobs);
      }
      Objects.requireNonNull(hash, "hash");
      Objects.requireNonNull(advice, "advice");
      Objects.requireNonNull(layout, "layout");
    }
  }

  /** How a scan ended. */
  public enum Outcome {
    /** Every PATH was walked and every unit inspected. */
    FINISHED,
    /** Cancelled (a signal): some units have no line yet. */
    CANCELLED,
    /** The scan itself failed ({@link #failure()}): some units have no line yet. */
    FAILED
  }

  /** What the walker hands to the workers. */
  private sealed interface Work {}

  private record Inspect(ScanUnit unit) implements Work {}

  private record Report(Path path, FileIdentity identity, UnitStatus status, ReaException why)
      implements Work {}

  private record End() implements Work {}

  private static final Work END = new End();

  private final Settings settings;
  private final UnitGrouping grouping;
  private final @Nullable ResumeIndex resume;
  private final Tally tally;
  private final Cancellation cancellation;
  private final UnitWork work;
  private final BlockingQueue<Work> queue;
  private final TreeWalker.Lister lister;
  private volatile @Nullable Throwable failure;

  /**
   * @param rea the front door the workers inspect through
   * @param settings what the scan does
   * @param grouping turns each directory's files into units
   * @param sink where lines go
   * @param resume the earlier output's index ({@code --resume}), or null
   * @param tally the counts
   * @param cancellation stops the scan
   * @param lister opens directory listings ({@link TreeWalker.Lister#SYSTEM})
   */
  public ScanEngine(
      Rea rea,
      Settings settings,
      UnitGrouping grouping,
      LineSink sink,
      @Nullable ResumeIndex resume,
      Tally tally,
      Cancellation cancellation,
      TreeWalker.Lister lister) {
    this(rea, settings, grouping, sink, resume, tally, cancellation, lister, UnitListener.NONE);
  }

  /**
   * As the constructor above, also telling {@code listener} of each unit once its line is
   * written.
   */
  public ScanEngine(
      Rea rea,
      Settings settings,
      UnitGrouping grouping,
      LineSink sink,
      @Nullable ResumeIndex resume,
      Tally tally,
      Cancellation cancellation,
      TreeWalker.Lister lister,
      UnitListener listener) {
    this.lister = lister;
    this.settings = settings;
    this.grouping = grouping;
    this.resume = resume;
    this.tally = tally;
    this.cancellation = cancellation;
    InspectOptions options =
        InspectOptions.builder()
            .hash(settings.hash())
            .layout(settings.layout())
            .cancellation(cancellation)
            .build();
    this.work = new UnitWork(rea, options, settings, sink, tally, listener);
    this.rea = rea;
    this.queue = new ArrayBlockingQueue<>(QUEUE_PER_JOB * settings.jobs());
  }

  private final Rea rea;

  /**
   * A snapshot blob's identity as the scan's front door observes it (through its directories)
   * and as the walk does by path: null unless both name the same file, so that a {@code blobs/}
   * swapped for a link lends no outside identity.
   */
  private @Nullable FileIdentity observeBlob(Path link, Path blob) throws java.io.IOException {
    FileIdentity confined = rea.observeRegularFile(link);
    FileIdentity byPath = TreeWalker.BlobIdentity.BY_PATH.observe(link, blob);
    if (confined == null || byPath == null
        || !java.util.Objects.equals(confined.device(), byPath.device())
        || !java.util.Objects.equals(confined.inode(), byPath.inode())) {
      return null;
    }
    return byPath;
  }

  /** @return what made the scan fail ({@link Outcome#FAILED}), or null */
  public @Nullable Throwable failure() {
    return failure;
  }

  /**
   * Scans the PATHs, one after another, and returns once every worker has stopped.
   *
   * @param roots absolute paths
   * @return how the scan ended
   * @throws InterruptedException when the calling thread was interrupted while waiting
   */
  public Outcome run(List<Path> roots) throws InterruptedException {
    Thread[] workers = new Thread[settings.jobs()];
    for (int i = 0; i < workers.length; i++) {
      workers[i] = new Thread(this::workLoop, "rea-scan-" + (i + 1));
      workers[i].start();
    }
    TreeWalker walker =
        new TreeWalker(grouping, new Walked(), cancellation, lister, this::observeBlob);
    try {
      walker.walk(roots);
    } catch (RuntimeException | Error e) {
      fail(e);
    } finally {
      // Workers drain the queue (and drop what they take once cancelled), so these puts end.
      for (int i = 0; i < workers.length; i++) {
        queue.put(END);
      }
      for (Thread t : workers) {
        t.join();
      }
    }
    if (failure != null) {
      return Outcome.FAILED;
    }
    return cancellation.isCancelled() ? Outcome.CANCELLED : Outcome.FINISHED;
  }

  private void workLoop() {
    while (true) {
      Work w;
      try {
        w = queue.take();
      } catch (InterruptedException e) {
        fail(e);
        return;
      }
      if (w == END) {
        return;
      }
      if (cancellation.isCancelled()) {
        continue;
      }
      try {
        if (w instanceof Inspect i) {
          work.inspect(i.unit());
        } else if (w instanceof Report r) {
          work.report(r.path(), r.identity(), r.status(), r.why());
        }
      } catch (IOException | ReaException | RuntimeException | Error e) {
        fail(e);
      }
    }
  }

  /** Stops the scan for a failure of its own (the first one is kept). */
  private void fail(Throwable e) {
    synchronized (this) {
      if (failure == null) {
        failure = e;
      }
    }
    cancellation.cancel("stopped: the scan failed");
  }

  /** Hands the walk's findings to the workers, keeping units of the earlier output. */
  private final class Walked implements TreeWalker.Listener {
    @Override
    public void unit(ScanUnit unit) throws InterruptedException {
      if (resume != null) {
        ResumeIndex.Kept k = resume.keep(unit);
        if (k != null) {
          tally.kept(k.status(), k.warnings(), k.limitations());
          return;
        }
      }
      put(new Inspect(unit));
    }

    @Override
    public void skipped(Path path, FileIdentity identity, ReaException why)
        throws InterruptedException {
      if (!settings.listSkipped()) {
        tally.count(UnitStatus.SKIPPED, false);
      } else if (!kept(path, identity)) {
        put(new Report(path, identity, UnitStatus.SKIPPED, why));
      }
    }

    @Override
    public void failed(Path directory, FileIdentity identity, ReaException why)
        throws InterruptedException {
      put(new Report(directory, identity, UnitStatus.FAILED, why));
    }

    private boolean kept(Path path, FileIdentity identity) {
      if (resume == null) {
        return false;
      }
      ResumeIndex.Kept k = resume.keep(path.toString(), identity);
      if (k == null) {
        return false;
      }
      tally.kept(k.status(), k.warnings(), k.limitations());
      return true;
    }

    private void put(Work w) throws InterruptedException {
      while (!queue.offer(w, 100, TimeUnit.MILLISECONDS)) {
        if (cancellation.isCancelled()) {
          return;
        }
      }
    }
  }
}
