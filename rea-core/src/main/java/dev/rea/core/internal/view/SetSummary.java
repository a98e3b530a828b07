package dev.rea.core.internal.view;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.evidence.Totals;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.evidence.EvidenceJson;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * The summary of a model set (CONTRACT section 9): the section 4 summary with {@code set} in place
 * of {@code format_facts}:
 *
 * <pre>
 * { "kind": "model-set-summary", "parent_evidence_id", "status", "assume_layout"?,
 *   "artifact": { "path" (set.path), "format" (the members', or "mixed"), "file_size" (sum),
 *                 "header_length": null, "header_sha256": null, "sha256": null },
 *   "set": { "kind", "member_count", "index": null | { "path", "sha256" } },
 *   "counts": { "members", "metadata", "tensors", "types" },
 *   "headline_metadata": [ { "key", "type", "value" } ], "chat_template": {...},
 *   "types": [ type rows over all members ], "totals", "warnings", "warnings_omitted",
 *   "limitation_count", "page"? }
 * </pre>
 *
 * <p>Headline metadata comes from the first GGUF member (gguf-split keeps the metadata there) or,
 * for a safetensors index, from the index's {@code metadata} (type {@code STRING}; short values
 * only), else from the first member as for one file. {@code counts.metadata} counts the rows a
 * {@code metadata} view over the set pages (every member's, as {@code counts.tensors} counts
 * every member's tensors); the index's own metadata is not a row there. The kind differs from a file's summary ({@code
 * model-artifact-summary}) so that a reader knows which shape follows. {@code assume_layout} is
 * there, as in a file's summary, when the members were read under a layout assumption (CONTRACT
 * section 12: the set's byte lengths and totals rest on it).
 */
public final class SetSummary {
  /** Kind of a set summary. */
  public static final String KIND = "model-set-summary";

  private SetSummary() {}

