package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.internal.io.FileAccess;
import dev.rea.core.options.Limits;
import dev.rea.core.testing.FaultyFileAccess;
import dev.rea.core.testing.FileChanges;
import dev.rea.core.testing.HookedFileAccess;
import dev.rea.core.testing.HostileFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;

/**
 * Interrupted and failed full hashes through the {@code rea} command (specification, "Identity
 * and reads"; CONTRACT sections 1 and 6): partial Evidence is printed (inside the error object
 * with {@code --json}, as a report otherwise) and the exit status is the failure's; a real
 * SIGINT to a child JVM hashing a large sparse file exits 130 with partial Evidence.
 */
class HostileCliTest {
  @TempDir Path dir;

  /** Runs the CLI in-process with the given inspector (the command's test seam). */
  static CliRunner.Result runWith(ModelInspector inspector, String... args) {
    CommandLine cmd = ReaMain.commandLine(Map.of("REA_HOME", CliRunner.HOME.toString()));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));
    ((InspectCommand) cmd.getSubcommands().get("inspect-model-artifact").getCommand()).frontDoor =
        b -> b.inspector(inspector);
    int status = cmd.execute(args);
    return new CliRunner.Result(status, out.toString(), err.toString());
  }

  private static void assertPartialJson(JsonNode partial, JsonNode complete) {
    assertThat(partial).isNotNull();
    assertThat(partial.get("status").asString()).isEqualTo("partial");
    assertThat(partial.get("artifact").get("sha256").isNull()).isTrue();
    assertThat(partial.get("subject").isNull()).isTrue();
    assertThat(partial.get("coverage").get("header").asString()).isEqualTo("complete");
    assertThat(partial.get("coverage").get("digest").asString()).isEqualTo("unknown");
    assertThat(partial.get("coverage").get("final_identity").asString()).isEqualTo("unverified");
    assertThat(partial.get("artifact").get("header_sha256"))
        .isEqualTo(complete.get("artifact").get("header_sha256"));
    assertThat(partial.get("tensors")).isEqualTo(complete.get("tensors"));
    assertThat(partial.get("metadata")).isEqualTo(complete.get("metadata"));
    assertThat(partial.get("totals")).isEqualTo(complete.get("totals"));
  }

  private JsonNode completeRecord(Path p) {
    CliRunner.Result ok = CliRunner.run("inspect-model-artifact", p.toString(), "--hash", "full", "--json");
    assertThat(ok.status()).isEqualTo(0);
    return ok.json().get("records").get(0);
  }

  @Test
  void eioDuringAFullHashPrintsPartialEvidenceInsideTheJsonErrorAndExitsFour() throws Exception {
    for (String name : new String[] {"eio.gguf", "eio.safetensors"}) {
      byte[] bytes = name.endsWith(".gguf") ? HostileFiles.gguf() : HostileFiles.safetensors();
      Path p = Files.write(dir.resolve(name), bytes);
      JsonNode complete = completeRecord(p);
      long at = bytes.length - 1000;
      FaultyFileAccess access = new FaultyFileAccess(FileAccess.system(), at, FaultyFileAccess::eio);
      CliRunner.Result r =
          runWith(ModelInspector.withAccess(Limits.defaults(), access),
              "inspect-model-artifact", p.toString(), "--hash", "full", "--json");
      assertThat(r.status()).isEqualTo(4);
      JsonNode e = r.json().get("error");
      assertThat(e.get("code").asString()).isEqualTo("execution_failure");
      assertThat(e.get("category").asString()).isEqualTo("host_failure");
      assertThat(e.get("constraint").asString()).isEqualTo("io_error");
      assertThat(e.get("details").get("path").asString()).isEqualTo(p.toString());
      assertThat(e.get("details").get("offset").asString()).isEqualTo(Long.toString(at));
      assertThat(e.get("details").get("diagnostics").get("path").asString()).isEqualTo(p.toString());
      assertThat(e.get("details").get("diagnostics").get("reason").asString())
          .isEqualTo("Input/output error");
      JsonNode partial = r.json().get("partial_evidence");
      assertPartialJson(partial, complete);
      assertThat(partial.get("artifact").get("bytes_read").asString()).isEqualTo(Long.toString(at));
      assertThat(access.closed()).isEqualTo(access.opened()).isEqualTo(1);

      // Without --json: the partial report on stdout, the typed error on stderr, same status.
      FaultyFileAccess again = new FaultyFileAccess(FileAccess.system(), at, FaultyFileAccess::eio);
      CliRunner.Result text =
          runWith(ModelInspector.withAccess(Limits.defaults(), again),
              "inspect-model-artifact", p.toString(), "--hash", "full");
      assertThat(text.status()).isEqualTo(4);
      assertThat(text.out()).startsWith("PARTIAL Evidence for " + p);
      assertThat(text.out()).contains(complete.get("tensors").get(0).get("name").asString());
      assertThat(text.err())
          .contains("execution_failure (io_error)")
          .contains("Input/output error")
          .contains("path:   " + p);
      assertThat(again.closed()).isEqualTo(1);

      // A standard format's stdout is its document or nothing: the error alone, on stderr.
      for (String format : new String[] {"cyclonedx", "in-toto"}) {
        FaultyFileAccess std = new FaultyFileAccess(FileAccess.system(), at, FaultyFileAccess::eio);
        CliRunner.Result bom =
            runWith(ModelInspector.withAccess(Limits.defaults(), std),
                "inspect-model-artifact", p.toString(), "--hash", "full", "--format", format);
        assertThat(bom.status()).as(format).isEqualTo(4);
        assertThat(bom.out()).as(format).isEmpty();
        assertThat(bom.err()).as(format).contains("execution_failure (io_error)");
      }
    }
  }

  /**
   * A GGUF read cancelled inside the header: the report says the header was read in part, that
   * the totals cover the entries read, and how many of the declared ones those are (the
   * {@code partial_header} limitation), so zero tensors read is not taken for zero declared.
   */
  @Test
  void aReportOfAHeaderReadInPartSaysWhatTheHeaderDeclares() throws Exception {
    byte[] bytes =
        GgufBuilder.v3()
            .kv("general.architecture", GgufBuilder.str("llama"))
            .kv("tokenizer.ggml.tokens", GgufBuilder.stringArray("tok", 4000))
            .tensor("a", 0, 4)
            .tensor("b", 0, 4)
            .tensor("c", 0, 4)
            .bytes();
    Path p = Files.write(dir.resolve("cut.gguf"), bytes);
    dev.rea.core.options.Cancellation cancel = new dev.rea.core.options.Cancellation();
    // Inside the token array: the first pair is read whole, no tensor entry is.
    FaultyFileAccess access =
        new FaultyFileAccess(
            FileAccess.system(),
            20_000,
            () -> {
              cancel.cancel();
              return new java.nio.channels.ClosedByInterruptException();
            });
    dev.rea.core.evidence.Inspection r =
        ModelInspector.withAccess(Limits.defaults(), access)
            .run(p, dev.rea.core.options.HashMode.HEADER, new ModelInspector.Listener() {}, cancel);
    Thread.interrupted();
    assertThat(r.failure()).isPresent();
    assertThat(r.partialEvidence()).isPresent();
    StringWriter text = new StringWriter();
    new HumanReport(new PrintWriter(text, true), 40).print(r.partialEvidence().orElseThrow());
    assertThat(text.toString())
        .startsWith("PARTIAL Evidence for " + p)
        .contains("read in part (the read stopped inside it)")
        .contains(
            "0 tensors, 0 parameters (declared), 0 bytes of tensor data; of the entries read"
                + " before the stop only (see Limitations)")
        .contains(
            "- [partial_header] the read stopped inside the header, after 1 of its 2 metadata"
                + " pairs (metadata_kv_count) and 0 of its 3 tensor entries (tensor_count) were"
                + " read whole");
  }

  @Test
  void aFailureInsideTheHeaderPrintsNoPartialEvidence() throws Exception {
    Path p = Files.write(dir.resolve("early.safetensors"), HostileFiles.safetensors());
    FaultyFileAccess access = new FaultyFileAccess(FileAccess.system(), 20, FaultyFileAccess::eio);
    CliRunner.Result r =
        runWith(ModelInspector.withAccess(Limits.defaults(), access),
            "inspect-model-artifact", p.toString(), "--hash", "full", "--json");
    assertThat(r.status()).isEqualTo(4);
    assertThat(r.json().get("error").get("constraint").asString()).isEqualTo("io_error");
    assertThat(r.json().has("partial_evidence")).isFalse();
    assertThat(access.closed()).isEqualTo(1);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(FileChanges.class)
  void aFileChangedDuringAFullHashIsTargetChangedWithPartialEvidenceNeverADigest(FileChanges change)
      throws Exception {
    for (String name : new String[] {"changed.gguf", "changed.safetensors"}) {
      byte[] bytes = name.endsWith(".gguf") ? HostileFiles.bigGguf() : HostileFiles.bigSafetensors();
      Path p = Files.write(dir.resolve(change + "-" + name), bytes);
      FileChanges.age(p);
      JsonNode complete = completeRecord(p);
      HookedFileAccess access =
          new HookedFileAccess(FileAccess.system(), (1 << 20) + 12345, change.on(p));
      CliRunner.Result r =
          runWith(ModelInspector.withAccess(Limits.defaults(), access),
              "inspect-model-artifact", p.toString(), "--hash", "full", "--json");
      assertThat(access.fired()).isTrue();
      assertThat(r.status()).as("%s %s: %s", change, name, r.out()).isEqualTo(4);
      JsonNode e = r.json().get("error");
      assertThat(e.get("constraint").asString()).isEqualTo("target_changed");
      assertThat(e.get("details").get("diagnostics").get("path").asString()).isEqualTo(p.toString());
      assertThat(r.json().has("records")).isFalse();
      assertPartialJson(r.json().get("partial_evidence"), complete);
      assertThat(access.closed()).isEqualTo(1);
    }
  }

  /**
   * A real SIGINT or SIGTERM: a child JVM runs {@code rea inspect-model-artifact --hash full
   * --json} over a 64 GiB sparse GGUF; once its descriptor is past 64 MiB the test sends the
   * signal. The child stops the hash, closes the file, prints the error object with partial
   * Evidence and exits 130 (SIGINT) or 143 (SIGTERM). Bounded: the test gives up (and kills the
   * child) after two minutes.
   */
  @ParameterizedTest
  @CsvSource({"INT, 2, 130", "TERM, 15, 143"})
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aSignalDuringAFullHashCancelsWithPartialEvidence(String signal, int number, int status)
      throws Exception {
    assumeThat(Path.of("/proc/self/fdinfo")).as("needs Linux /proc").exists();
    long elements = 1L << 34; // F32: 64 GiB of tensor data, all a hole
    Path p = dir.resolve("sparse-64g.gguf");
    GgufBuilder.Built built = dev.rea.core.testing.HostileFiles.sparseF32Gguf(p, "huge.weight", elements);
    long size = built.dataOffset() + elements * 4;
    Path home = Files.createDirectories(dir.resolve("home"));
    Path stdout = dir.resolve("child.out");
    Path stderr = dir.resolve("child.err");
    List<String> cmd = new ArrayList<>();
    cmd.addAll(InheritedSignals.defaultSigint());
    cmd.addAll(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx128m",
        "-cp", System.getProperty("java.class.path"),
        ReaMain.class.getName(),
        "inspect-model-artifact", p.toString(), "--hash", "full", "--json"));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
    pb.environment().put("REA_HOME", home.toString());
    Process child = pb.start();
    try {
      long pid = child.pid();
      long pos = waitForReadPosition(child, pid, p, 64L << 20, 120_000);
      assumeThat(InheritedSignals.ignored(pid, number)).as("SIG%s is ignored in the child; cannot test", signal).isFalse();
      assertThat(pos).as("the child was hashing when interrupted").isGreaterThan(64L << 20);
      Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start();
      assertThat(kill.waitFor()).isEqualTo(0);
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("the child exits after SIG%s", signal).isTrue();
      String err = Files.readString(stderr);
      assertThat(child.exitValue()).as("stderr: %s", err).isEqualTo(status);
      JsonNode json = CliRunner.JSON.readTree(Files.readString(stdout, StandardCharsets.UTF_8));
      JsonNode e = json.get("error");
      assertThat(e.get("code").asString()).isEqualTo("cancelled");
      assertThat(e.get("constraint").asString()).isEqualTo("cancelled");
      assertThat(e.get("details").get("path").asString()).isEqualTo(p.toString());
      JsonNode partial = json.get("partial_evidence");
      assertThat(partial.get("status").asString()).isEqualTo("partial");
      assertThat(partial.get("artifact").get("sha256").isNull()).isTrue();
      assertThat(partial.get("coverage").get("digest").asString()).isEqualTo("unknown");
      assertThat(partial.get("coverage").get("final_identity").asString()).isEqualTo("unverified");
      assertThat(partial.get("tensors").get(0).get("name").asString()).isEqualTo("huge.weight");
      assertThat(partial.get("tensors").get(0).get("byte_length").asString())
          .isEqualTo(Long.toString(elements * 4));
      assertThat(partial.get("artifact").get("file_size").asString()).isEqualTo(Long.toString(size));
      long bytesRead = Long.parseLong(partial.get("artifact").get("bytes_read").asString());
      assertThat(bytesRead).isGreaterThanOrEqualTo(pos).isLessThan(size);
    } finally {
      child.destroyForcibly();
      child.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /**
   * A heap too small for the Evidence of a 100,000-tensor header: the child JVM (48 MiB heap)
   * runs out while building it and still answers with the JSON error object, exit 5, instead of
   * a stack trace.
   */
  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aHeapTooSmallForTheEvidenceIsResourceExhaustedWithTheJsonError() throws Exception {
    GgufBuilder b = GgufBuilder.v3().kv("general.architecture", GgufBuilder.str("llama"));
    for (int i = 0; i < 100_000; i++) {
      b.tensor("blk." + i + ".ffn_gate_inp.weight", 0, 0);
    }
    Path p = dir.resolve("many.gguf");
    Files.write(p, b.bytes());
    Path stdout = dir.resolve("oom.out");
    Path stderr = dir.resolve("oom.err");
    ProcessBuilder pb =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx48m",
                "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"),
                ReaMain.class.getName(),
                "inspect-model-artifact", p.toString(), "--json")
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile());
    pb.environment().put("REA_HOME", Files.createDirectories(dir.resolve("oom-home")).toString());
    Process child = pb.start();
    try {
      assertThat(child.waitFor(150, TimeUnit.SECONDS)).isTrue();
      String err = Files.readString(stderr);
      // If this fails with status 0, the Evidence fit in 48 MiB after all: raise the tensor count.
      assertThat(child.exitValue()).as("stderr: %s", err).isEqualTo(5);
      JsonNode e = CliRunner.JSON.readTree(Files.readString(stdout)).get("error");
      assertThat(e.get("code").asString()).isEqualTo("resource_exhausted");
      assertThat(e.get("constraint").asString()).isEqualTo("retained_budget");
      assertThat(e.get("message").asString()).contains("Java heap");
      assertThat(err).doesNotContain("OutOfMemoryError\n\tat ");
    } finally {
      child.destroyForcibly();
    }
  }

  /**
   * A relative path run from a directory whose name holds a byte that is not UTF-8 ({@code d\377}):
   * the JVM's working directory ({@code user.dir}) reads {@code d\uFFFD}, the name of a sibling
   * directory holding another model. The path is refused, not resolved in that sibling (a
   * hostile-input trial had REA inspect the sibling's model). The directories are made by the
   * shell: Java cannot name a file with that byte.
   */
  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void aRelativePathFromADirectoryWhoseNameIsNotValidTextIsRefused() throws Exception {
    Path model = Files.write(dir.resolve("model.gguf"), GgufBuilder.v3().tensor("w", 0, 4).bytes());
    Path stdout = dir.resolve("cwd.out");
    String script =
        "bad=$(printf '%s/d\\377' \"$0\"); other=$(printf '%s/d\\357\\277\\275' \"$0\");"
            + " mkdir \"$bad\" \"$other\" && cp \"$1\" \"$other/m.gguf\" && cd \"$bad\""
            + " && exec \"$2\" -cp \"$3\" \"$4\" inspect-model-artifact m.gguf --json";
    ProcessBuilder pb =
        new ProcessBuilder(
                "sh", "-c", script, dir.toString(), model.toString(),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                System.getProperty("java.class.path"), ReaMain.class.getName())
            .redirectOutput(stdout.toFile())
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("LC_ALL", "C.UTF-8");
    pb.environment().put("REA_HOME", Files.createDirectories(dir.resolve("cwd-home")).toString());
    Process child = pb.start();
    try {
      assertThat(child.waitFor(90, TimeUnit.SECONDS)).isTrue();
      String out = Files.readString(stdout);
      assertThat(child.exitValue()).as(out).isEqualTo(2);
      JsonNode e = CliRunner.JSON.readTree(out).get("error");
      assertThat(e.get("constraint").asString()).isEqualTo("bad_argument");
      assertThat(e.get("message").asString())
          .startsWith("PATH is relative, and the working directory's name holds U+FFFD");
    } finally {
      child.destroyForcibly();
    }
  }

  /**
   * A reader that goes away ({@code rea ... | head -1}): the child's stdout is a pipe whose read
   * end is closed before the child writes. The child exits 141 (as if killed by SIGPIPE), quietly.
   */
  @Test
  @Timeout(value = 2, unit = TimeUnit.MINUTES)
  void aBrokenPipeOnStdoutExits141WithoutAMessage() throws Exception {
    Path p = dir.resolve("small.gguf");
    Files.write(p, GgufBuilder.v3().kv("general.architecture", GgufBuilder.str("llama")).tensor("w", 0, 4).bytes());
    Path stderr = dir.resolve("pipe.err");
    ProcessBuilder pb =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"),
                ReaMain.class.getName(),
                "inspect-model-artifact", p.toString())
            .redirectError(stderr.toFile());
    pb.environment().put("REA_HOME", Files.createDirectories(dir.resolve("pipe-home")).toString());
    Process child = pb.start();
    child.getInputStream().close();
    try {
      assertThat(child.waitFor(90, TimeUnit.SECONDS)).isTrue();
      assertThat(child.exitValue()).as("stderr: %s", Files.readString(stderr)).isEqualTo(141);
      assertThat(Files.readString(stderr)).isEmpty();
    } finally {
      child.destroyForcibly();
    }
  }

  /** Polls the child's open descriptors until the one on {@code file} is past {@code min}. */
  private static long waitForReadPosition(Process child, long pid, Path file, long min, long timeoutMs)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
    Path fds = Path.of("/proc", Long.toString(pid), "fd");
    while (System.nanoTime() < deadline && child.isAlive()) {
      try (var list = Files.list(fds)) {
        for (Path fd : (Iterable<Path>) list::iterator) {
          try {
            if (Files.readSymbolicLink(fd).equals(file)) {
              Path info = Path.of("/proc", Long.toString(pid), "fdinfo", fd.getFileName().toString());
              for (String line : Files.readAllLines(info)) {
                if (line.startsWith("pos:")) {
                  long pos = Long.parseLong(line.substring(4).trim());
                  if (pos > min) {
                    return pos;
                  }
                }
              }
            }
          } catch (IOException closedMeanwhile) {
            // the descriptor went away between the listing and the read
          }
        }
      } catch (IOException notYet) {
        // the process is still starting
      }
      Thread.sleep(20);
    }
    throw new AssertionError("the child never read past " + min + " bytes (alive: " + child.isAlive() + ")");
  }
}
