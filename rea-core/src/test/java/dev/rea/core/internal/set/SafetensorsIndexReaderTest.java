package dev.rea.core.internal.set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.options.Limits;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The safetensors index reader (CONTRACT sections 8 and 9). */
class SafetensorsIndexReaderTest {
  private static final Limits LIMITS = Limits.defaults();

  private static SafetensorsIndex read(String json) throws ReaException {
    return SafetensorsIndexReader.read(json.getBytes(StandardCharsets.UTF_8), LIMITS);
  }

  /** Reads with every name kept. */
  private static SafetensorsIndex readExact(String json) throws ReaException {
    byte[] b = json.getBytes(StandardCharsets.UTF_8);
    try {
      return SafetensorsIndexReader.readExact(() -> new java.io.ByteArrayInputStream(b), LIMITS, null);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  private static ReaException refusal(String json) {
    return refusalUnder(LIMITS, json);
  }

  /** An index naming more member files than REA opens is refused at the first one too many. */
  @Test
  void anIndexNamingTooManyMemberFilesIsRefusedWhereItPassesTheLimit() throws ReaException {
    int n = SafetensorsIndexReader.MAX_MEMBER_FILES;
    StringBuilder json = new StringBuilder("{\"weight_map\":{");
    for (int i = 0; i < n; i++) {
      json.append(i == 0 ? "" : ",").append("\"t").append(i).append("\":\"f").append(i)
          .append(".safetensors\"");
    }
    String atLimit = json + "}}";
    assertThat(read(atLimit).members()).hasSize(n);
    String over = json + ",\"last\":\"g.safetensors\"}}";
    ReaException e = refusal(over);
    assertThat(e.constraint()).isEqualTo(Constraint.RETAINED_BUDGET);
    assertThat(e.field()).isEqualTo("weight_map[\"last\"]");
    assertThat(e.offset()).isEqualTo((long) over.indexOf("\"g.safetensors\""));
    assertThat(e.diagnostics()).containsEntry("limit", "index_member_files");
  }

  @Test
  void aSavePretrainedIndexGivesItsMembersInNameOrder() throws ReaException {
    String json =
            "{\n  \"metadata\": {\n    \"total_size\": 1234\n  },\n  \"weight_map\": {\n"
                + "    \"lm_head.weight\": \"model-00002-of-00002.safetensors\",\n"
                + "    \"model.embed_tokens.weight\": \"model-00001-of-00002.safetensors\",\n"
                + "    \"model.norm.weight\": \"model-00002-of-00002.safetensors\"\n  }\n}\n";
    SafetensorsIndex ix = read(json);
    assertThat(ix.weightMap()).isNull();
    assertThat(ix.names().size()).isEqualTo(3);
    assertThat(ix.names().count("model-00002-of-00002.safetensors")).isEqualTo(2);
    assertThat(ix.names().matches("model-00002-of-00002.safetensors",
        List.of("model.norm.weight", "lm_head.weight"))).isTrue();
    assertThat(ix.names().matches("model-00002-of-00002.safetensors",
        List.of("model.norm.weight", "model.embed_tokens.weight"))).isFalse();
    assertThat(readExact(json).weightMap().get("model.norm.weight"))
        .isEqualTo("model-00002-of-00002.safetensors");
    assertThat(ix.members())
        .containsExactly("model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors");
    assertThat(ix.totalSize()).isEqualTo(1234L);
    assertThat(ix.metadata())
        .containsExactly(new SafetensorsIndex.Entry("total_size", "1234", SafetensorsIndex.Kind.NUMBER));
  }

  @Test
  void metadataIsOptionalOrNullAndKeepsScalarsInKeyOrder() throws ReaException {
    assertThat(read("{\"weight_map\":{\"a\":\"x.safetensors\"}}").metadata()).isEmpty();
    assertThat(read("{\"metadata\":null,\"weight_map\":{\"a\":\"x.safetensors\"}}").totalSize())
        .isNull();
    SafetensorsIndex ix =
        read(
            "{\"metadata\":{\"z\":true,\"format\":\"pt\",\"n\":null,\"total_size\":\"77\"},"
                + "\"weight_map\":{\"a\":\"x.safetensors\"}}");
    assertThat(ix.metadata())
        .extracting(SafetensorsIndex.Entry::key)
        .containsExactly("format", "n", "total_size", "z");
    assertThat(ix.totalSize()).isEqualTo(77L);
  }

  @Test
  void otherTopLevelMembersAreCheckedButNotKept() throws ReaException {
    SafetensorsIndex ix =
        read("{\"extra\":[1,{\"b\":2}],\"weight_map\":{\"a\":\"x.safetensors\"}}");
    assertThat(ix.members()).containsExactly("x.safetensors");
    ReaException e = refusal("{\"extra\":{\"b\":1,\"b\":2},\"weight_map\":{\"a\":\"x.safetensors\"}}");
    assertThat(e.constraint()).isEqualTo(Constraint.FILE_FORMAT_REJECTED);
  }

  @Test
  void duplicateTensorNamesAreRejectedAfterUnescaping() {
    String json = "{\"weight_map\":{\"a\":\"x.safetensors\",\"\\u0061\":\"y.safetensors\"}}";
    ReaException e = refusal(json);
    assertThat(e.constraint()).isEqualTo(Constraint.FILE_FORMAT_REJECTED);
    assertThat(e.getMessage()).containsIgnoringCase("duplicate");
    assertThat(e.offset()).isNotNull().isGreaterThan(20L);
  }

  @Test
  void invalidUtf8IsRejectedAtItsByte() {
    byte[] bytes = "{\"weight_map\":{\"a\":\"x.safetensors\"}}".getBytes(StandardCharsets.UTF_8);
    bytes[16] = (byte) 0xC0; // inside the name "a"
    assertThatThrownBy(() -> SafetensorsIndexReader.read(bytes, LIMITS))
        .isInstanceOfSatisfying(
            ReaException.class,
            e -> {
              assertThat(e.constraint()).isEqualTo(Constraint.FILE_FORMAT_REJECTED);
              assertThat(e.offset()).isEqualTo(16L);
            });
  }

  @Test
  void nestingPastTheLimitIsAResourceLimitAtItsOffset() {
    String deep = "[".repeat(32) + "]".repeat(32);
    String json = "{\"extra\":" + deep + ",\"weight_map\":{\"a\":\"x.safetensors\"}}";
    ReaException e = refusal(json);
    assertThat(e.constraint()).isEqualTo(Constraint.NESTING_LIMIT);
    assertThat(e.offset()).isEqualTo(9L + 31);
    // 32 levels (the top-level object and 31 arrays) are accepted.
    String ok = "{\"extra\":" + "[".repeat(31) + "]".repeat(31) + ",\"weight_map\":{\"a\":\"x.safetensors\"}}";
    try {
      read(ok);
    } catch (ReaException ex) {
      throw new AssertionError(ex);
    }
  }

  @Test
  void anIndexOverTheHeaderCeilingIsRefusedBeforeParsing() {
    Limits small = Limits.builder().headerCeilingBytes(64).build();
    byte[] bytes = ("{\"weight_map\":{\"" + "a".repeat(60) + "\":\"x.safetensors\"}}")
        .getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> SafetensorsIndexReader.read(bytes, small))
        .isInstanceOfSatisfying(
            ReaException.class,
            e -> {
              assertThat(e.constraint()).isEqualTo(Constraint.HEADER_CEILING);
              assertThat(e.diagnostics()).containsEntry("requested_bytes", Long.toString(bytes.length));
            });
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "../x.safetensors",
        "sub/x.safetensors",
        "sub\\\\x.safetensors",
        "/abs/x.safetensors",
        "C:x.safetensors",
        "..",
        "a..b.safetensors",
        "",
        "x\\u0000.safetensors"
      })
  void memberNamesThatCouldLeaveTheDirectoryAreRejected(String name) {
    String json = "{\"weight_map\":{\"t\":\"" + name + "\"}}";
    ReaException e = refusal(json);
    assertThat(e.constraint()).isEqualTo(Constraint.FILE_FORMAT_REJECTED);
    assertThat(e.field()).isEqualTo("weight_map[\"t\"]");
    assertThat(e.offset()).isEqualTo((long) json.indexOf(":\"" + name) + 1);
  }

