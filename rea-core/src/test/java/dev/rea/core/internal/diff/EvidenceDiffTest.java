package dev.rea.core.internal.diff;

import static dev.rea.core.internal.format.gguf.GgufBuilder.array;
import static dev.rea.core.internal.format.gguf.GgufBuilder.str;
import static dev.rea.core.internal.format.gguf.GgufBuilder.u32;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.Comparison;
import dev.rea.core.Rea;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.evidence.EvidenceImport;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.options.InspectOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/** Each kind of change between two GGUF files is reported as exactly what changed. */
class EvidenceDiffTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long F32 = 0;
  private static final long F16 = 1;
  private static final long Q8_0 = 8;
  private static final long STRING = 8;

  @TempDir Path dir;

  /** A small Llama-like model; {@code change} alters the builder before it is written. */
  private EvidenceRecord model(String name, UnaryOperator<GgufBuilder> change) throws Exception {
    return model(name, "{{ messages }}", change);
  }

  private EvidenceRecord model(String name, String template, UnaryOperator<GgufBuilder> change)
      throws Exception {
    GgufBuilder b =
        GgufBuilder.v3()
            .kv("general.architecture", str("llama"))
            .kv("general.file_type", u32(7))
            .kv("tokenizer.chat_template", str(template));
    b = change.apply(b);
    Path p = dir.resolve(name);
    Files.write(p, b.bytes());
    return Rea.standard().inspect(p, InspectOptions.defaults()).orThrow();
  }

  private static GgufBuilder tensors(GgufBuilder b, long type) {
    return b.tensor("token_embd.weight", type, 64, 4).tensor("output.weight", type, 64, 4);
  }

  private static GgufBuilder vocabulary(GgufBuilder b, String last) {
    List<GgufBuilder.Value> tokens = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      tokens.add(str(i == 19 ? last : "tok" + i));
    }
    return b.kv("tokenizer.ggml.tokens", array(STRING, tokens));
  }

  private static JsonNode json(Comparison c) {
    return JSON.readTree(new String(c.json(), StandardCharsets.UTF_8));
  }

  @Test
  void theSameFileAtAnotherPathHasTheSameDeclarations() throws Exception {
    EvidenceRecord a = model("a.gguf", b -> tensors(b, F32));
    EvidenceRecord b = model("b.gguf", b2 -> tensors(b2, F32));
    Comparison c = Rea.compare(a, b);
    assertThat(c.sameDeclarations()).isTrue();
    JsonNode j = json(c);
    assertThat(j.get("kind").asText()).isEqualTo("model-artifact-diff");
    assertThat(j.get("a").get("path").asText()).endsWith("a.gguf");
    assertThat(j.get("b").get("path").asText()).endsWith("b.gguf");
    assertThat(j.get("a").get("evidence_id").asText()).isNotEqualTo(j.get("b").get("evidence_id").asText());
    assertThat(j.get("format_facts")).isEmpty();
    assertThat(j.get("metadata").get("changed")).isEmpty();
    assertThat(j.get("tensors").get("changed")).isEmpty();
    assertThat(j.get("types")).isEmpty();
  }

  /**
   * Two partial records (reads stopped part way, as a cancel stops them) of files that differ
   * only past where the reads stopped hold the same declarations, and are still not the same:
   * what they do not hold may differ (a trial found such records called the same).
   */
  @Test
  void partialRecordsAreNeverTheSame() throws Exception {
    EvidenceRecord wholeA = model("a.gguf", m -> many(m, "blk.39.w"));
    EvidenceRecord wholeB = model("b.gguf", m -> many(m, "blk.39.x"));
    assertThat(Rea.compare(wholeA, wholeB).sameDeclarations()).isFalse();
    EvidenceRecord a = cut(wholeA, 20);
    EvidenceRecord b = cut(wholeB, 20);
    Comparison c = Rea.compare(a, b);
    assertThat(c.sameDeclarations()).isFalse();
    JsonNode j = json(c);
    assertThat(j.get("same_declarations").asBoolean()).isFalse();
    assertThat(j.get("a").get("header_complete").asBoolean()).isFalse();
    assertThat(j.get("b").get("header_complete").asBoolean()).isFalse();
    // What both hold is equal: nothing is listed as changed.
    assertThat(j.get("tensors").get("added")).isEmpty();
    assertThat(j.get("tensors").get("removed")).isEmpty();
    assertThat(j.get("metadata").get("changed")).isEmpty();
    // A partial record against the complete record of the same file is not the same either.
    assertThat(Rea.compare(wholeA, a).sameDeclarations()).isFalse();
    JsonNode complete = json(Rea.compare(wholeA, model("c.gguf", m -> many(m, "blk.39.w"))));
    assertThat(complete.get("same_declarations").asBoolean()).isTrue();
    assertThat(complete.get("a").get("header_complete").asBoolean()).isTrue();
  }

  private static GgufBuilder many(GgufBuilder b, String last) {
    for (int i = 0; i < 39; i++) {
      b.tensor("blk." + i + ".w", F32, 4);
    }
    return b.tensor(last, F32, 4);
  }

  /** @return the record as a read stopped after {@code tensors} tensor rows would leave it */
  private static EvidenceRecord cut(EvidenceRecord r, int tensors) {
    dev.rea.core.evidence.Coverage c = r.coverage();
    return new EvidenceRecord(r.schema(), r.evidenceId(), r.operation(),
        EvidenceRecord.STATUS_PARTIAL, r.observedAt(), r.request(), r.subject(), r.artifact(),
        r.formatFacts(), r.metadata(), r.tensors().subList(0, tensors), r.types(), r.totals(),
        new dev.rea.core.evidence.Coverage(
            "partial", c.storageSizes(), c.ranges(), c.digest(), c.finalIdentity()),
        r.limitations(), r.warnings(), r.authentication());
  }

  @Test
  void anotherQuantisationChangesTypesLengthsAndTotals() throws Exception {
    EvidenceRecord f32 = model("f32.gguf", b -> tensors(b, F32));
    EvidenceRecord q8 =
        model("q8.gguf", b -> tensors(b, Q8_0).kv("general.quantization_version", u32(2)));
    JsonNode j = json(Rea.compare(f32, q8));
    assertThat(j.get("same_declarations").asBoolean()).isFalse();
    assertThat(j.get("metadata").get("added")).hasSize(1);
    assertThat(j.get("metadata").get("added").get(0).get("key").asText())
        .isEqualTo("general.quantization_version");
    JsonNode changed = j.get("tensors").get("changed");
    assertThat(changed).hasSize(2);
    JsonNode fields = changed.get(1).get("fields");
    assertThat(fields.get("type").get(0).asText()).isEqualTo("F32");
    assertThat(fields.get("type").get(1).asText()).isEqualTo("Q8_0");
    assertThat(fields.get("type_id").get(1).asLong()).isEqualTo(8);
    // 256 elements: 1024 bytes of F32, 8 blocks of 34 bytes of Q8_0.
    assertThat(fields.get("byte_length").get(0).asText()).isEqualTo("1024");
    assertThat(fields.get("byte_length").get(1).asText()).isEqualTo("272");
    assertThat(fields.has("shape")).as("same shape").isFalse();
    assertThat(fields.has("parameter_count")).isFalse();
    assertThat(j.get("types")).hasSize(2);
    assertThat(j.get("types").get(0).get("type").asText()).isEqualTo("F32");
    assertThat(j.get("types").get(0).get("b").isNull()).isTrue();
    assertThat(j.get("types").get(1).get("a").isNull()).isTrue();
    assertThat(j.get("totals").get("a").get("byte_length").asText()).isEqualTo("2048");
    assertThat(j.get("totals").get("b").get("byte_length").asText()).isEqualTo("544");
    assertThat(j.get("tensors").get("order_changed").asBoolean()).isFalse();
  }

  @Test
  void aChangedChatTemplateIsTheOneChange() throws Exception {
    EvidenceRecord before = model("before.gguf", b -> tensors(b, F32));
    EvidenceRecord after =
        model("after.gguf", "{{ bos }}{{ messages }}", b -> tensors(b, F32));
    Comparison c = Rea.compare(before, after);
    assertThat(c.sameDeclarations()).isFalse();
    JsonNode j = json(c);
    JsonNode changed = j.get("metadata").get("changed");
    assertThat(changed).hasSize(1);
    assertThat(changed.get(0).get("key").asText()).isEqualTo("tokenizer.chat_template");
    assertThat(changed.get(0).get("a").get("value").asText()).isEqualTo("{{ messages }}");
    assertThat(changed.get(0).get("b").get("value").asText()).isEqualTo("{{ bos }}{{ messages }}");
    assertThat(j.get("metadata").get("added")).isEmpty();
    assertThat(j.get("metadata").get("removed")).isEmpty();
    assertThat(j.get("tensors").get("changed")).isEmpty();
    assertThat(j.get("types")).isEmpty();
  }

  @Test
  void aVocabularyChangedPastItsPreviewIsChangedByItsDigest() throws Exception {
    EvidenceRecord a = model("a.gguf", b -> tensors(vocabulary(b, "end"), F32));
    EvidenceRecord b = model("b.gguf", b2 -> tensors(vocabulary(b2, "END"), F32));
    Comparison c = Rea.compare(a, b);
    assertThat(c.sameDeclarations()).isFalse();
    JsonNode j = json(c);
    JsonNode changed = j.get("metadata").get("changed");
    assertThat(changed).hasSize(1);
    assertThat(changed.get(0).get("key").asText()).isEqualTo("tokenizer.ggml.tokens");
    assertThat(changed.get(0).get("a").get("value_sha256").asText())
        .isEqualTo(a.metadata().get(3).valueSha256())
        .isNotEqualTo(changed.get(0).get("b").get("value_sha256").asText());
    // The previews (first 8 tokens) are equal: only the digest saw the change.
    assertThat(changed.get(0).get("a").get("preview")).isEqualTo(changed.get(0).get("b").get("preview"));
    assertThat(j.get("metadata").get("arrays_compared_by_preview")).isEmpty();
    // The same vocabulary on both sides, each with its digest, is the same.
    EvidenceRecord a2 = model("a2.gguf", b2 -> tensors(vocabulary(b2, "end"), F32));
    assertThat(Rea.compare(a, a2).sameDeclarations()).isTrue();
    assertThat(json(Rea.compare(a, a2)).get("metadata").get("arrays_compared_by_preview")).isEmpty();
  }

  @Test
  void recordsSavedBeforeDigestsCompareArraysByPreviewAndSaySo() throws Exception {
    EvidenceRecord a = withoutDigests(model("a.gguf", b -> tensors(vocabulary(b, "end"), F32)));
    EvidenceRecord withDigest = model("b.gguf", b2 -> tensors(vocabulary(b2, "END"), F32));
    assertThat(a.metadata().get(3).valueSha256()).isNull();
    for (EvidenceRecord b : List.of(withoutDigests(withDigest), withDigest)) {
      Comparison c = Rea.compare(a, b);
      JsonNode j = json(c);
      // Only the first 8 tokens can be compared, and the comparison says so.
      assertThat(c.sameDeclarations()).isTrue();
      assertThat(j.get("metadata").get("changed")).isEmpty();
      assertThat(j.get("metadata").get("arrays_compared_by_preview"))
          .extracting(JsonNode::asText)
          .containsExactly("tokenizer.ggml.tokens");
    }
  }

  /** {@code r} as a record saved before {@code value_sha256} existed (re-imported without it). */
  private static EvidenceRecord withoutDigests(EvidenceRecord r) throws Exception {
    String text = new String(EvidenceJson.recordBytes(r, true), StandardCharsets.UTF_8);
    String old = text.replaceAll(",\"value_sha256\":\"[0-9a-f]{64}\"", "");
    assertThat(old).isNotEqualTo(text);
    return EvidenceImport.standard()
        .read(old.getBytes(StandardCharsets.UTF_8))
        .records()
        .get(0)
        .record();
  }

  @Test
  void aRenamedTensorIsOneRemovedAndOneAdded() throws Exception {
    EvidenceRecord a = model("a.gguf", b -> tensors(b, F32));
    EvidenceRecord b =
        model(
            "b.gguf",
            b2 -> b2.tensor("tok_embeddings.weight", F32, 64, 4).tensor("output.weight", F32, 64, 4));
    JsonNode j = json(Rea.compare(a, b));
    assertThat(j.get("tensors").get("added")).extracting(JsonNode::asText).containsExactly("tok_embeddings.weight");
    assertThat(j.get("tensors").get("removed")).extracting(JsonNode::asText).containsExactly("token_embd.weight");
    assertThat(j.get("tensors").get("changed")).isEmpty();
    assertThat(j.get("types")).isEmpty();
    assertThat(j.get("same_declarations").asBoolean()).isFalse();
  }

  @Test
  void reorderedTensorsAreSaidToBeReorderedWithTheirNewOffsets() throws Exception {
    EvidenceRecord a = model("a.gguf", b -> tensors(b, F32));
    EvidenceRecord b =
        model("b.gguf", b2 -> b2.tensor("output.weight", F32, 64, 4).tensor("token_embd.weight", F32, 64, 4));
    JsonNode j = json(Rea.compare(a, b));
    assertThat(j.get("tensors").get("order_changed").asBoolean()).isTrue();
    assertThat(j.get("tensors").get("changed")).hasSize(2);
    assertThat(j.get("tensors").get("changed").get(0).get("fields").propertyNames())
        .containsExactly("offset", "file_offset");
  }

  @Test
  void moreThan256ChangesAreCappedAndCounted() throws Exception {
    EvidenceRecord a = model("a.gguf", b -> b);
    EvidenceRecord b =
        model(
            "b.gguf",
            b2 -> {
              for (int i = 0; i < 300; i++) {
                b2 = b2.tensor("t." + i, F16, 8);
              }
              return b2;
            });
    JsonNode j = json(Rea.compare(a, b));
    assertThat(j.get("tensors").get("added")).hasSize(256);
    assertThat(j.get("tensors").get("added_omitted").asInt()).isEqualTo(44);
    assertThat(j.get("totals").get("b").get("tensor_count").asInt()).isEqualTo(300);
  }

  /** An index's metadata (up to 1,024 keys) makes format facts a list to cap like the others. */
  @Test
  void moreThan256ChangedFormatFactsAreCappedAndCounted() throws Exception {
    DiffSide one = DiffSide.of(model("a.gguf", b -> b));
    java.util.Map<String, Object> fa = new java.util.LinkedHashMap<>(one.facts());
    java.util.Map<String, Object> fb = new java.util.LinkedHashMap<>(one.facts());
    for (int i = 0; i < 300; i++) {
      fa.put("index.k" + i, "a");
      fb.put("index.k" + i, "b");
    }
    JsonNode j =
        JSON.readTree(
            new String(
                EvidenceDiff.compare(withFacts(one, fa), withFacts(one, fb)).json(),
                StandardCharsets.UTF_8));
    assertThat(j.get("same_declarations").asBoolean()).isFalse();
    assertThat(j.get("format_facts")).hasSize(256);
    assertThat(j.get("format_facts").get(0).get("field").asString()).isEqualTo("index.k0");
    assertThat(j.get("format_facts_omitted").asInt()).isEqualTo(44);
  }

  /**
   * A set lists a later member's fact only where it differs from its first member's; compared,
   * such a fact is the other side's member k's (its first member's when not listed), absent only
   * where the other side has no member k.
   */
  @Test
  void aLaterMembersFactComparesWithTheSameMemberOfTheOtherSet() throws Exception {
    DiffSide one = DiffSide.of(model("a.gguf", b -> b));
    java.util.Map<String, Object> odd = setFacts(3, 32L);
    odd.put("member[2].alignment", 64L);

    JsonNode allWide = json(EvidenceDiff.compare(withFacts(one, odd), withFacts(one, setFacts(3, 64L))));
    assertThat(allWide.get("format_facts").toString())
        .isEqualTo("[{\"field\":\"alignment\",\"a\":32,\"b\":64}]");

    JsonNode uniform = json(EvidenceDiff.compare(withFacts(one, odd), withFacts(one, setFacts(3, 32L))));
    assertThat(uniform.get("format_facts").toString())
        .isEqualTo("[{\"field\":\"member[2].alignment\",\"a\":64,\"b\":32}]");

    JsonNode fewer = json(EvidenceDiff.compare(withFacts(one, setFacts(2, 32L)), withFacts(one, odd)));
    assertThat(fewer.get("format_facts").toString())
        .isEqualTo(
            "[{\"field\":\"members\",\"a\":2,\"b\":3},"
                + "{\"field\":\"member[2].alignment\",\"b\":64}]");

    assertThat(EvidenceDiff.compare(withFacts(one, odd), withFacts(one, odd)).sameDeclarations())
        .isTrue();
  }

  private static java.util.Map<String, Object> setFacts(int members, long alignment) {
    java.util.Map<String, Object> f = new java.util.LinkedHashMap<>();
    f.put("set_kind", "gguf_split");
    f.put("members", members);
    f.put("version", 3);
    f.put("alignment", alignment);
    return f;
  }

  private static JsonNode json(EvidenceDiff.Result r) {
    return JSON.readTree(new String(r.json(), StandardCharsets.UTF_8));
  }

  private static DiffSide withFacts(DiffSide s, java.util.Map<String, Object> facts) {
    return new DiffSide(
        s.path(), s.evidenceId(), s.format(), s.headerSha256(), s.sha256(), facts, s.metadata(),
        s.metadataMembers(), s.tensors(), s.members(), s.types(), s.totals(), s.headerComplete(),
        s.observedAt(), s.assumeLayout());
  }
}
