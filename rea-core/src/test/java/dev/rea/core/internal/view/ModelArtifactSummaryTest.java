package dev.rea.core.internal.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.evidence.Warning;
import dev.rea.core.testing.TestRecords;
import dev.rea.core.view.SourceKind;
import dev.rea.core.view.ViewPage;
import dev.rea.core.view.ViewRequest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ModelArtifactSummaryTest {
  static final JsonMapper JSON = JsonMapper.builder().build();

  static JsonNode summary(EvidenceRecord r) {
    return JSON.readTree(ModelArtifactSummary.render(IndexedEvidence.of(r), null));
  }

  static EvidenceRecord withMetadata(MetadataRow... rows) {
    return TestRecords.gguf(List.of(rows), List.of(), List.of(), List.of());
  }

  /**
   * Hang guard, not a speed goal: the architecture and a dot were built again for every metadata
   * row, so a 32 MB {@code general.architecture} and 100,000 rows copied 3.2 TB (a 1 MB one with
   * 32,000 rows took 31 s; 8 MB and 50,000 rows took under 2 minutes here). They are built once;
   * the headline is as before.
   */
  @Test
  @org.junit.jupiter.api.Timeout(value = 2, unit = java.util.concurrent.TimeUnit.MINUTES)
  void aLongArchitectureIsPrefixedOnceNotOncePerRow() {
    String arch = "a".repeat(32 << 20);
    List<MetadataRow> rows = new ArrayList<>();
    rows.add(new MetadataRow(0, "general.architecture", ValueType.STRING,
        new MetadataValue.StringValue(arch)));
    rows.add(new MetadataRow(1, "general.name", ValueType.STRING, new MetadataValue.StringValue("n")));
    for (int i = 0; i < 100_000; i++) {
      rows.add(new MetadataRow(rows.size(), "k" + i, ValueType.UINT8, new MetadataValue.IntegerValue(1)));
    }
    List<MetadataRow> headline =
        ModelArtifactSummary.headline(TestRecords.gguf(rows, List.of(), List.of(), List.of()));
    // The architecture is too long for a headline value; general.name is a headline key.
    assertThat(headline).extracting(MetadataRow::key).containsExactly("general.name");
    // A short architecture still brings in its own keys.
    List<MetadataRow> llama = new ArrayList<>(List.of(
        new MetadataRow(0, "general.architecture", ValueType.STRING, new MetadataValue.StringValue("llama")),
        new MetadataRow(1, "llama.context_length", ValueType.UINT32, new MetadataValue.IntegerValue(4096)),
        new MetadataRow(2, "llamax.context_length", ValueType.UINT32, new MetadataValue.IntegerValue(1))));
    assertThat(ModelArtifactSummary.headline(TestRecords.gguf(llama, List.of(), List.of(), List.of())))
        .extracting(MetadataRow::key)
        .containsExactly("general.architecture", "llama.context_length");
  }

  @Test
  void summaryOfASmallRecord() {
    EvidenceRecord r = TestRecords.small();
    JsonNode s = summary(r);
    assertThat(s.propertyNames()).containsExactly("kind", "parent_evidence_id", "status",
        "artifact", "format_facts", "counts", "types", "types_omitted", "file_type",
        "headline_metadata", "chat_template", "totals", "warnings", "warnings_omitted",
        "limitation_count");
    assertThat(s.get("kind").stringValue()).isEqualTo("model-artifact-summary");
    assertThat(s.get("parent_evidence_id").stringValue()).isEqualTo(r.evidenceId());
    assertThat(s.get("status").stringValue()).isEqualTo("complete");
    assertThat(JSON.writeValueAsString(s.get("artifact"))).isEqualTo(
        "{\"path\":\"/models/test.gguf\",\"format\":\"gguf\",\"file_size\":\"1000000\","
            + "\"header_length\":\"3000\",\"header_sha256\":\"" + "ab".repeat(32)
            + "\",\"sha256\":null}");
    assertThat(JSON.writeValueAsString(s.get("format_facts"))).isEqualTo(
        "{\"version\":3,\"byte_order\":\"little\",\"alignment\":32,"
            + "\"alignment_source\":\"default\",\"tensor_data_offset\":\"4096\"}");
    assertThat(JSON.writeValueAsString(s.get("counts")))
        .isEqualTo("{\"metadata\":14,\"tensors\":3,\"types\":2}");
    assertThat(JSON.writeValueAsString(s.get("types"))).isEqualTo(
        "[{\"type\":\"F32\",\"type_id\":0,\"tensor_count\":2,\"parameter_count\":\"64\","
            + "\"byte_length\":\"256\"},{\"type\":\"AMBIGUOUS_16\",\"type_id\":16,"
            + "\"tensor_count\":1,\"parameter_count\":\"64\",\"byte_length\":null}]");
    assertThat(s.get("types_omitted").intValue()).isZero();
    assertThat(s.get("file_type").isNull()).isTrue();
    assertThat(JSON.writeValueAsString(s.get("headline_metadata"))).isEqualTo(
        "[{\"key\":\"general.architecture\",\"type\":\"STRING\",\"value\":\"llama\"},"
            + "{\"key\":\"general.name\",\"type\":\"STRING\",\"value\":\"Tiny \u00e9t\u00e9 \\u001F model\"},"
            + "{\"key\":\"llama.context_length\",\"type\":\"UINT32\",\"value\":4096},"
            + "{\"key\":\"tokenizer.ggml.model\",\"type\":\"STRING\",\"value\":\"llama\"}]");
    assertThat(JSON.writeValueAsString(s.get("totals")))
        .isEqualTo("{\"tensor_count\":3,\"parameter_count\":\"128\",\"byte_length\":null}");
    assertThat(s.get("warnings").size()).isEqualTo(1);
    assertThat(s.get("warnings_omitted").intValue()).isZero();
    assertThat(s.get("limitation_count").intValue()).isEqualTo(1);
  }

  @Test
  void headlineSkipsLongValuesArraysAndOtherArchitectures() {
    EvidenceRecord r = withMetadata(
        TestRecords.string(0, "general.architecture", "qwen2"),
        TestRecords.string(1, "general.name", "x".repeat(129)),
        TestRecords.u32(2, "llama.context_length", 2048),
        TestRecords.u32(3, "qwen2.context_length", 32768),
        TestRecords.u32(4, "qwen2.block_count", 24),
        TestRecords.stringArray(5, "general.tags", 1, "a"),
        TestRecords.scalar(6, "general.file_type", ValueType.UINT32, new MetadataValue.IntegerValue(15)),
        TestRecords.scalar(7, "general.quantization_version", ValueType.UINT32, new MetadataValue.IntegerValue(2)),
        TestRecords.u32(8, "qwen2.attention.head_count", 14),
        TestRecords.string(9, "tokenizer.ggml.pre", "qwen2"));
    List<String> keys = new ArrayList<>();
    for (JsonNode h : summary(r).get("headline_metadata")) {
      keys.add(h.get("key").stringValue());
    }
    assertThat(keys).containsExactly("general.architecture", "qwen2.context_length",
        "qwen2.block_count", "general.file_type", "general.quantization_version",
        "qwen2.attention.head_count", "tokenizer.ggml.pre");
  }

  @Test
  void chatTemplatePresenceFixture() {
    // Default content only.
    JsonNode a = summary(withMetadata(
        TestRecords.string(0, "general.architecture", "llama"),
        TestRecords.string(1, "tokenizer.chat_template", "{% for m in messages %}{{ m }}{% endfor %}")))
        .get("chat_template");
    assertThat(JSON.writeValueAsString(a))
        .isEqualTo("{\"default\":true,\"named\":[],\"names_only_inventory\":false}");

    // A names-only inventory establishes no content; an empty default is no content either.
    JsonNode b = summary(withMetadata(
        TestRecords.string(0, "tokenizer.chat_template", ""),
        TestRecords.stringArray(1, "tokenizer.chat_templates", 2, "tool_use", "rag")))
        .get("chat_template");
    assertThat(JSON.writeValueAsString(b))
        .isEqualTo("{\"default\":false,\"named\":[],\"names_only_inventory\":true}");

    // Named templates count only when they carry content.
    JsonNode c = summary(withMetadata(
        TestRecords.string(0, "tokenizer.chat_template", "default {{ x }}"),
        TestRecords.string(1, "tokenizer.chat_template.tool_use", "tools {{ x }}"),
        TestRecords.string(2, "tokenizer.chat_template.rag", ""),
        TestRecords.u32(3, "tokenizer.chat_template.count", 2),
        TestRecords.stringArray(4, "tokenizer.chat_templates", 3, "tool_use", "rag", "sql"),
        TestRecords.string(5, "tokenizer.chat_template.sql", "sql {{ x }}")))
        .get("chat_template");
    assertThat(JSON.writeValueAsString(c))
        .isEqualTo("{\"default\":true,\"named\":[\"tool_use\",\"sql\"],\"names_only_inventory\":true}");

    // Nothing at all.
    JsonNode d = summary(withMetadata(TestRecords.string(0, "general.architecture", "llama")))
        .get("chat_template");
    assertThat(JSON.writeValueAsString(d))
        .isEqualTo("{\"default\":false,\"named\":[],\"names_only_inventory\":false}");
  }

  @Test
  void summaryWarningsAreBoundedAndCarryTheirPage() throws ReaException {
    List<Warning> ws = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      ws.add(new Warning("w" + i, "m".repeat(200)));
    }
    EvidenceRecord r = TestRecords.gguf(List.of(TestRecords.string(0, "general.architecture", "llama")),
        List.of(TestRecords.f32(0, "a", 0, 2)), List.of(), ws);
    IndexedEvidence ev = IndexedEvidence.of(r);
    ViewPage page = ViewPages.answer(ev, ViewRequest.parse("{\"collection\":\"tensors\"}",
        ViewRequest.Mode.INLINE), SourceKind.RETAINED_EVIDENCE);
    JsonNode s = JSON.readTree(ModelArtifactSummary.render(ev, page));
    int shown = s.get("warnings").size();
    assertThat(shown).isBetween(10, 20);
    assertThat(s.get("warnings_omitted").intValue()).isEqualTo(200 - shown);
    assertThat(s.get("page")).isEqualTo(JSON.readTree(page.json()));
    assertThat(s.get("page").get("rows").get(0).get("name").stringValue()).isEqualTo("a");
  }
}
