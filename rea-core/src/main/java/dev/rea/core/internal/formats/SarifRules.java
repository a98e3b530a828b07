package dev.rea.core.internal.formats;

import dev.rea.core.error.Constraint;
import java.util.Map;

/**
 * The short descriptions of SARIF rules ({@code tool.driver.rules[].shortDescription.text}): one
 * per REA error constraint (CONTRACT section 6) and per warning code REA emits (CONTRACT sections
 * 3, 9 and 12). A code not listed gets a generic description naming it, so a newer warning never
 * breaks the log.
 */
public final class SarifRules {
  private SarifRules() {}

  private static final Map<String, String> WARNINGS =
      Map.of(
          "removed_type",
          "A tensor uses a type ID that ggml has removed; its one released layout is assumed.",
          "short_under_every_layout",
          "A tensor of unestablished layout cannot end within the file under any released layout"
              + " (the file may be truncated).",
          "overlap_under_every_layout",
          "A tensor starts inside the storage another tensor of unestablished layout needs under"
              + " every released layout.",
          "unknown_type_id",
          "A tensor's type ID is defined by no released ggml, which usually means a damaged"
              + " header.",
          "index_total_size_mismatch",
          "A safetensors index's metadata.total_size differs from the members' tensor bytes.",
          "split_metadata_outside_first",
          "A GGUF split member after the first holds metadata that gguf-split keeps in the first.",
          "split_member_alone",
          "A GGUF file declares split.count of two or more but is not named as a split member.",
          "shard_without_index",
          "A safetensors file is named as a checkpoint's shard but no index in its directory"
              + " names it.");

  /**
   * Limitations (what REA could not establish), which fail a check only when asked ({@code
   * --fail-on limitations}). {@code unknown_type_id} is also a warning, described as one.
   */
  private static final Map<String, String> LIMITATIONS =
      Map.of(
          "unknown_dtype",
          "A safetensors tensor's dtype is one REA does not know: its byte length is unknown.",
          "partial_header",
          "The header was read only in part: the record lists what was read before it stopped.",
          "layout_assumed",
          "Byte lengths rest on the layout the request assumed, not on the header.",
          "q8_1_layout_ambiguous",
          "Q8_1 tensors have two released layouts; the header does not say which.",
          "k_quant_layout_ambiguous",
          "K-quant tensors have several released layouts; the header does not say which.",
          "ambiguous_type_id",
          "A GGUF type ID names different types in different ggml releases.",
          "unknown_type_id",
          "A tensor's type ID is defined by no released ggml: its byte length is unknown.");

  /** @return every limitation code a record or set record may carry, in code-point order */
  public static java.util.SortedSet<String> limitationCodes() {
    return java.util.Collections.unmodifiableSortedSet(
        new java.util.TreeSet<>(LIMITATIONS.keySet()));
  }

  /** @return every warning code a record may carry, in code-point order */
  public static java.util.SortedSet<String> warningCodes() {
    return java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(WARNINGS.keySet()));
  }

  /**
   * @param ruleId a constraint's wire name, a warning code or a limitation code
   * @return a one-sentence description
   */
  static String describe(String ruleId) {
    String warning = WARNINGS.get(ruleId);
    if (warning != null) {
      return warning;
    }
    String limitation = LIMITATIONS.get(ruleId);
    if (limitation != null) {
      return limitation;
    }
    for (Constraint c : Constraint.values()) {
      if (c.wireName().equals(ruleId)) {
        return describe(c);
      }
    }
    return "REA reported " + ruleId + " (see the result's message).";
  }

  private static String describe(Constraint c) {
    return switch (c) {
      case FILE_FORMAT_REJECTED ->
          "The model header breaks its format's rules at the byte offset given.";
      case UNSUPPORTED_FORMAT -> "The file is neither GGUF nor safetensors by its content.";
      case UNSUPPORTED_VERSION -> "The GGUF version is one REA does not read.";
      case NOT_FOUND -> "The file does not exist.";
      case NOT_REGULAR_FILE -> "The path is not a regular file.";
      case PERMISSION_DENIED -> "The file may not be read.";
      case IO_ERROR -> "The host failed a read.";
      case TARGET_CHANGED -> "The file changed while it was read.";
      case HEADER_CEILING -> "The declared header would pass REA's header size ceiling.";
      case RETAINED_BUDGET -> "The Evidence would pass REA's memory budget.";
      case NESTING_LIMIT -> "Containers in the header are nested deeper than REA reads.";
      case CANCELLED -> "The inspection was cancelled.";
      default -> "REA refused the request (" + c.wireName() + ").";
    };
  }
}
