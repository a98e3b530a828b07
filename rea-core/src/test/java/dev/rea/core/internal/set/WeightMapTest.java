package dev.rea.core.internal.set;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The compact weight map past its first table and block sizes: tens of thousands of names that
 * share long prefixes (as {@code save_pretrained} writes them) and names that share none, in
 * random order, each found by its bytes, decoded back, and a repeat refused.
 */
class WeightMapTest {
  @Test
  void manyNamesAreFoundDecodedAndRepeatsRefused() {
    Random r = new Random(11);
    Map<String, String> expected = new LinkedHashMap<>();
    while (expected.size() < 40_000) {
      String name = r.nextBoolean()
          ? "model.layers." + r.nextInt(61) + ".mlp.experts." + r.nextInt(256) + ".down_proj.weight"
          : Long.toString(r.nextLong(), 36) + "é".repeat(r.nextInt(3));
      expected.putIfAbsent(name, "model-" + r.nextInt(163) + ".safetensors");
    }
    WeightMap map = new WeightMap();
    for (Map.Entry<String, String> e : expected.entrySet()) {
      byte[] b = e.getKey().getBytes(StandardCharsets.UTF_8);
      assertThat(map.add(b, b.length, map.fileId(e.getValue()))).isEqualTo(-1);
    }
    map.seal();
    assertThat(map.size()).isEqualTo(expected.size());
    List<String> names = new ArrayList<>(expected.keySet());
    for (int i = 0; i < names.size(); i += 7) {
      String n = names.get(i);
      assertThat(map.find(n)).isEqualTo(i);
      assertThat(map.name(i)).isEqualTo(n);
      assertThat(map.fileOf(i)).isEqualTo(expected.get(n));
      assertThat(map.get(n + "x")).isNull();
    }
    assertThat(map.files()).hasSize((int) expected.values().stream().distinct().count());
    int total = 0;
    for (String f : map.files()) {
      total += map.count(map.fileNumber(f));
    }
    assertThat(total).isEqualTo(expected.size());
    WeightMap again = new WeightMap();
    for (String n : names.subList(0, 1000)) {
      byte[] b = n.getBytes(StandardCharsets.UTF_8);
      again.add(b, b.length, again.fileId("f"));
    }
    byte[] repeat = names.get(999).getBytes(StandardCharsets.UTF_8);
    assertThat(again.add(repeat, repeat.length, 0)).isEqualTo(999);
    assertThat(again.size()).isEqualTo(1000);
  }

  @Test
  void theDigestOfManyFilesMatchesOnlyTheirOwnNames() {
    Random r = new Random(3);
    MappedNames.Builder b = new MappedNames.Builder();
    Map<String, List<String>> byFile = new LinkedHashMap<>();
    for (int i = 0; i < 20_000; i++) {
      String file = "f" + r.nextInt(500);
      String name = "t" + i;
      byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
      b.add(bytes, bytes.length, b.fileId(file));
      byFile.computeIfAbsent(file, f -> new ArrayList<>()).add(name);
    }
    assertThat(b.mayRepeat()).isFalse();
    MappedNames names = b.build();
    assertThat(names.size()).isEqualTo(20_000);
    for (Map.Entry<String, List<String>> e : byFile.entrySet()) {
      assertThat(names.count(e.getKey())).isEqualTo(e.getValue().size());
      assertThat(names.matches(e.getKey(), e.getValue())).isTrue();
    }
    // Two files' lists with one name swapped between them: same counts, different names.
    List<String> a = new ArrayList<>(byFile.get("f1"));
    List<String> c = new ArrayList<>(byFile.get("f2"));
    String moved = a.set(0, c.get(0));
    c.set(0, moved);
    assertThat(names.matches("f1", a)).isFalse();
    assertThat(names.matches("f2", c)).isFalse();
    assertThat(names.matches("not a file", List.of())).isFalse();
    MappedNames.Builder dup = new MappedNames.Builder();
    byte[] x = "x".getBytes(StandardCharsets.UTF_8);
    dup.add(x, 1, dup.fileId("a"));
    dup.add(x, 1, dup.fileId("b"));
    assertThat(dup.mayRepeat()).isTrue();
  }
}
