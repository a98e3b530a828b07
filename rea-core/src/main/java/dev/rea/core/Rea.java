package dev.rea.core;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.evidence.SetInspection;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.internal.auth.EvidenceSigner;
import dev.rea.core.internal.auth.EvidenceVerifier;
import dev.rea.core.internal.auth.KeyRing;
import dev.rea.core.internal.auth.ReaHome;
import dev.rea.core.internal.diff.DiffSide;
import dev.rea.core.internal.diff.EvidenceDiff;
import dev.rea.core.internal.evidence.EvidenceFiles;
import dev.rea.core.internal.evidence.EvidenceImport;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.internal.formats.CycloneDxBom;
import dev.rea.core.internal.formats.DsseSigner;
import dev.rea.core.internal.formats.InTotoAttestation;
import dev.rea.core.internal.formats.Dsse;
import dev.rea.core.internal.formats.InTotoEnvelopeReader;
import dev.rea.core.internal.formats.SarifLog;
import dev.rea.core.internal.formats.SetFormats;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.internal.inspect.WarmUp;
import dev.rea.core.internal.io.FileAccess;
import dev.rea.core.internal.set.SetBundleReader;
import dev.rea.core.internal.set.SetInspector;
import dev.rea.core.internal.set.SetRecordJson;
import dev.rea.core.internal.set.SetSigner;
import dev.rea.core.internal.view.EvidenceLoader;
import dev.rea.core.internal.view.IndexedEvidence;
import dev.rea.core.internal.view.ModelArtifactSummary;
import dev.rea.core.internal.view.SetSummary;
import dev.rea.core.internal.view.SetViewPages;
import dev.rea.core.internal.view.ViewPages;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.options.Limits;
import dev.rea.core.source.SeekableSource;
import dev.rea.core.source.SetSource;
import dev.rea.core.view.SourceKind;
import dev.rea.core.view.ViewPage;
import dev.rea.core.view.ViewRequest;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * REA's front door (CONTRACT section 14): inspect a model file, sign and save its Evidence, read
 * saved Evidence back, and answer summaries and views over it. The {@code rea} command and the
 * MCP server are thin adapters over this class; any JVM program can use it the same way.
 *
 * <pre>{@code
 * Rea rea = Rea.standard();
 * Inspection result = rea.inspect(Path.of("/models/model.gguf"), InspectOptions.defaults());
 * EvidenceRecord record = result.orThrow();          // or look at result.partialEvidence()
 * byte[] summary = rea.summaryJson(rea.evidence(record), null);
 * }</pre>
 *
 * <p>Inspection reads only the header (unless {@link dev.rea.core.options.HashMode#FULL}), never
 * loads weights and never uses the network. Signing uses the provider's Ed25519 key pair in the
 * REA home directory ({@code $REA_HOME}, else {@code $XDG_CONFIG_HOME/rea}, else {@code
 * ~/.config/rea}; CONTRACT section 5), opened on first use and created then if missing; reading
 * Evidence trusts that key and the public keys in the home's {@code trusted/} directory, and
 * creates nothing.
 *
 * <p>Thread-safe: inspections run concurrently, each with its own buffers and budget.
 *
 * <p>Long on purpose: CONTRACT section 14 asks for one front door to files, sets, summaries,
 * views, signing, comparisons, verdicts and the standard formats; each method here is a few lines
 * that delegate to an internal class, and their Javadoc (shapes, units, errors) is most of the
 * length. Splitting it would make callers look in several places for one library.
 */
public final class Rea {
  /** The {@code schema} of a bundle of records (CONTRACT section 5). */
  public static final String BUNDLE_SCHEMA = EvidenceJson.BUNDLE_SCHEMA;

  private final ModelInspector inspector;
  private final Limits limits;
  private final Clock clock;
  private final Supplier<Path> home;
  private final KeyNotices notices;
  private @Nullable KeyRing signingRing;
  private @Nullable KeyRing readingRing;

  private Rea(Builder b) {
    this.limits = b.limits;
    this.clock = b.clock;
    ModelInspector chosen =
        b.inspector != null
            ? b.inspector
            : ModelInspector.withAccess(b.limits, FileAccess.system()).withClock(b.clock);
    // A snapshot's links lead to its repository's blobs/, which is read as a tree of its own,
    // never through a link swapped in for it.
    java.util.Set<Path> blobs = new java.util.LinkedHashSet<>();
    for (Path d : b.confined) {
      Path above = HubCache.blobsAbove(d);
      if (above != null && !b.confined.contains(above)) {
        blobs.add(above);
      }
    }
    this.inspector = chosen.confinedTo(b.confined, blobs);
    this.home = b.home;
    this.notices = b.notices;
  }

  /**
   * @return a front door with the specification's limits, the system clock and the REA home
   *     directory this process's environment selects
   */
  public static Rea standard() {
    return builder().build();
  }

  /** @return a builder starting from {@link #standard()}'s settings */
  public static Builder builder() {
    return new Builder();
  }

  // ------------------------------------------------------------------ inspection

  /**
   * Inspects the model file at {@code path} (CONTRACT sections 3 and 6).
   *
   * @param path an absolute path (a relative one is the failure {@code invalid_input} / {@code
   *     relative_path})
   * @param options hash mode, limits, cancellation and progress
   * @return the complete record (with {@code evidence_id}, unsigned), or the typed failure with
   *     the partial Evidence retained before it; never throws for anything about the file
   */
  public Inspection inspect(Path path, InspectOptions options) {
    return inspectorFor(options)
        .run(path, options.hash(), listener(options), options.cancellation());
  }

  /**
   * Reads a file's first bytes (at most 512) and its size, as {@link FileProbe#of(Path)} does,
   * through this front door's file access: only through its directories when it was {@linkplain
   * Builder#confinedTo confined}.
   *
   * @param file an absolute path
   * @return what the bytes show
   * @throws IOException when the file cannot be examined, opened or read, or is not a regular file
   */
  public FileProbe probe(Path file) throws java.io.IOException {
    return FileProbe.of(inspector.access(), file);
  }

  /**
   * Observes a file's identity through this front door's file access (following a link; when
   * {@linkplain Builder#confinedTo confined}, only a link that leads into its directories: one
   * that leads out fails), as an inspection observes it before reading.
   *
   * @param file an absolute path
   * @return its identity ({@code verified} false), or null when it is not a regular file
   * @throws java.io.IOException when it cannot be examined
   */
  public dev.rea.core.evidence.@Nullable FileIdentity observeRegularFile(Path file) throws java.io.IOException {
    dev.rea.core.internal.io.FileAccess access = inspector.access();
    // Confined, a link that leads out fails here rather than lend an outside file's identity.
    dev.rea.core.internal.io.FileSnapshot s =
        access instanceof dev.rea.core.internal.io.ConfinedFileAccess confined
            ? confined.statInsideOnly(file)
            : access.stat(file);
    if (!s.regularFile()) {
      return null;
    }
    return new dev.rea.core.evidence.FileIdentity(
        s.device() == null ? null : Long.toUnsignedString(s.device()),
        s.inode() == null ? null : Long.toUnsignedString(s.inode()),
        s.size(),
        s.modifiedText(),
        false);
  }

  /**
   * Opens a file for reading through this front door's file access: only through its
   * directories, and bounded in time, when it was {@linkplain Builder#confinedTo confined} (a
   * caller that reads an index's names itself, as {@code rea scan}'s grouping does).
   *
   * @param file an absolute path
   * @return the file's bytes from its start; the caller closes the stream
   * @throws java.io.IOException when it cannot be opened
   */
  public java.io.InputStream openForReading(Path file) throws java.io.IOException {
    return java.nio.channels.Channels.newInputStream(inspector.access().open(file));
  }

  /**
   * Inspects a model file the caller opened (CONTRACT section 14): the name is recorded as its
   * path, the identity is checked before and after the read, and the channel is left open.
   *
   * @param source the open file, its name and identity
   * @param options hash mode, limits, cancellation and progress
   * @return as {@link #inspect(Path, InspectOptions)}
   */
  public Inspection inspect(SeekableSource source, InspectOptions options) {
    return inspectorFor(options)
        .run(source, options.hash(), listener(options), options.cancellation());
  }

  /**
   * Inspects a model file and signs its complete record in one step: the result {@link
   * #inspect(Path, InspectOptions)} then {@link #sign(EvidenceRecord)} give, but faster on a
   * machine with two cores (the record's {@code evidence_id} and its signature are computed at
   * the same time over the same canonical bytes, rather than one after the other). A failure's
   * partial Evidence is returned as {@link #inspect(Path, InspectOptions)} returns it (with its
   * id, unsigned).
   *
   * <p>When the provider's key pair cannot be read or created, the file is still inspected and
   * its complete record comes back unsigned, as {@link #inspect(Path, InspectOptions)} gives it:
   * {@link #sign(EvidenceRecord)} then names the key's problem, after any problem of the file.
   *
   * @param path an absolute path
   * @param options hash mode, limits, cancellation and progress
   * @return the complete record, signed when a key is at hand ({@link
   *     EvidenceRecord#authentication()} not null), or the failure
   */
  public Inspection inspectSigned(Path path, InspectOptions options) {
    EvidenceSigner signer;
    try {
      signer = new EvidenceSigner(signingRing());
    } catch (ReaException keyUnusable) {
      return inspect(path, options);
    }
    return inspectorFor(options)
        .withCompletion(signer::signFresh)
        .run(path, options.hash(), listener(options), options.cancellation());
  }

  private ModelInspector inspectorFor(InspectOptions options) {
    return options.limits().map(inspector::withLimits).orElse(inspector).withLayout(options.layout());
  }

  private static ModelInspector.Listener listener(InspectOptions options) {
    return new ModelInspector.Listener() {
      @Override
      public void onHashProgress(long done, long total) {
        options.progress().progress(done, total);
      }
    };
  }

  // ------------------------------------------------------------------ model sets

  /**
   * Inspects a model made of several files (CONTRACT section 9): {@code path} is a safetensors
   * index, any member of a GGUF split set, a directory holding exactly one model, or a single
   * model file (a set of one). Members are inspected one after another with {@link #inspect}'s
   * file operation and cross-checked; a full hash reports one progress stream over the bytes of
   * all members.
   *
   * @param path an absolute path
   * @param options hash mode, limits, cancellation and progress (over the whole set)
   * @return the set record and every member's record (unsigned, with their ids), or the failure
   *     with the partial set record of the members finished before it; never throws for anything
   *     about the files
   */
  public SetInspection inspectSet(Path path, InspectOptions options) {
    return inspectSet(path, options, null);
  }

  /**
   * As {@link #inspectSet(Path, InspectOptions)}, handing each member's record to {@code sink}
   * as soon as it is checked instead of keeping them all (a {@link SetSpool} writes them to a
   * bundle): memory stays that of one member.
   *
   * @param sink takes the members' records in member order, or null to keep them in the result
   */
  public SetInspection inspectSet(
      Path path, InspectOptions options, SetInspection.@Nullable MemberSink sink) {
    return new SetInspector(inspectorFor(options), clock)
        .inspect(path, options.hash(), options.progress(), options.cancellation(), sink);
  }

  /**
   * As {@link #inspectSet(Path, InspectOptions, SetInspection.MemberSink)}, each complete member
   * record delivered signed: its {@code evidence_id} and signature are computed together on the
   * thread that inspected it ({@link #inspectSigned}), so that a set bundle's members are signed
   * while later members are read; {@link #sign(EvidenceRecord)} and {@link SetSpool} then give
   * such a record back as it is. When the provider's key pair cannot be read or created, members
   * come unsigned, as {@link #inspectSet(Path, InspectOptions, SetInspection.MemberSink)} gives
   * them ({@link #sign(EvidenceRecord)} then names the key's problem). The set record is not
   * signed: {@link #sign(ModelSetRecord)} signs it once the members are known.
   *
   * @param sink takes the members' records in member order, or null to keep them in the result
   */
  public SetInspection inspectSetSigned(
      Path path, InspectOptions options, SetInspection.@Nullable MemberSink sink) {
    ModelInspector members = inspectorFor(options);
    try {
      members = members.withCompletion(new EvidenceSigner(signingRing())::signFresh);
    } catch (ReaException keyUnusable) {
      // Inspected unsigned; signing later names the key's problem.
    }
    return new SetInspector(members, clock)
        .inspect(path, options.hash(), options.progress(), options.cancellation(), sink);
  }

  /**
   * A spool of signed member records for a set bundle written without holding the members
   * (a temporary file); use it as the {@link SetInspection.MemberSink} of {@link
   * #inspectSet(Path, InspectOptions, SetInspection.MemberSink)}, then write the bundle with it.
   *
   * @return the spool (close it to delete the temporary file)
   * @throws ReaException {@code execution_failure} / {@code io_error} when no temporary file can
   *     be made
   */
  public SetSpool newSetSpool() throws ReaException {
    return new SetSpool(this);
  }

  /**
   * As {@link #inspectSet(Path, InspectOptions)}, over a directory the caller reaches its own way
   * (a Hadoop file system): members are opened through {@code source} one at a time.
   *
   * @param source the directory
   * @param name the file named (an index, a split member, a model file), or null for the
   *     directory's one model
   * @param options hash mode, limits, cancellation and progress
   * @return as {@link #inspectSet(Path, InspectOptions)}
   */
  public SetInspection inspectSet(
      SetSource source, @Nullable String name, InspectOptions options) {
    return new SetInspector(inspectorFor(options), clock)
        .inspect(source, name, options.hash(), options.progress(), options.cancellation(), null);
  }

  /**
   * Signs a set: every member record and the set record (CONTRACT sections 5 and 9).
   *
   * @param set a complete set inspection
   * @return the same set, signed
   * @throws ReaException as {@link #sign(EvidenceRecord)}
   */
  public SetInspection.Complete sign(SetInspection.Complete set) throws ReaException {
    EvidenceSigner signer = new EvidenceSigner(signingRing());
    List<EvidenceRecord> members = new java.util.ArrayList<>(set.members().size());
    for (EvidenceRecord r : set.members()) {
      members.add(signer.sign(r));
    }
    return new SetInspection.Complete(sign(set.set()), members, set.checksPassed());
  }

  /**
   * Signs a set record alone (a partial one, say).
   *
   * @param set the record (any id and signature are replaced)
   * @return the signed record
   * @throws ReaException as {@link #sign(EvidenceRecord)}
   */
  public ModelSetRecord sign(ModelSetRecord set) throws ReaException {
    return new SetSigner(signingRing()).sign(set);
  }

  /**
   * Indexes a set this process produced, for its summary and views.
   *
   * @param set the set record
   * @param members its members' records, in member order
   * @return the indexed set
   */
  public SetEvidence setEvidence(ModelSetRecord set, List<EvidenceRecord> members) {
    List<Evidence> out = new java.util.ArrayList<>(members.size());
    for (EvidenceRecord r : members) {
      out.add(evidence(r));
    }
    return new SetEvidence(set, out);
  }

  /**
   * Writes a set bundle atomically: the set record, then each member's record.
   *
   * @param file the target
   * @param set the signed set record
   * @param members the signed member records, in member order
   * @throws ReaException {@code invalid_input} / {@code bad_argument} when {@code file} is a GGUF
   *     or safetensors file (Evidence is never written over a model); {@code execution_failure} /
   *     {@code io_error} when it cannot be written
   */
  public void writeSetEvidence(Path file, ModelSetRecord set, List<EvidenceRecord> members)
      throws ReaException {
    EvidenceFiles.writeAtomically(file, setBundleJson(set, members));
  }

  /**
   * Reads a set bundle back: strict import, then the identity and signature of the set record and
   * of every member record, and the set's member list against the member records.
   *
   * @param file a set bundle
   * @return the set
   * @throws ReaException {@code target_unavailable} when unreadable; {@code invalid_input} /
   *     {@code evidence_rejected} otherwise
   */
  public SetEvidence readSetEvidence(Path file) throws ReaException {
    try {
      return readSetEvidence(EvidenceFiles.read(file, limits.evidenceInputBytes()));
    } catch (ReaException e) {
      throw e.withPath(file.toString());
    }
  }

  /**
   * As {@link #readSetEvidence(Path)}, from JSON text: a set bundle, or a set's in-toto
   * attestation (a DSSE envelope signed by a trusted key whose predicate is the set bundle and
   * whose subjects are the members' files and full digests).
   *
   * @param json a set bundle or a set's envelope, UTF-8
   * @return the set
   * @throws ReaException {@code invalid_input} / {@code evidence_rejected}
   */
  public SetEvidence readSetEvidence(byte[] json) throws ReaException {
    KeyRing ring = verifyingRing();
    EvidenceImport importer = new EvidenceImport(limits);
    EvidenceVerifier verifier = new EvidenceVerifier(ring, importer, limits);
    if (InTotoEnvelopeReader.looksLikeEnvelope(json)) {
      // A set's in-toto attestation (CONTRACT section 13): the envelope's signature first, then
      // its predicate as a set bundle, then its subjects against the member records.
      InTotoEnvelopeReader.Verified envelope =
          new InTotoEnvelopeReader(ring, limits.evidenceInputBytes() + (1 << 20), importer.maxDepth())
              .read(json);
      SetBundleReader.Read read = SetBundleReader.read(envelope.predicate(), verifier, ring);
      InTotoEnvelopeReader.checkSubjects(envelope.subjects(), read.members());
      return setEvidence(read.set(), read.members());
    }
    SetBundleReader.Read read = SetBundleReader.read(json, verifier, ring);
    return setEvidence(read.set(), read.members());
  }

  /**
   * The set summary (CONTRACT section 9): the section 4 summary with {@code set} (kind, member
   * count) in place of {@code format_facts}, headline metadata from the first GGUF member or the
   * index, and types and totals over all members.
   *
   * @param set the set
   * @param page a page to include as {@code page}, or null
   * @return UTF-8 JSON
   */
  public byte[] setSummaryJson(SetEvidence set, @Nullable ViewPage page) {
    EvidenceRecord first = set.members().isEmpty() ? null : set.members().get(0).record();
    long metadataRows = 0;
    for (Evidence member : set.members()) {
      metadataRows += member.record().metadata().size();
    }
    return setSummaryJson(set.set(), first, metadataRows, page);
  }

  /**
   * As {@link #setSummaryJson(SetEvidence, ViewPage)}, from the set record, its first member's
   * record and a count taken as the members went by (a set inspected with a {@link SetSpool}).
   *
   * @param first the first member's record, or null
   * @param metadataRows the metadata rows of all members together (what a {@code metadata} view
   *     over the set pages): the summary's {@code counts.metadata}
   */
  public byte[] setSummaryJson(
      ModelSetRecord set,
      @Nullable EvidenceRecord first,
      long metadataRows,
      @Nullable ViewPage page) {
    return SetSummary.render(set, first, metadataRows, page == null ? null : page.json());
  }

  /**
   * Answers one page of a view over a set (CONTRACT section 9): {@code members}, {@code types},
   * and {@code tensors} or {@code metadata} over all members in member order with {@code member}
   * beside each row's own {@code index}; 64 KiB at most.
   *
   * @throws ReaException {@code invalid_input} / {@code bad_view} for a view that does not apply
   */
  public ViewPage view(SetEvidence set, ViewRequest view, SourceKind source) throws ReaException {
    return SetViewPages.answer(set.set(), indexed(set), view, source);
  }

  private static List<IndexedEvidence> indexed(SetEvidence set) {
    List<IndexedEvidence> out = new java.util.ArrayList<>(set.members().size());
    for (Evidence e : set.members()) {
      out.add(e.indexed());
    }
    return out;
  }

  /** @return whether JSON text looks like a set bundle (its first record a set record) */
  public static boolean isSetBundle(byte[] json) {
    return SetBundleReader.looksLikeSetBundle(json);
  }

  /**
   * @param file a saved file a user named
   * @return whether it looks like a set's Evidence ({@link #isSetEvidence(byte[])}): its first
   *     256 bytes for a set bundle; the whole file (at most the Evidence input bound plus 1 MiB)
   *     only when it starts as an envelope. False for anything but a regular file (never opened:
   *     a FIFO would block) and when it cannot be read
   */
  public static boolean isSetEvidence(Path file) {
    if (!java.nio.file.Files.isRegularFile(file)) {
      return false;
    }
    try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) {
      byte[] head = in.readNBytes(256);
      if (isSetBundle(head)) {
        return true;
      }
      if (head.length < 256) {
        return isSetEvidence(head);
      }
      if (!FileProbe.of(file).savedEvidence()
          || java.nio.file.Files.size(file) > Limits.DEFAULT_EVIDENCE_INPUT_BYTES + (1 << 20)) {
        return false;
      }
      return isSetEvidence(java.nio.file.Files.readAllBytes(file));
    } catch (java.io.IOException | RuntimeException e) {
      return false;
    }
  }

  /**
   * @param json a saved file's whole text
   * @return whether it looks like a set's Evidence: a set bundle, or a DSSE envelope whose
   *     payload holds a set record (decoded, not verified: a hint for choosing {@link
   *     #readSetEvidence(byte[])}, which decides)
   */
  public static boolean isSetEvidence(byte[] json) {
    if (SetBundleReader.looksLikeSetBundle(json)) {
      return true;
    }
    if (!InTotoEnvelopeReader.looksLikeEnvelope(json)) {
      return false;
    }
    try {
      byte[] payload = Dsse.read(json, json.length).payload();
      return new String(payload, java.nio.charset.StandardCharsets.UTF_8)
          .contains("\"" + ModelSetRecord.SCHEMA + "\"");
    } catch (ReaException notAnEnvelope) {
      return false;
    }
  }

  /** @return the set record as UTF-8 JSON, with its id and authentication */
  public static byte[] setRecordJson(ModelSetRecord set) {
    return SetRecordJson.recordBytes(set, true);
  }

  /** @return the set bundle as UTF-8 JSON: the set record, then each member's record */
  public static byte[] setBundleJson(ModelSetRecord set, List<EvidenceRecord> members) {
    return SetRecordJson.bundleBytes(set, members);
  }

  /**
   * Writes the set bundle to a stream without holding its text whole.
   *
   * @param out the stream (not closed)
   */
  public static void writeSetBundle(
      java.io.OutputStream out, ModelSetRecord set, List<EvidenceRecord> members) {
    SetRecordJson.writeBundle(out, set, members);
  }

  /**
   * @param error the failure
   * @param partial the partial set record, or null
   * @return the error object of CONTRACT section 6 with the set record as {@code
   *     partial_evidence}, UTF-8 JSON
   */
  public static byte[] setErrorJson(ReaException error, @Nullable ModelSetRecord partial) {
    return SetRecordJson.errorBytes(error, partial);
  }

  // ------------------------------------------------------------------ signing and files

  /**
   * Gives a record its {@code evidence_id} and Ed25519 {@code authentication} (CONTRACT section
   * 5), with the provider's key, creating the key pair on first use.
   *
   * @param record a complete or partial record (any existing id and signature are replaced)
   * @return the signed record
   * @throws ReaException {@code execution_failure} / {@code io_error} when the REA home or its
   *     key cannot be created or read
   */
  public EvidenceRecord sign(EvidenceRecord record) throws ReaException {
    return new EvidenceSigner(signingRing()).sign(record);
  }

  /**
   * Writes records as one bundle ({@code {"schema": "rea.bundle.v1", "records": [...]}}),
   * atomically: a temporary file in the same directory, synced, then renamed over {@code file}.
   *
   * @param file the target
   * @param records signed records, in order
   * @throws ReaException {@code invalid_input} / {@code bad_argument} when {@code file} is a GGUF
   *     or safetensors file (Evidence is never written over a model); {@code execution_failure} /
   *     {@code io_error} when it cannot be written
   */
  public void writeEvidence(Path file, List<EvidenceRecord> records) throws ReaException {
    EvidenceFiles.writeAtomically(file, bundleJson(records));
  }

  /**
   * Reads saved Evidence (a record or a bundle), authenticates every record against the trusted
   * keys and indexes it.
   *
   * @param file an Evidence file (at most {@code Limits.evidenceInputBytes()}, 64 MiB by default)
   * @return the records
   * @throws ReaException {@code target_unavailable} when the file cannot be read; {@code
   *     invalid_input} / {@code evidence_rejected} when it is not Evidence or any record fails
   *     its identity, signature or checks (nothing is indexed then)
   */
  public LoadedEvidence readEvidence(Path file) throws ReaException {
    return new LoadedEvidence(loader().loadFile(file));
  }

  /**
   * As {@link #readEvidence(Path)}, from JSON text.
   *
   * @param json UTF-8 JSON of a record or a bundle
   * @return the records
   * @throws ReaException {@code invalid_input} / {@code evidence_rejected}
   */
  public LoadedEvidence readEvidence(byte[] json) throws ReaException {
    return new LoadedEvidence(loader().load(json));
  }

  /**
   * Indexes a record this process produced (it is not authenticated again).
   *
   * @param record a record with its {@code evidence_id}
   * @return the indexed Evidence
   */
  public Evidence evidence(EvidenceRecord record) {
    return new Evidence(IndexedEvidence.of(record));
  }

  /** @return a session retaining Evidence within the retained budget of this front door's limits */
  public EvidenceSession newSession() {
    return newSession(limits.retainedBudgetBytes());
  }

  /**
   * @param budgetBytes the session's retained budget in bytes (positive)
   * @return a session retaining Evidence within it
   */
  public EvidenceSession newSession(long budgetBytes) {
    return new EvidenceSession(budgetBytes);
  }

  // ------------------------------------------------------------------ standard formats

  /**
   * An in-toto attestation of one file's Evidence (CONTRACT section 13): a Statement v1 whose
   * subject is the file's name and full SHA-256 and whose predicate is the signed record
   * ({@code predicateType} {@code urn:rea:evidence:v1}), in a DSSE envelope signed with the
   * provider's key ({@code docs/formats.md}).
   *
   * @param signed a record signed by {@link #sign}, inspected with a full hash
   * @return the envelope, UTF-8 JSON
   * @throws ReaException {@code conflicting_choices} when the record has no full SHA-256 (there
   *     is no subject without it); {@code bad_argument} when the file's base name holds a
   *     control character (line-oriented checkers would misread the subject); {@code
   *     execution_failure} when the key cannot be opened
   * @throws IllegalArgumentException when the record is not signed (no {@code evidence_id} or
   *     {@code authentication}: sign it with {@link #sign} first)
   */
  public byte[] inTotoEnvelope(EvidenceRecord signed) throws ReaException {
    return InTotoAttestation.ofRecord(signed, DsseSigner.of(signingRing()));
  }

  /**
   * A CycloneDX 1.6 BOM with one {@code machine-learning-model} component per record (CONTRACT
   * section 13; {@code docs/formats.md}).
   *
   * @param records complete records, in order
   * @return the BOM, UTF-8 JSON
   */
  public static byte[] cycloneDxBom(List<EvidenceRecord> records) {
    return CycloneDxBom.ofFiles(records, version());
  }

  /**
   * An in-toto attestation of a model set's Evidence (CONTRACT section 13): one subject per
   * member (base name, full SHA-256), in member order, and the set's bundle (set record, then
   * the member records) as the predicate, in a DSSE envelope signed with the provider's key.
   *
   * @param signedSet the set record, signed by {@link #sign(ModelSetRecord)}
   * @param signedMembers its member records, signed, in member order (a set inspected with a
   *     full hash)
   * @return the envelope, UTF-8 JSON
   * @throws ReaException {@code conflicting_choices} when a member has no full SHA-256; {@code
   *     execution_failure} when the key cannot be opened
   * @throws IllegalArgumentException when a record is unsigned or the members are not the set's
   */
  public byte[] inTotoEnvelope(ModelSetRecord signedSet, List<EvidenceRecord> signedMembers)
      throws ReaException {
    return SetFormats.inToto(signedSet, signedMembers, DsseSigner.of(signingRing()));
  }

  /**
   * A CycloneDX 1.6 BOM of a model set: one {@code machine-learning-model} component for the
   * set holding one per member ({@code docs/formats.md}).
   *
   * @param set the set record
   * @param members its member records, in member order
   * @return the BOM, UTF-8 JSON
   * @throws IllegalArgumentException when the members are not the set's
   */
  public static byte[] cycloneDxBom(ModelSetRecord set, List<EvidenceRecord> members) {
    return SetFormats.cycloneDx(set, members, version());
  }

  /**
   * A SARIF 2.1.0 log of verdicts (CONTRACT section 13): one result per reason, a rejection or a
   * digest mismatch at level {@code error}, a warning or limitation at level {@code warning},
   * with the file and, where the reason has one, its byte offset.
   *
   * @param base the directory files are named relative to ({@code %SRCROOT%}), or null to name
   *     them by absolute {@code file:} URIs
   * @param verdicts the verdicts, in order; their paths absolute
   * @return the log, UTF-8 JSON
   */
  public static byte[] sarifLog(@Nullable Path base, List<Verdict> verdicts) {
    List<SarifLog.Unit> units = new java.util.ArrayList<>(verdicts.size());
    for (Verdict v : verdicts) {
      SarifLog.Failure failure = null;
      String failed = v.path();
      // Warnings by the file they concern (a set's index, say), the unit's own path first.
      java.util.Map<String, List<dev.rea.core.evidence.Warning>> warnings =
          new java.util.LinkedHashMap<>();
      warnings.put(v.path(), new java.util.ArrayList<>());
      for (Verdict.Reason r : v.reasons()) {
        boolean error = r.kind() == Verdict.Kind.REJECTION || r.kind() == Verdict.Kind.DIGEST;
        if (error && failure == null) {
          failure = new SarifLog.Failure(r.code(), r.message(), r.offset(), null, r.field());
          // The offset is in the file the reason names (a set's member), not the set's path.
          failed = r.file() != null ? r.file() : v.path();
        } else {
          warnings
              .computeIfAbsent(r.file() != null ? r.file() : v.path(), f -> new java.util.ArrayList<>())
              .add(new dev.rea.core.evidence.Warning(r.code(), r.message()));
        }
      }
      if (failure != null && !failed.equals(v.path())) {
        List<dev.rea.core.evidence.Warning> there = warnings.remove(failed);
        units.add(new SarifLog.Unit(failed, failure, there == null ? List.of() : there));
        failure = null;
      }
      units.add(
          new SarifLog.Unit(
              v.path(), failure, java.util.Objects.requireNonNull(warnings.remove(v.path()))));
      warnings.forEach((file, ws) -> units.add(new SarifLog.Unit(file, null, ws)));
    }
    return SarifLog.write(version(), base, units);
  }

  /** @return REA's version, from the jar's manifest, or "development build" */
  static String version() {
    String v = Rea.class.getPackage().getImplementationVersion();
    return v == null ? "development build" : v;
  }

  // ------------------------------------------------------------------ comparing

  /**
   * Compares what two records declare (CONTRACT section 11): format facts, metadata by key,
   * tensors by name (and their order), types and totals. Paths, identities, digests, evidence ids,
   * times and signatures are shown, never compared.
   *
   * @param a the first record (complete or partial)
   * @param b the second
   * @return whether the declarations are the same, and the comparison as JSON
   */
  public static Comparison compare(EvidenceRecord a, EvidenceRecord b) {
    EvidenceDiff.Result r = EvidenceDiff.compare(DiffSide.of(a), DiffSide.of(b));
    return new Comparison(r.sameDeclarations(), r.json());
  }

  /**
   * Compares what two model sets declare (CONTRACT sections 9 and 11): each side's tensors are
   * its members' rows in member order, each compared with its {@code member} index besides its
   * own fields; the facts compared are the set's kind and member count and every member's
   * version, byte order and alignment (a later member's as {@code member[k].<field>} where it
   * differs from the first member's); metadata rows pair by member and key. A set against the
   * single file it was merged from (or split into) shows the same tensors with only their {@code
   * member}, {@code offset} and {@code file_offset} changed, and the split keys added or removed.
   *
   * @param a the first set
   * @param b the second
   * @return whether the declarations are the same, and the comparison as JSON
   */
  public static Comparison compare(SetEvidence a, SetEvidence b) {
    return compare(
        DiffSide.ofSet(a.set(), a.memberRecords()), DiffSide.ofSet(b.set(), b.memberRecords()));
  }

  /**
   * Compares a set with one file, the file taken as a set of one ({@code single_file}): as {@link
   * #compare(SetEvidence, SetEvidence)}.
   *
   * @param a the set
   * @param b the file's record
   * @return whether the declarations are the same, and the comparison as JSON
   */
  public static Comparison compare(SetEvidence a, EvidenceRecord b) {
    return compare(DiffSide.ofSet(a.set(), a.memberRecords()), DiffSide.asSetOfOne(b));
  }

  /**
   * Compares one file with a set, the file taken as a set of one: as {@link #compare(SetEvidence,
   * SetEvidence)}.
   *
   * @param a the file's record
   * @param b the set
   * @return whether the declarations are the same, and the comparison as JSON
   */
  public static Comparison compare(EvidenceRecord a, SetEvidence b) {
    return compare(DiffSide.asSetOfOne(a), DiffSide.ofSet(b.set(), b.memberRecords()));
  }

  private static Comparison compare(DiffSide a, DiffSide b) {
    EvidenceDiff.Result r = EvidenceDiff.compare(a, b);
    return new Comparison(r.sameDeclarations(), r.json());
  }

  // ------------------------------------------------------------------ verdicts

  /**
   * The verdict of a check on one inspected unit (CONTRACT section 12): a failure is a reason;
   * so is a full SHA-256 other than the expected one (or none, when one was expected), every
   * warning the policy does not allow, and every limitation when the policy says so.
   *
   * @param path the unit's path as the user named it
   * @param result the unit's inspection (with a full hash when a digest is expected)
   * @param policy what fails a unit
   * @return the verdict
   */
  public static Verdict verdict(String path, Inspection result, CheckPolicy policy) {
    if (result instanceof Inspection.Failed failed) {
      return rejected(path, failed.error());
    }
    EvidenceRecord r = ((Inspection.Complete) result).record();
    List<Verdict.Reason> reasons = new java.util.ArrayList<>();
    checkDigest(policy.expectSha256(), r.artifact().sha256(), reasons);
    return judged(path, r.evidenceId(), reasons, r.warnings(), r.limitations(), policy);
  }

  /**
   * The verdict of a check on one model set (CONTRACT sections 9 and 12): a failure of the set
   * (a member missing or rejected, members that contradict each other) is a reason; so is every
   * warning of the set and of its members that the policy does not allow (each member's naming
   * it), and every limitation when the policy says so. An expected SHA-256 is one file's: a set
   * of one member is held to it; a set of several always fails it, saying to check each member
   * (a set has no single digest; a front end checks a member named with a digest as one file). Messages name no option or command of a front end.
   *
   * @param path the set's path as the user named it
   * @param result the set's inspection (with a full hash when a digest is expected)
   * @param policy what fails a unit
   * @return the verdict, with the set record's {@code evidence_id}
   */
  public static Verdict verdict(String path, SetInspection result, CheckPolicy policy) {
    if (result instanceof SetInspection.Failed failed) {
      return rejected(path, failed.error());
    }
    ModelSetRecord s = ((SetInspection.Complete) result).set();
    List<Verdict.Reason> reasons = new java.util.ArrayList<>();
    String expected = policy.expectSha256();
    if (expected != null) {
      if (s.members().size() != 1) {
        reasons.add(
            digestReason(
                "a SHA-256 of "
                    + expected
                    + " was expected, but a set of "
                    + s.members().size()
                    + " files has no single SHA-256: check each member file against its own"
                    + " digest (a full hash of the set gives every member's)"));
      } else {
        checkDigest(expected, s.members().get(0).sha256(), reasons);
      }
    }
    Verdict v = judged(path, s.evidenceId(), reasons, s.warnings(), s.limitations(), policy);
    String file = setFile(path, s);
    if (file == null) {
      return v;
    }
    // A set's own reasons concern its index (or, for a directory, its first member): a SARIF
    // result needs a file to point at, and a directory is none.
    List<Verdict.Reason> located = new java.util.ArrayList<>(v.reasons().size());
    for (Verdict.Reason r : v.reasons()) {
      located.add(
          r.file() != null
              ? r
              : new Verdict.Reason(r.kind(), r.code(), r.message(), r.offset(), r.field(), file));
    }
    return new Verdict(v.path(), v.ok(), v.evidenceId(), located);
  }

  /**
   * @return the file a set's own reasons are located in: its index, or the first member when the
   *     set was given as a directory; null to keep the unit's path
   */
  private static @Nullable String setFile(String path, ModelSetRecord s) {
    if (s.set().index() != null) {
      return s.set().index().path();
    }
    try {
      if (!s.members().isEmpty() && java.nio.file.Files.isDirectory(Path.of(path))) {
        return s.members().get(0).path();
      }
    } catch (java.nio.file.InvalidPathException notAPath) {
      return null;
    }
    return null;
  }

  private static Verdict rejected(String path, ReaException e) {
    // A set's failure is often a member's (its offset is in that member), or a contradiction
    // whose error names the member it was found in: the file the error names, not the set's path
    // (which may be a directory).
    String file = e.path();
    return new Verdict(
        path,
        false,
        null,
        List.of(
            new Verdict.Reason(
                Verdict.Kind.REJECTION, e.constraint().wireName(), rejectionMessage(e),
                e.offset(), e.field(), file)));
  }

  /**
   * A rejection's message; for a set rejected for several contradictions, followed by the others
   * its diagnostics list (CONTRACT section 9: up to 32), so that a verdict saying "5
   * contradictions" names all five and not only the first its message names.
   */
  private static String rejectionMessage(ReaException e) {
    Object listed = e.diagnostics().get("contradictions");
    if (e.constraint() != Constraint.SET_REJECTED
        || !(listed instanceof List<?> items)
        || items.size() < 2) {
      return e.getMessage();
    }
    StringBuilder b = new StringBuilder(e.getMessage()).append("; the others: ");
    for (int i = 1; i < items.size(); i++) {
      if (!(items.get(i) instanceof Map<?, ?> m)) {
        return e.getMessage();
      }
      b.append(i > 1 ? "; " : "")
          .append(dev.rea.core.internal.set.SetChecks.finding(
              String.valueOf(m.get("member")), String.valueOf(m.get("path")), m.get("tensor"),
              String.valueOf(m.get("field")), String.valueOf(m.get("message"))));
    }
    Object counted = e.diagnostics().get("contradiction_count");
    if (counted instanceof Number n && n.longValue() > items.size()) {
      b.append("; and ").append(n.longValue() - items.size()).append(" more");
    }
    return b.toString();
  }

  /** Adds {@code sha256_mismatch} when a digest is expected and the file's is not it. */
  private static void checkDigest(
      @Nullable String expected, @Nullable String actual, List<Verdict.Reason> reasons) {
    if (expected != null && !expected.equals(actual)) {
      reasons.add(
          digestReason(
              actual == null
                  ? "a SHA-256 of " + expected + " was expected, but the file was not hashed"
                  : "the file's SHA-256 is " + actual + ", not the expected " + expected));
    }
  }

  private static Verdict.Reason digestReason(String message) {
    return new Verdict.Reason(Verdict.Kind.DIGEST, "sha256_mismatch", message, null, null);
  }

  /** Adds the warnings the policy does not allow and, when it says so, the limitations. */
  private static Verdict judged(
      String path,
      @Nullable String evidenceId,
      List<Verdict.Reason> reasons,
      List<dev.rea.core.evidence.Warning> warnings,
      List<dev.rea.core.evidence.Limitation> limitations,
      CheckPolicy policy) {
    for (dev.rea.core.evidence.Warning w : warnings) {
      if (!policy.allow().contains(w.code())) {
        reasons.add(new Verdict.Reason(Verdict.Kind.WARNING, w.code(), w.message(), null, null));
      }
    }
    if (policy.failOnLimitations()) {
      for (dev.rea.core.evidence.Limitation l : limitations) {
        if (policy.allow().contains(l.code())) {
          continue;
        }
        reasons.add(
            new Verdict.Reason(Verdict.Kind.LIMITATION, l.code(), l.message(), null, null));
      }
    }
    return new Verdict(path, reasons.isEmpty(), evidenceId, reasons);
  }

  // ------------------------------------------------------------------ JSON

  /** @return the record as UTF-8 JSON (CONTRACT section 3), with its id and authentication */
  public static byte[] recordJson(EvidenceRecord record) {
    return EvidenceJson.recordBytes(record, true);
  }

  /** @return the records as one bundle, UTF-8 JSON (CONTRACT section 5) */
  public static byte[] bundleJson(List<EvidenceRecord> records) {
    return EvidenceJson.bundleBytes(records);
  }

  /**
   * Writes the records as one bundle, as {@link #bundleJson} gives it, straight to {@code out}
   * (through a buffer of a few kilobytes; a 20,000-tensor bundle is about 5 MB, which is then
   * never held whole). Neither flushes nor closes {@code out}.
   *
   * @param records the records
   * @param out where the UTF-8 JSON goes
   * @throws java.io.UncheckedIOException when writing to {@code out} fails
   */
  public static void writeBundleJson(List<EvidenceRecord> records, java.io.OutputStream out) {
    EvidenceJson.writeBundle(records, out);
  }

  /**
   * @param error the failure
   * @param partial its partial Evidence, or null
   * @return the error object of CONTRACT section 6, UTF-8 JSON
   */
  public static byte[] errorJson(ReaException error, @Nullable EvidenceRecord partial) {
    return EvidenceJson.errorBytes(error, partial);
  }

  /**
   * One metadata row's value as JSON text, as the record spells it (CONTRACT sections 2 and 3):
   * for a scalar, its {@code value} ({@code 32}, {@code "4096"} for 64-bit integers, {@code
   * "llama"}, {@code "NaN"}); for an array, the object {@code {"element_type", "count",
   * "preview", "preview_complete", "value_sha256"?}} ({@code value_sha256} when the row has it,
   * CONTRACT section 11). For tables that keep one column for every value type (the Spark job's
   * {@code metadata} table, CONTRACT section 10).
   *
   * @param row the row
   * @return UTF-8 JSON text
   */
  public static String metadataValueJson(MetadataRow row) {
    return EvidenceJson.metadataValueJson(row);
  }

  /**
   * The compact summary of CONTRACT section 4.
   *
   * @param ev the Evidence summarised
   * @param page a page to include as {@code page}, or null
   * @return UTF-8 JSON
   */
  public byte[] summaryJson(Evidence ev, @Nullable ViewPage page) {
    return ModelArtifactSummary.render(ev.indexed(), page);
  }

  /**
   * The compact summary of CONTRACT section 4 of a record this process produced, rendered
   * straight from the record: equal to {@code summaryJson(evidence(record), null)} without
   * indexing the record first (for callers that summarise many records and view none, such as
   * {@code rea scan}).
   *
   * @param record a complete or partial record with its {@code evidence_id}
   * @return UTF-8 JSON
   * @throws IllegalArgumentException when the record has no {@code evidence_id}
   */
  public byte[] summaryJson(EvidenceRecord record) {
    String id = record.evidenceId();
    if (id == null) {
      throw new IllegalArgumentException("the record has no evidence_id");
    }
    return ModelArtifactSummary.render(record, id, null);
  }

  /**
   * Answers one page of a view (CONTRACT section 4): at most {@code limit} rows, within a 64 KiB
   * budget.
   *
   * @param ev the Evidence
   * @param view the view
   * @param source how the caller named the Evidence (recorded in the page's {@code source})
   * @return the page
   * @throws ReaException {@code invalid_input} / {@code bad_view} for a view that does not apply
   */
  public ViewPage view(Evidence ev, ViewRequest view, SourceKind source) throws ReaException {
    return ViewPages.answer(ev.indexed(), view, source);
  }

  /**
   * Loads and initializes what the end of every inspection needs (readers, record, canonical
   * form, SHA-256, JSON writer, Ed25519), by inspecting a tiny model held in memory and signing
   * its record with a throw-away key: a program that starts, inspects once and exits can run
   * this on a second core while it does other work. Reads and writes no file, prints nothing.
   *
   * @return true when every step ran; false when one failed (the real work then reports it)
   */
  public static boolean warmUp() {
    return WarmUp.run();
  }

  // ------------------------------------------------------------------ keys

  /** @return the REA home directory in use (where the signing key is, or will be, kept) */
  public Path home() {
    return home.get();
  }

  private synchronized KeyRing signingRing() throws ReaException {
    if (signingRing == null) {
      KeyRing ring = KeyRing.open(home.get());
      if (ring.created()) {
        notices.created(ring.home(), ring.home().resolve(KeyRing.PUBLIC_KEY_FILE));
      }
      ring.problems().forEach(notices::problem);
      signingRing = ring;
    }
    return signingRing;
  }

  /** The signing ring once open; else the home's keys opened for reading (nothing created). */
  private synchronized KeyRing verifyingRing() throws ReaException {
    if (signingRing != null) {
      return signingRing;
    }
    if (readingRing == null) {
      KeyRing ring = KeyRing.openForReading(home.get());
      ring.problems().forEach(notices::problem);
      readingRing = ring;
    }
    return readingRing;
  }

  private EvidenceLoader loader() throws ReaException {
    KeyRing ring = verifyingRing();
    EvidenceImport importer = new EvidenceImport(limits);
    return new EvidenceLoader(
        new EvidenceVerifier(ring, importer, limits),
        new InTotoEnvelopeReader(
            ring, limits.evidenceInputBytes() + (1 << 20), importer.maxDepth()));
  }

  /**
   * What the caller's user should hear about the key pair: that it was created (share its public
   * key), and problems with the home directory or the trusted keys (skipped keys, permissions
   * that let others replace the key). Called at most once per kind per front door, on the thread
   * that first needed the key.
   */
  public interface KeyNotices {
    /** Says nothing. */
    KeyNotices NONE = new KeyNotices() {};

    /**
     * A key pair was created.
     *
     * @param home the REA home directory
     * @param publicKeyFile the public key to give to whoever should trust this provider
     */
    default void created(Path home, Path publicKeyFile) {}

    /** @param problem a problem with the key ring, in a sentence */
    default void problem(String problem) {}
  }

  /** Builder of {@link Rea}; not thread-safe. */
  public static final class Builder {
    private Limits limits = Limits.defaults();
    private Clock clock = Clock.systemUTC();
    private Supplier<Path> home = ReaHome::resolveFromSystem;
    private KeyNotices notices = KeyNotices.NONE;
    private @Nullable ModelInspector inspector;
    private List<Path> confined = List.of();

    private Builder() {}

    /**
     * Sets the limits of inspections that do not set their own, of Evidence read back (its
     * input bound) and of sessions (their retained budget). Default: the specification's.
     */
    public Builder limits(Limits value) {
      this.limits = Objects.requireNonNull(value, "limits");
      return this;
    }

    /** Sets the clock of {@code observed_at} (default: the system clock, UTC). */
    public Builder clock(Clock value) {
      this.clock = Objects.requireNonNull(value, "clock");
      return this;
    }

    /** Sets the REA home directory (default: as the process's environment selects). */
    public Builder home(Path value) {
      Path fixed = Objects.requireNonNull(value, "home").toAbsolutePath().normalize();
      this.home = () -> fixed;
      return this;
    }

    /**
     * Selects the REA home directory from an environment: {@code REA_HOME}, else {@code
     * XDG_CONFIG_HOME/rea}, else {@code HOME/.config/rea}.
     */
    public Builder environment(Map<String, String> env) {
      Map<String, String> copy = Map.copyOf(env);
      this.home = () -> ReaHome.resolve(copy, Path.of(System.getProperty("user.home")));
      return this;
    }

    /** Sets where notices about the key pair go (default: nowhere). */
    public Builder keyNotices(KeyNotices value) {
      this.notices = Objects.requireNonNull(value, "notices");
      return this;
    }

    /**
     * Replaces the inspector: a seam for REA's own tests (fault-injecting file access, hooks in
     * the read loop). Not part of the supported API; {@link #limits} and {@link #clock} do not
     * apply to it.
     *
     * @param value an inspector from {@code dev.rea.core.internal.inspect}
     */
    public Builder inspector(ModelInspector value) {
      this.inspector = Objects.requireNonNull(value, "inspector");
      return this;
    }

    /**
     * Confines reading to directory trees, for a caller that reads files it found below
     * directories it was given and must never read anything outside them ({@code rea scan}): a
     * file below one of the directories is then examined and opened only through the directories
     * as they are when {@link #build()} runs, one name at a time without following a link, so a
     * directory swapped for a symbolic link to elsewhere (even for an instant around the open)
     * cannot lead a read out. A symbolic link below is followed only when its text, resolved by
     * name, leads into one of the trees, or, for a directory inside a Hugging Face cache
     * repository's {@code snapshots/}, into that repository's {@code blobs/} (opened without
     * following a link at its own name). Files below none of them are read as usual. An
     * operation that blocks (a FIFO swapped in for a directory) fails after 60 s with {@code
     * io_error}. Where the platform cannot open files relative to a directory, this does nothing.
     *
     * @param directories absolute paths; those that are not directories when the front door is
     *     built are left out
     */
    public Builder confinedTo(java.util.Collection<Path> directories) {
      this.confined = List.copyOf(directories);
      return this;
    }

    /** @return the front door */
    public Rea build() {
      return new Rea(this);
    }
  }
}
