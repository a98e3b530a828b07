package dev.rea.core.fuzz;

import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Property: any mutation of a valid index (flipped bits, boundary values, truncation, inserted or
 * deleted bytes, one to four at a time; {@link MutationPropertyTest#mutate}) or of JSON
 * punctuation in it yields an index that satisfies {@link SafetensorsIndexFuzzTest#check}'s
 * invariants or a typed refusal of the reader's constraints. QuickTheories over seeds: a failure
 * names a reproducible seed.
 */
class SafetensorsIndexMutationTest {
  private static final List<byte[]> VALID = List.of(
      ("{\n  \"metadata\": {\n    \"total_size\": 4096\n  },\n  \"weight_map\": {\n"
          + "    \"lm_head.weight\": \"model-00002-of-00002.safetensors\",\n"
          + "    \"model.embed_tokens.weight\": \"model-00001-of-00002.safetensors\",\n"
          + "    \"model.layers.0.self_attn.q_proj.weight\": \"model-00001-of-00002.safetensors\"\n"
          + "  }\n}\n").getBytes(StandardCharsets.UTF_8),
      "{\"metadata\":{\"format\":\"pt\",\"n\":null},\"weight_map\":{\"\\u00e9\":\"a.safetensors\"}}"
          .getBytes(StandardCharsets.UTF_8));
  private static final byte[] PUNCTUATION =
      "{}[]\":,\\/.0-eu ".getBytes(StandardCharsets.US_ASCII);

  @Test
  void mutantsYieldAConsistentIndexOrATypedRefusal() {
    qt().withFixedSeed(0x1DE7L).withExamples(4000).forAll(longs().all()).checkAssert(seed -> {
      Random r = new Random(seed);
      byte[] in = VALID.get(r.nextInt(VALID.size()));
      byte[] m = r.nextBoolean() ? MutationPropertyTest.mutate(in, r) : punctuate(in, r);
      SafetensorsIndexFuzzTest.check(m);
    });
  }

  private static byte[] punctuate(byte[] in, Random r) {
    byte[] b = in.clone();
    for (int i = 0, n = 1 + r.nextInt(3); i < n; i++) {
      b[r.nextInt(b.length)] = PUNCTUATION[r.nextInt(PUNCTUATION.length)];
    }
    return b;
  }
}
