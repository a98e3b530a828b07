package dev.rea.core.internal.format.safetensors;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.options.Limits;
import org.junit.jupiter.api.Test;

/**
 * Two charges against the retained budget that follow memory rather than JSON size. The keys of
 * an unknown field's object are held only while that object is checked for duplicate keys: the
 * budget bounds what is held at once (one object's keys), not the sum of every unknown object in
 * the header, and a refusal says that the keys were being held, not retained. And each shape
 * dimension costs the heap floor of a retained value.
 */
class SafetensorsBudgetChargesTest {
  private static final Limits SMALL = Limits.builder().retainedBudgetBytes(256 * 1024).build();

  /** {@code "x":{"k0":0,...}} with {@code keys} members. */
  private static String unknownObject(int keys) {
    StringBuilder sb = new StringBuilder("\"x\":{");
    for (int k = 0; k < keys; k++) {
      sb.append(k == 0 ? "" : ",").append("\"k").append(k).append("\":0");
    }
    return sb.append('}').toString();
  }

  private static String json(int tensors, int keysEach) {
    StringBuilder json = new StringBuilder("{");
    for (int i = 0; i < tensors; i++) {
      json.append(i == 0 ? "" : ",")
          .append("\"t")
          .append(i)
          .append("\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[")
          .append(i)
          .append(',')
          .append(i + 1)
          .append("],")
          .append(unknownObject(keysEach))
          .append('}');
    }
    return json.append('}').toString();
  }

  @Test
  void manyUnknownObjectsWhoseKeysTogetherExceedTheBudgetAreAccepted() throws Exception {
    // 20 objects of 1,000 keys: about 69 KB held at a time, 1.4 MB in all, budget 256 KiB.
    ParsedHeader h = SafetensorsReads.read(SafetensorsBuilder.file(json(20, 1000), 20), SMALL);
    assertThat(h.tensors()).hasSize(20);
    assertThat(h.tensors()).extracting(t -> t.name()).contains("t0", "t19");
  }

  @Test
  void oneUnknownObjectWhoseKeysExceedTheBudgetIsRefusedAsHeldKeys() {
    String json = json(1, 5000);
    ReaException e = SafetensorsReads.reject(SafetensorsBuilder.file(json, 1), SMALL);
    assertThat(e.constraint()).isEqualTo(Constraint.RETAINED_BUDGET);
    assertThat(e.field()).startsWith("tensors[\"t0\"][\"x\"][\"k");
    assertThat(e.getMessage())
        .startsWith("holding tensors[\"t0\"][\"x\"][\"k")
        .contains("while its object is checked for duplicate keys would exceed the retained"
            + " representation budget of 262144 bytes");
    // The offset is that of the key the budget ran out on.
    String key = e.field().substring("tensors[\"t0\"][\"x\"][".length(), e.field().length() - 1);
    assertThat(e.offset()).isEqualTo(SafetensorsBuilder.offsetOf(json, key + ":0"));
  }

  /**
   * Each shape dimension is charged the heap floor of a retained value (64 bytes), so a shape of
   * many small dimensions, cheap in the header, is refused before the record and the
   * canonicalizer's tree of it outgrow the budget: 5,000 dimensions of 1 (10 KB of JSON) under a
   * 256 KiB budget.
   */
  @Test
  void aShapeOfManySmallDimensionsIsChargedTheHeapFloorPerDimension() {
    int dims = 5000;
    String json =
        "{\"a\":{\"dtype\":\"U8\",\"shape\":[" + "1,".repeat(dims - 1) + "1],\"data_offsets\":[0,1]}}";
    ReaException e = SafetensorsReads.reject(SafetensorsBuilder.file(json, 1), SMALL);
    assertThat(e.constraint()).isEqualTo(Constraint.RETAINED_BUDGET);
    assertThat(e.field()).startsWith("tensors[\"a\"].shape[");
    int at = Integer.parseInt(e.field().substring("tensors[\"a\"].shape[".length(), e.field().length() - 1));
    // 256 KiB / 64 = 4,096 dimensions at most, less what the record's fixed part takes.
    assertThat(at).isBetween(3000, 4096);
    // A tenth of them fits.
    String fits =
        "{\"a\":{\"dtype\":\"U8\",\"shape\":[" + "1,".repeat(dims / 10 - 1) + "1],\"data_offsets\":[0,1]}}";
    assertThat(catchShape(fits)).isEqualTo(dims / 10);
  }

  /**
   * A name longer than the whole budget is refused as it is read, where it is, without being
   * decoded whole first (Jackson's name limit is the budget): a tensor name, a metadata key, an
   * unknown key of a tensor entry and a key inside an unknown field's object. The offset is the
   * name's opening quote, also when the name holds escaped quotes and backslashes.
   */
  @Test
  void aNameLongerThanTheBudgetIsRefusedWhereItStands() {
    String name = "\\\"q\\\\" + "n".repeat(300_000) + "\\\"";
    String entry = "{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]";
    String[][] cases = {
      {"{\"" + name + "\":" + entry + "}}", "tensors"},
      {"{\"__metadata__\":{\"" + name + "\":\"v\"},\"t\":" + entry + "}}", "__metadata__"},
      {"{\"t\":" + entry + ",\"" + name + "\":0}}", "tensors[\"t\"]"},
      {"{\"t\":" + entry + ",\"x\":{\"k\":[{\"" + name + "\":0}]}}}", "tensors[\"t\"][\"x\"][\"k\"][0]"},
    };
    for (String[] c : cases) {
      String json = c[0];
      ReaException e = SafetensorsReads.reject(SafetensorsBuilder.file(json, 1), SMALL);
      assertThat(e.constraint()).as(c[1]).isEqualTo(Constraint.RETAINED_BUDGET);
      assertThat(e.field()).as(c[1]).isEqualTo(c[1]);
      assertThat(e.offset()).as(c[1]).isEqualTo(SafetensorsBuilder.offsetOf(json, "\"" + name));
      assertThat(e.getMessage())
          .as(c[1])
          .startsWith("retaining a name of more than 262144 bytes in " + c[1] + " (offset ")
          .contains("at least 262145 more requested");
      assertThat(e.diagnostics()).containsEntry("requested_bytes", "262145");
    }
  }

  /**
   * Jackson's name limit counts the decoded name: 300 KB of {@code \u0061} escapes (50,000
   * characters) is read and retained under the 256 KiB budget, and a 200,000-byte name fits too.
   */
  @Test
  void theNameLimitNeverRefusesANameTheBudgetHolds() throws Exception {
    String escaped = "\\u0061".repeat(50_000);
    String entry = "{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}";
    ParsedHeader h =
        SafetensorsReads.read(SafetensorsBuilder.file("{\"" + escaped + "\":" + entry + "}", 1), SMALL);
    assertThat(h.tensors().get(0).name()).isEqualTo("a".repeat(50_000));
    String plain = "p".repeat(200_000);
    h = SafetensorsReads.read(SafetensorsBuilder.file("{\"" + plain + "\":" + entry + "}", 1), SMALL);
    assertThat(h.tensors().get(0).name()).isEqualTo(plain);
  }

  private static int catchShape(String json) {
    try {
      return SafetensorsReads.read(SafetensorsBuilder.file(json, 1), SMALL).tensors().get(0).shape().size();
    } catch (ReaException e) {
      throw new AssertionError(e);
    }
  }
}
