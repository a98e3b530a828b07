package dev.rea.bench.corpus;

import dev.rea.bench.corpus.SafetensorsFileWriter.Tensor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A DeepSeek-V3-shaped sharded safetensors checkpoint (issue 18's bench case): 163 shards named
 * as {@code save_pretrained} names them and {@code model.safetensors.index.json}, every shard's
 * data a hole. The tensor set follows the published model's configuration (deepseek-ai/DeepSeek-V3
 * {@code config.json}: hidden size 7168, 61 layers of which the first 3 dense (FFN 18432), 256
 * routed experts and 1 shared expert of FFN 2048 in the others, MLA attention with q_lora_rank
 * 1536, kv_lora_rank 512, 128 heads of 128 + 64 (rope) dimensions, vocabulary 129,280, one MTP
 * layer (layer 61), FP8 E4M3 weights with F32 {@code weight_scale_inv} per 128 x 128 block):
 * 3 + 3 x 20 + 58 x 1,558 + 1,564 = 91,991 tensors, as the published index maps. Tensors go to
 * shards in layer order, each shard taking about an equal share of the bytes.
 */
final class SetCorpusWriter {
  private SetCorpusWriter() {}

  static final int HIDDEN = 7168;
  static final int VOCAB = 129_280;

  /** Sizes of a written set. */
  record Written(int shards, int tensors, long largestHeader, long totalBytes) {}

  /**
   * Writes the set into {@code dir} (created; earlier shards of the same names are replaced).
   *
   * @param layers transformer layers before the MTP layer (61 for the real model)
   * @param experts routed experts per MoE layer (256)
   * @param shards shard count (163)
   */
  static Written deepseekV3(Path dir, int layers, int experts, int shards) throws IOException {
    List<List<Tensor>> byLayer = new ArrayList<>();
    List<Tensor> head = new ArrayList<>();
    head.add(new Tensor("model.embed_tokens.weight", "BF16", new long[] {VOCAB, HIDDEN}));
    byLayer.add(head);
    for (int l = 0; l <= layers; l++) {
      byLayer.add(layer(l, l < 3, l == layers, experts));
    }
    List<Tensor> tail = new ArrayList<>();
    tail.add(new Tensor("model.norm.weight", "BF16", new long[] {HIDDEN}));
    tail.add(new Tensor("lm_head.weight", "BF16", new long[] {VOCAB, HIDDEN}));
    byLayer.add(tail);
    List<Tensor> all = new ArrayList<>();
    byLayer.forEach(all::addAll);
    long total = 0;
    for (Tensor t : all) {
      total += t.bytes();
    }
    Files.createDirectories(dir);
    StringBuilder map = new StringBuilder(all.size() * 96);
    long share = total / shards + 1;
    int shard = 1;
    long inShard = 0;
    long largest = 0;
    List<Tensor> current = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      Tensor t = all.get(i);
      current.add(t);
      inShard += t.bytes();
      boolean last = i == all.size() - 1;
      int left = all.size() - 1 - i;
      if (last || (inShard >= share && shard < shards && left >= shards - shard)) {
        String name = String.format(Locale.ROOT, "model-%05d-of-%05d.safetensors", shard, shards);
        largest = Math.max(largest, SafetensorsFileWriter.write(dir.resolve(name), current)
            .headerLength());
        for (Tensor c : current) {
          map.append(map.length() == 0 ? "" : ",\n").append("    \"").append(c.name())
              .append("\": \"").append(name).append('"');
        }
        current.clear();
        inShard = 0;
        shard++;
      }
    }
    String index = "{\n  \"metadata\": {\n    \"total_size\": " + total + "\n  },\n"
        + "  \"weight_map\": {\n" + map + "\n  }\n}\n";
    Files.writeString(dir.resolve("model.safetensors.index.json"), index, StandardCharsets.UTF_8);
    return new Written(shard - 1, all.size(), largest, total);
  }

  /** One layer's tensors: MLA attention, then a dense or MoE MLP; the MTP layer's extras. */
  private static List<Tensor> layer(int l, boolean dense, boolean mtp, int experts) {
    String p = "model.layers." + l + ".";
    List<Tensor> ts = new ArrayList<>();
    ts.add(new Tensor(p + "input_layernorm.weight", "BF16", new long[] {HIDDEN}));
    ts.add(new Tensor(p + "post_attention_layernorm.weight", "BF16", new long[] {HIDDEN}));
    fp8(ts, p + "self_attn.q_a_proj", 1536, HIDDEN);
    ts.add(new Tensor(p + "self_attn.q_a_layernorm.weight", "BF16", new long[] {1536}));
    fp8(ts, p + "self_attn.q_b_proj", 128 * 192, 1536);
    fp8(ts, p + "self_attn.kv_a_proj_with_mqa", 512 + 64, HIDDEN);
    ts.add(new Tensor(p + "self_attn.kv_a_layernorm.weight", "BF16", new long[] {512}));
    fp8(ts, p + "self_attn.kv_b_proj", 128 * 256, 512);
    fp8(ts, p + "self_attn.o_proj", HIDDEN, 128 * 128);
    if (dense) {
      mlp(ts, p + "mlp.", 18_432);
    } else {
      ts.add(new Tensor(p + "mlp.gate.weight", "BF16", new long[] {experts, HIDDEN}));
      ts.add(new Tensor(p + "mlp.gate.e_score_correction_bias", "F32", new long[] {experts}));
      for (int e = 0; e < experts; e++) {
        mlp(ts, p + "mlp.experts." + e + ".", 2048);
      }
      mlp(ts, p + "mlp.shared_experts.", 2048);
    }
    if (mtp) {
      ts.add(new Tensor(p + "embed_tokens.weight", "BF16", new long[] {VOCAB, HIDDEN}));
      ts.add(new Tensor(p + "enorm.weight", "BF16", new long[] {HIDDEN}));
      ts.add(new Tensor(p + "hnorm.weight", "BF16", new long[] {HIDDEN}));
      ts.add(new Tensor(p + "eh_proj.weight", "BF16", new long[] {HIDDEN, 2L * HIDDEN}));
      ts.add(new Tensor(p + "shared_head.norm.weight", "BF16", new long[] {HIDDEN}));
      ts.add(new Tensor(p + "shared_head.head.weight", "BF16", new long[] {VOCAB, HIDDEN}));
    }
    return ts;
  }

  private static void mlp(List<Tensor> ts, String p, int ffn) {
    fp8(ts, p + "gate_proj", ffn, HIDDEN);
    fp8(ts, p + "up_proj", ffn, HIDDEN);
    fp8(ts, p + "down_proj", HIDDEN, ffn);
  }

  /** An FP8 weight and its F32 scale per 128 x 128 block. */
  private static void fp8(List<Tensor> ts, String p, long rows, long cols) {
    ts.add(new Tensor(p + ".weight", "F8_E4M3", new long[] {rows, cols}));
    ts.add(new Tensor(p + ".weight_scale_inv", "F32",
        new long[] {(rows + 127) / 128, (cols + 127) / 128}));
  }
}
