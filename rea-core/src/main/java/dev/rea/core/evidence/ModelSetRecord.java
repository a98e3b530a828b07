package dev.rea.core.evidence;

import java.math.BigInteger;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The Evidence record of a model made of several files (CONTRACT section 9, {@code
 * rea.model-set.v1}), field for field:
 *
 * <pre>
 * { "schema": "rea.model-set.v1", "evidence_id", "operation": "inspect_model_set",
 *   "status": "complete" | "partial", "observed_at", "request": { "path", "hash" },
 *   "set": { "kind", "path", "index": null | { "path", "file_size", "sha256", "metadata": [...] } },
 *   "members": [ { "index", "path", "evidence_id", "format", "file_size", "header_sha256",
 *                  "sha256", "tensor_count", "parameter_count", "byte_length" } ],
 *   "types": [...], "totals": {...}, "coverage": {...}, "limitations": [...], "warnings": [...],
 *   "authentication"? }
 * </pre>
 *
 * <p>Each member's own record ({@link EvidenceRecord}) is separate; a bundle holds this record
 * first and then the members' records in member order.
 *
 * @param schema always {@link #SCHEMA}
 * @param evidenceId {@code "sha256:<hex>"} of the canonical form (CONTRACT section 5); null before
 *     it is computed
 * @param operation always {@link #OPERATION}
 * @param status {@code "complete"}, or {@code "partial"} for the members finished before a failure
 * @param observedAt RFC 3339 UTC time the set inspection started
 * @param request the path as given and the hash mode
 * @param set what holds the set together
 * @param members one entry per member inspected, in member order
 * @param types one row per type label over all members (GGUF by type ID then label, safetensors by
 *     label)
 * @param totals totals over all members
 * @param coverage the weakest of the members' coverage (partial records: header partial, digest
 *     unknown, identity unverified)
 * @param limitations the members' limitations, each message naming its member
 * @param warnings the set's warnings, then the members' warnings naming their member
 * @param authentication the signature, or null when unsigned
 */
public record ModelSetRecord(
    String schema,
    @Nullable String evidenceId,
    String operation,
    String status,
    String observedAt,
    Request request,
    SetInfo set,
    List<Member> members,
    List<TypeRow> types,
    Totals totals,
    Coverage coverage,
    List<Limitation> limitations,
    List<Warning> warnings,
    @Nullable Authentication authentication)
    implements SignableRecord<ModelSetRecord> {

  /** The schema name of this record version. */
  public static final String SCHEMA = "rea.model-set.v1";

  /** The operation that produces set records. */
  public static final String OPERATION = "inspect_model_set";

  /** {@code status} of a record holding every member. */
  public static final String STATUS_COMPLETE = "complete";

  /** {@code status} of a record holding the members finished before a failure. */
  public static final String STATUS_PARTIAL = "partial";

  public ModelSetRecord {
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(observedAt, "observedAt");
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(set, "set");
    members = List.copyOf(members);
    types = List.copyOf(types);
    Objects.requireNonNull(totals, "totals");
    Objects.requireNonNull(coverage, "coverage");
    limitations = List.copyOf(limitations);
    warnings = List.copyOf(warnings);
  }

  @Override
  public ModelSetRecord withIdentity(@Nullable String id, @Nullable Authentication auth) {
    return new ModelSetRecord(schema, id, operation, status, observedAt, request, set, members,
        types, totals, coverage, limitations, warnings, auth);
  }

  /**
   * {@code set}.
   *
   * @param kind {@code "safetensors_index"}, {@code "gguf_split"} or {@code "single_file"}
   * @param path the index, the first split member, or the file (absolute, or the caller's URI)
   * @param index the index file, for kind {@code safetensors_index}; else null
   */
  public record SetInfo(String kind, String path, @Nullable IndexInfo index) {
    public SetInfo {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(path, "path");
    }
  }

  /**
   * {@code set.index}: the index file, read whole.
   *
   * @param path its path
   * @param fileSize its size in bytes
   * @param sha256 lowercase hex SHA-256 of its bytes (always given)
   * @param metadata its {@code metadata} members in key order (code points)
   */
  public record IndexInfo(String path, long fileSize, String sha256, List<IndexEntry> metadata) {
    public IndexInfo {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(sha256, "sha256");
      metadata = List.copyOf(metadata);
    }
  }

  /**
   * One member of the index's {@code metadata}: {@code {"key", "value"}}, the value a JSON string
   * (a string's text, or a number's exact text), {@code true}/{@code false}, or null.
   *
   * @param key the member name
   * @param value the text; for a boolean {@code "true"} or {@code "false"}; null for JSON null
   * @param isBoolean true when the value was a JSON boolean (written as {@code true}/{@code false})
   */
  public record IndexEntry(String key, @Nullable String value, boolean isBoolean) {
    public IndexEntry {
      Objects.requireNonNull(key, "key");
      if (isBoolean && !"true".equals(value) && !"false".equals(value)) {
        throw new IllegalArgumentException("a boolean entry holds true or false: " + value);
      }
    }
  }

  /**
   * One entry of {@code members}: the facts of a member's own record that the set needs.
   *
   * @param index position in member order (0-based)
   * @param path the member's path ({@code artifact.path} of its record)
   * @param evidenceId its record's {@code evidence_id}
   * @param format {@code "gguf"} or {@code "safetensors"}
   * @param fileSize bytes
   * @param headerSha256 lowercase hex SHA-256 of its header
   * @param sha256 lowercase hex SHA-256 of the whole member for a verified full hash, else null
   * @param tensorCount its tensor rows
   * @param parameterCount its parameters, in elements
   * @param byteLength its tensors' bytes, or null when any is unknown
   */
  public record Member(
      int index,
      String path,
      String evidenceId,
      String format,
      long fileSize,
      @Nullable String headerSha256,
      @Nullable String sha256,
      int tensorCount,
      BigInteger parameterCount,
      @Nullable BigInteger byteLength) {
    public Member {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(evidenceId, "evidenceId");
      Objects.requireNonNull(format, "format");
      Objects.requireNonNull(parameterCount, "parameterCount");
    }

    /**
     * @param index the member's position
     * @param r its record, with its {@code evidence_id}
     * @return the member entry for that record
     */
    public static Member of(int index, EvidenceRecord r) {
      Artifact a = r.artifact();
      return new Member(index, a.path(), Objects.requireNonNull(r.evidenceId(), "evidence_id"),
          a.format(), a.fileSize(), a.headerSha256(), a.sha256(), r.totals().tensorCount(),
          r.totals().parameterCount(), r.totals().byteLength());
    }
  }
}
