package dev.rea.bench.corpus;

import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Writes a safetensors file whose byte buffer is left as a hole: the 8-byte little-endian JSON
 * length, the JSON header (padded with spaces to a multiple of 8 bytes, as the upstream writer
 * does), then the file is extended to {@code 8 + N + } the sum of the tensor byte lengths. Tensor
 * entries are written in name order with contiguous {@code data_offsets} in the same order.
 */
final class SafetensorsFileWriter {
  private SafetensorsFileWriter() {}

  /** One tensor: name, dtype, shape (row-major, as safetensors declares it). */
  record Tensor(String name, String dtype, long[] shape) {
    long bytes() {
      long n = 1;
      for (long d : shape) {
        n = Math.multiplyExact(n, d);
      }
      int size;
      switch (dtype) {
        case "F32":
        case "I32":
          size = 4;
          break;
        case "BF16":
        case "F16":
          size = 2;
          break;
        case "F8_E4M3":
          size = 1;
          break;
        default:
          throw new IllegalArgumentException(dtype);
      }
      return n * size;
    }
  }

  /** Sizes of a written file. */
  record Written(long headerLength, long fileSize, int tensors, int jsonLength) {}

  /**
   * A Qwen3-MoE-like checkpoint shard: per layer 128 experts x (gate, up, down) plus 9 attention,
   * norm and router tensors; embeddings, final norm and LM head. With 52 layers and 128 experts:
   * 3 + 52 x (9 + 384) = 20,439 tensors, about 2.5 MB of JSON.
   */
  static Written moeCheckpoint(Path file, int layers, int experts) throws IOException {
    int hidden = 2048;
    int heads = 32;
    int kvHeads = 4;
    int headDim = 128;
    int expertFfn = 768;
    int vocab = 151_936;
    List<Tensor> ts = new ArrayList<>();
    ts.add(new Tensor("model.embed_tokens.weight", "BF16", new long[] {vocab, hidden}));
    ts.add(new Tensor("model.norm.weight", "BF16", new long[] {hidden}));
    ts.add(new Tensor("lm_head.weight", "BF16", new long[] {vocab, hidden}));
    for (int l = 0; l < layers; l++) {
      String p = "model.layers." + l + ".";
      ts.add(new Tensor(p + "input_layernorm.weight", "BF16", new long[] {hidden}));
      ts.add(new Tensor(p + "post_attention_layernorm.weight", "BF16", new long[] {hidden}));
      ts.add(new Tensor(p + "self_attn.q_proj.weight", "BF16", new long[] {heads * headDim, hidden}));
      ts.add(new Tensor(p + "self_attn.k_proj.weight", "BF16", new long[] {kvHeads * headDim, hidden}));
      ts.add(new Tensor(p + "self_attn.v_proj.weight", "BF16", new long[] {kvHeads * headDim, hidden}));
      ts.add(new Tensor(p + "self_attn.o_proj.weight", "BF16", new long[] {hidden, heads * headDim}));
      ts.add(new Tensor(p + "self_attn.q_norm.weight", "BF16", new long[] {headDim}));
      ts.add(new Tensor(p + "self_attn.k_norm.weight", "BF16", new long[] {headDim}));
      ts.add(new Tensor(p + "mlp.gate.weight", "BF16", new long[] {experts, hidden}));
      for (int e = 0; e < experts; e++) {
        String x = p + "mlp.experts." + e + ".";
        ts.add(new Tensor(x + "gate_proj.weight", "BF16", new long[] {expertFfn, hidden}));
        ts.add(new Tensor(x + "up_proj.weight", "BF16", new long[] {expertFfn, hidden}));
        ts.add(new Tensor(x + "down_proj.weight", "BF16", new long[] {hidden, expertFfn}));
      }
    }
    return write(file, ts, java.util.Map.of("format", "pt"));
  }

  /**
   * Writes one file holding {@code tensors} (sorted here by name), with {@code __metadata__}
   * {@code {"format":"pt"}}, its data a hole.
   *
   * @return its sizes
   */
  static Written write(Path file, List<Tensor> tensors) throws IOException {
    return write(file, tensors, java.util.Map.of("format", "pt"));
  }

  /**
   * Writes a file of the given tensors, in name order with contiguous {@code data_offsets}, and
   * {@code __metadata__} (omitted when empty; keys in the map's iteration order). The JSON is
   * padded with spaces to a multiple of 8 bytes; the data is a hole.
   */
  static Written write(Path file, List<Tensor> tensors, java.util.Map<String, String> metadata)
      throws IOException {
    List<Tensor> ts = new ArrayList<>(tensors);
    ts.sort(Comparator.comparing(Tensor::name));
    StringBuilder json = new StringBuilder(ts.size() * 128 + 64);
    json.append('{');
    if (!metadata.isEmpty()) {
      json.append("\"__metadata__\":{");
      boolean first = true;
      for (java.util.Map.Entry<String, String> e : metadata.entrySet()) {
        json.append(first ? "" : ",").append('"').append(e.getKey()).append("\":\"");
        json.append(e.getValue()).append('"');
        first = false;
      }
      json.append('}');
    }
    long offset = 0;
    boolean first = metadata.isEmpty();
    for (Tensor t : ts) {
      long end = offset + t.bytes();
      json.append(first ? "\"" : ",\"").append(t.name).append("\":{\"dtype\":\"").append(t.dtype);
      first = false;
      json.append("\",\"shape\":[");
      for (int i = 0; i < t.shape.length; i++) {
        json.append(i == 0 ? "" : ",").append(t.shape[i]);
      }
      json.append("],\"data_offsets\":[").append(offset).append(',').append(end).append("]}");
      offset = end;
    }
    json.append('}');
    while (json.length() % 8 != 0) {
      json.append(' ');
    }
    byte[] header = json.toString().getBytes(StandardCharsets.UTF_8);
    Files.deleteIfExists(file);
    try (OutputStream out = Files.newOutputStream(file)) {
      byte[] n = new byte[8];
      for (int i = 0; i < 8; i++) {
        n[i] = (byte) ((long) header.length >>> (8 * i));
      }
      out.write(n);
      out.write(header);
    }
    long size = 8L + header.length + offset;
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(size);
    }
    return new Written(8L + header.length, size, ts.size(), header.length);
  }
}