  @Test
  void shapeErrorsNameTheField() {
    assertThat(refusal("{\"weight_map\":{\"t\":1}}").field()).isEqualTo("weight_map[\"t\"]");
    assertThat(refusal("{\"weight_map\":[]}").field()).isEqualTo("weight_map");
    assertThat(refusal("{\"weight_map\":{}}").field()).isEqualTo("weight_map");
    assertThat(refusal("{\"metadata\":{}}").field()).isEqualTo("weight_map");
    assertThat(refusal("{\"metadata\":{\"k\":[1]},\"weight_map\":{\"t\":\"x\"}}").field())
        .isEqualTo("metadata.k");
    for (String bad : List.of("-1", "1.5", "1e3", "\"01\"", "\"x\"", "null")) {
      ReaException e =
          refusal("{\"metadata\":{\"total_size\":" + bad + "},\"weight_map\":{\"t\":\"x\"}}");
      assertThat(e.field()).as(bad).isEqualTo("metadata.total_size");
      assertThat(e.offset()).as(bad).isEqualTo(26L);
    }
    assertThat(refusal("[]").constraint()).isEqualTo(Constraint.FILE_FORMAT_REJECTED);
    assertThat(refusal("{\"weight_map\":{\"t\":\"x\"}} x").constraint())
        .isEqualTo(Constraint.FILE_FORMAT_REJECTED);
    assertThat(refusal("\uFEFF{\"weight_map\":{\"t\":\"x\"}}").constraint())
        .isEqualTo(Constraint.FILE_FORMAT_REJECTED);
  }

