package dev.rea.core.evidence;

import dev.rea.core.internal.evidence.EvidenceJson;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One complete (or partial) Evidence record, field for field as CONTRACT section 3 lists it. The
 * JSON form is written by {@link EvidenceJson}.
 *
 * @param schema always {@link #SCHEMA}
 * @param evidenceId {@code "sha256:<hex>"} of the canonical form; null before it is computed
 * @param operation always {@code "inspect_model_artifact"}
 * @param status {@code "complete"} or {@code "partial"}
 * @param observedAt RFC 3339 UTC time of the inspection
 * @param request the request
 * @param subject the verified whole-file subject, or null
 * @param artifact the inspected file
 * @param formatFacts per-format facts
 * @param metadata metadata rows
 * @param tensors tensor rows
 * @param types one row per type label
 * @param totals whole-record totals
 * @param coverage what the record covers
 * @param limitations what could not be established
 * @param warnings noteworthy facts
 * @param authentication the signature, or null when unsigned
 */
public record EvidenceRecord(
    String schema,
    @Nullable String evidenceId,
    String operation,
    String status,
    String observedAt,
    Request request,
    @Nullable Subject subject,
    Artifact artifact,
    FormatFacts formatFacts,
    List<MetadataRow> metadata,
    List<TensorRow> tensors,
    List<TypeRow> types,
    Totals totals,
    Coverage coverage,
    List<Limitation> limitations,
    List<Warning> warnings,
    @Nullable Authentication authentication)
    implements SignableRecord<EvidenceRecord> {

  /** The schema name of this record version. */
  public static final String SCHEMA = "rea.evidence.v1";

  /** The only operation that produces records. */
  public static final String OPERATION = "inspect_model_artifact";

  public static final String STATUS_COMPLETE = "complete";
  public static final String STATUS_PARTIAL = "partial";

  public EvidenceRecord {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(observedAt, "observedAt");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(artifact, "artifact");
    Objects.requireNonNull(formatFacts, "formatFacts");
    metadata = List.copyOf(metadata);
    tensors = List.copyOf(tensors);
    types = List.copyOf(types);
    Objects.requireNonNull(totals, "totals");
    Objects.requireNonNull(coverage, "coverage");
    limitations = List.copyOf(limitations);
    warnings = List.copyOf(warnings);
  }

  @Override
  public EvidenceRecord withIdentity(@Nullable String id, @Nullable Authentication auth) {
    return new EvidenceRecord(
        schema, id, operation, status, observedAt, request, subject, artifact, formatFacts,
        metadata, tensors, types, totals, coverage, limitations, warnings, auth);
  }
}
