package dev.rea.core.testing;

import static dev.rea.core.internal.format.gguf.GgufBuilder.str;
import static dev.rea.core.internal.format.gguf.GgufBuilder.stringArray;
import static dev.rea.core.internal.format.gguf.GgufBuilder.u32;

import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.format.safetensors.SafetensorsBuilder;

/**
 * Valid GGUF and safetensors files used by the host-failure, identity and CLI tests (reusable
 * through the rea-core test-jar).
 */
public final class HostileFiles {
  private HostileFiles() {}

  /** A GGUF with metadata, 4 tensors and about 300 KiB of data (several read-ahead windows). */
  public static byte[] gguf() {
    return GgufBuilder.v3()
        .kv("general.architecture", str("llama"))
        .kv("general.name", str("host failures"))
        .kv("tokenizer.ggml.tokens", stringArray("tok", 40))
        .kv("llama.block_count", u32(2))
        .tensor("token_embd.weight", 0, 64, 1024)
        .tensor("blk.0.attn_q.weight", 1, 64, 64)
        .tensor("blk.0.ffn_up.weight", 8, 256, 64)
        .tensor("output_norm.weight", 0, 64)
        .bytes();
  }

  /** A safetensors file with metadata, 4 tensors and about 300 KiB of data. */
  public static byte[] safetensors() {
    return SafetensorsBuilder.builder()
        .metadata("format", "pt")
        .metadata("note", "host failures")
        .tensor("embed.weight", "F32", 64, 1024)
        .tensor("layers.0.q.weight", "F16", 64, 64)
        .tensor("layers.0.up.weight", "BF16", 256, 64)
        .tensor("norm.weight", "F32", 64)
        .padTo8()
        .build();
  }

  /** A GGUF with about 4 MiB of tensor data (several full-hash chunks). */
  public static byte[] bigGguf() {
    return GgufBuilder.v3()
        .kv("general.architecture", str("llama"))
        .tensor("token_embd.weight", 0, 1024, 1024)
        .tensor("output_norm.weight", 0, 1024)
        .bytes();
  }

  /** A safetensors file with about 4 MiB of tensor data. */
  public static byte[] bigSafetensors() {
    return SafetensorsBuilder.builder()
        .metadata("format", "pt")
        .tensor("embed.weight", "F32", 1024, 1024)
        .tensor("norm.weight", "F32", 1024)
        .build();
  }

  /**
   * Writes a GGUF with one F32 tensor of {@code elements} elements whose data is a hole: the
   * header, then the file extended (sparse) to the end of the tensor.
   *
   * @return what was built (the header bytes and offsets); the file's size is {@code
   *     dataOffset() + 4 * elements}
   */
  public static GgufBuilder.Built sparseF32Gguf(java.nio.file.Path p, String tensor, long elements)
      throws java.io.IOException {
    GgufBuilder.Built built =
        GgufBuilder.v3()
            .kv("general.architecture", str("llama"))
            .tensor(tensor, 0, elements)
            .data(GgufBuilder.Data.PADDING_ONLY)
            .build();
    java.nio.file.Files.write(p, built.bytes());
    long size = built.dataOffset() + elements * 4;
    try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(p.toFile(), "rw")) {
      raf.setLength(size);
    }
    return built;
  }
}