  @Test
  void keptAndIgnoredPartsAreBoundedBeforeTheyAreHeld() {
    // A member name past a file name's length, refused at its start.
    String longName = "x".repeat(300) + ".safetensors";
    ReaException name = refusal("{\"weight_map\":{\"t\":\"" + longName + "\"}}");
    assertThat(name.constraint()).isEqualTo(Constraint.FILE_FORMAT_REJECTED);
    assertThat(name.getMessage()).contains("longer than 255 bytes");
    assertThat(name.offset()).isEqualTo(19L);
    assertThat(SafetensorsIndexReader.badMemberName("é".repeat(128))).contains("255 bytes");
    // Metadata of more members than any writer puts there, or a value of megabytes.
    StringBuilder many = new StringBuilder("{\"metadata\":{");
    for (int i = 0; i <= SafetensorsIndexReader.MAX_PROPERTIES; i++) {
      many.append(i > 0 ? "," : "").append("\"k").append(i).append("\":1");
    }
    many.append("},\"weight_map\":{\"t\":\"x.safetensors\"}}");
    ReaException keys = refusal(many.toString());
    assertThat(keys.field()).isEqualTo("metadata");
    assertThat(keys.getMessage()).contains("more than 1024 members");
    ReaException value = refusal("{\"metadata\":{\"v\":\"" + "v".repeat(70_000)
        + "\"},\"weight_map\":{\"t\":\"x.safetensors\"}}");
    assertThat(value.getMessage()).contains("longer than 65536 bytes");
    assertThat(value.offset()).isEqualTo(17L);
    // An ignored object of more properties than that.
    ReaException ignored = refusal(many.toString().replace("\"metadata\"", "\"extra\""));
    assertThat(ignored.getMessage()).contains("more than 1024 properties");
  }

  /**
   * A weight_map name longer than the retained budget is refused where it is cut off, as the
   * member reader refuses such a name, not read whole (a 95 MB name held about 580 MB).
   */
  @Test
  void aMappedNameLongerThanTheRetainedBudgetIsRefusedAtItsStart() throws Exception {
    Limits small = Limits.builder().retainedBudgetBytes(1024).build();
    String prefix = "{\"weight_map\":{\"a\":\"x.safetensors\",";
    String atBudget = prefix + "\"" + "n".repeat(1024) + "\":\"x.safetensors\"}}";
    assertThat(SafetensorsIndexReader.read(atBudget.getBytes(StandardCharsets.UTF_8), small)
            .members())
        .hasSize(1);
    // One byte over, the last one written as an escape: counted after unescaping.
    String over = prefix + "\"" + "n".repeat(1024) + "\\u00e9\":\"x.safetensors\"}}";
    for (boolean exact : new boolean[] {false, true}) {
      byte[] b = over.getBytes(StandardCharsets.UTF_8);
      assertThatThrownBy(() -> {
            if (exact) {
              SafetensorsIndexReader.readExact(() -> new java.io.ByteArrayInputStream(b), small,
                  null);
            } else {
              SafetensorsIndexReader.read(b, small);
            }
          })
          .isInstanceOfSatisfying(
              ReaException.class,
              e -> {
                assertThat(e.constraint()).isEqualTo(Constraint.RETAINED_BUDGET);
                assertThat(e.field()).isEqualTo("weight_map");
                assertThat(e.offset()).isEqualTo((long) prefix.length());
                assertThat(e.diagnostics()).containsEntry("limit", "retained_budget")
                    .containsEntry("requested_bytes", "1025");
                assertThat(e.getMessage()).contains("a name of more than 1024 bytes in weight_map");
              });
    }
    // The budget bounds names: an ignored value is checked without being kept.
    String ignored = "{\"k\":\"" + "v".repeat(2000) + "\",\"weight_map\":{\"a\":\"x.safetensors\"}}";
    assertThat(SafetensorsIndexReader.read(ignored.getBytes(StandardCharsets.UTF_8), small)
            .members())
        .hasSize(1);
  }

