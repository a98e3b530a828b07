package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Option;

/**
 * {@link FastPath} accepts only the documented forms and, for them, gives what picocli's path
 * gives: the same exit status, stderr and stdout (up to the observation time and what depends on
 * it: {@code evidence_id} and the signature).
 */
class FastPathTest {
  @TempDir Path dir;

  private static String[] a(String... s) {
    return s;
  }

  @Test
  void acceptsOnlyTheDocumentedForms() {
    assertThat(FastPath.parse(a("inspect-model-artifact", "m.gguf"))).isNotNull();
    assertThat(FastPath.parse(a("inspect-model-artifact", "m.gguf", "--json"))).isNotNull();
    assertThat(FastPath.parse(a("inspect-model-artifact", "--json", "m.gguf"))).isNotNull();
    assertThat(FastPath.parse(a("inspect-model-artifact", "m.gguf", "--hash", "full", "--json")))
        .isNotNull();
    assertThat(FastPath.parse(a("inspect-model-artifact", "--hash", "header", "m.gguf")))
        .isNotNull();
    for (String[] refused :
        List.of(
            a("inspect-model-artifact"),
            a("inspect-model-artifact", "--json"),
            a("inspect-model-artifact", "m.gguf", "--hash=full"),
            a("inspect-model-artifact", "m.gguf", "--hash", "FULL"),
            a("inspect-model-artifact", "m.gguf", "--hash"),
            a("inspect-model-artifact", "m.gguf", "--hash", "full", "--hash", "full"),
            a("inspect-model-artifact", "m.gguf", "--json", "--json"),
            a("inspect-model-artifact", "m.gguf", "other.gguf"),
            a("inspect-model-artifact", "@args.txt"),
            a("inspect-model-artifact", "-"),
            a("inspect-model-artifact", ""),
            a("inspect-model-artifact", "m.gguf", "--"),
            a("inspect-model-artifact", "m.gguf", "--help"),
            a("inspect-model-artifact", "m.gguf", "--detail", "summary"),
            a("inspect-model-artifact", "m.gguf", "--max-tensor-rows", "3"),
            a("inspect-analysis-view", "--source", "e.json"),
            a("--version"),
            a("help", "inspect-model-artifact"),
            a())) {
      assertThat(FastPath.parse(refused)).as(String.join(" ", refused)).isNull();
    }
    InspectCommand c = FastPath.parse(a("inspect-model-artifact", "x", "--hash", "full"));
    assertThat(c.path).isEqualTo("x");
    assertThat(c.hash).isEqualTo("full");
    assertThat(c.json).isFalse();
    assertThat(c.maxTensorRows).isEqualTo(40);
    assertThat(c.detail).isNull();
    assertThat(c.evidenceOutput).isNull();
    assertThat(c.view).isNull();
  }

  /**
   * Every option with a default is one FastPath sets, with the same default: a new option with a
   * default must be added to FastPath (or this list) before it can diverge.
   */
  @Test
  void everyOptionDefaultIsOneFastPathSets() {
    Map<String, String> defaults = new TreeMap<>();
    for (Field f : InspectCommand.class.getDeclaredFields()) {
      Option o = f.getAnnotation(Option.class);
      if (o != null && !o.defaultValue().equals("__no_default_value__")) {
        defaults.put(o.names()[0], o.defaultValue());
      }
    }
    assertThat(defaults)
        .containsExactlyEntriesOf(
            new TreeMap<>(Map.of("--hash", "header", "--max-tensor-rows", "40")));
  }

  private record Run(int status, String out, String err) {}

  private Run viaPicocli(Path home, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int s =
        ReaMain.run(
            args, new PrintWriter(out, true), new PrintWriter(err, true), Map.of("REA_HOME", home.toString()));
    return new Run(s, out.toString(), err.toString());
  }

  private Run viaFastPath(Path home, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    Integer s =
        FastPath.tryRun(
            args, new PrintWriter(out, true), new PrintWriter(err, true), Map.of("REA_HOME", home.toString()));
    assertThat(s).as("fast path taken for " + String.join(" ", args)).isNotNull();
    return new Run(s, out.toString(), err.toString());
  }

  /** Removes what depends on the time of the run. */
  private static String normalize(String s) {
    return s.replaceAll("\"observed_at\":\"[^\"]*\"", "\"observed_at\":\"T\"")
        .replaceAll("sha256:[0-9a-f]{64}", "sha256:ID")
        .replaceAll("\"signature\":\"[^\"]*\"", "\"signature\":\"S\"")
        .replaceAll("(?m)^(\\s*observed\\S*\\s+).*$", "$1T");
  }

  @Test
  void bothPathsGiveTheSameResults() throws Exception {
    Path home = Files.createDirectories(dir.resolve("home"));
    Path gguf = Files.write(dir.resolve("tiny.gguf"), StartupTraining.tinyGguf());
    Path st = Files.write(dir.resolve("tiny.safetensors"), StartupTraining.tinySafetensors());
    Path junk = Files.write(dir.resolve("junk.bin"), new byte[] {'P', 'K', 3, 4, 0, 0, 0, 0});
    Path missing = dir.resolve("missing.gguf");
    Path sample = Path.of("..", "samples", "sample-mixed.gguf").toAbsolutePath().normalize();
    List<String> files = new ArrayList<>(List.of(gguf.toString(), st.toString(), junk.toString(),
        missing.toString(), dir.toString(), "relative/none.gguf"));
    if (Files.isRegularFile(sample)) {
      files.add(sample.toString());
    }
    int compared = 0;
    for (String f : files) {
      for (String[] tail :
          List.of(a(), a("--json"), a("--hash", "full"), a("--json", "--hash", "full"),
              a("--hash", "header", "--json"))) {
        String[] args = new String[tail.length + 2];
        args[0] = "inspect-model-artifact";
        args[1] = f;
        System.arraycopy(tail, 0, args, 2, tail.length);
        Run p = viaPicocli(home, args);
        Run q = viaFastPath(home, args);
        String what = String.join(" ", args);
        assertThat(q.status).as(what).isEqualTo(p.status);
        assertThat(normalize(q.err)).as(what).isEqualTo(normalize(p.err));
        assertThat(normalize(q.out)).as(what).isEqualTo(normalize(p.out));
        compared++;
      }
    }
    assertThat(compared).isGreaterThanOrEqualTo(30);
  }
}
