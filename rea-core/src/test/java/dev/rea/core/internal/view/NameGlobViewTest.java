package dev.rea.core.internal.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.internal.format.gguf.GgufTesting;
import dev.rea.core.view.SourceKind;
import dev.rea.core.view.ViewCollection;
import dev.rea.core.view.ViewPage;
import dev.rea.core.view.ViewRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code name_glob} and {@code key_glob} (CONTRACT section 12) over a real file: ollama's tiny
 * random Llama 2 (one block, 12 tensors, 18 metadata keys).
 */
class NameGlobViewTest {
  static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path tmp;
  EvidenceRecord record;
  IndexedEvidence ev;

  @BeforeEach
  void inspect() throws ReaException {
    Path file = GgufTesting.resourceFile(tmp, "real/ollama_ollama-llama-2-tiny-random.gguf.gz");
    record = GgufTesting.inspect(file);
    ev = IndexedEvidence.of(record);
  }

  JsonNode page(String view) throws ReaException {
    return JSON.readTree(
        ViewPages.answer(ev, ViewRequest.parse(view, ViewRequest.Mode.ANALYSIS),
                SourceKind.EVIDENCE_FILE)
            .json());
  }

  static List<String> column(JsonNode page, String field) {
    List<String> out = new ArrayList<>();
    for (JsonNode r : page.get("rows")) {
      out.add(r.get(field).asString());
    }
    return out;
  }

  List<String> tensorsStartingWith(String prefix) {
    List<String> out = new ArrayList<>();
    for (TensorRow t : record.tensors()) {
      if (t.name().startsWith(prefix)) {
        out.add(t.name());
      }
    }
    return out;
  }

  @Test
  void layerZeroIsEveryBlk0TensorInDirectoryOrder() throws ReaException {
    JsonNode p = page("{\"kind\":\"model-artifact\",\"collection\":\"tensors\","
        + "\"name_glob\":\"blk.0.*\",\"fields\":[\"name\"]}");
    List<String> expected = tensorsStartingWith("blk.0.");
    assertThat(expected).hasSize(9).contains("blk.0.attn_q.weight", "blk.0.ffn_norm.weight");
    assertThat(column(p, "name")).isEqualTo(expected);
    assertThat(p.get("total_matches").intValue()).isEqualTo(9);
    assertThat(p.get("warnings")).isEmpty();
  }

  @Test
  void aPatternIntersectsWithTypesNamesAndIndices() throws ReaException {
    JsonNode f32 = page("{\"kind\":\"model-artifact\",\"collection\":\"tensors\","
        + "\"name_glob\":\"blk.0.*\",\"types\":[\"F32\"],\"fields\":[\"name\",\"type\"]}");
    assertThat(column(f32, "name"))
        .containsExactly("blk.0.attn_norm.weight", "blk.0.ffn_norm.weight");
    JsonNode named = page("{\"kind\":\"model-artifact\",\"collection\":\"tensors\","
        + "\"name_glob\":\"*_[qk].weight\",\"names\":[\"token_embd.weight\","
        + "\"blk.0.attn_k.weight\",\"blk.0.attn_v.weight\"],\"fields\":[\"name\"]}");
    assertThat(column(named, "name")).containsExactly("blk.0.attn_k.weight");
    JsonNode indexed = page("{\"kind\":\"model-artifact\",\"collection\":\"tensors\","
        + "\"name_glob\":\"*.weight\",\"indices\":[0,11,99],\"fields\":[\"name\"]}");
    assertThat(column(indexed, "name")).containsExactly("token_embd.weight", "output.weight");
    JsonNode notNorms = page("{\"kind\":\"model-artifact\",\"collection\":\"tensors\","
        + "\"name_glob\":\"blk.[0-9].[!a]*\",\"storage_validation\":[\"consistent\"],"
        + "\"fields\":[\"name\"]}");
    assertThat(column(notNorms, "name")).containsExactly(
        "blk.0.ffn_gate.weight", "blk.0.ffn_up.weight", "blk.0.ffn_down.weight",
        "blk.0.ffn_norm.weight");
  }