  /**
   * The index's metadata is kept in the set record, so the retained budget bounds it: a key is cut
   * off at what is left of the budget, and the member that passes it is refused at its key.
   */
  @Test
  void metadataPastTheRetainedBudgetIsRefusedAtTheKeyThatPassesIt() {
    Limits small = Limits.builder().retainedBudgetBytes(1024).build();
    String map = ",\"weight_map\":{\"a\":\"x.safetensors\"}}";
    String longKey = "{\"metadata\":{\"" + "k".repeat(2000) + "\":1}" + map;
    String tooMuch = "{\"metadata\":{\"v1\":\"" + "v".repeat(600) + "\",\"v2\":\""
        + "v".repeat(600) + "\"}" + map;
    String fits = "{\"metadata\":{\"v1\":\"" + "v".repeat(500) + "\",\"v2\":\""
        + "v".repeat(500) + "\"}" + map;
    ReaException key = refusalUnder(small, longKey);
    assertThat(key.constraint()).isEqualTo(Constraint.RETAINED_BUDGET);
    assertThat(key.field()).isEqualTo("metadata");
    assertThat(key.offset()).isEqualTo(13L);
    assertThat(key.getMessage()).contains("a metadata key of more than 1024 bytes");
    ReaException total = refusalUnder(small, tooMuch);
    assertThat(total.constraint()).isEqualTo(Constraint.RETAINED_BUDGET);
    assertThat(total.field()).isEqualTo("metadata.v2");
    assertThat(total.offset()).isEqualTo((long) tooMuch.indexOf("\"v2\""));
    assertThat(total.diagnostics()).containsEntry("used_bytes", "602")
        .containsEntry("requested_bytes", "602");
    try {
      assertThat(SafetensorsIndexReader.read(fits.getBytes(StandardCharsets.UTF_8), small)
              .metadata())
          .hasSize(2);
    } catch (ReaException e) {
      throw new AssertionError(e);
    }
  }

  private static ReaException refusalUnder(Limits limits, String json) {
    try {
      SafetensorsIndexReader.read(json.getBytes(StandardCharsets.UTF_8), limits);
    } catch (ReaException e) {
      return e;
    }
    throw new AssertionError("accepted: " + json);
  }

  /**
   * A name outside weight_map and metadata is held only while its object is checked for
   * duplicates, but a 95 MB one took three times its size: every property name is cut off at the
   * retained budget, at the top level and in an ignored object alike.
   */
  @Test
  void anyPropertyNameLongerThanTheRetainedBudgetIsRefusedAtItsStart() {
    Limits small = Limits.builder().retainedBudgetBytes(1024).build();
    String map = "\"weight_map\":{\"a\":\"x.safetensors\"}";
    String top = "{" + map + ",\"" + "t".repeat(1025) + "\":1}";
    String nested = "{" + map + ",\"extra\":{\"ok\":[{\"" + "n".repeat(1025) + "\":1}]}}";
    for (String json : List.of(top, nested)) {
      ReaException e = refusalUnder(small, json);
      assertThat(e.constraint()).as(json).isEqualTo(Constraint.RETAINED_BUDGET);
      long longNameAt = json == top ? json.indexOf("\"ttt") : json.indexOf("\"nnn");
      assertThat(e.offset()).isEqualTo(longNameAt);
      assertThat(e.getMessage()).contains("a property name of more than 1024 bytes");
    }
    try {
      SafetensorsIndexReader.read(top.replace("t".repeat(1025), "t".repeat(1024))
          .getBytes(StandardCharsets.UTF_8), small);
    } catch (ReaException e) {
      throw new AssertionError(e);
    }
  }
}
