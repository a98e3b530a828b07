package dev.rea.spark;

import static dev.rea.core.internal.format.gguf.GgufBuilder.STRING;
import static dev.rea.core.internal.format.gguf.GgufBuilder.array;
import static dev.rea.core.internal.format.gguf.GgufBuilder.f32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.i32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.str;
import static dev.rea.core.internal.format.gguf.GgufBuilder.u32;

import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.format.safetensors.SafetensorsBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A tree of many small model files for measuring the Spark job (docs/scale.md): {@code dirs}
 * directories of {@code perDir} models each, GGUF and safetensors alternating, with Llama-like
 * metadata (a 64-token vocabulary with types and scores, hyperparameters, a chat template) and
 * tensor directories of 2 to 6 blocks of 9 tensors (the headers are a few kilobytes; the tensor
 * data, which the job never reads, is left as a hole of a sparse file); in each directory also a README and a config.json (not models) and one truncated
 * model (rejected). Deterministic.
 *
 * <p>{@code java -cp <test class path> dev.rea.spark.ScanTree OUTDIR [DIRS [PER_DIR]]}; the
 * defaults make 100 x 100 = 10,000 models, 200 other files and 100 broken ones.
 */
public final class ScanTree {
  private ScanTree() {}

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args[0]);
    int dirs = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    int perDir = args.length > 2 ? Integer.parseInt(args[2]) : 100;
    long bytes = 0;
    int files = 0;
    for (int d = 0; d < dirs; d++) {
      Path dir = Files.createDirectories(out.resolve(String.format(Locale.ROOT, "org-%03d/model", d)));
      for (int i = 0; i < perDir; i++) {
        int seed = d * perDir + i;
        String name =
            String.format(Locale.ROOT, "m-%05d.%s", seed, seed % 2 == 0 ? "gguf" : "safetensors");
        if (seed % 2 == 0) {
          GgufBuilder.Built g = gguf(seed).build();
          bytes += sparse(dir.resolve(name), g.bytes(), g.headerLength());
        } else {
          byte[] st = safetensors(seed);
          long json = java.nio.ByteBuffer.wrap(st, 0, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
          bytes += sparse(dir.resolve(name), st, 8 + json);
        }
        files++;
      }
      byte[] broken = gguf(d).truncate(40).bytes();
      Files.write(dir.resolve("broken.gguf"), broken);
      Files.writeString(dir.resolve("README.md"), "# model " + d + "\n", StandardCharsets.UTF_8);
      Files.writeString(dir.resolve("config.json"), "{\"layers\": " + d + "}\n", StandardCharsets.UTF_8);
      files += 3;
    }
    System.out.printf(Locale.ROOT, "%d files (%d models, %,d bytes of models) under %s%n",
        files, dirs * perDir, bytes, out);
  }

  /**
   * Writes the file's first {@code header} bytes and extends it to its full length: the tensor
   * data (which the job never reads) is a hole, as in the benchmark corpus.
   */
  private static long sparse(Path file, byte[] bytes, long header) throws IOException {
    try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(0);
      f.write(bytes, 0, (int) header);
      f.setLength(bytes.length);
    }
    return bytes.length;
  }

  static GgufBuilder gguf(int seed) {
    int blocks = 2 + seed % 5;
    List<GgufBuilder.Value> tokens = new ArrayList<>();
    List<GgufBuilder.Value> types = new ArrayList<>();
    List<GgufBuilder.Value> scores = new ArrayList<>();
    for (int t = 0; t < 64; t++) {
      tokens.add(str("tok-" + t + "-" + (seed % 7)));
      types.add(i32(t < 3 ? 3 : 1));
      scores.add(f32(-t));
    }
    GgufBuilder b =
        GgufBuilder.v3()
            .kv("general.architecture", str("llama"))
            .kv("general.name", str("tiny-llama-" + seed))
            .kv("general.file_type", u32(1))
            .kv("llama.context_length", u32(2048))
            .kv("llama.embedding_length", u32(64))
            .kv("llama.block_count", u32(blocks))
            .kv("llama.feed_forward_length", u32(128))
            .kv("llama.attention.head_count", u32(4))
            .kv("llama.attention.head_count_kv", u32(2))
            .kv("llama.rope.freq_base", f32(10000f))
            .kv("llama.attention.layer_norm_rms_epsilon", f32(1e-5f))
            .kv("tokenizer.ggml.model", str("llama"))
            .kv("tokenizer.ggml.tokens", array(STRING, tokens))
            .kv("tokenizer.ggml.token_type", array(GgufBuilder.INT32, types))
            .kv("tokenizer.ggml.scores", array(GgufBuilder.FLOAT32, scores))
            .kv("tokenizer.ggml.bos_token_id", u32(1))
            .kv("tokenizer.ggml.eos_token_id", u32(2))
            .kv("tokenizer.chat_template", str("{% for m in messages %}{{ m['content'] }}{% endfor %}"));
    b.tensor("token_embd.weight", 1, 64, 64);
    for (int l = 0; l < blocks; l++) {
      String p = "blk." + l + ".";
      b.tensor(p + "attn_norm.weight", 0, 64);
      b.tensor(p + "attn_q.weight", 1, 64, 64);
      b.tensor(p + "attn_k.weight", 1, 64, 32);
      b.tensor(p + "attn_v.weight", 1, 64, 32);
      b.tensor(p + "attn_output.weight", 1, 64, 64);
      b.tensor(p + "ffn_norm.weight", 0, 64);
      b.tensor(p + "ffn_gate.weight", 1, 64, 128);
      b.tensor(p + "ffn_up.weight", 1, 64, 128);
      b.tensor(p + "ffn_down.weight", 1, 128, 64);
    }
    b.tensor("output_norm.weight", 0, 64);
    return b;
  }

  static byte[] safetensors(int seed) {
    int blocks = 2 + seed % 5;
    SafetensorsBuilder.Builder b = SafetensorsBuilder.builder().metadata("format", "pt");
    b.tensor("model.embed_tokens.weight", "BF16", 64, 64);
    for (int l = 0; l < blocks; l++) {
      String p = "model.layers." + l + ".";
      b.tensor(p + "input_layernorm.weight", "BF16", 64);
      b.tensor(p + "self_attn.q_proj.weight", "BF16", 64, 64);
      b.tensor(p + "self_attn.k_proj.weight", "BF16", 32, 64);
      b.tensor(p + "self_attn.v_proj.weight", "BF16", 32, 64);
      b.tensor(p + "self_attn.o_proj.weight", "BF16", 64, 64);
      b.tensor(p + "post_attention_layernorm.weight", "BF16", 64);
      b.tensor(p + "mlp.gate_proj.weight", "BF16", 128, 64);
      b.tensor(p + "mlp.up_proj.weight", "BF16", 128, 64);
      b.tensor(p + "mlp.down_proj.weight", "BF16", 64, 128);
    }
    b.tensor("model.norm.weight", "BF16", 64);
    return b.padTo8().build();
  }
}