  @Test
  void keyGlobSelectsMetadataKeys() throws ReaException {
    JsonNode p = page("{\"kind\":\"model-artifact\",\"collection\":\"metadata\","
        + "\"key_glob\":\"llama.attention.*\",\"fields\":[\"key\"]}");
    List<String> expected = new ArrayList<>();
    for (MetadataRow m : record.metadata()) {
      if (m.key().startsWith("llama.attention.")) {
        expected.add(m.key());
      }
    }
    assertThat(expected).hasSize(3);
    assertThat(column(p, "key")).isEqualTo(expected);
    JsonNode ids = page("{\"kind\":\"model-artifact\",\"collection\":\"metadata\","
        + "\"key_glob\":\"tokenizer.ggml.*_id\",\"fields\":[\"key\",\"value\"]}");
    assertThat(column(ids, "key")).containsExactly(
        "tokenizer.ggml.bos_token_id", "tokenizer.ggml.eos_token_id",
        "tokenizer.ggml.unknown_token_id");
  }

  @Test
  void aPatternMatchingNothingSaysSo() throws ReaException {
    JsonNode p = page("{\"kind\":\"model-artifact\",\"collection\":\"tensors\","
        + "\"name_glob\":\"blk.1.*\"}");
    assertThat(p.get("total_matches").intValue()).isZero();
    assertThat(p.get("warnings").get(0).get("code").asString()).isEqualTo("unmatched_selection");
    assertThat(p.get("warnings").get(0).get("message").asString())
        .contains("name_glob").contains("\"blk.1.*\"");
  }

  @Test
  void aPatternOnTheWrongCollectionIsRefused() {
    assertThatThrownBy(() -> ViewRequest.parse(
            "{\"collection\":\"metadata\",\"name_glob\":\"x*\"}", ViewRequest.Mode.INLINE))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.BAD_VIEW);
          assertThat(e.field()).isEqualTo("view.name_glob");
          assertThat(e.getMessage()).contains("key_glob");
        });
    assertThatThrownBy(() -> ViewRequest.parse(
            "{\"collection\":\"types\",\"key_glob\":\"x*\"}", ViewRequest.Mode.INLINE))
        .isInstanceOfSatisfying(ReaException.class,
            e -> assertThat(e.field()).isEqualTo("view.key_glob"));
  }

  @Test
  void aPatternThatDoesNotParseIsRefusedWithItsPosition() {
    assertThatThrownBy(() -> ViewRequest.parse(
            "{\"collection\":\"tensors\",\"name_glob\":\"blk.[0-9.*\"}", ViewRequest.Mode.INLINE))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.BAD_VIEW);
          assertThat(e.code().wireName()).isEqualTo("invalid_input");
          assertThat(e.field()).isEqualTo("view.name_glob");
          assertThat(e.diagnostics()).containsEntry("position", 4);
          assertThat(e.getMessage()).contains("no closing ']'").contains("code point 4");
        });
    assertThatThrownBy(() -> ViewRequest.parse(
            "{\"collection\":\"metadata\",\"key_glob\":\"[z-a]\"}", ViewRequest.Mode.INLINE))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.field()).isEqualTo("view.key_glob");
          assertThat(e.diagnostics()).containsEntry("position", 1);
        });
    assertThatThrownBy(() -> ViewRequest.parse(
            "{\"collection\":\"tensors\",\"name_glob\":[\"blk.*\"]}", ViewRequest.Mode.INLINE))
        .isInstanceOfSatisfying(ReaException.class,
            e -> assertThat(e.field()).isEqualTo("view.name_glob"));
  }

  @Test
  void aMisspelledPropertySuggestsThePattern() {
    assertThatThrownBy(() -> ViewRequest.parse(
            "{\"collection\":\"tensors\",\"name_globs\":\"x\"}", ViewRequest.Mode.INLINE))
        .hasMessageContaining("did you mean \"name_glob\"");
  }

  @Test
  void builtInCodeTheSameViewAnswersTheSame() throws ReaException {
    ViewRequest v = ViewRequest.all(ViewCollection.TENSORS).withNameGlob("blk.0.ffn_*");
    ViewPage p = ViewPages.answer(ev, v, SourceKind.RETAINED_EVIDENCE);
    assertThat(p.totalMatches()).isEqualTo(tensorsStartingWith("blk.0.ffn_").size()).isEqualTo(4);
    assertThatThrownBy(() -> ViewRequest.all(ViewCollection.TENSORS).withNameGlob("[").validate())
        .isInstanceOf(ReaException.class);
  }
}
