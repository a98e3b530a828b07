package dev.rea.cli;

import static dev.rea.cli.ScanCommandTest.lines;
import static dev.rea.cli.ScanResumeTest.verdicts;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The must-show: {@code rea scan} killed with SIGKILL at a random point, then {@code
 * --resume}d, finishes with the same units and verdicts as an uninterrupted scan. The real
 * command runs in a child JVM ({@code java -cp <test class path> dev.rea.cli.ReaMain scan ...})
 * and is killed with {@link Process#destroyForcibly()} once its output holds a random number of
 * lines; the first resume is killed the same way, the second runs to the end. SIGTERM and SIGINT
 * stop it with exit 143 and 130, whole lines only and the closing count last.
 */
class ScanKillResumeTest {
  @TempDir Path dir;

  private Process start(Path root, Path out, boolean resume) throws Exception {
    List<String> cmd = new ArrayList<>(InheritedSignals.defaultSigint());
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(ReaMain.class.getName());
    cmd.addAll(List.of("scan", root.toString(), "--output", out.toString(), "--jobs", "2"));
    if (resume) {
      cmd.add("--resume");
    }
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    Path log = dir.resolve("child-" + System.nanoTime() + ".log");
    pb.redirectOutput(log.toFile());
    pb.environment().put("REA_HOME", CliRunner.HOME.toString());
    Process p = pb.start();
    logs.put(p, log);
    return p;
  }

  private final java.util.Map<Process, Path> logs = new java.util.HashMap<>();

  private Path logOf(Process p) {
    return logs.get(p);
  }

  /** @return lines (newlines) in the file so far */
  private static long newlines(Path file) throws Exception {
    if (!Files.exists(file)) {
      return 0;
    }
    byte[] b = Files.readAllBytes(file);
    long n = 0;
    for (byte x : b) {
      if (x == '\n') {
        n++;
      }
    }
    return n;
  }

  /**
   * Starts the scan and kills it once the output holds {@code target} more lines than {@code
   * from} (or when it ends by itself first).
   *
   * @return whether it was killed while running
   */
  private boolean killAt(Path root, Path out, boolean resume, long from, long target)
      throws Exception {
    Process p = start(root, out, resume);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (p.isAlive() && newlines(out) - from < target && System.nanoTime() < deadline) {
      Thread.sleep(2);
    }
    boolean running = p.isAlive();
    p.destroyForcibly();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return running;
  }

  @Test
  void sigtermAndSigintStopTheScanWithWholeLinesAndTheClosingCountLast() throws Exception {
    // Large enough that the scan is still under way when the signal follows the 20th line (a
    // run under load once saw the scan finish first, exit 0).
    ScanTrees.Tree tree = ScanTrees.write(dir.resolve("tree"), 4000, false);
    for (String signal : new String[] {"TERM", "INT"}) {
      Path out = dir.resolve("out-" + signal + ".jsonl");
      Process p = start(tree.root(), out, false);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (p.isAlive() && newlines(out) < 20 && System.nanoTime() < deadline) {
        Thread.sleep(2);
      }
      assertThat(p.isAlive()).as("still scanning after 20 lines").isTrue();
      if (signal.equals("INT")) {
        org.assertj.core.api.Assumptions.assumeThat(
                InheritedSignals.ignored(p.pid(), InheritedSignals.SIGINT))
            .as("SIGINT is ignored in the child; cannot test")
            .isFalse();
      }
      new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start().waitFor();
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isEqualTo(signal.equals("TERM") ? 143 : 130);
      String text = Files.readString(out, StandardCharsets.UTF_8);
      assertThat(text).endsWith("\n");
      int whole = lines(text).size();
      assertThat(whole).isBetween(20, tree.units().size() - 1);
      String log = Files.readString(logOf(p), StandardCharsets.UTF_8).strip();
      String[] logLines = log.split("\n");
      assertThat(logLines[logLines.length - 2]).contains("interrupted", "--resume");
      assertThat(logLines[logLines.length - 1]).startsWith("rea scan: " + whole + " complete,");
    }
  }

  @Test
  void killedAtARandomPointThenResumedTheOutputEqualsAnUninterruptedScan() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    ScanTrees.Tree tree = ScanTrees.write(dir.resolve("tree"), 1200, true);
    // Sets too (a complete checkpoint and split set, a failed and a rejected set, loose files).
    ScanTrees.Sets sets = ScanTrees.writeSets(tree.root().resolve("sets"));
    int units = tree.units().size() + sets.sets().size() + sets.loose().size();

    Path reference = dir.resolve("reference.jsonl");
    CliRunner.Result ref =
        CliRunner.run("scan", tree.root().toString(), "--output", reference.toString());
    assertThat(ref.status()).isEqualTo(1);

    Path out = dir.resolve("out.jsonl");
    long first = 1 + random.nextInt(units / 2);
    boolean killed = killAt(tree.root(), out, false, 0, first);
    String afterKill = Files.readString(out, StandardCharsets.UTF_8);
    long whole = newlines(out);
    assertThat(whole).as("seed %d: lines before the kill", seed).isLessThan(units);
    // Every whole line is a scan line; at most the last, cut short, is not.
    int cut = afterKill.lastIndexOf('\n') + 1;
    assertThat(lines(afterKill.substring(0, cut))).hasSize((int) whole);

    long second = 1 + random.nextInt((int) Math.max(1, (units - whole) / 2));
    boolean killedAgain = killAt(tree.root(), out, true, whole, second);

    CliRunner.Result last =
        CliRunner.run("scan", tree.root().toString(), "--output", out.toString(), "--resume");
    assertThat(last.status()).as("seed %d\n%s", seed, last.err()).isEqualTo(1);
    assertThat(verdicts(lines(Files.readString(out))))
        .as("seed %d, killed %s at %d lines, then %s after %d more", seed, killed, whole, killedAgain, second)
        .isEqualTo(verdicts(lines(Files.readString(reference))));
    assertThat(killed).as("seed %d: the first run was still running when killed", seed).isTrue();
  }
}
