package dev.rea.mcp;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;

/** The typed failures the MCP layer itself raises (CONTRACT section 6). */
final class Failures {
  private Failures() {}

  /** {@code resource_exhausted} / {@code provider_busy}: one inspection runs at a time. */
  static ReaException busy() {
    return ReaException.builder(
            Constraint.PROVIDER_BUSY,
            "another inspect_model_artifact call is running on this server; one inspection runs"
                + " at a time. Retry when it has finished. inspect_analysis_view,"
                + " import_evidence_bundle and release_evidence keep answering meanwhile.")
        .diagnostic("limit", "active_inspections")
        .diagnostic("limit_inspections", 1)
        .build();
  }

  /**
   * A message within the byte limit that goes past a JSON read limit the SDK's parser shares
   * (nesting deeper than 500, a number of more than 1,000 characters, a longer string or name
   * than the parser takes): {@code resource_exhausted} / {@code request_size}, its diagnostic
   * {@code limit} naming which ({@code inbound_json_nesting}, {@code inbound_json_number},
   * {@code inbound_json_string}).
   *
   * @param problem the parser's reason (Jackson's {@code StreamConstraintsException} message,
   *     which names the limit it met)
   */
  static ReaException requestOverReadLimits(String problem) {
    String limit =
        problem.contains("Number value length")
            ? "inbound_json_number"
            : problem.contains("String value length") || problem.contains("Name length")
                ? "inbound_json_string"
                : "inbound_json_nesting";
    return ReaException.builder(
            Constraint.REQUEST_SIZE,
            "the request is over a JSON read limit (" + readLimit(problem) + "): " + problem)
        .diagnostic("limit", limit)
        .build();
  }

  /**
   * @param problem the parser's reason
   * @return which read limit it names, in words: {@code "nesting deeper than 500 objects and
   *     arrays"}, {@code "a number longer than the parser takes"} or {@code "a string or
   *     property name longer than the parser takes"}
   */
  static String readLimit(String problem) {
    if (problem.contains("Number value length")) {
      return "a number longer than the parser takes";
    }
    if (problem.contains("String value length") || problem.contains("Name length")) {
      return "a string or property name longer than the parser takes";
    }
    return "nesting deeper than 500 objects and arrays";
  }

  /**
   * {@code resource_exhausted} / {@code request_size}: a message over the inbound line cap.
   * Diagnostics {@code limit_bytes} and {@code requested_bytes} are decimal strings.
   */
  static ReaException requestTooLarge(long bytes, int cap) {
    return ReaException.builder(
            Constraint.REQUEST_SIZE,
            "the request is "
                + bytes
                + " bytes, over this server's "
                + cap
                + "-byte limit for one message; pass large Evidence as an evidence-file source"
                + " or import it with import_evidence_bundle from a path")
        .diagnostic("limit", "inbound_message_bytes")
        // Sizes are decimal strings (CONTRACT section 2), as for every other byte limit.
        .diagnostic("limit_bytes", Integer.toString(cap))
        .diagnostic("requested_bytes", Long.toString(bytes))
        .build();
  }

  /**
   * {@code resource_exhausted} / {@code request_size} for a message that opens more JSON objects
   * and arrays than its size allows ({@code InboundFilter.FREE_CONTAINERS}).
   */
  static ReaException requestTooDense(long containers, long cap, long bytes) {
    return ReaException.builder(
            Constraint.REQUEST_SIZE,
            "the request opens "
                + containers
                + " JSON objects and arrays, over this server's limit of "
                + cap
                + " for a message of "
                + bytes
                + " bytes (4,096 plus one per 24 bytes)")
        .diagnostic("limit", "inbound_message_containers")
        .diagnostic("limit_containers", cap)
        .diagnostic("requested_containers", containers)
        .build();
  }

  /** {@code invalid_input} / {@code bad_argument} naming the argument. */
  static ReaException badArgument(String field, String message) {
    return ReaException.builder(Constraint.BAD_ARGUMENT, message).field(field).build();
  }

  /** {@code invalid_input} / {@code conflicting_choices}. */
  static ReaException conflicting(String field, String message) {
    return ReaException.builder(Constraint.CONFLICTING_CHOICES, message).field(field).build();
  }
}
