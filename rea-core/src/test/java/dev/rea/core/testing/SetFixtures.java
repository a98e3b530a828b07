package dev.rea.core.testing;

import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.format.safetensors.SafetensorsBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Model sets written with the project's own builders, as upstream tools write them: a sharded
 * safetensors checkpoint with its index (Hugging Face {@code save_pretrained} names, {@code
 * model-00001-of-00004.safetensors} and {@code model.safetensors.index.json} with {@code
 * metadata.total_size}) and a GGUF split set as llama.cpp's gguf-split writes it (all metadata in
 * the first member; {@code split.no} and {@code split.count} UINT16 and {@code
 * split.tensors.count} INT32 in every member). Hooks let a test change one thing at a time.
 */
public final class SetFixtures {
  private SetFixtures() {}

  /** A safetensors checkpoint on disk. */
  public static final class Checkpoint {
    public final Path dir;
    public final Path index;
    public final List<Path> shards;
    /** Tensor name to shard file name, as the index maps them. */
    public final Map<String, String> weightMap;
    public final long totalBytes;

    Checkpoint(Path dir, Path index, List<Path> shards, Map<String, String> weightMap, long total) {
      this.dir = dir;
      this.index = index;
      this.shards = shards;
      this.weightMap = weightMap;
      this.totalBytes = total;
    }
  }

  /**
   * Writes a checkpoint of {@code shards} shards, {@code perShard} F16 tensors of 4 x 8 each.
   *
   * @param shardHook called with each shard's number (1-based) and builder before it is written
   * @param mapHook may change the weight map before the index is written
   */
  public static Checkpoint checkpoint(Path dir, int shards, int perShard,
      BiConsumer<Integer, SafetensorsBuilder.Builder> shardHook,
      Consumer<Map<String, String>> mapHook) {
    Map<String, String> map = new LinkedHashMap<>();
    List<Path> files = new ArrayList<>();
    long total = 0;
    int t = 0;
    for (int s = 1; s <= shards; s++) {
      String file = String.format(Locale.ROOT, "model-%05d-of-%05d.safetensors", s, shards);
      SafetensorsBuilder.Builder b = SafetensorsBuilder.builder().metadata("format", "pt");
      for (int i = 0; i < perShard; i++, t++) {
        String name = "model.layers." + t + ".mlp.weight";
        b.tensor(name, "F16", 4, 8);
        map.put(name, file);
      }
      shardHook.accept(s, b);
      total += b.dataBytes();
      files.add(write(dir.resolve(file), b.build()));
    }
    mapHook.accept(map);
    Path index = dir.resolve("model.safetensors.index.json");
    write(index, indexJson(total, map).getBytes(StandardCharsets.UTF_8));
    return new Checkpoint(dir, index, files, map, total);
  }

  /** A plain checkpoint. */
  public static Checkpoint checkpoint(Path dir, int shards, int perShard) {
    return checkpoint(dir, shards, perShard, (s, b) -> {}, m -> {});
  }

  /** @return an index as save_pretrained writes it (indented, total_size a JSON number) */
  public static String indexJson(long totalSize, Map<String, String> map) {
    StringBuilder sb = new StringBuilder("{\n  \"metadata\": {\n    \"total_size\": ")
        .append(totalSize).append("\n  },\n  \"weight_map\": {\n");
    int i = 0;
    for (Map.Entry<String, String> e : map.entrySet()) {
      sb.append("    ").append(SafetensorsBuilder.jsonString(e.getKey())).append(": ")
          .append(SafetensorsBuilder.jsonString(e.getValue()))
          .append(++i < map.size() ? ",\n" : "\n");
    }
    return sb.append("  }\n}\n").toString();
  }

  /** @return the file name of split member {@code no} (1-based) of {@code count} */
  public static String splitName(String prefix, int no, int count) {
    return String.format(Locale.ROOT, "%s-%05d-of-%05d.gguf", prefix, no, count);
  }

  /**
   * Writes a GGUF split set as gguf-split writes it.
   *
   * @param perMember tensors per member (F32, 8 x 2 each); member 1 gets {@code firstTensors}
   * @param hook called with each member's number (1-based) and builder, after the split keys and
   *     tensors are added and before it is written (add, or build another way, to break a rule)
   * @return the members' paths, in order
   */
  public static List<Path> ggufSplit(Path dir, String prefix, int count, int firstTensors,
      int perMember, BiConsumer<Integer, GgufBuilder> hook) {
    return ggufSplit(dir, prefix, count, firstTensors, perMember, (no, kvs) -> {}, hook);
  }

  /**
   * As {@link #ggufSplit(Path, String, int, int, int, BiConsumer)}, with {@code keys} called with
   * each member's number and its metadata (in file order) before it is written: a test replaces
   * or removes a key there.
   */
  public static List<Path> ggufSplit(Path dir, String prefix, int count, int firstTensors,
      int perMember, BiConsumer<Integer, Map<String, GgufBuilder.Value>> keys,
      BiConsumer<Integer, GgufBuilder> hook) {
    int total = firstTensors + perMember * (count - 1);
    List<Path> out = new ArrayList<>();
    int t = 0;
    for (int no = 1; no <= count; no++) {
      GgufBuilder b = GgufBuilder.v3();
      Map<String, GgufBuilder.Value> kvs = new LinkedHashMap<>();
      if (no == 1) {
        kvs.put("general.architecture", GgufBuilder.str("llama"));
        kvs.put("general.name", GgufBuilder.str("tiny split"));
        kvs.put("llama.block_count", GgufBuilder.u32(2));
      }
      kvs.put("split.no", GgufBuilder.u16(no - 1));
      kvs.put("split.count", GgufBuilder.u16(count));
      kvs.put("split.tensors.count", GgufBuilder.i32(total));
      keys.accept(no, kvs);
      kvs.forEach(b::kv);
      int n = no == 1 ? firstTensors : perMember;
      for (int i = 0; i < n; i++, t++) {
        b.tensor("blk." + t + ".weight", 0, 8, 2);
      }
      hook.accept(no, b);
      out.add(write(dir.resolve(splitName(prefix, no, count)), b.build().bytes()));
    }
    return out;
  }

  /** A plain split set. */
  public static List<Path> ggufSplit(Path dir, String prefix, int count, int firstTensors,
      int perMember) {
    return ggufSplit(dir, prefix, count, firstTensors, perMember, (no, b) -> {});
  }

  public static Path write(Path p, byte[] bytes) {
    try {
      Files.createDirectories(p.getParent());
      return Files.write(p, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
