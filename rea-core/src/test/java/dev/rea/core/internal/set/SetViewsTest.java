package dev.rea.core.internal.set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import dev.rea.core.Rea;
import dev.rea.core.SetEvidence;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.SetInspection;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.testing.SetFixtures;
import dev.rea.core.view.SourceKind;
import dev.rea.core.view.ViewPage;
import dev.rea.core.view.ViewRequest;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The set summary and views over members, types and all members' tensors (CONTRACT 9). */
class SetViewsTest {
  @TempDir Path dir;

  private final Rea rea = Rea.standard();

  private SetEvidence set(Path p) throws ReaException {
    SetInspection.Complete c = rea.inspectSet(p, InspectOptions.defaults()).orThrow();
    return rea.setEvidence(c.set(), c.members());
  }

  private static JsonNode json(byte[] b) throws Exception {
    return JsonMapper.builder().build().readTree(b);
  }

  private JsonNode page(SetEvidence s, String view) throws Exception {
    ViewPage p = rea.view(s, ViewRequest.parse(view, ViewRequest.Mode.INLINE), SourceKind.INLINE);
    assertThat(p.json().length).isLessThanOrEqualTo(64 * 1024);
    return json(p.json());
  }

  @Test
  void theSummaryOfASplitSetTakesItsHeadlineFromTheFirstMember() throws Exception {
    List<Path> m = SetFixtures.ggufSplit(dir, "s", 3, 1, 2);
    SetEvidence s = set(m.get(2));
    JsonNode j = json(rea.setSummaryJson(s, null));
    assertThat(j.get("kind").asString()).isEqualTo("model-set-summary");
    assertThat(j.get("parent_evidence_id").asString()).isEqualTo(s.evidenceId());
    assertThat(j.get("set").get("kind").asString()).isEqualTo("gguf_split");
    assertThat(j.get("set").get("member_count").asInt()).isEqualTo(3);
    assertThat(j.has("format_facts")).isFalse();
    assertThat(j.get("artifact").get("path").asString()).isEqualTo(m.get(0).toString());
    assertThat(j.get("counts").get("tensors").asInt()).isEqualTo(5);
    assertThat(j.get("totals").get("tensor_count").asInt()).isEqualTo(5);
    assertThat(j.get("totals").get("parameter_count").asString()).isEqualTo(Integer.toString(5 * 16));
    assertThat(j.get("types").get(0).get("type").asString()).isEqualTo("F32");
    assertThat(j.get("headline_metadata").toString()).contains("\"general.architecture\"");
    // counts.metadata is what a metadata view over the set pages: every member's rows.
    long rows = 0;
    for (var member : s.members()) {
      rows += member.record().metadata().size();
    }
    assertThat(rows).isGreaterThan(s.members().get(0).record().metadata().size());
    assertThat(j.get("counts").get("metadata").asLong()).isEqualTo(rows);
    assertThat(page(s, "{\"collection\":\"metadata\"}").get("total_matches").asLong())
        .isEqualTo(rows);
  }

