package dev.rea.core.internal.set;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.evidence.Request;
import dev.rea.core.evidence.SetInspection;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.Limits;
import dev.rea.core.options.ProgressListener;
import dev.rea.core.source.SetSource;
import java.nio.file.Path;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Inspects a model set (CONTRACT section 9): finds the set a path names, inspects its members one
 * after another with the file operation ({@link ModelInspector}), cross-checks them ({@link
 * SetChecks}) and builds the set record ({@link SetRecordBuilder}).
 *
 * <p>Memory: the set record keeps each member's summary entry, type sums and limitations; the
 * cross-checks keep the index's map (or, for a split set, every tensor name); the members'
 * complete records are kept in the result for views, unless a {@link SetInspection.MemberSink}
 * takes each as it is checked (then memory is one member's plus the index's; docs/sets.md has
 * the measurements).
 * A full hash reports one progress stream over the bytes of all members: the members' sizes are
 * read first, and a missing member fails the set before any byte is hashed.
 *
 * <p>Thread-safe: each call has its own state.
 */
public final class SetInspector {
  private final ModelInspector inspector;
  private final Clock clock;

  /**
   * @param inspector the file operation, with the limits of this inspection
   * @param clock the clock of the set's {@code observed_at}
   */
  public SetInspector(ModelInspector inspector, Clock clock) {
    this.inspector = Objects.requireNonNull(inspector, "inspector");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** @return whether the path is a directory (following links), as the inspector's access sees it */
  private boolean isDirectory(Path path) {
    try {
      return inspector.access().stat(path).directory();
    } catch (java.io.IOException e) {
      return false;
    }
  }

  /**
   * Inspects the set a local path names: an index, any split member, a directory holding one
   * model, or a single model file.
   *
   * @param path an absolute path
   * @return the outcome; never throws for anything about the files
   */
  public SetInspection inspect(Path path, HashMode hash, ProgressListener progress,
      Cancellation cancellation, SetInspection.@Nullable MemberSink sink) {
    if (!path.isAbsolute()) {
      return new SetInspection.Failed(
          ReaException.builder(Constraint.RELATIVE_PATH, "the path must be absolute: " + path)
              .path(path.toString())
              .field("path")
              .build(),
          null, List.of());
    }
    Limits limits = inspector.limits();
    Path dir = isDirectory(path) ? path : path.getParent();
    if (dir == null) {
      dir = path;
    }
    PathSetFiles files = new PathSetFiles(dir, inspector, limits);
    String name = dir == path ? null : path.getFileName().toString();
    return inspect(files, name, path.toString(), hash, progress, cancellation, sink);
  }

  /**
   * Inspects a set in a directory the caller reaches its own way.
   *
   * @param source the directory
   * @param name the file named (an index, a split member, a model file), or null for the
   *     directory's one model
   * @return the outcome; never throws for anything about the files
   */
  public SetInspection inspect(SetSource source, @Nullable String name, HashMode hash,
      ProgressListener progress, Cancellation cancellation,
      SetInspection.@Nullable MemberSink sink) {
    SourceSetFiles files = new SourceSetFiles(source, inspector, inspector.limits());
    String requested = name == null ? source.directory() : files.pathOf(name);
    if (name != null && SafetensorsIndexReader.badMemberName(name) != null) {
      return new SetInspection.Failed(
          ReaException.builder(Constraint.BAD_ARGUMENT,
                  "the name must be a plain file name in the directory: "
                      + ReaException.truncateForMessage(name))
              .field("name")
              .build(),
          null, List.of());
    }
    return inspect(files, name, requested, hash, progress, cancellation, sink);
  }

  private SetInspection inspect(SetFiles files, @Nullable String name, String requested,
      HashMode hash, ProgressListener progress, Cancellation cancellation,
      SetInspection.@Nullable MemberSink sink) {
    String observedAt = DateTimeFormatter.ISO_INSTANT.format(clock.instant());
    Request request = new Request(requested, hash.wire(), inspector.layout().wire());
    SetUnit unit;
    try {
      cancellation.check();
      // Each index is read once: the bytes grouping parsed are the bytes the record hashes.
      java.util.Map<String, SafetensorsIndex> indexes = new java.util.HashMap<>();
      SetGrouping.Indexes once = n -> {
        SafetensorsIndex ix = indexes.get(n);
        if (ix == null) {
          ix = files.readIndex(n);
          indexes.put(n, ix);
        }
        return ix;
      };
      if (name == null) {
        unit = SetGrouping.only(SetGrouping.group(files.listing(), once), files.directory());
      } else {
        String format = SafetensorsIndex.isIndexName(name) ? null : files.modelFormat(name);
        unit = SetGrouping.unitOf(name, format, once);
        if (unit.kind() == SetKind.SINGLE_FILE && "safetensors".equals(format)) {
          SetUnit index = SetGrouping.indexClaiming(name, files.listing(), once);
          unit = index != null ? index : unit;
        }
      }
      indexes.clear();
      if (unit.error() != null) {
        throw unit.error().withPath(files.pathOf(unit.anchor()));
      }
      ModelSetRecord.IndexInfo indexInfo = indexInfo(files, unit);
      return new Run(files, unit, request, observedAt, hash, progress, cancellation, sink)
          .run(indexInfo);
    } catch (ReaException e) {
      return new SetInspection.Failed(e, null, List.of());
    } catch (RuntimeException e) {
      throw new IllegalStateException("internal error inspecting the set " + requested, e);
    }
  }

  /** @return what the set record says of the index, or null for a set without one */
  private static ModelSetRecord.@Nullable IndexInfo indexInfo(SetFiles files, SetUnit unit) {
    SafetensorsIndex index = unit.index();
    if (index == null) {
      return null;
    }
    List<ModelSetRecord.IndexEntry> entries = new ArrayList<>();
    for (SafetensorsIndex.Entry e : index.metadata()) {
      entries.add(new ModelSetRecord.IndexEntry(
          e.key(), e.value(), e.kind() == SafetensorsIndex.Kind.BOOLEAN));
    }
    String sha256 = java.util.Objects.requireNonNull(index.sha256(), "a set's index is hashed");
    return new ModelSetRecord.IndexInfo(
        files.pathOf(unit.anchor()), index.fileSize(), sha256, entries);
  }

  /** One set inspection's state. */
  private static final class Run {
    private final SetFiles files;
    private final SetUnit unit;
    private final Request request;
    private final String observedAt;
    private final HashMode hash;
    private final ProgressListener progress;
    private final Cancellation cancellation;
    private final List<EvidenceRecord> records = new ArrayList<>();
    private final SetInspection.@Nullable MemberSink sink;
    private @Nullable SetRecordBuilder builder;
    private int done;

    Run(SetFiles files, SetUnit unit, Request request, String observedAt, HashMode hash,
        ProgressListener progress, Cancellation cancellation,
        SetInspection.@Nullable MemberSink sink) {
      this.sink = sink;
      this.files = files;
      this.unit = unit;
      this.request = request;
      this.observedAt = observedAt;
      this.hash = hash;
      this.progress = progress;
      this.cancellation = cancellation;
    }

    /** @param indexInfo what the record says of the index, or null for a set without one */
    SetInspection run(ModelSetRecord.@Nullable IndexInfo indexInfo) throws ReaException {
      SafetensorsIndex index = unit.index();
      List<String> members = unit.members();
      builder = new SetRecordBuilder(request, observedAt,
          new ModelSetRecord.SetInfo(unit.kind().wire(), files.pathOf(unit.anchor()), indexInfo));
      SetChecks checks = new SetChecks(unit.kind(), index, members.size(), () -> {
        SafetensorsIndex first = Objects.requireNonNull(index, "an index set has its index");
        return Objects.requireNonNull(
            files.readIndexExact(unit.anchor(), first).weightMap(), "read with its names");
      });
      long[] sizes = hash == HashMode.FULL ? sizes(members) : null;
      long total = 0;
      for (int k = 0; sizes != null && k < sizes.length; k++) {
        total += sizes[k];
      }
      long base = 0;
      Ahead ahead = Ahead.of(files, hash, members, cancellation);
      try {
        for (int k = 0; k < members.size(); k++) {
          if (cancellation.isCancelled()) {
            return failed(cancelled());
          }
          SetInspection stop = member(k, members, checks, ahead, listener(base, total));
          if (stop != null) {
            return stop;
          }
          base += sizes == null ? 0 : sizes[k];
        }
      } finally {
        ahead.close();
      }
      List<dev.rea.core.evidence.Warning> warnings;
      try {
        warnings = checks.finish();
      } catch (ReaException e) {
        return failed(e);
      }
      return new SetInspection.Complete(builder.complete(warnings), records, checks.passed());
    }

    /** Inspects (or takes the inspection made ahead of) member k and checks it; null to go on. */
    private @Nullable SetInspection member(int k, List<String> members, SetChecks checks,
        Ahead ahead, ModelInspector.Listener listener) throws ReaException {
      String name = members.get(k);
      Inspection one = ahead.take(k, () -> files.inspect(name, hash, listener, cancellation));
      if (one instanceof Inspection.Failed f) {
        ReaException failure = memberFailure(k, members.size(), name, f.error());
        return failed(f.error().constraint() == Constraint.NOT_FOUND
            ? allMissing(members, k, failure)
            : failure);
      }
      EvidenceRecord r = ((Inspection.Complete) one).record();
      try {
        checks.member(k, name, r);
      } catch (ReaException e) {
        return failed(e);
      }
      Objects.requireNonNull(builder, "builder").add(r);
      done++;
      if (sink == null) {
        records.add(r);
      } else {
        try {
          sink.accept(k, r);
        } catch (ReaException e) {
          return failed(e);
        }
      }
      return null;
    }

    private long[] sizes(List<String> members) throws ReaException {
      long[] out = new long[members.size()];
      for (int k = 0; k < out.length; k++) {
        try {
          out[k] = files.size(members.get(k));
        } catch (ReaException e) {
          ReaException failure = memberFailure(k, members.size(), members.get(k), e);
          throw e.constraint() == Constraint.NOT_FOUND ? allMissing(members, k, failure) : failure;
        }
      }
      return out;
    }

    /** Names shown of the members missing besides the first. */
    private static final int MISSING_NAMED = 8;

    /**
     * @param first the index of the first member found missing
     * @return its failure, saying how many members are missing in all and naming the first few,
     *     when it is not the only one (a download that stopped early lacks many)
     */
    private ReaException allMissing(List<String> members, int first, ReaException failure) {
      List<String> missing = new ArrayList<>();
      missing.add(members.get(first));
      for (int k = first + 1; k < members.size(); k++) {
        try {
          files.size(members.get(k));
        } catch (ReaException e) {
          if (e.constraint() == Constraint.NOT_FOUND) {
            missing.add(members.get(k));
          }
        }
      }
      if (missing.size() == 1) {
        return failure;
      }
      List<String> shown = missing.subList(0, Math.min(MISSING_NAMED, missing.size()));
      return failure.toBuilder(
              failure.getMessage()
                  + "; "
                  + missing.size()
                  + " of the "
                  + members.size()
                  + " members are missing: "
                  + String.join(", ", shown)
                  + (missing.size() > shown.size()
                      ? " and " + (missing.size() - shown.size()) + " more"
                      : ""))
          .diagnostic("missing_members", missing.size())
          .build();
    }

    private ModelInspector.Listener listener(long base, long total) {
      return new ModelInspector.Listener() {
        @Override
        public void onHashProgress(long done, long size) {
          progress.progress(base + done, total);
        }
      };
    }

    private SetInspection failed(ReaException e) {
      // Once the set is known, its partial record says so, even before a member is finished.
      ModelSetRecord partial = builder == null ? null : builder.partial(List.of());
      return new SetInspection.Failed(e, partial, records);
    }

    private ReaException cancelled() {
      return ReaException.builder(Constraint.CANCELLED,
              "cancelled after " + done + " of " + unit.members().size() + " members")
          .build();
    }

    /** The member's failure, its message saying which member of the set failed. */
    private ReaException memberFailure(int k, int n, String name, ReaException e) {
      if (e.constraint() == Constraint.CANCELLED) {
        return e;
      }
      String path = files.pathOf(name);
      // Members are named by their 0-based index, as the record's "member" fields number them.
      return e.toBuilder(
              "member " + k + " (" + name + ", of " + n + (n == 1 ? " member" : " members") + "): "
                  + e.getMessage())
          .path(e.path() == null ? path : e.path())
          .diagnostic("member", k)
          .diagnostic("member_path", path)
          .build();
    }
  }
}
