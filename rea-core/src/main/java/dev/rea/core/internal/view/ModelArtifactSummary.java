package dev.rea.core.internal.view;

import dev.rea.core.evidence.Artifact;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.LlamaFtype;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.Totals;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.view.ViewPage;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * The compact summary of one Evidence record (CONTRACT section 4; specification, "MCP defaults
 * to a compact summary"):
 *
 * <pre>
 * { "kind": "model-artifact-summary", "parent_evidence_id", "status",
 *   "artifact": { "path", "format", "file_size", "header_length", "header_sha256", "sha256" },
 *   "format_facts", "counts": { "metadata", "tensors", "types" },
 *   "types": [ { "type", "type_id"?, "tensor_count", "parameter_count", "byte_length" } ],
 *   "types_omitted", "file_type": null | { "value", "name" },
 *   "headline_metadata": [ { "key", "type", "value" } ],
 *   "chat_template": { "default", "named", "names_only_inventory" },
 *   "totals": { "tensor_count", "parameter_count", "byte_length" },
 *   "warnings": [ { "code", "message" } ], "warnings_omitted", "limitation_count", "page"? }
 * </pre>
 *
 * <ul>
 *   <li>{@code types}: the record's type rows (CONTRACT section 3: one per type label, with its
 *       tensor count, parameter count and byte length, null where any tensor of it is unknown),
 *       in record order, at most {@value #MAX_TYPE_ROWS}; {@code types_omitted} counts the rest.
 *   <li>{@code file_type}: GGUF's {@code general.file_type} when it holds an integer: {@code
 *       value} as the metadata row writes it, {@code name} its llama.cpp {@code llama_ftype}
 *       name ({@code "MOSTLY_Q4_K_M"} for 15; {@link LlamaFtype}, pinned to a llama.cpp commit)
 *       or null for a value that enum does not name. Null for safetensors and when the key is
 *       absent or not an integer.
 *   <li>{@code headline_metadata}: scalar rows (never ARRAY) whose key is at most {@value
 *       #MAX_HEADLINE_KEY_BYTES} UTF-8 bytes and whose STRING value is at most {@value
 *       #MAX_HEADLINE_VALUE_BYTES} bytes, in record order, at most {@value #MAX_HEADLINE_ROWS}.
 *       GGUF: the keys of {@link #GGUF_HEADLINE_KEYS}, and for the architecture {@code A} named
 *       by {@code general.architecture} the keys {@code A.<suffix>} for {@link
 *       #ARCH_HEADLINE_SUFFIXES}. Safetensors: every short {@code __metadata__} entry (e.g.
 *       {@code format}). Long or compound values stay available through metadata views.
 *   <li>{@code chat_template.default}: a STRING {@code tokenizer.chat_template} with non-empty
 *       content; {@code named}: the names {@code N} of non-empty STRING rows {@code
 *       tokenizer.chat_template.N}, in record order (at most {@value #MAX_NAMED_TEMPLATES};
 *       {@code named_omitted} counts the rest when there are more); {@code
 *       names_only_inventory}: a {@code tokenizer.chat_templates} array is present. That
 *       array lists names only and never counts as template content.
 *   <li>{@code warnings}: the record's warnings in order while they fit in {@value
 *       #WARNINGS_BUDGET_BYTES} bytes; {@code warnings_omitted} counts the rest, which the parent
 *       Evidence holds. {@code limitation_count} counts the record's limitations.
 *   <li>{@code page}: the page of a view answered in the same call, when there is one.
 * </ul>
 */
public final class ModelArtifactSummary {
  /** Kind of a summary object. */
  public static final String KIND = "model-artifact-summary";

  /** Longest headline key, in UTF-8 bytes. */
  public static final int MAX_HEADLINE_KEY_BYTES = 64;

  /** Longest headline STRING value, in UTF-8 bytes. */
  public static final int MAX_HEADLINE_VALUE_BYTES = 128;

  /** Most headline rows. */
  public static final int MAX_HEADLINE_ROWS = 24;

  /** Most type rows listed. */
  public static final int MAX_TYPE_ROWS = 32;

  /** Most named chat templates listed. */
  public static final int MAX_NAMED_TEMPLATES = 32;

  /** Largest share of the summary used by warnings, in bytes. */
  public static final int WARNINGS_BUDGET_BYTES = 4 * 1024;

  /** GGUF keys shown whatever the architecture (ggml {@code docs/gguf.md} standardized keys). */
  public static final Set<String> GGUF_HEADLINE_KEYS =
      Set.of(
          "general.architecture",
          "general.name",
          "general.basename",
          "general.type",
          "general.size_label",
          "general.finetune",
          "general.version",
          "general.organization",
          "general.license",
          "general.file_type",
          "general.quantization_version",
          "general.alignment",
          "tokenizer.ggml.model",
          "tokenizer.ggml.pre",
          "tokenizer.ggml.bos_token_id",
          "tokenizer.ggml.eos_token_id",
          // gguf-split's keys: a member's totals are the member's (CONTRACT section 9).
          "split.no",
          "split.count",
          "split.tensors.count");

  /** Suffixes of {@code <architecture>.<suffix>} keys shown. */
  public static final List<String> ARCH_HEADLINE_SUFFIXES =
      List.of(
          "context_length",
          "block_count",
          "embedding_length",
          "feed_forward_length",
          "vocab_size",
          "expert_count",
          "expert_used_count",
          "attention.head_count",
          "attention.head_count_kv",
          "rope.dimension_count");

  /** Key of the default chat template. */
  public static final String CHAT_TEMPLATE_KEY = "tokenizer.chat_template";

  /** Key of the names-only inventory of chat templates. */
  public static final String CHAT_TEMPLATES_INVENTORY_KEY = "tokenizer.chat_templates";

  private ModelArtifactSummary() {}

  /**
   * Chat-template presence.
   *
   * @param defaultTemplate a non-empty default template is present
   * @param named names of non-empty named templates, in record order (bounded)
   * @param namedOmitted further named templates not listed
   * @param namesOnlyInventory the names-only {@code tokenizer.chat_templates} array is present
   */
  public record ChatTemplate(
      boolean defaultTemplate, List<String> named, int namedOmitted, boolean namesOnlyInventory) {
    public ChatTemplate {
      named = List.copyOf(named);
    }
  }

  /** @return the chat-template presence of a record */
  public static ChatTemplate chatTemplate(EvidenceRecord r) {
    boolean def = false;
    boolean inventory = false;
    List<String> named = new ArrayList<>();
    int omitted = 0;
    String prefix = CHAT_TEMPLATE_KEY + ".";
    for (MetadataRow row : r.metadata()) {
      String k = row.key();
      if (k.equals(CHAT_TEMPLATE_KEY)) {
        def = hasContent(row);
      } else if (k.equals(CHAT_TEMPLATES_INVENTORY_KEY)) {
        inventory = true;
      } else if (k.startsWith(prefix) && k.length() > prefix.length() && hasContent(row)) {
        if (named.size() < MAX_NAMED_TEMPLATES) {
          named.add(k.substring(prefix.length()));
        } else {
          omitted++;
        }
      }
    }
    return new ChatTemplate(def, named, omitted, inventory);
  }

  private static boolean hasContent(MetadataRow row) {
    return row.type() == ValueType.STRING
        && row.value() instanceof MetadataValue.StringValue s
        && !s.value().isEmpty();
  }

  /** @return the headline rows of a record (see class comment), in record order */
  public static List<MetadataRow> headline(EvidenceRecord r) {
    boolean gguf = "gguf".equals(r.artifact().format());
    String arch = null;
    if (gguf) {
      for (MetadataRow row : r.metadata()) {
        if (row.key().equals("general.architecture")
            && row.value() instanceof MetadataValue.StringValue s) {
          arch = s.value();
          break;
        }
      }
    }
    // Made once: "general.architecture" is file-controlled and may be megabytes long, and a
    // copy per row cost rows x its length.
    String archPrefix = arch == null ? null : arch + ".";
    List<MetadataRow> out = new ArrayList<>();
    for (MetadataRow row : r.metadata()) {
      if (out.size() >= MAX_HEADLINE_ROWS) {
        break;
      }
      if (row.type() == ValueType.ARRAY
          || IndexedEvidence.utf8(row.key()) > MAX_HEADLINE_KEY_BYTES
          || (row.value() instanceof MetadataValue.StringValue s
              && IndexedEvidence.utf8(s.value()) > MAX_HEADLINE_VALUE_BYTES)) {
        continue;
      }
      if (!gguf || GGUF_HEADLINE_KEYS.contains(row.key()) || isArchKey(row.key(), archPrefix)) {
        out.add(row);
      }
    }
    return out;
  }

  /** @param archPrefix the architecture and a dot ({@code "llama."}), or null */
  private static boolean isArchKey(String key, @Nullable String archPrefix) {
    if (archPrefix == null || !key.startsWith(archPrefix)) {
      return false;
    }
    return ARCH_HEADLINE_SUFFIXES.contains(key.substring(archPrefix.length()));
  }

  /**
   * Renders the summary.
   *
   * @param ev the indexed Evidence
   * @param page a page answered in the same call, or null
   * @return compact UTF-8 JSON
   */
  public static byte[] render(IndexedEvidence ev, @Nullable ViewPage page) {
    return render(ev.record(), ev.evidenceId(), page);
  }

  /**
   * Renders the summary of a record without indexing it (a summary needs none of the index).
   *
   * @param r the record
   * @param evidenceId its {@code evidence_id}
   * @param page a page answered in the same call, or null
   * @return compact UTF-8 JSON
   */
  public static byte[] render(EvidenceRecord r, String evidenceId, @Nullable ViewPage page) {
    Artifact a = r.artifact();
    ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
    try (JsonGenerator g = EvidenceJson.generator(out)) {
      g.writeStartObject();
      g.writeStringProperty("kind", KIND);
      g.writeStringProperty("parent_evidence_id", evidenceId);
      g.writeStringProperty("status", r.status());
      if (r.request().assumeLayout() != null) {
        // Byte lengths and totals below rest on the caller's statement (CONTRACT section 12).
        g.writeStringProperty("assume_layout", r.request().assumeLayout());
      }
      g.writeName("artifact");
      g.writeStartObject();
      EvidenceJson.writeArtifactSummaryFields(g, a);
      g.writeEndObject();
      EvidenceJson.writeFormatFacts(g, r.formatFacts());
      g.writeName("counts");
      g.writeStartObject();
      g.writeNumberProperty("metadata", r.metadata().size());
      g.writeNumberProperty("tensors", r.tensors().size());
      g.writeNumberProperty("types", r.types().size());
      g.writeEndObject();
      writeTypesAndFileType(g, r);
      g.writeName("headline_metadata");
      g.writeStartArray();
      for (MetadataRow row : headline(r)) {
        g.writeStartObject();
        g.writeStringProperty("key", row.key());
        g.writeStringProperty("type", row.type().name());
        g.writeName("value");
        EvidenceJson.writeScalar(g, row.type(), row.value());
        g.writeEndObject();
      }
      g.writeEndArray();
      writeChatTemplate(g, r);
      Totals t = r.totals();
      g.writeName("totals");
      g.writeStartObject();
      g.writeNumberProperty("tensor_count", t.tensorCount());
      g.writeStringProperty("parameter_count", t.parameterCount().toString());
      nullable(g, "byte_length", t.byteLength() == null ? null : t.byteLength().toString());
      g.writeEndObject();
      writeWarnings(g, r);
      g.writeNumberProperty("limitation_count", r.limitations().size());
      if (page != null) {
        g.writeName("page");
        g.writeRawValue(new String(page.json(), StandardCharsets.UTF_8));
      }
      g.writeEndObject();
    }
    return out.toByteArray();
  }

  /** Writes {@code chat_template}: whether a default template is declared, and the named ones. */
  private static void writeChatTemplate(JsonGenerator g, EvidenceRecord r) {
    ChatTemplate ct = chatTemplate(r);
    g.writeName("chat_template");
    g.writeStartObject();
    g.writeBooleanProperty("default", ct.defaultTemplate());
    g.writeName("named");
    g.writeStartArray();
    for (String n : ct.named()) {
      g.writeString(n);
    }
    g.writeEndArray();
    if (ct.namedOmitted() > 0) {
      g.writeNumberProperty("named_omitted", ct.namedOmitted());
    }
    g.writeBooleanProperty("names_only_inventory", ct.namesOnlyInventory());
    g.writeEndObject();
  }

  /** Writes the warnings that fit {@code WARNINGS_BUDGET_BYTES}, then how many were left out. */
  private static void writeWarnings(JsonGenerator g, EvidenceRecord r) {
    g.writeName("warnings");
    g.writeStartArray();
    int used = 0;
    int omitted = 0;
    for (Warning w : r.warnings()) {
      int size = ViewPages.warning(w).length + 1;
      if (omitted == 0 && used + size <= WARNINGS_BUDGET_BYTES) {
        EvidenceJson.writeWarning(g, w);
        used += size;
      } else {
        omitted++;
      }
    }
    g.writeEndArray();
    g.writeNumberProperty("warnings_omitted", omitted);
  }

  /** Writes {@code types}, {@code types_omitted} and {@code file_type}. */
  private static void writeTypesAndFileType(JsonGenerator g, EvidenceRecord r) {
    g.writeName("types");
    g.writeStartArray();
    int listed = Math.min(r.types().size(), MAX_TYPE_ROWS);
    for (int i = 0; i < listed; i++) {
      EvidenceJson.writeTypeRow(g, r.types().get(i));
    }
    g.writeEndArray();
    g.writeNumberProperty("types_omitted", r.types().size() - listed);
    MetadataRow fileType = LlamaFtype.declared(r);
    if (fileType == null) {
      g.writeNullProperty("file_type");
      return;
    }
    g.writeName("file_type");
    g.writeStartObject();
    g.writeName("value");
    EvidenceJson.writeScalar(g, fileType.type(), fileType.value());
    nullable(g, "name", LlamaFtype.name(fileType));
    g.writeEndObject();
  }

  private static void nullable(JsonGenerator g, String name, @Nullable String v) {
    if (v == null) {
      g.writeNullProperty(name);
    } else {
      g.writeStringProperty(name, v);
    }
  }
}
