package dev.rea.core.internal.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.LlamaFtype;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.format.gguf.GgufTesting;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The summary's {@code types} and {@code file_type} (issue 19: "2 types" without naming them;
 * {@code general.file_type} 15 not shown as {@code MOSTLY_Q4_K_M}).
 */
class SummaryTypesTest {
  static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path tmp;

  JsonNode summaryOf(byte[] gguf) throws ReaException {
    EvidenceRecord r = GgufTesting.inspectBytes(tmp, "m.gguf", gguf);
    return JSON.readTree(ModelArtifactSummary.render(IndexedEvidence.of(r), null));
  }

  static GgufBuilder q4km() {
    return GgufBuilder.v3()
        .kv("general.architecture", GgufBuilder.str("llama"))
        .kv("general.file_type", GgufBuilder.u32(15))
        .tensor("token_embd.weight", 12, 256, 4) // Q4_K
        .tensor("blk.0.attn_q.weight", 12, 256, 2) // Q4_K
        .tensor("output.weight", 14, 256, 4) // Q6_K
        .tensor("output_norm.weight", 0, 256); // F32
  }

  @Test
  void typesListEachLabelWithItsCountsAndBytes() throws ReaException {
    EvidenceRecord r = GgufTesting.inspectBytes(tmp, "q.gguf", q4km().build().bytes());
    JsonNode s = JSON.readTree(ModelArtifactSummary.render(IndexedEvidence.of(r), null));
    JsonNode types = s.get("types");
    assertThat(types).hasSize(r.types().size()).hasSize(3);
    assertThat(s.get("types_omitted").intValue()).isZero();
    for (int i = 0; i < r.types().size(); i++) {
      TypeRow t = r.types().get(i);
      JsonNode row = types.get(i);
      assertThat(row.get("type").asString()).isEqualTo(t.type());
      assertThat(row.get("type_id").longValue()).isEqualTo(t.typeId());
      assertThat(row.get("tensor_count").intValue()).isEqualTo(t.tensorCount());
      assertThat(row.get("parameter_count").asString()).isEqualTo(t.parameterCount().toString());
    }
    JsonNode q4k = find(types, "Q4_K");
    assertThat(q4k.get("tensor_count").intValue()).isEqualTo(2);
    assertThat(q4k.get("parameter_count").asString()).isEqualTo("1536");
    // The header alone cannot establish a K-quant layout (seed): its bytes are unknown (null).
    assertThat(q4k.get("byte_length").isNull()).isTrue();
    assertThat(find(types, "F32").get("byte_length").asString()).isEqualTo("1024");
    // The totals say the same: the byte total is unknown.
    assertThat(s.get("totals").get("byte_length").isNull()).isTrue();
  }

  static JsonNode find(JsonNode types, String label) {
    for (JsonNode t : types) {
      if (t.get("type").asString().equals(label)) {
        return t;
      }
    }
    throw new AssertionError("no type row " + label + " in " + types);
  }

  @Test
  void fileType15IsMostlyQ4KM() throws ReaException {
    JsonNode ft = summaryOf(q4km().build().bytes()).get("file_type");
    assertThat(ft.toString()).isEqualTo("{\"value\":15,\"name\":\"MOSTLY_Q4_K_M\"}");
  }

