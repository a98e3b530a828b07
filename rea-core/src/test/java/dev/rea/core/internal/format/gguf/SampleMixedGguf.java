package dev.rea.core.internal.format.gguf;

import static dev.rea.core.internal.format.gguf.GgufBuilder.FLOAT32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.INT32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.STRING;
import static dev.rea.core.internal.format.gguf.GgufBuilder.array;
import static dev.rea.core.internal.format.gguf.GgufBuilder.bool;
import static dev.rea.core.internal.format.gguf.GgufBuilder.f32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.i32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.str;
import static dev.rea.core.internal.format.gguf.GgufBuilder.u32;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The committed sample {@code samples/sample-mixed.gguf} (README's first command): a small
 * little-endian GGUF v3 file with llama-like metadata, a 16-token vocabulary (so the token array's
 * preview is incomplete) and one transformer block whose tensors use several ggml types (F32,
 * F16, BF16, Q8_0, Q4_0, Q4_K, Q8_1 and the ambiguous ID 24), followed by a real data section
 * (bytes {@code offset % 251}). It is made by {@link GgufBuilder}; {@code SampleMixedGgufTest}
 * regenerates it and checks the committed bytes are identical. To rewrite it after a deliberate
 * change, run {@code main} (or the test with {@code -Drea.regenerateSamples=true}).
 */
public final class SampleMixedGguf {
  /** Path of the sample relative to the repository root. */
  public static final String PATH = "samples/sample-mixed.gguf";

  static final String[] TOKENS = {
    "<unk>", "<s>", "</s>", "▁the", "▁a", "▁model", "▁file", "▁declares", "▁what", "▁it", "▁holds",
    ".", ",", "▁REA", "▁reads", "▁headers"
  };

  private SampleMixedGguf() {}

  /** @return the sample's bytes */
  public static byte[] bytes() {
    return builder().bytes();
  }

  /** @return the builder of the sample */
  public static GgufBuilder builder() {
    List<GgufBuilder.Value> tokens = new ArrayList<>();
    List<GgufBuilder.Value> scores = new ArrayList<>();
    List<GgufBuilder.Value> types = new ArrayList<>();
    for (int i = 0; i < TOKENS.length; i++) {
      tokens.add(str(TOKENS[i]));
      scores.add(f32(i < 3 ? 0f : -i));
      types.add(i32(i == 0 ? 2 : i < 3 ? 3 : 1));
    }
    int embd = 64;
    int ff = 128;
    int vocab = TOKENS.length;
    return GgufBuilder.v3()
        .kv("general.architecture", str("llama"))
        .kv("general.name", str("REA sample (mixed tensor types)"))
        .kv("general.file_type", u32(7))
        .kv("general.quantization_version", u32(2))
        .kv("llama.context_length", u32(2048))
        .kv("llama.embedding_length", u32(embd))
        .kv("llama.block_count", u32(1))
        .kv("llama.feed_forward_length", u32(ff))
        .kv("llama.attention.head_count", u32(4))
        .kv("llama.attention.head_count_kv", u32(4))
        .kv("llama.rope.dimension_count", u32(16))
        .kv("llama.attention.layer_norm_rms_epsilon", f32(1e-5f))
        .kv("tokenizer.ggml.model", str("llama"))
        .kv("tokenizer.ggml.tokens", array(STRING, tokens))
        .kv("tokenizer.ggml.scores", array(FLOAT32, scores))
        .kv("tokenizer.ggml.token_type", array(INT32, types))
        .kv("tokenizer.ggml.bos_token_id", u32(1))
        .kv("tokenizer.ggml.eos_token_id", u32(2))
        .kv("tokenizer.ggml.add_bos_token", bool(true))
        .tensor("token_embd.weight", 1, embd, vocab) // F16
        .tensor("blk.0.attn_norm.weight", 0, embd) // F32
        .tensor("blk.0.attn_q.weight", 8, embd, embd) // Q8_0
        .tensor("blk.0.attn_k.weight", 2, embd, embd) // Q4_0
        .tensor("blk.0.attn_v.weight", 9, embd, embd) // Q8_1 (36 bytes per 32 laid out)
        .tensor("blk.0.attn_output.weight", 12, embd, embd) // Q4_K (K256 layout laid out)
        .tensor("blk.0.ffn_gate_inp.weight", 24, ff, 4) // ID 24: I8 today, I16/I32 once
        .tensor("blk.0.ffn_up.weight", 30, embd, ff) // BF16
        .tensor("blk.0.ffn_down.weight", 8, ff, embd) // Q8_0
        .tensor("blk.0.ffn_norm.weight", 0, embd) // F32
        .tensor("output_norm.weight", 0, embd) // F32
        .tensor("output.weight", 1, embd, vocab); // F16
  }

  /** Writes the sample under the repository root. */
  public static void main(String[] args) throws IOException {
    Path out = GgufTesting.repositoryRoot().resolve(PATH);
    Files.createDirectories(out.getParent());
    Files.write(out, bytes());
    System.out.println("wrote " + out + " (" + Files.size(out) + " bytes)");
  }
}
