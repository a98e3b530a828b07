package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.cli.scan.TreeWalker;
import dev.rea.core.Rea;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.internal.io.FileAccess;
import dev.rea.core.internal.io.FileSnapshot;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code rea scan} over generated trees (CONTRACT section 10): one line per model in the section
 * 10 shape, each equal (summary and evidence id aside) to what {@code inspect-model-artifact
 * --detail summary --json} says of the same file; non-models counted and listed only with
 * --list-skipped; broken files rejected with their error object; an unreadable directory, a
 * symbolic link loop and a file changed while read are lines, never the end of the scan; the
 * exit statuses; --bundles.
 */
class ScanCommandTest {
  @TempDir Path dir;

  /** Runs the CLI in-process, adjusting the scan command first. */
  static CliRunner.Result run(Consumer<ScanCommand> seam, String... args) {
    CommandLine cmd =
        ReaMain.commandLine(Map.of("REA_HOME", CliRunner.HOME.toString()), args[0]);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));
    seam.accept((ScanCommand) cmd.getSubcommands().get("scan").getCommand());
    int status = cmd.execute(args);
    return new CliRunner.Result(status, out.toString(), err.toString());
  }

  static List<JsonNode> lines(String text) {
    List<JsonNode> out = new ArrayList<>();
    for (String l : text.split("\n")) {
      if (!l.isEmpty()) {
        out.add(CliRunner.JSON.readTree(l));
      }
    }
    return out;
  }

  static Map<String, JsonNode> byPath(List<JsonNode> lines) {
    Map<String, JsonNode> m = new HashMap<>();
    for (JsonNode l : lines) {
      assertThat(m.put(l.get("path").asString(), l)).as("one line per path").isNull();
    }
    return m;
  }

  static String lastLine(String err) {
    String[] ls = err.strip().split("\n");
    return ls[ls.length - 1];
  }

  @Test
  void everyUnitsLineEqualsWhatInspectModelArtifactSaysOfItsFile() throws Exception {
    ScanTrees.Tree tree = ScanTrees.write(dir.resolve("tree"), 12, true);
    CliRunner.Result r = CliRunner.run("scan", tree.root().toString(), "--jobs", "3");
    assertThat(r.status()).as(r.err()).isEqualTo(1); // broken files are rejected
    Map<String, JsonNode> lines = byPath(lines(r.out()));
    assertThat(lines.keySet())
        .containsExactlyInAnyOrderElementsOf(tree.units().stream().map(Path::toString).toList());
    for (Path p : tree.units()) {
      JsonNode line = lines.get(p.toString());
      boolean set = tree.sets().contains(p);
      List<String> fields =
          new ArrayList<>(List.of("schema", "kind", "path", "status", "identity"));
      if (set) {
        fields.add("member_identities");
      }
      fields.addAll(List.of("evidence_id", "summary", "error"));
      assertThat(fieldNames(line)).containsExactlyElementsOf(fields);
      assertThat(line.get("schema").asString()).isEqualTo("rea.scan.v1");
      assertThat(line.get("kind").asString()).isEqualTo(set ? "set" : "file");
      assertThat(fieldNames(line.get("identity"))).containsExactly("device", "inode", "size", "modified");
      assertThat(line.get("identity").get("size").asString()).isEqualTo(Long.toString(Files.size(p)));
      // Equal to inspect-model-artifact's (a file) or inspect-model-set's (a set) summary/error.
      String status = ScanSetsTest.assertAgrees(line);
      assertThat(status).isEqualTo(set ? "failed" : tree.broken().contains(p) ? "rejected" : "complete");
    }
    assertThat(tree.broken()).allSatisfy(p -> assertThat(lines.get(p.toString()).get("status").asString()).isEqualTo("rejected"));
    assertThat(lastLine(r.err()))
        .startsWith("rea scan: 12 complete, 0 partial, 3 rejected, 1 failed, 4 skipped; 0 kept");
    assertThat(lastLine(r.err())).matches(".* [1-9][0-9]* bytes read in [0-9]+\\.[0-9]{2} s(; .*)?");
  }

  private static List<String> fieldNames(JsonNode n) {
    List<String> names = new ArrayList<>();
    n.propertyNames().forEach(names::add);
    return names;
  }

  /** Workers are bounded by the heap: each may hold an inspection's retained budget at once. */
  @Test
  void jobsAreLoweredToWhatTheHeapHolds() {
    long mib = 1024L * 1024;
    assertThat(ScanCommand.jobsThatFit(64 * mib)).isEqualTo(1);
    assertThat(ScanCommand.jobsThatFit(256 * mib)).isEqualTo(4);
    assertThat(ScanCommand.jobsThatFit(2048 * mib)).isEqualTo(41);
    assertThat(ScanCommand.jobsThatFit(Long.MAX_VALUE)).isEqualTo(ScanCommand.MAX_JOBS);
    long fit = ScanCommand.jobsThatFit(Runtime.getRuntime().maxMemory());
    if (fit < ScanCommand.MAX_JOBS) {
      CliRunner.Result r = CliRunner.run("scan", dir.toString(), "--jobs",
          Long.toString(ScanCommand.MAX_JOBS));
      assertThat(r.err()).contains("rea scan: --jobs " + ScanCommand.MAX_JOBS + " lowered to "
          + fit + ": each worker may hold 48 MiB");
    }
  }

  @Test
  void nonModelsAreListedWithWhyOnlyWithListSkipped() throws Exception {
    ScanTrees.Tree tree = ScanTrees.write(dir.resolve("tree"), 2, true);
    CliRunner.Result r = CliRunner.run("scan", tree.root().toString(), "--list-skipped");
    Map<String, JsonNode> lines = byPath(lines(r.out()));
    assertThat(lines).hasSize(tree.units().size() + tree.nonModels().size());
    for (Path p : tree.nonModels()) {
      JsonNode line = lines.get(p.toString());
      assertThat(line.get("status").asString()).isEqualTo("skipped");
      assertThat(line.get("summary").isNull()).isTrue();
      assertThat(line.get("error").get("constraint").asString()).isEqualTo("unsupported_format");
      // The same reason inspect-model-artifact gives.
      JsonNode said =
          CliRunner.run("inspect-model-artifact", p.toString(), "--json").json().get("error");
      assertThat(line.get("error")).isEqualTo(said);
    }
    assertThat(lines.get(tree.root().resolve("odd/lfs.gguf").toString()).get("error").get("details")
            .get("diagnostics").get("detected").asString())
        .isEqualTo("git_lfs_pointer");
    assertThat(lastLine(r.err())).contains("4 skipped");
    // The one LFS pointer among them is a model never fetched: the closing line says so, with
    // or without --list-skipped, and the exit status stays that of the units.
    String fetch = "; 1 skipped file is a Git LFS pointer, not a model (fetch the content, for"
        + " example with git lfs pull)";
    assertThat(lastLine(r.err())).endsWith(fetch);
    assertThat(lastLine(CliRunner.run("scan", tree.root().toString()).err())).endsWith(fetch);
  }

  @Test
  void anUnreadableDirectoryIsAFailedLineAndTheRestIsScanned() throws Exception {
    ScanTrees.Tree tree = ScanTrees.write(dir.resolve("tree"), 6, false);
    Path locked = Files.createDirectories(tree.root().resolve("locked"));
    Files.write(locked.resolve("hidden.gguf"), ScanTrees.gguf(99));
    Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
    try {
      org.junit.jupiter.api.Assumptions.assumeFalse(
          Files.isReadable(locked), "running as a user that reads any directory (root)");
      CliRunner.Result r = CliRunner.run("scan", tree.root().toString());
      assertThat(r.status()).isEqualTo(1);
      Map<String, JsonNode> lines = byPath(lines(r.out()));
      assertThat(lines).hasSize(7);
      JsonNode failed = lines.get(locked.toString());
      assertThat(failed.get("status").asString()).isEqualTo("failed");
      assertThat(failed.get("error").get("constraint").asString()).isEqualTo("permission_denied");
      assertThat(failed.get("error").get("details").get("path").asString()).isEqualTo(locked.toString());
      assertThat(tree.models())
          .allSatisfy(p -> assertThat(lines.get(p.toString()).get("status").asString()).isEqualTo("complete"));
      assertThat(lastLine(r.err())).startsWith("rea scan: 6 complete, 0 partial, 0 rejected, 1 failed");
    } finally {
      Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
    }
  }

  @Test
  void aDirectoryThatCannotBeListedIsAFailedLineWhoeverRunsTheTests() throws Exception {
    // The same through a seam: the listing of two directories fails as EACCES and EIO would.
    ScanTrees.Tree tree = ScanTrees.write(dir.resolve("tree"), 10, false);
    Path denied = tree.root().resolve("d1");
    Path broken = tree.models().get(2).getParent(); // d2/sub2
    TreeWalker.Lister refusing =
        d -> {
          if (d.equals(denied)) {
            throw new java.nio.file.AccessDeniedException(d.toString());
          }
          if (d.equals(broken)) {
            throw new java.nio.file.FileSystemException(d.toString(), null, "Input/output error");
          }
          return Files.newDirectoryStream(d);
        };
    CliRunner.Result r = run(c -> c.lister = refusing, "scan", tree.root().toString());
    assertThat(r.status()).isEqualTo(1);
    Map<String, JsonNode> lines = byPath(lines(r.out()));
    JsonNode d = lines.get(denied.toString());
    assertThat(d.get("status").asString()).isEqualTo("failed");
    assertThat(d.get("error").get("constraint").asString()).isEqualTo("permission_denied");
    JsonNode b = lines.get(broken.toString());
    assertThat(b.get("error").get("constraint").asString()).isEqualTo("io_error");
    assertThat(b.get("error").get("details").get("diagnostics").get("reason").asString())
        .isEqualTo("Input/output error");
    long hidden =
        tree.models().stream().filter(p -> p.startsWith(denied) || p.startsWith(broken)).count();
    assertThat(hidden).isPositive();
    assertThat(lines).hasSize(tree.models().size() - (int) hidden + 2);
    for (Path p : tree.models()) {
      if (!p.startsWith(denied) && !p.startsWith(broken)) {
        assertThat(lines.get(p.toString()).get("status").asString()).isEqualTo("complete");
      }
    }
  }

  @Test
  void symbolicLinksAreNotFollowedALoopEndsAndIsListedAsSkipped() throws Exception {
    ScanTrees.Tree tree = ScanTrees.write(dir.resolve("tree"), 4, false);
    Path d = tree.root().resolve("d0");
    Path loop = Files.createSymbolicLink(d.resolve("loop"), d);
    Path toModel = Files.createSymbolicLink(d.resolve("alias.gguf"), tree.models().get(0));
    CliRunner.Result r = CliRunner.run("scan", tree.root().toString(), "--list-skipped");
    assertThat(r.status()).isEqualTo(0);
    Map<String, JsonNode> lines = byPath(lines(r.out()));
    assertThat(lines).hasSize(6);
    for (Path link : List.of(loop, toModel)) {
      JsonNode l = lines.get(link.toString());
      assertThat(l.get("status").asString()).isEqualTo("skipped");
      assertThat(l.get("error").get("constraint").asString()).isEqualTo("not_regular_file");
      assertThat(l.get("error").get("message").asString()).contains("symbolic link", "not follow");
    }
    assertThat(lines.get(loop.toString()).get("error").get("details").get("diagnostics")
            .get("link_target").asString())
        .isEqualTo(d.toString());
    // Without --list-skipped, links are counted and not listed.
    CliRunner.Result quiet = CliRunner.run("scan", tree.root().toString());
    assertThat(lines(quiet.out())).hasSize(4);
    assertThat(lastLine(quiet.err())).contains("2 skipped");
  }

  @Test
  void aFileChangedWhileReadIsAFailedLineNeverAWrongCompleteOne() throws Exception {
    ScanTrees.Tree tree = ScanTrees.write(dir.resolve("tree"), 6, false);
    Path victim = tree.models().get(2);
    FileAccess system = FileAccess.system();
    // Appends to the victim once the inspector has opened it: its identity then changes.
    FileAccess changing =
        new FileAccess() {
          @Override
          public FileSnapshot stat(Path path) throws IOException {
            return system.stat(path);
          }

          @Override
          public SeekableByteChannel open(Path path) throws IOException {
            SeekableByteChannel ch = system.open(path);
            if (path.equals(victim)) {
              Files.write(victim, new byte[] {1, 2, 3}, java.nio.file.StandardOpenOption.APPEND);
            }
            return ch;
          }
        };
    ModelInspector inspector = ModelInspector.withAccess(dev.rea.core.options.Limits.defaults(), changing);
    CliRunner.Result r =
        run(c -> c.frontDoor = b -> b.inspector(inspector), "scan", tree.root().toString());
    assertThat(r.status()).isEqualTo(1);
    Map<String, JsonNode> lines = byPath(lines(r.out()));
    JsonNode changed = lines.get(victim.toString());
    assertThat(changed.get("status").asString()).isEqualTo("failed");
    assertThat(changed.get("error").get("constraint").asString()).isEqualTo("target_changed");
    assertThat(changed.get("evidence_id").isNull()).isTrue();
    assertThat(changed.get("summary").isNull()).isTrue();
    assertThat(lines.values().stream().filter(l -> l.get("status").asString().equals("complete")))
        .hasSize(5);
  }

  @Test
  void aDefectStopsTheScanWithExitFourAndWholeLines() throws Exception {
    ScanTrees.Tree tree = ScanTrees.write(dir.resolve("tree"), 40, false);
    Path victim = tree.models().get(7);
    FileAccess system = FileAccess.system();
    FileAccess broken =
        new FileAccess() {
          @Override
          public FileSnapshot stat(Path path) throws IOException {
            return system.stat(path);
          }

          @Override
          public SeekableByteChannel open(Path path) throws IOException {
            if (path.equals(victim)) {
              throw new IllegalStateException("a defect, for the test");
            }
            return system.open(path);
          }
        };
    ModelInspector inspector =
        ModelInspector.withAccess(dev.rea.core.options.Limits.defaults(), broken);
    Path out = dir.resolve("out.jsonl");
    CliRunner.Result r =
        run(
            c -> c.frontDoor = b -> b.inspector(inspector),
            "scan", tree.root().toString(), "--output", out.toString(), "--jobs", "1");
    assertThat(r.status()).as(r.err()).isEqualTo(4);
    assertThat(r.err()).contains("the scan failed", "internal error");
    assertThat(lastLine(r.err())).startsWith("rea scan: ");
    String text = Files.readString(out);
    assertThat(text.isEmpty() || text.endsWith("\n")).isTrue();
    assertThat(byPath(lines(text))).doesNotContainKey(victim.toString());
  }

  @Test
  void stdoutThatCannotBeWrittenIsExitFour() throws Exception {
    ScanTrees.Tree tree = ScanTrees.write(dir.resolve("tree"), 3, false);
    CommandLine cmd =
        ReaMain.commandLine(Map.of("REA_HOME", CliRunner.HOME.toString()), "scan");
    java.io.OutputStream full =
        new java.io.OutputStream() {
          @Override
          public void write(int b) throws IOException {
            throw new IOException("No space left on device");
          }
        };
    StringWriter err = new StringWriter();
    cmd.setOut(new PrintWriter(new java.io.OutputStreamWriter(full, StandardCharsets.UTF_8), true));
    cmd.setErr(new PrintWriter(err, true));
    assertThat(cmd.execute("scan", tree.root().toString())).isEqualTo(4);
    assertThat(err.toString()).contains("the scan failed", "stdout could not be written");
  }

  @Test
  void bundlesAreSignedEvidenceNamedByTheirIdAndReadBack() throws Exception {
    ScanTrees.Tree tree = ScanTrees.write(dir.resolve("tree"), 4, false);
    // DIR is made when its parent exists (the README's example names a new evidence/).
    Path bundles = dir.resolve("bundles");
    CliRunner.Result r =
        CliRunner.run("scan", tree.root().toString(), "--bundles", bundles.toString());
    assertThat(r.status()).as(r.err()).isEqualTo(0);
    Rea rea = Rea.builder().home(CliRunner.HOME).build();
    for (JsonNode line : lines(r.out())) {
      String id = line.get("evidence_id").asString();
      Path bundle = bundles.resolve(id.substring("sha256:".length()) + ".json");
      var ev = rea.readEvidence(bundle).select(id, "by id");
      assertThat(ev.record().artifact().path()).isEqualTo(line.get("path").asString());
    }
    try (var files = Files.list(bundles)) {
      assertThat(files.count()).isEqualTo(4);
    }
  }

  @Test
  void failOnWarningsTurnsACompleteScanWithAWarningIntoExitOne() throws Exception {
    Path tree = Files.createDirectories(dir.resolve("tree"));
    Files.write(tree.resolve("a.gguf"), ScanTrees.gguf(1));
    Files.write(tree.resolve("old.gguf"), ScanTrees.ggufWithWarning());
    CliRunner.Result plain = CliRunner.run("scan", tree.toString());
    assertThat(plain.status()).isEqualTo(0);
    JsonNode old = byPath(lines(plain.out())).get(tree.resolve("old.gguf").toString());
    assertThat(old.get("summary").get("warnings").get(0).get("code").asString())
        .isEqualTo("removed_type");
    CliRunner.Result failed = CliRunner.run("scan", tree.toString(), "--fail-on", "warnings");
    assertThat(failed.status()).isEqualTo(1);
    // Says why, before the closing count (which stays the last line).
    List<String> err = failed.err().lines().toList();
    assertThat(err.get(err.size() - 2))
        .isEqualTo("rea scan: --fail-on warnings: 1 model carries a warning (summary.warnings)");
    assertThat(err.get(err.size() - 1)).startsWith("rea scan: 2 complete,");
    Files.delete(tree.resolve("old.gguf"));
    CliRunner.Result passed = CliRunner.run("scan", tree.toString(), "--fail-on", "warnings");
    assertThat(passed.status()).isEqualTo(0);
    assertThat(passed.err()).doesNotContain("--fail-on");
  }

  /** --fail-on limitations, as check takes it: a kept line's limitation counts too. */
  @Test
  void failOnLimitationsTurnsAKQuantFileIntoExitOne() throws Exception {
    Path tree = Files.createDirectories(dir.resolve("tree"));
    Files.write(tree.resolve("a.gguf"), ScanTrees.gguf(1));
    byte[] kq =
        dev.rea.core.internal.format.gguf.GgufBuilder.v3()
            .kv("general.architecture", dev.rea.core.internal.format.gguf.GgufBuilder.str("llama"))
            .tensor("blk.0.ffn_down.weight", 12, 256, 4)
            .bytes();
    Files.write(tree.resolve("kq.gguf"), kq);
    assertThat(CliRunner.run("scan", tree.toString(), "--fail-on", "warnings").status()).isZero();
    Path out = dir.resolve("out.jsonl");
    CliRunner.Result strict =
        CliRunner.run("scan", tree.toString(), "--fail-on", "limitations", "--output", out.toString());
    assertThat(strict.status()).as(strict.err()).isEqualTo(1);
    assertThat(strict.err())
        .contains(
            "rea scan: --fail-on limitations: 1 model carries a limitation"
                + " (summary.limitation_count)\n");
    CliRunner.Result resumed =
        CliRunner.run(
            "scan", tree.toString(), "--fail-on", "limitations", "--output", out.toString(),
            "--resume");
    assertThat(resumed.err()).contains("2 kept from the earlier output");
    assertThat(resumed.status()).as("the kept line's limitation still fails").isEqualTo(1);
    Files.delete(tree.resolve("kq.gguf"));
    assertThat(CliRunner.run("scan", tree.toString(), "--fail-on", "limitations").status())
        .isZero();
  }

  @Test
  void invalidArgumentsExitTwoBeforeAnythingIsWritten() throws Exception {
    Path tree = Files.createDirectories(dir.resolve("tree"));
    Files.write(tree.resolve("a.gguf"), ScanTrees.gguf(1));
    Path model = tree.resolve("a.gguf");
    Path out = dir.resolve("out.jsonl");
    String[][] bad = {
      {"scan", tree.toString(), "--jobs", "0"},
      {"scan", tree.toString(), "--jobs", "many"},
      {"scan", tree.toString(), "--hash", "partial"},
      {"scan", tree.toString(), "--fail-on", "errors"},
      {"scan", tree.toString(), "--resume"},
      {"scan", dir.resolve("missing").toString()},
      {"scan", tree.toString(), "--bundles", dir.resolve("nowhere/bundles").toString()},
      {"scan", tree.toString(), "--bundles", model.toString()},
      {"scan", tree.toString(), "--output", model.toString()},
      {"scan", tree.toString(), "--output", model.toString(), "--resume"},
      {"scan"},
    };
    for (String[] args : bad) {
      CliRunner.Result r = CliRunner.run(args);
      assertThat(r.status()).as(String.join(" ", args) + "\n" + r.err()).isEqualTo(2);
      assertThat(r.out()).isEmpty();
    }
    assertThat(out).doesNotExist();
    assertThat(Files.readAllBytes(model)).isEqualTo(ScanTrees.gguf(1));
  }

  @Test
  void outputReplacesOnlyAnEarlierScanOutput() throws Exception {
    Path tree = Files.createDirectories(dir.resolve("tree"));
    Files.write(tree.resolve("a.gguf"), ScanTrees.gguf(1));
    Path out = dir.resolve("scan.jsonl");
    assertThat(CliRunner.run("scan", tree.toString(), "--output", out.toString()).status()).isZero();
    List<JsonNode> first = lines(Files.readString(out));
    assertThat(first).hasSize(1);
    // Run again: the earlier output is replaced, not appended to.
    assertThat(CliRunner.run("scan", tree.toString(), "--output", out.toString()).status()).isZero();
    assertThat(lines(Files.readString(out, StandardCharsets.UTF_8))).hasSize(1);
  }

  /**
   * Overlapping PATHs (a directory twice, a file and a directory inside it, the directory
   * through a link) walk each unit once: one line per unit, each counted once (it was "9
   * complete" for 5 files), with a notice on stderr for each PATH left out.
   */
  @Test
  void overlappingPathsWriteEachUnitOnce() throws Exception {
    ScanTrees.Tree tree = ScanTrees.write(dir.resolve("tree"), 5, false);
    Path link = java.nio.file.Files.createSymbolicLink(dir.resolve("link"), tree.root());
    Path inside = tree.models().get(0);
    Path sub = inside.getParent();
    CliRunner.Result once = CliRunner.run("scan", tree.root().toString());
    CliRunner.Result r =
        CliRunner.run(
            "scan", sub.toString(), tree.root().toString(), tree.root().toString(),
            inside.toString(), link.toString());
    assertThat(r.status()).as(r.err()).isEqualTo(once.status());
    List<JsonNode> got = lines(r.out());
    assertThat(got).hasSize(tree.units().size());
    assertThat(byPath(got).keySet())
        .containsExactlyInAnyOrderElementsOf(byPath(lines(once.out())).keySet());
    assertThat(lastLine(r.err()).replaceAll(" in [0-9.]+ s$", ""))
        .isEqualTo(lastLine(once.err()).replaceAll(" in [0-9.]+ s$", ""));
    assertThat(r.err())
        .contains("PATH " + sub + " is inside PATH " + tree.root())
        .contains("PATH " + tree.root() + " is the same as PATH " + tree.root())
        .contains("PATH " + inside + " is inside PATH " + tree.root())
        .contains("PATH " + link + " is the same as PATH " + tree.root());
  }

  /**
   * File names whose bytes are not valid in the locale's encoding read alike in Java (each bad
   * byte is U+FFFD): each such file gets a failed line of its own, told apart by its URI, and is
   * never hidden behind another file of the same written name. The names are made by sh, since
   * Java cannot spell them.
   */
  @Test
  void filesWhoseNamesCannotBeDecodedEachGetAFailedLine() throws Exception {
    Path tree = Files.createDirectories(dir.resolve("names"));
    Path sample = dev.rea.core.internal.format.gguf.GgufTesting.repositoryRoot()
        .resolve("samples/sample-mixed.gguf");
    Files.copy(sample, tree.resolve("ok.gguf"));
    Process p =
        new ProcessBuilder(
                "sh", "-c",
                "cd \"$1\" && head -c 100 ok.gguf > \"$(printf 'm\\350.gguf')\""
                    + " && head -c 100 ok.gguf > \"$(printf 'm\\351.gguf')\""
                    + " && cp ok.gguf \"$(printf 'm\\352.gguf')\"",
                "sh", tree.toString())
            .inheritIO()
            .start();
    assertThat(p.waitFor()).isZero();

    CliRunner.Result r = CliRunner.run("scan", tree.toString());

    assertThat(r.status()).as(r.err()).isEqualTo(1);
    List<JsonNode> lines = lines(r.out());
    assertThat(lines).hasSize(4);
    List<String> uris = new ArrayList<>();
    for (JsonNode l : lines) {
      if (l.get("path").asString().endsWith("/ok.gguf")) {
        assertThat(l.get("status").asString()).isEqualTo("complete");
        continue;
      }
      assertThat(l.get("status").asString()).isEqualTo("failed");
      JsonNode error = l.get("error");
      assertThat(error.get("constraint").asString()).isEqualTo("not_found");
      assertThat(error.get("message").asString()).contains("not valid in the locale's encoding");
      uris.add(error.get("details").get("diagnostics").get("uri").asString());
    }
    assertThat(uris).containsExactlyInAnyOrder(
        tree.toUri() + "m%E8.gguf", tree.toUri() + "m%E9.gguf", tree.toUri() + "m%EA.gguf");
    assertThat(lastLine(r.err())).contains("3 failed");

    // SARIF names each by its own bytes, never by the U+FFFD all three read as.
    CliRunner.Result sarif = CliRunner.run("scan", tree.toString(), "--format", "sarif");
    List<String> located = new ArrayList<>();
    for (JsonNode result : CliRunner.JSON.readTree(sarif.out()).get("runs").get(0).get("results")) {
      located.add(result.get("locations").get(0).get("physicalLocation")
          .get("artifactLocation").get("uri").asString());
    }
    located.remove(tree.toUri() + "ok.gguf"); // its warnings
    assertThat(located).containsExactlyInAnyOrder(
        tree.toUri() + "m%E8.gguf", tree.toUri() + "m%E9.gguf", tree.toUri() + "m%EA.gguf");
  }

  /**
   * A directory replaced by a link to another directory after the walk opened its listing (what
   * a racing uploader does): the file under the link is not the one the listing holds, so it is
   * a failed line, and nothing of the file outside is reported. The swap is made by a lister
   * that opens the real directory, then renames it and puts the link in its place.
   */
  @Test
  void aDirectorySwappedForALinkMidWalkIsNotReadThrough() throws Exception {
    Path sample = dev.rea.core.internal.format.gguf.GgufTesting.repositoryRoot()
        .resolve("samples/sample-mixed.gguf");
    Path tree = Files.createDirectories(dir.resolve("tree").resolve("d"));
    Files.write(tree.resolve("m.gguf"), Files.readAllBytes(sample));
    Path outside = Files.createDirectories(dir.resolve("outside").resolve("d"));
    Files.write(outside.resolve("m.gguf"), ScanTrees.gguf(3));
    TreeWalker.Lister swapping = d -> {
      java.nio.file.DirectoryStream<Path> listing = Files.newDirectoryStream(d);
      if (d.equals(tree)) {
        Files.move(tree, tree.resolveSibling("d.moved"));
        Files.createSymbolicLink(tree, outside);
      }
      return listing;
    };

    CliRunner.Result r = run(c -> c.lister = swapping, "scan", dir.resolve("tree").toString());

    assertThat(r.status()).as(r.err()).isEqualTo(1);
    List<JsonNode> lines = lines(r.out());
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0).get("status").asString()).isEqualTo("failed");
    assertThat(lines.get(0).get("error").get("constraint").asString()).isEqualTo("target_changed");
    assertThat(lines.get(0).get("summary").isNull()).isTrue();
    long outsideInode = (Long) Files.getAttribute(outside.resolve("m.gguf"), "unix:ino");
    assertThat(lines.get(0).get("identity").get("inode").asString())
        .isNotEqualTo(Long.toString(outsideInode));
  }
}
