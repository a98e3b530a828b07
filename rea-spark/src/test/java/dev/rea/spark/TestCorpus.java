package dev.rea.spark;

import static dev.rea.core.internal.format.gguf.GgufBuilder.ARRAY;
import static dev.rea.core.internal.format.gguf.GgufBuilder.STRING;
import static dev.rea.core.internal.format.gguf.GgufBuilder.array;
import static dev.rea.core.internal.format.gguf.GgufBuilder.f32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.i32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.str;
import static dev.rea.core.internal.format.gguf.GgufBuilder.u32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.u64;

import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.format.safetensors.SafetensorsBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A small tree of generated files for the Spark tests: GGUF and safetensors models (little- and
 * big-endian GGUF, arrays, 64-bit values, an unknown type), files that are not models, broken
 * models (truncated, bad JSON, unsupported version, a declared length past the end), an empty
 * file, and symbolic links to a model and to a directory (links are not followed).
 */
final class TestCorpus {
  /** Every file written, by what the scan should make of it. */
  record Written(List<Path> models, List<Path> broken, List<Path> notModels, List<Path> links) {}

  private TestCorpus() {}

  static Written write(Path root) throws IOException {
    List<Path> models = new ArrayList<>();
    List<Path> broken = new ArrayList<>();
    List<Path> notModels = new ArrayList<>();
    List<Path> links = new ArrayList<>();
    Path gguf = Files.createDirectories(root.resolve("gguf"));
    Path st = Files.createDirectories(root.resolve("safetensors"));
    Path deep = Files.createDirectories(root.resolve("nested/deeper/still"));
    Path bad = Files.createDirectories(root.resolve("broken"));
    Path other = Files.createDirectories(root.resolve("other"));

    for (int i = 0; i < 4; i++) {
      models.add(write(gguf.resolve("model-" + i + ".gguf"), llamaLike(i).bytes()));
    }
    models.add(write(deep.resolve("big-endian.gguf"), llamaLike(7).bigEndian().bytes()));
    models.add(
        write(
            deep.resolve("unknown-type.bin"),
            GgufBuilder.v3()
                .kv("general.architecture", str("odd"))
                .tensor("w", 999, 16)
                .trailing(new byte[64])
                .bytes()));
    for (int i = 0; i < 3; i++) {
      models.add(write(st.resolve("shard-" + i + ".safetensors"), safetensors(i)));
    }

    broken.add(write(bad.resolve("truncated.gguf"), llamaLike(1).truncate(100).bytes()));
    broken.add(write(bad.resolve("version-9.gguf"), GgufBuilder.v3().version(9).bytes()));
    broken.add(
        write(
            bad.resolve("bad-json.safetensors"),
            SafetensorsBuilder.file("{\"w\": {\"dtype\": \"F32\", \"shape\": [2], ", 8)));
    // A cut safetensors download: its JSON length runs past the end of the file.
    byte[] cut = new byte[8 + 5];
    java.nio.ByteBuffer.wrap(cut).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(4096);
    System.arraycopy("{\"a\":".getBytes(StandardCharsets.UTF_8), 0, cut, 8, 5);
    broken.add(write(bad.resolve("cut.safetensors"), cut));
    broken.add(
        write(
            bad.resolve("duplicate-key.gguf"),
            GgufBuilder.v3().kv("a", u32(1)).kv("a", u32(2)).bytes()));

    notModels.add(write(other.resolve("README.md"), "# a model card\n".getBytes(StandardCharsets.UTF_8)));
    notModels.add(
        write(other.resolve("config.json"), "{\"hidden_size\": 64}\n".getBytes(StandardCharsets.UTF_8)));
    notModels.add(write(other.resolve("empty.gguf"), new byte[0]));
    notModels.add(write(other.resolve("weights.pt"), new byte[] {'P', 'K', 3, 4, 0, 0, 0, 0}));

    links.add(Files.createSymbolicLink(root.resolve("link-to-model.gguf"), models.get(0)));
    links.add(Files.createSymbolicLink(root.resolve("link-to-dir"), gguf));
    return new Written(models, broken, notModels, links);
  }

  /** A Llama-like GGUF whose metadata and tensors vary with {@code seed}. */
  static GgufBuilder llamaLike(int seed) {
    GgufBuilder b =
        GgufBuilder.v3()
            .kv("general.architecture", str("llama"))
            .kv("general.name", str("tiny-" + seed))
            .kv("llama.block_count", u32(2 + seed))
            .kv("llama.rope.freq_base", f32(10000.5f + seed))
            .kv("general.parameter_count", u64(-1L - seed))
            .kv("tokenizer.ggml.tokens", array(STRING, str("<s>"), str("</s>"), str("tok" + seed)))
            .kv("tokenizer.ggml.token_type", array(GgufBuilder.INT32, i32(1), i32(3), i32(seed)))
            .kv("nested", array(ARRAY, array(GgufBuilder.UINT32, u32(1), u32(2))));
    b.tensor("token_embd.weight", 0, 8, 4 + seed);
    for (int layer = 0; layer < 2 + seed; layer++) {
      b.tensor("blk." + layer + ".attn_q.weight", 1, 8, 8);
      b.tensor("blk." + layer + ".ffn_down.weight", 8, 32, 2);
    }
    return b;
  }

  static byte[] safetensors(int seed) {
    SafetensorsBuilder.Builder b =
        SafetensorsBuilder.builder().metadata("format", "pt").metadata("seed", Integer.toString(seed));
    for (int i = 0; i <= seed; i++) {
      b.tensor("layers." + i + ".weight", "F16", 4, 2 + i);
      b.tensor("layers." + i + ".bias", "BF16", 4);
    }
    return b.build();
  }

  private static Path write(Path file, byte[] bytes) throws IOException {
    return Files.write(file, bytes);
  }
}