  /**
   * @param set the set record
   * @param first the first member's record (the headline's source when there is no index), or
   *     null
   * @param metadataRows the metadata rows of all members together ({@code counts.metadata})
   * @param page a page answered in the same call, or null
   * @return compact UTF-8 JSON
   */
  public static byte[] render(
      ModelSetRecord set,
      @Nullable EvidenceRecord first,
      long metadataRows,
      byte @Nullable [] page) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
    try (JsonGenerator g = EvidenceJson.generator(out)) {
      g.writeStartObject();
      g.writeStringProperty("kind", KIND);
      g.writeStringProperty("parent_evidence_id", set.evidenceId());
      g.writeStringProperty("status", set.status());
      if (set.request().assumeLayout() != null) {
        g.writeStringProperty("assume_layout", set.request().assumeLayout());
      }
      g.writeName("artifact");
      g.writeStartObject();
      g.writeStringProperty("path", set.set().path());
      g.writeStringProperty("format", format(set));
      g.writeStringProperty("file_size", fileSize(set).toString());
      g.writeNullProperty("header_length");
      g.writeNullProperty("header_sha256");
      g.writeNullProperty("sha256");
      g.writeEndObject();
      writeSet(g, set);
      g.writeName("counts");
      g.writeStartObject();
      g.writeNumberProperty("members", set.members().size());
      g.writeNumberProperty("metadata", metadataRows);
      g.writeNumberProperty("tensors", set.totals().tensorCount());
      g.writeNumberProperty("types", set.types().size());
      g.writeEndObject();
      writeHeadline(g, set, first);
      writeChatTemplate(g, first);
      g.writeName("types");
      g.writeStartArray();
      for (TypeRow t : set.types()) {
        EvidenceJson.writeTypeRow(g, t);
      }
      g.writeEndArray();
      Totals t = set.totals();
      g.writeName("totals");
      g.writeStartObject();
      g.writeNumberProperty("tensor_count", t.tensorCount());
      g.writeStringProperty("parameter_count", t.parameterCount().toString());
      if (t.byteLength() == null) {
        g.writeNullProperty("byte_length");
      } else {
        g.writeStringProperty("byte_length", t.byteLength().toString());
      }
      g.writeEndObject();
      writeWarnings(g, set.warnings());
      g.writeNumberProperty("limitation_count", set.limitations().size());
      if (page != null) {
        g.writeName("page");
        g.writeRawValue(new String(page, StandardCharsets.UTF_8));
      }
      g.writeEndObject();
    }
    return out.toByteArray();
  }

  private static void writeSet(JsonGenerator g, ModelSetRecord set) {
    g.writeName("set");
    g.writeStartObject();
    g.writeStringProperty("kind", set.set().kind());
    g.writeNumberProperty("member_count", set.members().size());
    g.writeName("index");
    if (set.set().index() == null) {
      g.writeNull();
    } else {
      g.writeStartObject();
      g.writeStringProperty("path", set.set().index().path());
      g.writeStringProperty("sha256", set.set().index().sha256());
      g.writeEndObject();
    }
    g.writeEndObject();
  }

  private static void writeHeadline(
      JsonGenerator g, ModelSetRecord set, @Nullable EvidenceRecord first) {
    g.writeName("headline_metadata");
    g.writeStartArray();
    if (set.set().index() != null) {
      int n = 0;
      for (ModelSetRecord.IndexEntry e : set.set().index().metadata()) {
        if (n == ModelArtifactSummary.MAX_HEADLINE_ROWS || e.value() == null || e.isBoolean()
            || IndexedEvidence.utf8(e.key()) > ModelArtifactSummary.MAX_HEADLINE_KEY_BYTES
            || IndexedEvidence.utf8(e.value()) > ModelArtifactSummary.MAX_HEADLINE_VALUE_BYTES) {
          continue;
        }
        g.writeStartObject();
        g.writeStringProperty("key", e.key());
        g.writeStringProperty("type", "STRING");
        g.writeStringProperty("value", e.value());
        g.writeEndObject();
        n++;
      }
    } else if (first != null) {
      for (MetadataRow row : ModelArtifactSummary.headline(first)) {
        g.writeStartObject();
        g.writeStringProperty("key", row.key());
        g.writeStringProperty("type", row.type().name());
        g.writeName("value");
        EvidenceJson.writeScalar(g, row.type(), row.value());
        g.writeEndObject();
      }
    }
    g.writeEndArray();
  }

  private static void writeChatTemplate(JsonGenerator g, @Nullable EvidenceRecord first) {
    g.writeName("chat_template");
    g.writeStartObject();
    ModelArtifactSummary.ChatTemplate ct = first == null ? null : ModelArtifactSummary.chatTemplate(first);
    g.writeBooleanProperty("default", ct != null && ct.defaultTemplate());
    g.writeName("named");
    g.writeStartArray();
    if (ct != null) {
      for (String n : ct.named()) {
        g.writeString(n);
      }
    }
    g.writeEndArray();
    if (ct != null && ct.namedOmitted() > 0) {
      g.writeNumberProperty("named_omitted", ct.namedOmitted());
    }
    g.writeBooleanProperty("names_only_inventory", ct != null && ct.namesOnlyInventory());
    g.writeEndObject();
  }

  private static void writeWarnings(JsonGenerator g, List<Warning> warnings) {
    g.writeName("warnings");
    g.writeStartArray();
    int used = 0;
    int omitted = 0;
    for (Warning w : warnings) {
      int size = ViewPages.warning(w).length + 1;
      if (omitted == 0 && used + size <= ModelArtifactSummary.WARNINGS_BUDGET_BYTES) {
        EvidenceJson.writeWarning(g, w);
        used += size;
      } else {
        omitted++;
      }
    }
    g.writeEndArray();
    g.writeNumberProperty("warnings_omitted", omitted);
  }

  /** @return the members' format, {@code "mixed"} when they differ, {@code "none"} for none */
  static String format(ModelSetRecord set) {
    String f = null;
    for (ModelSetRecord.Member m : set.members()) {
      if (f == null) {
        f = m.format();
      } else if (!f.equals(m.format())) {
        return "mixed";
      }
    }
    return f == null ? "none" : f;
  }

  /** @return the sum of the members' sizes, in bytes */
  static BigInteger fileSize(ModelSetRecord set) {
    BigInteger n = BigInteger.ZERO;
    for (ModelSetRecord.Member m : set.members()) {
      n = n.add(BigInteger.valueOf(m.fileSize()));
    }
    return n;
  }
}
