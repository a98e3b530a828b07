package dev.rea.core.internal.inspect;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Artifact;
import dev.rea.core.evidence.Coverage;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FileIdentity;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.evidence.Request;
import dev.rea.core.evidence.Subject;
import dev.rea.core.internal.detect.DetectedFormat;
import dev.rea.core.internal.detect.FormatDetector;
import dev.rea.core.internal.evidence.Derivations;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.evidence.RecordSize;
import dev.rea.core.internal.format.FormatReader;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.internal.format.ReadContext;
import dev.rea.core.internal.format.gguf.GgufReader;
import dev.rea.core.internal.format.safetensors.SafetensorsReader;
import dev.rea.core.internal.io.ConfinedFileAccess;
import dev.rea.core.internal.io.FileAccess;
import dev.rea.core.internal.io.FileSnapshot;
import dev.rea.core.internal.io.HeaderInput;
import dev.rea.core.internal.io.IoFailures;
import dev.rea.core.internal.io.MissingPaths;
import dev.rea.core.internal.io.PipelinedDigest;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.LayoutAssumption;
import dev.rea.core.options.Limits;
import dev.rea.core.source.SeekableSource;
import dev.rea.core.source.SourceIdentity;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * Inspects one GGUF or safetensors file and returns its Evidence record (specification, "Model
 * file declarations" and "Identity and reads"; CONTRACT section 3).
 *
 * <p>Steps: check the selected path; open it; check that the open file is the path's file;
 * detect the format by content; read and validate the header (nothing is retained from an
 * unvalidated header); hash the rest when {@link HashMode#FULL}; check identity again; build the
 * record and its {@code evidence_id}. The channel is closed before {@link #inspect} returns or
 * throws.
 *
 * <p>Retained budget: before the reader runs, the record's fixed part ({@link
 * RecordSize#shellBytes}: {@link RecordSize#FIXED_RECORD_BYTES}, the path twice and both
 * timestamps, JSON-escaped) is charged to the inspection's {@link dev.rea.core.internal.io.RetainedBudget};
 * the reader charges everything else, so the signed bundle holding the record is at most {@code
 * Limits.retainedBudgetBytes()} bytes of JSON.
 *
 * <p>Thread-safe: each call uses its own buffers and budget.
 */
public final class ModelInspector {
  /** Whether hashing uses a second thread ({@link PipelinedDigest}); system property. */
  private static final boolean DIGEST_THREAD =
      !"false".equals(System.getProperty("rea.digest.thread"));

  /**
   * Whether the header, too, is hashed on the second thread (the default; {@code
   * -Drea.digest.thread=rest} hashes it on the reading thread, for comparisons). In process this
   * takes 1 to 3 ms off a 6 to 8 MB header (JMH, {@code docs/performance.md}); in a starting JVM
   * it measured neither faster nor slower.
   */
  private static final boolean HEADER_DIGEST_THREAD =
      DIGEST_THREAD && !"rest".equals(System.getProperty("rea.digest.thread"));

  private final Limits limits;
  private LayoutAssumption layout = LayoutAssumption.NONE;
  private UnaryOperator<EvidenceRecord> completion = EvidenceIds::withId;
  private final FileAccess access;
  private final Clock clock;
  private final Map<DetectedFormat, FormatReader> readers;
  private final Listener hook;

  /** Longest wait for {@code open} in milliseconds ({@link GuardedOpen}); tests shorten it. */
  long openTimeoutMillis = GuardedOpen.DEFAULT_TIMEOUT_MILLIS;

  /**
   * @param limits limits for both readers
   * @param access the file-system seam
   * @param clock source of {@code observed_at}
   * @param readers one reader per format
   */
  public ModelInspector(
      Limits limits, FileAccess access, Clock clock, Map<DetectedFormat, FormatReader> readers) {
    this(limits, access, clock, readers, SILENT);
  }

  private ModelInspector(
      Limits limits,
      FileAccess access,
      Clock clock,
      Map<DetectedFormat, FormatReader> readers,
      Listener hook) {
    this.limits = Objects.requireNonNull(limits, "limits");
    this.access = Objects.requireNonNull(access, "access");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.hook = Objects.requireNonNull(hook, "hook");
    this.readers = new EnumMap<>(readers);
    for (DetectedFormat f : DetectedFormat.values()) {
      if (!this.readers.containsKey(f)) {
        throw new IllegalArgumentException("no reader for " + f);
      }
    }
  }

  /** @return this inspector with other limits */
  public ModelInspector withLimits(Limits value) {
    return value.equals(limits) ? this : copy(value, clock, hook);
  }

  /**
   * @return this inspector with a layout assumption for GGUF types whose layout the header does
   *     not establish (CONTRACT section 12)
   */
  public ModelInspector withLayout(LayoutAssumption value) {
    if (value == layout) {
      return this;
    }
    ModelInspector m = copy(limits, clock, hook);
    m.layout = value;
    return m;
  }

  /**
   * @param value what a complete record gets before it is returned, in place of its {@code
   *     evidence_id} alone ({@link EvidenceIds#withId}): e.g. its id and signature at once
   *     ({@link dev.rea.core.internal.auth.EvidenceSigner#signFresh}); it must set the id.
   *     Partial records of failures always get their id alone.
   * @return this inspector completing records with it
   */
  public ModelInspector withCompletion(UnaryOperator<EvidenceRecord> value) {
    ModelInspector m = copy(limits, clock, hook);
    m.completion = Objects.requireNonNull(value, "value");
    return m;
  }

  /**
   * @param directories absolute paths of directory trees: a file below one of them is then
   *     examined and opened only through them ({@link ConfinedFileAccess}), never by its path
   * @param strict further trees whose own name is never followed as a link ({@link
   *     ConfinedFileAccess#of(java.util.Collection, java.util.Collection)})
   * @return this inspector confined to them; an inspector whose file access is a test's double
   *     (not {@link FileAccess#system()}) is returned as it is
   */
  public ModelInspector confinedTo(
      java.util.Collection<Path> directories, java.util.Collection<Path> strict) {
    if (access != FileAccess.system() || directories.isEmpty()) {
      return this;
    }
    FileAccess confined = ConfinedFileAccess.of(directories, strict);
    if (confined == access) {
      return this;
    }
    ModelInspector m = new ModelInspector(limits, confined, clock, readers, hook);
    m.openTimeoutMillis = openTimeoutMillis;
    m.layout = layout;
    m.completion = completion;
    return m;
  }

  /** @return how this inspector examines and opens files */
  public FileAccess access() {
    return access;
  }

  /** @return this inspector with another clock */
  public ModelInspector withClock(Clock value) {
    return copy(limits, value, hook);
  }

  /**
   * @param value called in every inspection besides the caller's listener: a seam for tests (a
   *     fault in {@link Listener#beforeHashRead}, a signal at a progress point)
   * @return this inspector with the hook
   */
  public ModelInspector withHook(Listener value) {
    return copy(limits, clock, value);
  }

  private ModelInspector copy(Limits l, Clock c, Listener h) {
    ModelInspector m = new ModelInspector(l, access, c, readers, h);
    m.openTimeoutMillis = openTimeoutMillis;
    m.layout = layout;
    m.completion = completion;
    return m;
  }

  /** @return an inspector with the specification's limits, the system file access and clock */
  public static ModelInspector standard() {
    return withAccess(Limits.defaults(), FileAccess.system());
  }

  /** @return an inspector with the given limits and file access, the standard readers */
  public static ModelInspector withAccess(Limits limits, FileAccess access) {
    Map<DetectedFormat, FormatReader> readers = new EnumMap<>(DetectedFormat.class);
    readers.put(DetectedFormat.GGUF, new GgufReader());
    readers.put(DetectedFormat.SAFETENSORS, new SafetensorsReader());
    return new ModelInspector(limits, access, Clock.systemUTC(), readers);
  }

  /** @return the layout assumption in force ({@link LayoutAssumption#NONE} by default) */
  public LayoutAssumption layout() {
    return layout;
  }

  /** @return the limits in force */
  public Limits limits() {
    return limits;
  }

  /** Optional callbacks of one inspection. */
  public interface Listener {
    /** Full-hash progress: bytes hashed so far and the file size. */
    default void onHashProgress(long done, long total) {}

    /** Test seam called before each read of the full-hash loop. */
    default void beforeHashRead(long offset) throws ReaException {}
  }

  private static final Listener SILENT = new Listener() {};

  /**
   * Inspects with no listener and no cancellation.
   *
   * @return the complete record
   * @throws ReaException the failure (any partial Evidence is dropped: use {@link #run})
   */
  public EvidenceRecord inspect(Path path, HashMode hash) throws ReaException {
    return run(path, hash, SILENT, Cancellation.none()).orThrow();
  }

  /**
   * Inspects the file at {@code path}.
   *
   * @param path the selected path; must be absolute
   * @param hash header-only or full-file hashing
   * @param listener progress and test callbacks
   * @param cancellation checked while reading
   * @return the complete record, with {@code evidence_id} set and no authentication; or the
   *     failure: {@code invalid_input}/{@code relative_path}; {@code target_unavailable} for a
   *     missing, non-regular or unreadable path (checked before the file is opened) or a
   *     rejected or unsupported file; {@code execution_failure} for host failures once the
   *     selection was valid ({@code io_error}: EIO, EMFILE, a permission removed, the path no
   *     longer examinable; {@code target_changed}: replaced, truncated, appended, rewritten or
   *     vanished), with the selected path and the reason in {@code details.diagnostics} ({@code
   *     path}, {@code reason}) and, for a failed read, its absolute {@code offset}; {@code
   *     resource_exhausted} for limits; {@code cancelled}. After the header validated, a failure
   *     carries partial Evidence: every validated row, {@code status: "partial"}, digests
   *     unknown, final identity unverified. The file's channel is closed before this method
   *     returns.
   */
  public Inspection run(Path path, HashMode hash, Listener listener, Cancellation cancellation) {
    Objects.requireNonNull(hash, "hash");
    if (!path.isAbsolute()) {
      return new Inspection.Failed(
          ReaException.builder(Constraint.RELATIVE_PATH, "the path must be absolute: " + path)
              .path(path.toString())
              .field("path")
              .build(),
          null);
    }
    String pathText = path.toString();
    Read read = new Read(pathText, hash, afterHook(listener), cancellation, now(), layout);
    try {
      return finish(openAndRead(path, read), pathText);
    } catch (ReaException e) {
      return finish(new Inspection.Failed(e, null), pathText);
    } catch (RuntimeException e) {
      // A defect: never let it pass as a verdict about the file.
      throw new IllegalStateException("internal error inspecting " + pathText, e);
    }
  }

  /**
   * Inspects a file the caller opened ({@link SeekableSource}): as {@link #run(Path, HashMode,
   * Listener, Cancellation)}, except that the identity comes from the source (before the read,
   * and again after it: a difference is {@code target_changed}), the channel's size must equal
   * the identity's size, and the channel is left open.
   *
   * @param source the open file and its identity
   * @return the record or the failure, as for a path
   */
  public Inspection run(
      SeekableSource source, HashMode hash, Listener listener, Cancellation cancellation) {
    Objects.requireNonNull(hash, "hash");
    String name = Objects.requireNonNull(source.name(), "source.name()");
    Read read = new Read(name, hash, afterHook(listener), cancellation, now(), layout);
    try {
      if (name.isEmpty()) {
        throw ReaException.builder(Constraint.BAD_ARGUMENT, "the source's name is empty")
            .field("name")
            .build();
      }
      Limits.checkPathLength("name", name);
      cancellation.check();
      FileSnapshot before = snapshot(source.identity());
      Restat again =
          () -> {
            try {
              return snapshot(source.identityNow());
            } catch (IOException e) {
              throw ioFailure("observing the source's identity again failed", e);
            }
          };
      SeekableByteChannel channel = source.channel();
      try {
        // The caller's channel may be anywhere: the header starts at byte 0.
        channel.position(0);
      } catch (IOException e) {
        throw ioFailure("positioning the source's channel at its start failed", e);
      }
      PipelinedDigest sha = new PipelinedDigest(EvidenceIds.sha256(), HEADER_DIGEST_THREAD);
      try {
        return finish(readOpen(read, before, channel, sha, again), name);
      } finally {
        sha.close();
      }
    } catch (ReaException e) {
      return finish(new Inspection.Failed(e, null), name);
    } catch (RuntimeException e) {
      throw new IllegalStateException("internal error inspecting " + name, e);
    }
  }

  /** The caller's listener, after this inspector's hook. */
  private Listener afterHook(Listener listener) {
    if (hook == SILENT) {
      return listener;
    }
    return new Listener() {
      @Override
      public void onHashProgress(long done, long total) {
        hook.onHashProgress(done, total);
        listener.onHashProgress(done, total);
      }

      @Override
      public void beforeHashRead(long offset) throws ReaException {
        hook.beforeHashRead(offset);
        listener.beforeHashRead(offset);
      }
    };
  }

  /** What one inspection asked for, and when. */
  private record Read(
      String pathText,
      HashMode hash,
      Listener listener,
      Cancellation cancellation,
      String observedAt,
      LayoutAssumption layout) {
    Request request() {
      return new Request(pathText, hash.wire(), layout.wire());
    }
  }

  /** Observes the file again (the path, or the caller's source). */
  private interface Restat {
    FileSnapshot get() throws ReaException;
  }

  private String now() {
    return DateTimeFormatter.ISO_INSTANT.format(clock.instant());
  }

  private static FileSnapshot snapshot(SourceIdentity id) {
    return FileSnapshot.ofRegularFile(id.size(), id.modified(), id.device(), id.inode());
  }

  /** The failure's path and host details filled in; a complete record as it is. */
  private static Inspection finish(Inspection result, String pathText) {
    if (result instanceof Inspection.Failed f) {
      ReaException e = indexNamed(f.error(), pathText);
      return new Inspection.Failed(hostDetails(e.withPath(pathText), pathText), f.partial());
    }
    return result;
  }

  /**
   * JSON text named {@code *.safetensors.index.json} is a sharded checkpoint's index (CONTRACT
   * section 9): said so, with {@code detected: "safetensors_index"}, so that each front end can
   * name its set operation.
   *
   * @param e a failure of the file at {@code pathText}
   * @param pathText the file's path as given
   * @return {@code e}, or for an index the same failure saying so
   */
  public static ReaException indexNamed(ReaException e, String pathText) {
    if (e.constraint() != Constraint.UNSUPPORTED_FORMAT
        || !"json".equals(e.diagnostics().get("detected"))
        || !pathText.endsWith(".safetensors.index.json")) {
      return e;
    }
    return e.toBuilder(
            "unsupported format: the file is a safetensors index, which lists the files of a"
                + " sharded checkpoint; it is not a model file")
        .diagnostic("detected", "safetensors_index")
        .build();
  }

  private Inspection openAndRead(Path path, Read read) throws ReaException {
    read.cancellation().check();
    FileSnapshot before = stat(path);
    if (!before.regularFile()) {
      throw ReaException.builder(
              Constraint.NOT_REGULAR_FILE,
              (before.directory() ? "the path is a directory" : "the path is not a regular file")
                  + ": "
                  + read.pathText())
          .build();
    }
    SeekableByteChannel channel =
        GuardedOpen.open(
            access, path, before, read.cancellation(), openTimeoutMillis,
            e -> openFailure(path, e));
    Inspection result;
    // The header is hashed as it is parsed and the rest of the file (--hash full) as it is read,
    // both on a second thread while this one goes on (-Drea.digest.thread=false: this thread
    // only; =rest: the header on this thread).
    PipelinedDigest sha = new PipelinedDigest(EvidenceIds.sha256(), HEADER_DIGEST_THREAD);
    try {
      FileSnapshot opened = statAgain(path);
      long channelSize = channelSize(channel);
      if (!before.sameIdentity(opened) || channelSize != before.size()) {
        throw changed(
            "the path was replaced or modified while it was opened: its "
                + changes(before, opened, channelSize)
                + " changed");
      }
      result = readOpen(read, before, channel, sha, () -> statAgain(path));
    } catch (ReaException e) {
      result = new Inspection.Failed(e, null);
    } finally {
      sha.close();
    }
    try {
      channel.close();
    } catch (IOException e) {
      if (result instanceof Inspection.Complete) {
        result = new Inspection.Failed(ioFailure("closing the file failed", e), null);
      }
    }
    return result;
  }

  private Inspection readOpen(
      Read read, FileSnapshot before, SeekableByteChannel channel, PipelinedDigest sha, Restat again)
      throws ReaException {
    long fileSize = before.size();
    long channelSize = channelSize(channel);
    if (channelSize != fileSize) {
      throw changed(
          "the file's size as read through the open channel ("
              + channelSize
              + " bytes) differs from its identity's ("
              + fileSize
              + " bytes)");
    }
    if (fileSize == 0) {
      requireFixedSize(channel, read.pathText());
    }
    HeaderInput in = new HeaderInput(channel, fileSize, sha, read.cancellation());

    byte[] head = probe(in, fileSize);
    DetectedFormat format = FormatDetector.detect(head, head.length, fileSize);
    // The record's fixed part and the strings the inspector adds are charged before any row, so
    // that the whole signed bundle stays within the budget (RecordSize, docs/evidence.md).
    ReadContext ctx = ReadContext.of(limits, read.layout());
    ctx.budget()
        .chargeUnplaced(
            RecordSize.shellBytes(read.pathText(), read.observedAt(), before.modifiedText()),
            "request.path");
    FileIdentity identity = unverified(before);
    ParsedHeader header;
    try {
      // The constructor refused a map without a reader for every format.
      header = Objects.requireNonNull(readers.get(format), "reader").read(in, ctx);
    } catch (ReaException e) {
      ParsedHeader completed = ctx.partial().get();
      if (e.constraint() != Constraint.CANCELLED || completed == null) {
        throw e;
      }
      // Cancelled inside a GGUF header: the declarations completed so far, with the header's
      // digest and the data section's start unknown (specification, "Facts and selected
      // queries": "Cancellation retains completed declarations").
      EvidenceRecord partial =
          build(completed, read, identity, null, null, in.bytesFetched(), true, false);
      return new Inspection.Failed(e, EvidenceIds.withId(partial));
    }
    if (in.position() != header.headerLength()) {
      throw new IllegalStateException(
          "reader consumed " + in.position() + " bytes for a header of " + header.headerLength());
    }
    String headerSha = HexFormat.of().formatHex(in.consumedDigest().digest());

    String fullSha = null;
    try {
      // A cancellation that came while the header was parsed rather than read (a safetensors
      // header is parsed whole once its bytes are in): honoured here, with every validated row
      // in the partial Evidence, as during a full hash.
      read.cancellation().check();
      if (read.hash() == HashMode.FULL) {
        if (DIGEST_THREAD) {
          sha.useThread();
        }
        in.hashRest(read.listener()::onHashProgress, read.listener()::beforeHashRead);
        fullSha = HexFormat.of().formatHex(in.digest().digest());
      }
      FileSnapshot after = again.get();
      long sizeNow = channelSize(channel);
      if (!before.sameIdentity(after) || sizeNow != fileSize) {
        throw changed("the file's " + changes(before, after, sizeNow) + " changed during the read");
      }
    } catch (ReaException e) {
      EvidenceRecord partial =
          build(header, read, identity, headerSha, null, in.bytesFetched(), true, true);
      return new Inspection.Failed(e, EvidenceIds.withId(partial));
    }
    return new Inspection.Complete(
        completion.apply(
            build(
                header,
                read,
                identity.withVerified(true),
                headerSha,
                fullSha,
                in.bytesFetched(),
                false,
                true)));
  }

  /** The identity observed before the read, not yet verified after it. */
  private static FileIdentity unverified(FileSnapshot before) {
    return new FileIdentity(
        before.device() == null ? null : Long.toUnsignedString(before.device()),
        before.inode() == null ? null : Long.toUnsignedString(before.inode()),
        before.size(),
        before.modifiedText(),
        false);
  }

  private static EvidenceRecord build(
      ParsedHeader h,
      Read read,
      FileIdentity identity,
      @Nullable String headerSha,
      @Nullable String fullSha,
      long bytesRead,
      boolean partial,
      boolean headerComplete) {
    Request request = read.request();
    HashMode hash = read.hash();
    Artifact artifact =
        new Artifact(
            request.path(),
            h.format().wire(),
            identity.size(),
            h.headerLength(),
            headerSha,
            partial ? null : fullSha,
            bytesRead,
            hash.wire(),
            identity);
    String digestCoverage;
    if (partial) {
      digestCoverage = Coverage.UNKNOWN;
    } else {
      digestCoverage = hash == HashMode.FULL ? Coverage.COMPLETE : Coverage.NONE;
    }
    Coverage coverage =
        new Coverage(
            headerComplete ? Coverage.COMPLETE : Coverage.PARTIAL,
            Derivations.storageCoverage(headerComplete, h.tensors(), h.limitations()),
            headerComplete && Derivations.rangesComplete(h.tensors())
                ? Coverage.COMPLETE
                : Coverage.PARTIAL,
            digestCoverage,
            partial ? Coverage.UNVERIFIED : Coverage.VERIFIED);
    Subject subject = !partial && fullSha != null ? new Subject("file", fullSha) : null;
    return new EvidenceRecord(
        EvidenceRecord.SCHEMA,
        null,
        EvidenceRecord.OPERATION,
        partial ? EvidenceRecord.STATUS_PARTIAL : EvidenceRecord.STATUS_COMPLETE,
        read.observedAt(),
        request,
        subject,
        artifact,
        h.facts(),
        h.metadata(),
        h.tensors(),
        Derivations.types(h.tensors()),
        Derivations.totals(h.tensors()),
        coverage,
        h.limitations(),
        h.warnings(),
        null);
  }

  /**
   * A file whose size reads as 0 is empty only if it yields no byte: a file of {@code /proc}
   * ({@code /proc/self/status}) has size 0 and content, so it is not a regular file with a fixed
   * size (as {@code EvidenceFiles.read} says of the same path), not "empty".
   *
   * @throws ReaException {@code target_unavailable} / {@code not_regular_file} when one byte can
   *     be read; {@code execution_failure} / {@code io_error} when the read fails
   */
  private static void requireFixedSize(SeekableByteChannel channel, String pathText)
      throws ReaException {
    int n;
    try {
      n = channel.read(java.nio.ByteBuffer.allocate(1));
    } catch (IOException e) {
      throw ioFailure("reading the file failed", e);
    }
    if (n > 0) {
      throw ReaException.builder(
              Constraint.NOT_REGULAR_FILE,
              "the path is not a regular file with a fixed size (its size reads as 0 but it"
                  + " yields bytes): "
                  + pathText)
          .diagnostic("size_at_open", "0")
          .build();
    }
  }

  /**
   * The file's first bytes for {@link FormatDetector#detect}, fetched without reading past a
   * model's header ({@link FormatDetector#probeLength} decides how many from the first 8).
   */
  private static byte[] probe(HeaderInput in, long fileSize) throws ReaException {
    in.expectHeaderAtLeast(Math.min(8, fileSize));
    byte[] first = new byte[(int) Math.min(8, fileSize)];
    int n = in.peek(first);
    int length = FormatDetector.probeLength(first, n, fileSize);
    in.expectHeaderAtLeast(length);
    byte[] head = new byte[length];
    int got = in.peek(head);
    return got == head.length ? head : java.util.Arrays.copyOf(head, got);
  }

  private FileSnapshot stat(Path path) throws ReaException {
    try {
      return access.stat(path);
    } catch (NoSuchFileException | NotDirectoryException e) {
      throw ReaException.builder(Constraint.NOT_FOUND, MissingPaths.describe(path, "file"))
          .cause(e)
          .build();
    } catch (AccessDeniedException e) {
      throw ReaException.builder(
              Constraint.PERMISSION_DENIED, "permission denied examining " + path)
          .cause(e)
          .build();
    } catch (java.nio.file.FileSystemException e) {
      if (MissingPaths.unresolvable(e)) {
        throw ReaException.builder(
                Constraint.NOT_FOUND, MissingPaths.describeUnresolvable(path, "file", e))
            .cause(e)
            .build();
      }
      throw ioFailure("examining the path failed", e);
    } catch (IOException e) {
      throw ioFailure("examining the path failed", e);
    }
  }

  /**
   * Examines the selected path again once the file is open. The selection was valid, so a path
   * that vanished now is {@code target_changed} and any other failure (a permission removed from
   * a parent directory, EIO) is {@code execution_failure} / {@code io_error}, not {@code
   * target_unavailable}.
   */
  private FileSnapshot statAgain(Path path) throws ReaException {
    try {
      return access.stat(path);
    } catch (NoSuchFileException | NotDirectoryException e) {
      throw changed("the selected path no longer exists").toBuilder().cause(e).build();
    } catch (IOException e) {
      throw ioFailure("examining the path again failed", e);
    }
  }

  private static ReaException openFailure(Path path, IOException e) {
    if (e instanceof NoSuchFileException) {
      return ReaException.builder(Constraint.NOT_FOUND, MissingPaths.describe(path, "file"))
          .cause(e)
          .build();
    }
    if (e instanceof AccessDeniedException) {
      return ReaException.builder(Constraint.PERMISSION_DENIED, "permission denied opening " + path)
          .cause(e)
          .build();
    }
    return ioFailure("opening the file failed", e);
  }

  private static long channelSize(SeekableByteChannel channel) throws ReaException {
    try {
      return channel.size();
    } catch (IOException e) {
      throw ioFailure("reading the file size failed", e);
    }
  }

  private static ReaException ioFailure(String what, IOException e) {
    String reason = IoFailures.describe(e);
    return ReaException.builder(Constraint.IO_ERROR, what + ": " + reason)
        .diagnostic("reason", reason)
        .diagnostic("exception", e.getClass().getName())
        .cause(e)
        .build();
  }

  /**
   * Host failures carry the selected path and the reason in {@code details.diagnostics} too
   * (CONTRACT section 6: "path and reason in details.diagnostics").
   */
  private static ReaException hostDetails(ReaException e, String pathText) {
    if ((e.constraint() != Constraint.IO_ERROR && e.constraint() != Constraint.TARGET_CHANGED)
        || e.diagnostics().containsKey("path")) {
      return e;
    }
    ReaException.Builder b = e.toBuilder().diagnostic("path", pathText);
    if (!e.diagnostics().containsKey("reason")) {
      b.diagnostic("reason", e.getMessage());
    }
    return b.build();
  }

  /**
   * @return what changed between two snapshots of the path ({@link FileSnapshot#changesTo}), or
   *     the size of the open file when only that differs
   */
  private static String changes(FileSnapshot before, FileSnapshot after, long channelSize) {
    String changed = before.changesTo(after);
    if (changed != null) {
      return changed;
    }
    return "size as read through the open file (" + before.size() + " bytes, now " + channelSize + ")";
  }

  private static ReaException changed(String what) {
    return ReaException.builder(Constraint.TARGET_CHANGED, what).diagnostic("reason", what).build();
  }
}
