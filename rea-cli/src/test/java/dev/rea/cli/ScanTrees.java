package dev.rea.cli;

import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.format.safetensors.SafetensorsBuilder;
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
 * (skipped), nested directories. Built with rea-core's test builders.
 */
final class ScanTrees {
  private ScanTrees() {}

  /** What a tree holds. */
  record Tree(Path root, List<Path> models, List<Path> broken, List<Path> nonModels) {
    /** @return models and broken files: the units of a scan */
    List<Path> units() {
      List<Path> all = new ArrayList<>(models);
      all.addAll(broken);
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
      nonModels.add(
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
    return new Tree(root, models, broken, nonModels);
  }
}
