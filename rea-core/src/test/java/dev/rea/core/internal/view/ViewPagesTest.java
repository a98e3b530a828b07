package dev.rea.core.internal.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.Warning;
import dev.rea.core.testing.TestRecords;
import dev.rea.core.view.SourceKind;
import dev.rea.core.view.ViewCollection;
import dev.rea.core.view.ViewPage;
import dev.rea.core.view.ViewRequest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class ViewPagesTest {
  static final JsonMapper JSON = JsonMapper.builder().build();

  static JsonNode page(IndexedEvidence ev, String view) throws ReaException {
    ViewPage p = ViewPages.answer(ev, ViewRequest.parse(view, ViewRequest.Mode.ANALYSIS),
        SourceKind.EVIDENCE_FILE);
    assertThat(p.json().length).isLessThanOrEqualTo(ViewPages.PAGE_BUDGET_BYTES);
    return JSON.readTree(p.json());
  }

  static List<Integer> indices(JsonNode page) {
    List<Integer> out = new ArrayList<>();
    for (JsonNode r : page.get("rows")) {
      out.add(r.get("index").intValue());
    }
    return out;
  }

  @Test
  void pagingTwentyThousandTensorsBy256VisitsEveryRowOnce() throws ReaException {
    EvidenceRecord r = TestRecords.manyTensors(20_000);
    IndexedEvidence ev = IndexedEvidence.of(r);
    Set<Integer> seen = new HashSet<>();
    List<Integer> order = new ArrayList<>();
    Integer offset = 0;
    int pages = 0;
    while (offset != null) {
      ViewPage p = ViewPages.answer(ev,
          new ViewRequest(ViewCollection.TENSORS, null, null, null, null, null, null, offset, 256),
          SourceKind.RETAINED_EVIDENCE);
      assertThat(p.json().length).isLessThanOrEqualTo(ViewPages.PAGE_BUDGET_BYTES);
      assertThat(p.totalMatches()).isEqualTo(20_000);
      JsonNode page = JSON.readTree(p.json());
      assertThat(page.get("offset").intValue()).isEqualTo(offset);
      for (int i : indices(page)) {
        assertThat(seen.add(i)).as("row %d seen twice", i).isTrue();
        order.add(i);
      }
      assertThat(p.rowIndices().length).isBetween(1, 256);
      offset = page.get("next_offset").isNull() ? null : page.get("next_offset").intValue();
      assertThat(offset).isEqualTo(p.nextOffset());
      pages++;
    }
    assertThat(seen).hasSize(20_000);
    for (int i = 0; i < order.size(); i++) {
      assertThat(order.get(i)).isEqualTo(i);
    }
    // Full rows are ~230 bytes, so 256 fit in 64 KiB: exactly ceil(20000 / 256) pages.
    assertThat(pages).isEqualTo(79);
  }

  @Test
  void filteredPagingByTypeAndStorageVisitsEachMatchOnce() throws ReaException {
    IndexedEvidence ev = IndexedEvidence.of(TestRecords.manyTensors(20_000));
    int expected = 0;
    for (TensorRow t : ev.record().tensors()) {
      if (t.type().equals("AMBIGUOUS_17")) {
        expected++;
      }
    }
    assertThat(expected).isEqualTo(2857);
    List<Integer> got = new ArrayList<>();
    Integer offset = 0;
    while (offset != null) {
      JsonNode p = page(ev, "{\"kind\":\"model-artifact\",\"collection\":\"tensors\","
          + "\"types\":[\"AMBIGUOUS_17\",\"NOPE\"],\"storage_validation\":[\"unknown\"],"
          + "\"fields\":[\"name\"],\"offset\":" + offset + ",\"limit\":256}");
      assertThat(p.get("total_matches").intValue()).isEqualTo(expected);
      got.addAll(indices(p));
      for (JsonNode row : p.get("rows")) {
        assertThat(row.propertyNames()).containsExactly("index", "name");
        assertThat(row.get("name").stringValue()).isEqualTo("blk." + row.get("index").intValue() + ".w");
      }
      assertThat(p.get("warnings").get(0).get("code").stringValue()).isEqualTo("unmatched_selection");
      assertThat(p.get("warnings").get(0).get("message").stringValue())
          .isEqualTo("1 of 2 requested types match no row of this Evidence: \"NOPE\"");
      // Every returned row has undetermined type, byte length and storage.
      assertThat(p.get("unknowns").size()).isEqualTo(p.get("rows").size());
      offset = p.get("next_offset").isNull() ? null : p.get("next_offset").intValue();
    }
    assertThat(got).hasSize(expected);
    for (int k = 0; k < got.size(); k++) {
      assertThat(got.get(k)).isEqualTo(7 * k + 3);
    }
  }

  @Test
  void filtersIntersectAndEmptyListsSelectNothing() throws ReaException {
    IndexedEvidence ev = IndexedEvidence.of(TestRecords.small());
    JsonNode p = page(ev, "{\"kind\":\"model-artifact\",\"collection\":\"tensors\","
        + "\"names\":[\"output.weight\",\"blk.0.attn_q.weight\",\"token_embd.weight\"],"
        + "\"indices\":[2,1,9],\"types\":[\"F32\"]}");
    assertThat(indices(p)).containsExactly(2);
    assertThat(p.get("total_matches").intValue()).isEqualTo(1);
    assertThat(p.get("warnings").get(0).get("message").stringValue())
        .isEqualTo("1 of 3 requested indices match no row of this Evidence: 9");

    JsonNode none = page(ev, "{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"names\":[]}");
    assertThat(none.get("total_matches").intValue()).isZero();
    assertThat(none.get("rows").size()).isZero();
    assertThat(none.get("next_offset").isNull()).isTrue();

    JsonNode storage = page(ev, "{\"kind\":\"model-artifact\",\"collection\":\"tensors\","
        + "\"storage_validation\":[\"consistent\"]}");
    assertThat(indices(storage)).containsExactly(0, 2);
  }

  @Test
  void offsetCountsMatchesWhileRowsKeepTheirIndex() throws ReaException {
    IndexedEvidence ev = IndexedEvidence.of(TestRecords.small());
    JsonNode p = page(ev, "{\"kind\":\"model-artifact\",\"collection\":\"metadata\","
        + "\"indices\":[13,3,5,7],\"offset\":1,\"limit\":2,\"fields\":[]}");
    assertThat(indices(p)).containsExactly(5, 7);
    assertThat(p.get("total_matches").intValue()).isEqualTo(4);
    assertThat(p.get("next_offset").intValue()).isEqualTo(3);
    for (JsonNode row : p.get("rows")) {
      assertThat(row.propertyNames()).containsExactly("index");
    }
  }

  @Test
  void pageCarriesSourceIdentityOmissionsAndUnknowns() throws ReaException {
    EvidenceRecord r = TestRecords.small();
    IndexedEvidence ev = IndexedEvidence.of(r);
    JsonNode p = page(ev, "{\"kind\":\"model-artifact\",\"collection\":\"metadata\","
        + "\"keys\":[\"tokenizer.ggml.tokens\",\"general.architecture\",\"test.nested\"]}");
    assertThat(p.get("kind").stringValue()).isEqualTo("model-artifact-page");
    assertThat(p.get("parent_evidence_id").stringValue()).isEqualTo(r.evidenceId());
    JsonNode src = p.get("source");
    assertThat(src.get("kind").stringValue()).isEqualTo("evidence-file");
    assertThat(src.get("evidence_id").stringValue()).isEqualTo(r.evidenceId());
    assertThat(src.get("path").stringValue()).isEqualTo("/models/test.gguf");
    assertThat(src.get("format").stringValue()).isEqualTo("gguf");
    assertThat(src.get("header_sha256").stringValue()).isEqualTo("ab".repeat(32));
    assertThat(src.get("sha256").isNull()).isTrue();
    assertThat(src.get("file_size").stringValue()).isEqualTo("1000000");
    assertThat(p.get("header_coverage").stringValue()).isEqualTo("complete");
    assertThat(indices(p)).containsExactly(0, 11, 12);
    assertThat(p.get("array_omissions").size()).isEqualTo(1);
    assertThat(p.get("array_omissions").get(0).stringValue()).isEqualTo("tokenizer.ggml.tokens");
    JsonNode tokens = p.get("rows").get(1);
    assertThat(tokens.get("count").stringValue()).isEqualTo("32000");
    assertThat(tokens.get("preview").size()).isEqualTo(8);
    assertThat(tokens.get("preview_complete").booleanValue()).isFalse();
    assertThat(p.get("warnings").get(0).get("code").stringValue()).isEqualTo("removed_type");
    assertThat(p.get("warnings_omitted").intValue()).isZero();

    JsonNode t = page(ev, "{\"kind\":\"model-artifact\",\"collection\":\"tensors\","
        + "\"fields\":[\"file_offset\"]}");
    assertThat(t.get("unknowns").size()).isEqualTo(1);
    JsonNode u = t.get("unknowns").get(0);
    assertThat(u.get("index").intValue()).isEqualTo(1);
    assertThat(JSON.writeValueAsString(u.get("fields")))
        .isEqualTo("[\"type\",\"byte_length\",\"storage_validation\"]");
    assertThat(JSON.writeValueAsString(u.get("limitations"))).isEqualTo("[\"ambiguous_type_id\"]");
    assertThat(t.get("rows").get(1).propertyNames()).containsExactly("index", "file_offset");

    JsonNode ty = page(ev, "{\"kind\":\"model-artifact\",\"collection\":\"types\","
        + "\"types\":[\"AMBIGUOUS_16\"]}");
    assertThat(ty.get("rows").size()).isEqualTo(1);
    JsonNode row = ty.get("rows").get(0);
    assertThat(row.get("index").intValue()).isEqualTo(1);
    assertThat(row.get("type_id").intValue()).isEqualTo(16);
    assertThat(row.get("tensor_count").intValue()).isEqualTo(1);
    assertThat(row.get("parameter_count").stringValue()).isEqualTo("64");
    assertThat(row.get("byte_length").isNull()).isTrue();
    assertThat(JSON.writeValueAsString(ty.get("unknowns").get(0)))
        .isEqualTo("{\"index\":1,\"fields\":[\"type\",\"byte_length\"],\"limitations\":[\"ambiguous_type_id\"]}");
  }

  @Test
  void badViewsAreRefused() {
    String[][] cases = {
      {"{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"keys\":[\"a\"]}", "view.keys"},
      {"{\"kind\":\"model-artifact\",\"collection\":\"metadata\",\"names\":[\"a\"]}", "view.names"},
      {"{\"kind\":\"model-artifact\",\"collection\":\"metadata\",\"types\":[\"F32\"]}", "view.types"},
      {"{\"kind\":\"model-artifact\",\"collection\":\"types\",\"storage_validation\":[]}", "view.storage_validation"},
      {"{\"collection\":\"tensors\"}", "view.kind"},
      {"{\"kind\":\"model\",\"collection\":\"tensors\"}", "view.kind"},
      {"{\"kind\":\"model-artifact\",\"collection\":\"rows\"}", "view.collection"},
      {"{\"kind\":\"model-artifact\"}", "view.collection"},
      {"{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"limit\":257}", "view.limit"},
      {"{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"limit\":0}", "view.limit"},
      {"{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"offset\":-1}", "view.offset"},
      {"{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"offset\":1.5}", "view.offset"},
      {"{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"fields\":[\"key\"]}", "view.fields[0]"},
      {"{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"fields\":[\"name\",\"name\"]}", "view.fields[1]"},
      {"{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"storage_validation\":[\"ok\"]}", "view.storage_validation[0]"},
      {"{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"names\":\"a\"}", "view.names"},
      {"{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"names\":[1]}", "view.names[0]"},
      {"{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"indices\":[-1]}", "view.indices[0]"},
      {"{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"extra\":1}", "view.extra"},
    };
    for (String[] c : cases) {
      assertThatThrownBy(() -> ViewRequest.parse(c[0], ViewRequest.Mode.ANALYSIS))
          .as(c[0])
          .isInstanceOfSatisfying(ReaException.class, e -> {
            assertThat(e.constraint()).isEqualTo(Constraint.BAD_VIEW);
            assertThat(e.field()).isEqualTo(c[1]);
            // One wording for every refusal, whichever check made it.
            assertThat(e.getMessage()).startsWith("view rejected: ").contains(" at " + c[1]);
          });
    }
    // A number with a fraction or an exponent is shown as written, with the reason.
    for (String limit : new String[] {"5.0", "1e2"}) {
      String view = "{\"kind\":\"model-artifact\",\"collection\":\"tensors\",\"limit\":" + limit + "}";
      assertThatThrownBy(() -> ViewRequest.parse(view, ViewRequest.Mode.ANALYSIS))
          .isInstanceOfSatisfying(ReaException.class, e -> assertThat(e.getMessage())
              .contains("expected an integer number, found " + limit
                  + " (JSON integers have no fraction or exponent)"));
    }
    // An unknown property names the closest known one, or lists them all.
    String[][] typos = {
      {"name", " (did you mean \"names\"?)"},
      {"Collection", " (did you mean \"collection\"?)"},
      {"limt", " (did you mean \"limit\"?)"},
      {"storage", "; a view has kind, collection, names, name_glob, keys, key_glob, types,"
          + " indices, storage_validation, fields, offset, limit"},
    };
    for (String[] t : typos) {
      String view = "{\"collection\":\"tensors\",\"" + t[0] + "\":1}";
      assertThatThrownBy(() -> ViewRequest.parse(view, ViewRequest.Mode.INLINE))
          .as(t[0])
          .isInstanceOfSatisfying(ReaException.class, e -> {
            assertThat(e.constraint()).isEqualTo(Constraint.BAD_VIEW);
            assertThat(e.field()).isEqualTo("view." + t[0]);
            assertThat(e.getMessage()).contains("unknown view property \"" + t[0] + "\"" + t[1]);
          });
    }
    assertThatThrownBy(() -> ViewRequest.parse(
            "{\"collection\":\"tensors\",\"collection\":\"types\"}", ViewRequest.Mode.INLINE))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.BAD_VIEW);
          assertThat(e.getMessage()).contains("Duplicate");
        });
  }

  @Test
  void inlineViewsNeedNoKind() throws ReaException {
    ViewRequest v = ViewRequest.parse("{\"collection\":\"tensors\",\"names\":[\"token_embd.weight\"],"
        + "\"fields\":[\"type\",\"shape\",\"file_offset\"]}", ViewRequest.Mode.INLINE);
    assertThat(v.collection()).isEqualTo(ViewCollection.TENSORS);
    assertThat(v.limit()).isEqualTo(32);
    assertThat(v.offset()).isZero();
    JsonNode p = JSON.readTree(ViewPages.answer(IndexedEvidence.of(TestRecords.small()), v,
        SourceKind.INLINE).json());
    assertThat(JSON.writeValueAsString(p.get("rows")))
        .isEqualTo("[{\"index\":0,\"type\":\"F32\",\"shape\":[\"8\",\"4\"],\"file_offset\":\"4096\"}]");
  }

  @Test
  void rowLargerThanAPageIsStubbedAndPagingAdvances() throws ReaException {
    List<MetadataRow> md = new ArrayList<>();
    md.add(TestRecords.string(0, "general.architecture", "llama"));
    md.add(TestRecords.string(1, "tokenizer.chat_template", "x".repeat(100_000)));
    md.add(TestRecords.string(2, "general.name", "n"));
    IndexedEvidence ev = IndexedEvidence.of(TestRecords.gguf(md, List.of(), List.of(), List.of()));
    JsonNode first = page(ev, "{\"kind\":\"model-artifact\",\"collection\":\"metadata\"}");
    assertThat(indices(first)).containsExactly(0);
    assertThat(first.get("next_offset").intValue()).isEqualTo(1);
    JsonNode second = page(ev, "{\"kind\":\"model-artifact\",\"collection\":\"metadata\",\"offset\":1}");
    assertThat(indices(second)).containsExactly(1, 2);
    JsonNode stub = second.get("rows").get(0);
    assertThat(stub.get("key").stringValue()).isEqualTo("tokenizer.chat_template");
    assertThat(stub.get("type").stringValue()).isEqualTo("STRING");
    assertThat(stub.has("value")).isFalse();
    assertThat(JSON.writeValueAsString(stub.get("omitted_fields"))).isEqualTo("[\"value\"]");
    JsonNode w = second.get("warnings").get(0);
    assertThat(w.get("code").stringValue()).isEqualTo("row_omitted");
    assertThat(w.get("message").stringValue()).contains("metadata row 1 needs 100").contains(ev.evidenceId());
    assertThat(second.get("next_offset").isNull()).isTrue();
  }

  @Test
  void warningsShareTheBudgetAndOmittedOnesAreCounted() throws ReaException {
    List<Warning> ws = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      ws.add(new Warning("w" + i, "m".repeat(100)));
    }
    IndexedEvidence ev = IndexedEvidence.of(TestRecords.gguf(
        List.of(TestRecords.string(0, "general.architecture", "llama")), List.of(), List.of(), ws));
    JsonNode p = page(ev, "{\"kind\":\"model-artifact\",\"collection\":\"metadata\"}");
    int shown = p.get("warnings").size();
    assertThat(shown).isBetween(50, 80);
    assertThat(p.get("warnings_omitted").intValue()).isEqualTo(500 - shown);
    assertThat(p.get("warnings").get(shown - 1).get("code").stringValue()).isEqualTo("w" + (shown - 1));
    assertThat(JSON.writeValueAsBytes(p.get("warnings")).length)
        .isLessThanOrEqualTo(ViewPages.WARNINGS_BUDGET_BYTES);
  }

  @Test
  void pagesOverAHundredThousandRowsAnswerFromTheIndex() throws ReaException {
    // Correctness only: the speed of this query is measured by the JMH benchmark in rea-bench,
    // never by a timed unit test.
    IndexedEvidence ev = IndexedEvidence.of(TestRecords.manyTensors(100_000));
    ViewRequest byType = new ViewRequest(ViewCollection.TENSORS, null, null,
        List.of("F32", "AMBIGUOUS_17"), null, List.of(StorageValidation.UNKNOWN), null, 0, 32);
    ViewRequest all = ViewRequest.all(ViewCollection.TENSORS);
    java.util.Random rnd = new java.util.Random(7);
    for (int k = 0; k < 200; k++) {
      int offset = rnd.nextInt(14_000);
      ViewPage p = ViewPages.answer(ev, byType.withOffset(offset), SourceKind.RETAINED_EVIDENCE);
      assertThat(p.totalMatches()).isEqualTo(14_286);
      assertThat(p.rowIndices()).hasSize(Math.min(32, 14_286 - offset));
      int allOffset = rnd.nextInt(99_000);
      ViewPage q = ViewPages.answer(ev, all.withOffset(allOffset), SourceKind.RETAINED_EVIDENCE);
      assertThat(q.totalMatches()).isEqualTo(100_000);
      assertThat(q.nextOffset()).isEqualTo(allOffset + 32);
    }
  }

}
