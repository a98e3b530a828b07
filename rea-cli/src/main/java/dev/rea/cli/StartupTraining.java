package dev.rea.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs the usual command paths once so the {@code ./rea} launcher can record the classes they
 * load ({@code -XX:DumpLoadedClassList}) and dump them into a static class-data sharing archive
 * ({@code -Xshare:dump}); later runs map that
 * archive ({@code -XX:SharedArchiveFile}) and start faster. Inspects a tiny GGUF and a tiny
 * safetensors file it writes (readable report, {@code --json} with signing, {@code --hash full},
 * a summary with a view, a two-member sharded set readable and as a bundle, a failure), all inside a temporary directory that also serves as
 * {@code REA_HOME} (so no key is created in the user's home) and is deleted at the end. Prints
 * nothing; exits 0 when every command gave the expected status, 1 otherwise.
 */
public final class StartupTraining {
  private StartupTraining() {}

  /** Entry point; arguments are ignored. */
  public static void main(String[] args) throws IOException {
    Path dir = Files.createTempDirectory("rea-training");
    boolean ok;
    try {
      ok = train(dir);
    } finally {
      deleteTree(dir);
    }
    System.exit(ok ? 0 : 1);
  }

  /** Runs the training commands with {@code dir} as working area and REA home. */
  static boolean train(Path dir) throws IOException {
    Path gguf = Files.write(dir.resolve("training.gguf"), tinyGguf());
    Path safetensors = Files.write(dir.resolve("training.safetensors"), tinySafetensors());
    Map<String, String> env = Map.of("REA_HOME", dir.resolve("home").toString());
    PrintWriter sink = new PrintWriter(Writer.nullWriter());
    String g = gguf.toString();
    String s = safetensors.toString();
    boolean ok = true;
    ok &= ReaMain.run(new String[] {"inspect-model-artifact", g}, sink, sink, env) == 0;
    ok &= ReaMain.run(new String[] {"inspect-model-artifact", g, "--json"}, sink, sink, env) == 0;
    ok &= ReaMain.run(new String[] {"inspect-model-artifact", s, "--json"}, sink, sink, env) == 0;
    ok &= ReaMain.run(new String[] {"inspect-model-artifact", s}, sink, sink, env) == 0;
    ok &=
        ReaMain.run(
                new String[] {"inspect-model-artifact", g, "--hash", "full", "--json"},
                sink,
                sink,
                env)
            == 0;
    ok &=
        ReaMain.run(
                new String[] {
                  "inspect-model-artifact",
                  g,
                  "--detail",
                  "summary",
                  "--evidence_output",
                  dir.resolve("evidence.json").toString(),
                  "--view",
                  "{\"collection\":\"tensors\"}",
                  "--json"
                },
                sink,
                sink,
                env)
            == 0;
    // A sharded model: index and two members, readable and as a signed bundle.
    Path set = Files.createDirectories(dir.resolve("set"));
    Files.write(set.resolve("model-00001-of-00002.safetensors"), tinySafetensors("a"));
    Files.write(set.resolve("model-00002-of-00002.safetensors"), tinySafetensors("b"));
    Files.writeString(set.resolve("model.safetensors.index.json"),
        "{\"metadata\":{\"total_size\":16},\"weight_map\":{"
            + "\"a\":\"model-00001-of-00002.safetensors\","
            + "\"b\":\"model-00002-of-00002.safetensors\"}}");
    ok &= ReaMain.run(new String[] {"inspect-model-set", set.toString()}, sink, sink, env) == 0;
    ok &= ReaMain.run(
        new String[] {"inspect-model-set", set.toString(), "--json"}, sink, sink, env) == 0;
    // A failure path: the error object.
    ok &=
        ReaMain.run(
                new String[] {"inspect-model-artifact", dir.resolve("missing.gguf").toString(), "--json"},
                sink,
                sink,
                env)
            != 0;
    sink.flush();
    return ok;
  }

  /**
   * A GGUF v3 file: two metadata pairs (a string and a string array) and one F32 tensor of 8
   * elements, with its 32 data bytes.
   */
  static byte[] tinyGguf() {
    ByteBuffer b = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);
    b.put(new byte[] {'G', 'G', 'U', 'F'}).putInt(3).putLong(1).putLong(2);
    putString(b, "general.architecture");
    b.putInt(8);
    putString(b, "llama");
    putString(b, "tokenizer.ggml.tokens");
    b.putInt(9).putInt(8).putLong(2);
    putString(b, "a");
    putString(b, "b");
    putString(b, "w");
    b.putInt(1).putLong(8).putInt(0).putLong(0);
    while (b.position() % 32 != 0) {
      b.put((byte) 0);
    }
    b.put(new byte[32]);
    byte[] out = new byte[b.position()];
    b.flip().get(out);
    return out;
  }

  private static void putString(ByteBuffer b, String s) {
    byte[] u = s.getBytes(StandardCharsets.UTF_8);
    b.putLong(u.length).put(u);
  }

  /** A safetensors file with metadata and one F32 tensor of 2 elements. */
  static byte[] tinySafetensors() {
    return tinySafetensors("w");
  }

  /** As {@link #tinySafetensors()}, its tensor named {@code name} (plain ASCII). */
  static byte[] tinySafetensors(String name) {
    byte[] json =
        ("{\"__metadata__\":{\"format\":\"pt\"},\"" + name
                + "\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}")
            .getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(8 + json.length + 8).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(json.length).put(json).put(new byte[8]);
    return b.array();
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    } catch (IOException | UncheckedIOException e) {
      // Best effort: a leftover temporary directory is harmless.
    }
  }
}