  @Test
  void valuesTheEnumDoesNotNameStayNumbers() throws ReaException {
    // 5 (Q4_2) and 34 (Q4_0_4_8) were removed; 41 is past the enum; -1 is no value.
    for (long v : new long[] {5, 34, 41}) {
      byte[] file = GgufBuilder.v3().kv("general.file_type", GgufBuilder.u32(v)).build().bytes();
      assertThat(summaryOf(file).get("file_type").toString())
          .isEqualTo("{\"value\":" + v + ",\"name\":null}");
    }
    byte[] negative = GgufBuilder.v3().kv("general.file_type", GgufBuilder.i32(-1)).build().bytes();
    assertThat(summaryOf(negative).get("file_type").toString())
        .isEqualTo("{\"value\":-1,\"name\":null}");
    // A 64-bit value is a decimal string, as in every metadata row; 2^64 - 1 has no name.
    byte[] wide = GgufBuilder.v3().kv("general.file_type", GgufBuilder.u64(-1L)).build().bytes();
    assertThat(summaryOf(wide).get("file_type").toString())
        .isEqualTo("{\"value\":\"18446744073709551615\",\"name\":null}");
    byte[] wideNamed = GgufBuilder.v3().kv("general.file_type", GgufBuilder.u64(7)).build().bytes();
    assertThat(summaryOf(wideNamed).get("file_type").toString())
        .isEqualTo("{\"value\":\"7\",\"name\":\"MOSTLY_Q8_0\"}");
  }

  @Test
  void noIntegerFileTypeIsNull() throws ReaException {
    byte[] absent = GgufBuilder.v3().kv("general.name", GgufBuilder.str("x")).build().bytes();
    assertThat(summaryOf(absent).get("file_type").isNull()).isTrue();
    byte[] text = GgufBuilder.v3().kv("general.file_type", GgufBuilder.str("15")).build().bytes();
    assertThat(summaryOf(text).get("file_type").isNull()).isTrue();
    assertThat(summaryOf(absent).get("types")).isEmpty();
  }

  @Test
  void theTableFollowsThePinnedHeader() {
    // Every value the pinned llama.h declares, 38-40 from gguf-py 0.19.0, and none they leave
    // out (4-6, 33-35, 41+).
    int named = 0;
    for (long v = -2; v <= 2048; v++) {
      if (LlamaFtype.name(v) != null) {
        named++;
      }
    }
    assertThat(named).isEqualTo(4 + 26 + 2 + 3 + 1);
    assertThat(LlamaFtype.name(0)).isEqualTo("ALL_F32");
    assertThat(LlamaFtype.name(21)).isEqualTo("MOSTLY_Q2_K_S");
    assertThat(LlamaFtype.name(32)).isEqualTo("MOSTLY_BF16");
    assertThat(LlamaFtype.name(37)).isEqualTo("MOSTLY_TQ2_0");
    assertThat(LlamaFtype.name(38)).isEqualTo("MOSTLY_MXFP4_MOE");
    assertThat(LlamaFtype.name(39)).isEqualTo("MOSTLY_NVFP4");
    assertThat(LlamaFtype.name(40)).isEqualTo("MOSTLY_Q1_0");
    assertThat(LlamaFtype.name(1024)).isEqualTo("GUESSED");
    for (long removed : new long[] {4, 5, 6, 33, 34, 35, 41}) {
      assertThat(LlamaFtype.name(removed)).as("%d", removed).isNull();
    }
  }

  @Test
  void typeRowsAreBoundedAndTheRestCounted() throws ReaException {
    GgufBuilder b = GgufBuilder.v3();
    // 40 distinct labels: unknown type IDs 100..139 (each its own UNKNOWN_<id> label).
    for (int i = 0; i < 40; i++) {
      b.tensor(new GgufBuilder.Tensor("t" + i, 100 + i, 32).dataBytes(32));
    }
    EvidenceRecord r = GgufTesting.inspectBytes(tmp, "many.gguf", b.build().bytes());
    assertThat(r.types()).hasSize(40);
    JsonNode s = JSON.readTree(ModelArtifactSummary.render(IndexedEvidence.of(r), null));
    assertThat(s.get("types")).hasSize(ModelArtifactSummary.MAX_TYPE_ROWS);
    assertThat(s.get("types_omitted").intValue()).isEqualTo(40 - ModelArtifactSummary.MAX_TYPE_ROWS);
    assertThat(s.get("types").get(0).get("type").asString()).isEqualTo(r.types().get(0).type());
    assertThat(s.get("counts").get("types").intValue()).isEqualTo(40);
  }
}
