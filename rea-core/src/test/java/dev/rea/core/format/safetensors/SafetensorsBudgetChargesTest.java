package dev.rea.core.format.safetensors;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.Limits;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.inspect.ParsedHeader;
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

  private static int catchShape(String json) {
    try {
      return SafetensorsReads.read(SafetensorsBuilder.file(json, 1), SMALL).tensors().get(0).shape().size();
    } catch (ReaException e) {
      throw new AssertionError(e);
    }
  }
}