  @Test
  void theSummaryOfAnIndexTakesItsHeadlineFromTheIndex() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 4, 2);
    JsonNode j = json(rea.setSummaryJson(set(c.index), null));
    assertThat(j.get("set").get("index").get("sha256").asString()).hasSize(64);
    JsonNode h = j.get("headline_metadata").get(0);
    assertThat(h.get("key").asString()).isEqualTo("total_size");
    assertThat(h.get("value").asString()).isEqualTo(Long.toString(c.totalBytes));
    // The index's own metadata heads the summary but is not a row of a metadata view.
    SetEvidence s = set(c.index);
    assertThat(j.get("counts").get("metadata").asLong())
        .isEqualTo(page(s, "{\"collection\":\"metadata\"}").get("total_matches").asLong());
  }

  @Test
  void aPageOverMembers() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 4, 2);
    SetEvidence s = set(c.index);
    JsonNode p = page(s, "{\"collection\":\"members\",\"limit\":3}");
    assertThat(p.get("total_matches").asInt()).isEqualTo(4);
    assertThat(p.get("next_offset").asInt()).isEqualTo(3);
    assertThat(p.get("rows")).hasSize(3);
    assertThat(p.get("rows").get(1).get("path").asString()).isEqualTo(c.shards.get(1).toString());
    assertThat(p.get("rows").get(1).get("evidence_id").asString())
        .isEqualTo(s.members().get(1).evidenceId());
    JsonNode one = page(s, "{\"collection\":\"members\",\"indices\":[2,9],\"fields\":[\"path\"]}");
    assertThat(one.get("rows")).hasSize(1);
    assertThat(one.get("rows").get(0).toString())
        .isEqualTo("{\"index\":2,\"path\":" + JsonMapper.builder().build().writeValueAsString(c.shards.get(2).toString()) + "}");
    assertThat(one.get("warnings").get(0).get("code").asString()).isEqualTo("unmatched_selection");
  }

  @Test
  void aPageOverTensorsCarriesTheMemberBesideTheRowsOwnIndex() throws Exception {
    List<Path> m = SetFixtures.ggufSplit(dir, "t", 3, 2, 2);
    SetEvidence s = set(m.get(0));
    JsonNode p = page(s, "{\"collection\":\"tensors\",\"offset\":1,\"limit\":3,\"fields\":[\"name\"]}");
    assertThat(p.get("total_matches").asInt()).isEqualTo(6);
    assertThat(p.get("rows").toString()).isEqualTo(
        "[{\"index\":1,\"member\":0,\"name\":\"blk.1.weight\"},"
            + "{\"index\":0,\"member\":1,\"name\":\"blk.2.weight\"},"
            + "{\"index\":1,\"member\":1,\"name\":\"blk.3.weight\"}]");
    assertThat(p.get("next_offset").asInt()).isEqualTo(4);
    JsonNode named = page(s, "{\"collection\":\"tensors\",\"names\":[\"blk.5.weight\",\"nope\"]}");
    assertThat(named.get("rows")).hasSize(1);
    assertThat(named.get("rows").get(0).get("member").asInt()).isEqualTo(2);
    assertThat(named.get("warnings").get(0).get("message").asString()).contains("\"nope\"")
        .doesNotContain("blk.5");
  }

  @Test
  void pagesOfAManyTensorSetStayWithinTheBudgetAndAdvance() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 4, 300);
    SetEvidence s = set(c.index);
    int seen = 0;
    Integer offset = 0;
    while (offset != null) {
      JsonNode p = page(s, "{\"collection\":\"tensors\",\"limit\":256,\"offset\":" + offset + "}");
      seen += p.get("rows").size();
      offset = p.get("next_offset").isNull() ? null : p.get("next_offset").asInt();
    }
    assertThat(seen).isEqualTo(1200);
  }

  @Test
  void membersIsOnlyForSets() throws Exception {
    List<Path> m = SetFixtures.ggufSplit(dir, "o", 2, 1, 1);
    SetEvidence s = set(m.get(0));
    assertThatThrownBy(() -> rea.view(s.members().get(0),
            ViewRequest.parse("{\"collection\":\"members\"}", ViewRequest.Mode.INLINE),
            SourceKind.INLINE))
        .isInstanceOfSatisfying(ReaException.class,
            e -> assertThat(e.constraint()).isEqualTo(Constraint.BAD_VIEW));
    JsonNode types = page(s, "{\"collection\":\"types\"}");
    assertThat(types.get("rows").get(0).get("tensor_count").asInt()).isEqualTo(2);
  }

  @Test
  void fieldsMayNameMemberOnASetsTensorRowsOnly() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 3, 2);
    SetEvidence s = set(c.index);

    JsonNode p = page(s, "{\"collection\":\"tensors\",\"fields\":[\"name\",\"member\"],\"limit\":4}");

    JsonNode row = p.get("rows").get(0);
    assertThat(row.has("member")).isTrue();
    assertThat(row.has("name")).isTrue();
    assertThat(row.has("type")).isFalse();
    // The same row without naming it: member is there all the same.
    JsonNode without = page(s, "{\"collection\":\"tensors\",\"fields\":[\"name\"],\"limit\":4}");
    assertThat(without.get("rows")).isEqualTo(p.get("rows"));

    // A single file's rows have no member: refused where it is answered, naming the field.
    var member = s.members().get(0);
    ViewRequest v = ViewRequest.parse("{\"collection\":\"tensors\",\"fields\":[\"name\",\"member\"]}", ViewRequest.Mode.INLINE);
    assertThatThrownBy(() -> rea.view(rea.evidence(member.record()), v, SourceKind.INLINE))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.BAD_VIEW);
          assertThat(e.field()).isEqualTo("fields[1]");
        });
    // Another collection's rows never take it.
    assertThatThrownBy(() -> ViewRequest.parse("{\"collection\":\"types\",\"fields\":[\"member\"]}", ViewRequest.Mode.INLINE))
        .isInstanceOf(ReaException.class);
  }
}
