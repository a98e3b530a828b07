package dev.rea.core.internal.view;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.auth.EvidenceVerifier;
import dev.rea.core.internal.evidence.EvidenceFiles;
import dev.rea.core.internal.formats.InTotoEnvelopeReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Loads Evidence for views: reads a record or bundle (bytes or a file, bounded by the importer's
 * input limit before reading), authenticates every record ({@link EvidenceVerifier}) and only
 * then indexes them ({@link IndexedEvidence}).
 *
 * <p>Choosing one record of an input ({@link #select}): a single record, or a bundle with one
 * record, answers directly; a bundle with several records needs the wanted {@code evidence_id}
 * ({@code invalid_input} / {@code bad_argument} otherwise, listing the IDs it holds). An ID that
 * is not in the input is {@code invalid_input} / {@code unknown_evidence}.
 *
 * <p>Thread-safe.
 */
public final class EvidenceLoader {
  /** Most IDs listed in a message about a bundle with several records. */
  private static final int LISTED_IDS = 8;

  private final EvidenceVerifier verifier;
  private final @Nullable InTotoEnvelopeReader envelopes;

  /** @param verifier the verifier (trusted keys and import bounds) */
  public EvidenceLoader(EvidenceVerifier verifier) {
    this(verifier, null);
  }

  /**
   * @param verifier the verifier (trusted keys and import bounds)
   * @param envelopes the reader of in-toto attestations (DSSE envelopes) signed by trusted keys
   *     (CONTRACT section 13), or null to accept records and bundles only
   */
  public EvidenceLoader(EvidenceVerifier verifier, @Nullable InTotoEnvelopeReader envelopes) {
    this.verifier = Objects.requireNonNull(verifier, "verifier");
    this.envelopes = envelopes;
  }

  /**
   * Loaded Evidence: whether it was a bundle (a bundle's envelope too), whether it came in a DSSE
   * envelope, and its indexed records in input order.
   */
  public record Loaded(boolean bundle, boolean envelope, List<IndexedEvidence> records) {
    public Loaded {
      records = List.copyOf(records);
    }
  }

  /**
   * Authenticates and indexes a record or bundle.
   *
   * @throws ReaException {@code evidence_rejected} when any record fails (nothing is indexed)
   */
  public Loaded load(byte[] json) throws ReaException {
    if (envelopes != null && InTotoEnvelopeReader.looksLikeEnvelope(json)) {
      return loadEnvelope(envelopes, json);
    }
    EvidenceVerifier.Verified v = verifier.importVerified(json);
    List<IndexedEvidence> out = new ArrayList<>(v.records().size());
    for (EvidenceRecord r : v.records()) {
      out.add(IndexedEvidence.of(r));
    }
    return new Loaded(v.bundle(), false, out);
  }

  /**
   * An in-toto attestation: the envelope's signature by a trusted key is verified, then its
   * predicate (a record or a bundle) is authenticated as Evidence, and the Statement's subjects
   * must name exactly the files the predicate describes, with their full digests.
   */
  private Loaded loadEnvelope(InTotoEnvelopeReader reader, byte[] json) throws ReaException {
    InTotoEnvelopeReader.Verified envelope = reader.read(json);
    EvidenceVerifier.Verified v = verifier.importVerified(envelope.predicate());
    InTotoEnvelopeReader.checkSubjects(envelope.subjects(), v.records());
    List<IndexedEvidence> out = new ArrayList<>(v.records().size());
    for (EvidenceRecord r : v.records()) {
      out.add(IndexedEvidence.of(r));
    }
    return new Loaded(v.bundle(), true, out);
  }

  /**
   * Reads, authenticates and indexes an evidence file.
   *
   * @throws ReaException {@code target_unavailable} when the file cannot be read; {@code
   *     evidence_rejected} when it is too large or any record fails
   */
  public Loaded loadFile(Path path) throws ReaException {
    try {
      long max = verifier.importer().maxInputBytes();
      if (envelopes != null && !startsAsReaJson(path)) {
        // An envelope carries Evidence in base64: a third larger. A file that starts as REA's
        // own JSON is refused by the Evidence limit before any of it is read.
        max = Math.max(max, envelopes.maxEnvelopeBytes());
      }
      byte[] json = EvidenceFiles.read(path, max);
      return load(json);
    } catch (ReaException e) {
      throw withModelHint(e, path).withPath(path.toString());
    }
  }

  /** @return whether the file starts as a REA record or bundle ({@code {"schema":"rea.}) */
  private static boolean startsAsReaJson(Path path) {
    try {
      String start = dev.rea.core.internal.detect.FormatDetector.probe(path).text().stripLeading();
      return REA_JSON.matcher(start).lookingAt();
    } catch (java.io.IOException | RuntimeException unreadable) {
      return false; // the read that follows reports it
    }
  }

  /** REA's error object (CONTRACT section 6): {@code {"error": {...}, "partial_evidence"?}}. */
  private static final java.util.regex.Pattern ERROR_OBJECT =
      java.util.regex.Pattern.compile("\\{[ \\t\\r\\n]*\"error\"[ \\t\\r\\n]*:[ \\t\\r\\n]*\\{");

  private static final java.util.regex.Pattern REA_JSON =
      java.util.regex.Pattern.compile("\\{[ \\t\\r\\n]*\"schema\"[ \\t\\r\\n]*:[ \\t\\r\\n]*\"rea\\.");

  /**
   * When a file given as Evidence is a model file, or a summary or page of an inspection (common
   * slips), says so: the error keeps its code, constraint, field, offset and diagnostics (adding
   * {@code detected}), and its message tells what the file is; the program reporting it adds
   * what to do instead in its own terms. Reads the
   * file's first {@code PROBE_BYTES} again, on this failure path only.
   */
  private static ReaException withModelHint(ReaException e, Path path) {
    if (e.constraint() != dev.rea.core.error.Constraint.EVIDENCE_REJECTED) {
      return e;
    }
    dev.rea.core.internal.detect.FormatDetector.Probe probe;
    try {
      probe = dev.rea.core.internal.detect.FormatDetector.probe(path);
    } catch (java.io.IOException unreadable) {
      return e;
    }
    String start = probe.text().strip();
    if (ERROR_OBJECT.matcher(start).lookingAt()) {
      return e.toBuilder("this is the error object of a failed run, not saved Evidence")
          .diagnostic("detected", "error")
          .cause(e)
          .build();
    }
    for (String kind : new String[] {"summary", "page"}) {
      if (start.startsWith("{\"kind\":\"model-artifact-" + kind + "\"")) {
        return e.toBuilder("this is a model-artifact " + kind + ", not saved Evidence")
            .diagnostic("detected", "model-artifact-" + kind)
            .cause(e)
            .build();
      }
    }
    dev.rea.core.internal.detect.DetectedFormat f = probe.model();
    if (f == null) {
      return e;
    }
    return e.toBuilder("this is a " + f.displayName() + " model file, not saved Evidence")
        .diagnostic("detected", f.wire())
        .cause(e)
        .build();
  }

  /**
   * Chooses the record a view is answered from (see class comment).
   *
   * @param loaded loaded Evidence
   * @param evidenceId the wanted ID, or null
   * @throws ReaException {@code bad_argument} or {@code unknown_evidence}
   */
  public static IndexedEvidence select(Loaded loaded, @Nullable String evidenceId)
      throws ReaException {
    return select(loaded, evidenceId, "by its evidence_id");
  }

  /**
   * As {@link #select(Loaded, String)}, with the words that tell the user how to choose a record
   * of a bundle given without an ID (the CLI names its option: {@code "with --evidence_id"}).
   *
   * @param howToChoose the end of "choose one ...", before the list of IDs
   * @throws ReaException {@code bad_argument} or {@code unknown_evidence}
   */
  public static IndexedEvidence select(
      Loaded loaded, @Nullable String evidenceId, String howToChoose) throws ReaException {
    List<IndexedEvidence> rs = loaded.records();
    if (evidenceId == null) {
      if (rs.size() == 1) {
        return rs.get(0);
      }
      throw ReaException.builder(
              Constraint.BAD_ARGUMENT,
              "the bundle holds "
                  + rs.size()
                  + " records; choose one "
                  + howToChoose
                  + ": "
                  + ids(rs))
          .field("evidence_id")
          .diagnostic("evidence_ids", idList(rs))
          .build();
    }
    for (IndexedEvidence ev : rs) {
      if (ev.evidenceId().equals(evidenceId)) {
        return ev;
      }
    }
    throw ReaException.builder(
            Constraint.UNKNOWN_EVIDENCE,
            "evidence "
                + ReaException.truncateForMessage(evidenceId)
                + " is not in this "
                + (loaded.bundle() ? "bundle" : "record")
                + "; it holds: "
                + ids(rs))
        .field("evidence_id")
        .diagnostic("evidence_ids", idList(rs))
        .build();
  }

  private static List<Object> idList(List<IndexedEvidence> rs) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < Math.min(LISTED_IDS, rs.size()); i++) {
      out.add(rs.get(i).evidenceId());
    }
    return out;
  }

  private static String ids(List<IndexedEvidence> rs) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < Math.min(LISTED_IDS, rs.size()); i++) {
      if (i > 0) {
        b.append(", ");
      }
      b.append(rs.get(i).evidenceId());
    }
    if (rs.size() > LISTED_IDS) {
      b.append(", ... (").append(rs.size()).append(" in all)");
    }
    return b.toString();
  }
}
