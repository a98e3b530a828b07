package dev.rea.cli;

import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.format.safetensors.SafetensorsBuilder;
import dev.rea.core.testing.SetFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Generated trees for {@code rea scan} tests: small valid GGUF and safetensors models (each
 * different, so each has its own Evidence), broken models (rejected), files that are not models
 * (skipped), an index whose member is missing (a failed set), nested directories. Built with rea-core's test builders.
 */
final class ScanTrees {
  private ScanTrees() {}

  /** What a tree holds. */
  record Tree(
      Path root, List<Path> models, List<Path> broken, List<Path> nonModels, List<Path> sets) {
    /** @return models, broken files and sets (by their index): the units of a scan */
    List<Path> units() {
      List<Path> all = new ArrayList<>(models);
      all.addAll(broken);
      all.addAll(sets);
      return all;
    }
  }

  /** @return a GGUF v3 model whose metadata and tensor shapes depend on {@code i} */
  static byte[] gguf(int i) {
    return GgufBuilder.v3()
        .kv("general.architecture", GgufBuilder.str("llama"))
        .kv("general.name", GgufBuilder.str("model " + i))
        .kv("llama.block_count", GgufBuilder.u32(1 + i % 7))
        .tensor("token_embd.weight", 0, 4, 1 + i % 5)
        .tensor("output.weight", 1, 8, 2)
        .build()
        .bytes();
  }

  /** @return a safetensors model whose tensors depend on {@code i} */
  static byte[] safetensors(int i) {
    return SafetensorsBuilder.builder()
        .metadata("format", "pt")
        .tensor("model.embed.weight", "F32", 2, 1 + i % 4)
        .tensor("model.norm.weight", "F16", 4)
        .build();
  }

  /** @return a GGUF model with a {@code removed_type} warning (type 31, CONTRACT section 8) */
  static byte[] ggufWithWarning() {
    return GgufBuilder.v3()
        .kv("general.architecture", GgufBuilder.str("llama"))
        .tensor("old.weight", 31, 32)
        .build()
        .bytes();
  }

  /**
   * Writes {@code n} models (half GGUF, half safetensors) spread over nested directories, with
   * broken models and non-models beside them when {@code extras}.
   */
  static Tree write(Path root, int n, boolean extras) throws IOException {
    List<Path> models = new ArrayList<>();
    List<Path> broken = new ArrayList<>();
    List<Path> nonModels = new ArrayList<>();
    List<Path> sets = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Path dir = root.resolve("d" + (i % 5)).resolve("sub" + (i % 3));
      Files.createDirectories(dir);
      // Names say nothing: detection is by content.
      Path p = dir.resolve("model-" + i + (i % 2 == 0 ? ".gguf" : ".bin"));
      Files.write(p, i % 2 == 0 ? gguf(i) : safetensors(i));
      models.add(p);
    }
    if (extras) {
      Path odd = Files.createDirectories(root.resolve("odd"));
      byte[] whole = gguf(1000);
      broken.add(Files.write(odd.resolve("truncated.gguf"), Arrays.copyOf(whole, whole.length / 2)));
      broken.add(
          Files.write(
              odd.resolve("v1.gguf"),
              GgufBuilder.v3().version(1).tensor("t", 0, 4).build().bytes()));
      byte[] st = safetensors(1000);
      broken.add(Files.write(odd.resolve("cut.safetensors"), Arrays.copyOf(st, 24)));
      nonModels.add(Files.writeString(odd.resolve("README.md"), "# models\nnothing to see\n"));
      // An index whose member is missing: a set of its own, which fails naming the member.
      sets.add(
          Files.writeString(
              odd.resolve("model.safetensors.index.json"),
              "{\"weight_map\":{\"a\":\"model-00001-of-00002.safetensors\"}}"));
      nonModels.add(Files.write(odd.resolve("weights.pt"), new byte[] {'P', 'K', 3, 4, 0, 0}));
      nonModels.add(Files.write(odd.resolve("empty"), new byte[0]));
      nonModels.add(
          Files.write(
              odd.resolve("lfs.gguf"),
              "version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 1\n"
                  .getBytes(StandardCharsets.US_ASCII)));
    }
    return new Tree(root, models, broken, nonModels, sets);
  }

  /**
   * What {@link #writeSets} wrote.
   *
   * @param sets each set's path as {@code inspect-model-set} records it (index or first member)
   * @param members every member file of every set (none is a unit of its own)
   * @param loose the model files beside the sets (each a unit of its own)
   */
  record Sets(List<Path> sets, List<Path> members, List<Path> loose) {}

  /**
   * Writes model sets with loose files beside them: a sharded safetensors checkpoint (index and
   * three shards), a GGUF split set of three, a checkpoint whose second shard is missing (the set
   * fails, naming it), a GGUF split set whose {@code split.tensors.count} disagrees ({@code
   * set_rejected}), and a GGUF file and a safetensors file in those directories.
   */
  static Sets writeSets(Path root) throws IOException {
    List<Path> sets = new ArrayList<>();
    List<Path> members = new ArrayList<>();
    List<Path> loose = new ArrayList<>();
    SetFixtures.Checkpoint st = SetFixtures.checkpoint(root.resolve("st"), 3, 2);
    sets.add(st.index);
    members.addAll(st.shards);
    loose.add(Files.write(st.dir.resolve("loose.gguf"), gguf(2000)));
    List<Path> split = SetFixtures.ggufSplit(root.resolve("gg"), "llm", 3, 1, 2);
    sets.add(split.get(0));
    members.addAll(split);
    loose.add(Files.write(root.resolve("gg").resolve("adapter.safetensors"), safetensors(2001)));
    SetFixtures.Checkpoint cut = SetFixtures.checkpoint(root.resolve("cut"), 2, 1);
    Files.delete(cut.shards.get(1));
    sets.add(cut.index);
    members.add(cut.shards.get(0));
    List<Path> bad =
        SetFixtures.ggufSplit(
            root.resolve("gg"),
            "bad",
            2,
            1,
            1,
            (no, kvs) -> {
              if (no == 2) {
                kvs.put("split.tensors.count", GgufBuilder.i32(5));
              }
            },
            (no, b) -> {});
    sets.add(bad.get(0));
    members.addAll(bad);
    return new Sets(sets, members, loose);
  }
}
