package dev.rea.core.format.safetensors;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.Limits;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.inspect.ParsedHeader;
import org.junit.jupiter.api.Test;

/**
 * The keys of an unknown field's object are held only while that object is checked for duplicate
 * keys: the retained budget bounds what is held at once (one object's keys), not the sum of every
 * unknown object in the header, and a refusal says that the keys were being held, not retained.
 */
class SafetensorsUnknownKeysBudgetTest {
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
}
