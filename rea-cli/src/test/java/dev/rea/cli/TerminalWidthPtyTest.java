package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.internal.format.gguf.GgufTesting;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * REA in a real terminal of 80 columns (a tmux pane; skipped where tmux is not installed): the
 * {@code --hash full} progress bar stays on one line, redrawn in place, and no line of the
 * readable report, the summary or a page is longer than the terminal is wide (issue 19: the
 * progress line wrapped and scrolled on every update, tables wrapped mid-number, view tables were
 * about 150 columns wide); {@code diff} and {@code check} lines (a changed array's digests, a
 * failure's message) go on at the next line instead of past the edge.
 *
 * <p>The commands run from this test's class path in one pane; {@code tmux pipe-pane} records
 * every byte the pane receives, and {@code capture-pane -J} gives the screen and its history with
 * wrapped lines joined, so a line longer than the pane shows as one long line. The pane's width
 * reaches REA the way it does for a user: {@code COLUMNS} is unset, so REA asks {@code stty size}.
 * Messages on stderr ({@code rea: ...}) are not laid out and not checked.
 */
class TerminalWidthPtyTest {
  private static final int COLUMNS = 80;

  @TempDir Path dir;

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void atEightyColumnsTheBarStaysOnOneLineAndNoLineIsLonger() throws Exception {
    Assumptions.assumeTrue(runs("tmux", "-V"), "tmux is not installed: pseudo-terminal test skipped");
    Path tiny = GgufTesting.resourceFile(dir, "real/ollama_ollama-llama-2-tiny-random.gguf.gz");
    // The same header followed by a sparse tail: large enough for several redraws of the bar.
    Path big = Files.copy(tiny, dir.resolve("big.gguf"));
    try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
      f.setLength(64L << 20);
    }
    Path spm = GgufTesting.resourceFile(dir, "real/ggml-vocab-llama-spm.gguf.gz");
    Path falcon = GgufTesting.resourceFile(dir, "real/ggml-vocab-falcon.v2-ff5a3f0.gguf.gz");
    // A short name: a path longer than the screen is never cut, and would be a line of its own.
    Path corrupted =
        Files.move(
            GgufTesting.resourceFile(
                dir, "real/uShure_llama-jni-bridge-CORRUPTED-ggml-vocab-bert-bge.gguf.gz"),
            dir.resolve("cut.gguf"));
    Path evidence = dir.resolve("ev.json");
    Path socket = dir.resolve("tmux.sock");
    Path raw = dir.resolve("raw.txt");
    Path go = dir.resolve("go");
    Path done = dir.resolve("done");
    String rea =
        String.join(
            " ",
            sq(Path.of(System.getProperty("java.home"), "bin", "java").toString()),
            "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto -cp",
            sq(System.getProperty("java.class.path")),
            "dev.rea.cli.ReaMain");
    String script =
        String.join(
            "\n",
            "while [ ! -e " + sq(go.toString()) + " ]; do sleep 0.05; done",
            "unset COLUMNS",
            "export REA_HOME=" + sq(dir.resolve("home").toString()),
            rea + " inspect-model-artifact " + sq(big.toString()) + " --hash full"
                + " --max_tensor_rows 100",
            "echo \"== exit $?\"",
            rea + " inspect-model-artifact " + sq(tiny.toString()) + " --detail summary"
                + " --evidence_output " + sq(evidence.toString())
                + " --view '{\"collection\":\"tensors\"}'",
            rea + " inspect-analysis-view --source " + sq(evidence.toString())
                + " --view '{\"kind\":\"model-artifact\",\"collection\":\"metadata\"}'",
            rea + " inspect-analysis-view --source " + sq(evidence.toString())
                + " --view '{\"kind\":\"model-artifact\",\"collection\":\"tensors\"}'",
            rea + " diff " + sq(falcon.toString()) + " " + sq(spm.toString()),
            rea + " check " + sq(corrupted.toString()) + " " + sq(tiny.toString()),
            "touch " + sq(done.toString()),
            "sleep 600",
            "");
    Path scriptFile = Files.writeString(dir.resolve("run.sh"), script);
    String pane;
    try {
      tmux(socket, "new-session", "-d", "-s", "rea", "-x", "" + COLUMNS, "-y", "50",
          "sh " + sq(scriptFile.toString()));
      tmux(socket, "pipe-pane", "-t", "rea", "-o", "cat > " + sq(raw.toString()));
      Files.writeString(go, "");
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);
      while (!Files.exists(done) && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(done).as("the commands in the pane finished").exists();
      pane = tmux(socket, "capture-pane", "-p", "-J", "-S", "-", "-t", "rea");
    } finally {
      runs("tmux", "-S", socket.toString(), "kill-server");
    }

    // The bar: every redraw is one line of at most 79 characters, drawn over the previous one.
    String bytes = Files.readString(raw, StandardCharsets.UTF_8);
    List<String> redraws = new ArrayList<>();
    for (String segment : bytes.split("[\r\n]")) {
      if (segment.startsWith("hashing [")) {
        redraws.add(segment.replace("\033[K", ""));
      }
    }
    System.out.println("TerminalWidthPtyTest: " + redraws.size() + " redraws of the bar");
    assertThat(redraws.size()).as("redraws of the bar").isGreaterThanOrEqualTo(3);
    for (String r : redraws) {
      assertThat(r.length()).as(r).isLessThan(COLUMNS);
    }
    // Nothing of it is left on the screen or in its history.
    assertThat(pane).doesNotContain("hashing [").contains("== exit 0");

    // The reports: every line fits, tables included.
    assertThat(pane)
        .contains("Tensors (12)", "  #   NAME", "Headline metadata", "Page of tensors",
            "Page of metadata", "  INDEX  KEY", "  ~ metadata tokenizer.ggml.tokens: STRING[",
            "FAIL", "file_format_rejected:", "OK ");
    int checked = 0;
    for (String line : pane.split("\n")) {
      if (line.startsWith("rea: ")) {
        continue; // a message on stderr (here: the signing key was created), left to the terminal
      }
      assertThat(TextTable.columns(line)).as(line).isLessThanOrEqualTo(COLUMNS);
      checked++;
    }
    assertThat(checked).isGreaterThan(100);
  }

  /** @return {@code s} quoted for sh */
  private static String sq(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }

  /** Runs tmux on the private socket; @return its stdout */
  private static String tmux(Path socket, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("tmux", "-S", socket.toString(), "-f", "/dev/null"));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().putIfAbsent("TERM", "xterm");
    pb.environment().remove("TMUX");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("tmux %s: %s", String.join(" ", args), out).isZero();
    return out;
  }

  /** @return whether the command runs and exits 0 */
  private static boolean runs(String... cmd) {
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
