package dev.rea.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Readable renderings of a summary and of a page (CONTRACT section 4). They show the JSON
 * objects' own values: rows are printed as their compact JSON, one per line.
 */
final class CompactReport {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private CompactReport() {}

  /** Prints a summary (and its page, if any). */
  static void printSummary(PrintWriter out, byte[] summaryJson, @Nullable Path evidenceFile) {
    JsonNode s = JSON.readTree(summaryJson);
    JsonNode a = s.get("artifact");
    out.println("Summary of " + a.get("path").asString());
    out.println("  format:       " + a.get("format").asString() + " " + compact(s.get("format_facts")));
    out.println("  file size:    " + Sizes.grouped(Long.parseLong(a.get("file_size").asString())) + " bytes");
    out.println("  header:       " + Sizes.grouped(Long.parseLong(a.get("header_length").asString()))
        + " bytes, sha256 " + text(a.get("header_sha256")));
    out.println("  file sha256:  " + text(a.get("sha256")));
    JsonNode c = s.get("counts");
    out.println("  counts:       " + c.get("metadata").asInt() + " metadata, "
        + c.get("tensors").asInt() + " tensors, " + c.get("types").asInt() + " types");
    JsonNode t = s.get("totals");
    out.println("  parameters:   " + t.get("parameter_count").asString() + " (declared)");
    out.println("  byte length:  " + text(t.get("byte_length")));
    JsonNode ct = s.get("chat_template");
    out.println("  chat template: default " + ct.get("default").asBoolean() + ", named "
        + compact(ct.get("named")) + ", names-only inventory " + ct.get("names_only_inventory").asBoolean());
    out.println("Headline metadata:");
    for (JsonNode h : s.get("headline_metadata")) {
      out.println("  " + h.get("key").asString() + " (" + h.get("type").asString() + ") = "
          + compact(h.get("value")));
    }
    int warnings = s.get("warnings").size();
    out.println("Warnings (" + (warnings + s.get("warnings_omitted").asInt()) + "), limitations ("
        + s.get("limitation_count").asInt() + ")");
    for (JsonNode w : s.get("warnings")) {
      out.println("  " + w.get("code").asString() + ": " + w.get("message").asString());
    }
    out.println("Complete Evidence: " + s.get("parent_evidence_id").asString()
        + (evidenceFile == null ? " (not written; use --evidence_output FILE)" : " in " + evidenceFile));
    if (s.has("page")) {
      out.println();
      printPage(out, s.get("page"));
    }
    out.flush();
  }

  /** Prints a page given as JSON bytes. */
  static void printPage(PrintWriter out, byte[] pageJson) {
    printPage(out, JSON.readTree(pageJson));
    out.flush();
  }

  private static void printPage(PrintWriter out, JsonNode p) {
    int offset = p.get("offset").asInt();
    int n = p.get("rows").size();
    out.println("Page of " + p.get("collection").asString() + " from evidence "
        + p.get("parent_evidence_id").asString());
    out.println("  source: " + p.get("source").get("path").asString() + " ("
        + p.get("source").get("format").asString() + "), header " + p.get("header_coverage").asString());
    out.println("  matches " + p.get("total_matches").asInt() + "; rows " + offset + " to "
        + (offset + n) + (p.get("next_offset").isNull() ? "; last page"
            : "; next page at offset " + p.get("next_offset").asInt()));
    for (JsonNode row : p.get("rows")) {
      out.println("  " + compact(row));
    }
    if (p.get("array_omissions").size() > 0) {
      out.println("  incomplete array previews: " + compact(p.get("array_omissions")));
    }
    for (JsonNode u : p.get("unknowns")) {
      out.println("  unknown in row " + u.get("index").asInt() + ": " + compact(u.get("fields"))
          + (u.get("limitations").size() > 0 ? " (" + compact(u.get("limitations")) + ")" : ""));
    }
    for (JsonNode w : p.get("warnings")) {
      out.println("  warning " + w.get("code").asString() + ": " + w.get("message").asString());
    }
    if (p.get("warnings_omitted").asInt() > 0) {
      out.println("  " + p.get("warnings_omitted").asInt()
          + " more warnings are in the complete Evidence");
    }
  }

  private static String compact(JsonNode n) {
    return JSON.writeValueAsString(n);
  }

  private static String text(JsonNode n) {
    return n == null || n.isNull() ? "unknown" : n.asString();
  }
}
