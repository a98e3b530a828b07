package dev.rea.cli.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.FileIdentity;
import dev.rea.core.options.LayoutAssumption;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ResumeIndex}: reading an earlier output, keeping, compacting. */
class ResumeIndexTest {
  @TempDir Path dir;

  private static FileIdentity id(long inode, long size) {
    return FileIdentity.observed(2049L, inode, size, Instant.parse("2025-01-02T03:04:05.5Z"));
  }

  static final String EVIDENCE_ID = "sha256:" + "0123456789abcdef".repeat(4);

  /** @return a file's scan line as REA writes it, with a summary when complete */
  static String line(String path, UnitStatus status, FileIdentity id, boolean warning) {
    byte[] summary =
        ("{\"kind\":\"model-artifact-summary\",\"parent_evidence_id\":\"" + EVIDENCE_ID
                + "\",\"status\":\"" + status.wire() + "\",\"artifact\":{\"path\":\"" + path
                + "\",\"file_size\":\"" + id.size() + "\",\"sha256\":null},\"warnings\":"
                + (warning ? "[{\"code\":\"removed_type\",\"message\":\"m\"}]" : "[]")
                + ",\"limitation_count\":0}")
            .getBytes(StandardCharsets.UTF_8);
    return new String(
        ScanLine.render(
            ScanUnit.Kind.FILE,
            path,
            status,
            id,
            status == UnitStatus.COMPLETE ? EVIDENCE_ID : null,
            status == UnitStatus.COMPLETE ? summary : null,
            status == UnitStatus.COMPLETE ? null : why()),
        StandardCharsets.UTF_8);
  }

  private static ReaException why() {
    return ReaException.builder(Constraint.NOT_REGULAR_FILE, "not a model").build();
  }

  @Test
  void keepsUnchangedCompleteAndRejectedLinesOnceAndTheLastLineOfAPathCounts() throws Exception {
    Path file = dir.resolve("out.jsonl");
    Files.writeString(
        file,
        line("/m/a", UnitStatus.COMPLETE, id(1, 10), true)
            + line("/m/b", UnitStatus.REJECTED, id(2, 20), false)
            + line("/m/c", UnitStatus.FAILED, id(3, 30), false)
            + line("/m/d", UnitStatus.COMPLETE, id(4, 40), false)
            + line("/m/d", UnitStatus.COMPLETE, id(4, 41), false)
            + line("/m/e", UnitStatus.SKIPPED, id(5, 50), false));
    ResumeIndex index = ResumeIndex.load(file, false);
    assertThat(index.lines()).isEqualTo(6);
    assertThat(index.droppedTail()).isFalse();
    assertThat(index.validLength()).isEqualTo(Files.size(file));

    assertThat(index.keep("/m/a", id(1, 10))).isEqualTo(new ResumeIndex.Kept(UnitStatus.COMPLETE, true, false));
    assertThat(index.keep("/m/a", id(1, 10))).as("kept once").isNull();
    assertThat(index.keep("/m/b", id(2, 20))).isEqualTo(new ResumeIndex.Kept(UnitStatus.REJECTED, false, false));
    assertThat(index.keep("/m/c", id(3, 30))).as("failed lines are inspected again").isNull();
    assertThat(index.keep("/m/d", id(4, 40))).as("superseded by the later line").isNull();
    assertThat(index.keep("/m/d", id(4, 41))).isNotNull();
    assertThat(index.keep("/m/e", id(5, 50))).as("skipped, without --list-skipped").isNull();
    assertThat(index.keep("/m/x", id(9, 90))).isNull();
    assertThat(index.keptLines()).isEqualTo(3);
    assertThat(index.needsCompaction()).isTrue();

    // Compaction keeps the kept lines and everything appended after the earlier ones.
    String appended = line("/m/c", UnitStatus.COMPLETE, id(3, 30), false);
    Files.writeString(file, appended, java.nio.file.StandardOpenOption.APPEND);
    index.compact(file);
    assertThat(Files.readAllLines(file))
        .containsExactly(
            line("/m/a", UnitStatus.COMPLETE, id(1, 10), true).strip(),
            line("/m/b", UnitStatus.REJECTED, id(2, 20), false).strip(),
            line("/m/d", UnitStatus.COMPLETE, id(4, 41), false).strip(),
            appended.strip());
  }

  @Test
  void anIdentityDifferingInAnyFieldIsNotKept() throws Exception {
    Path file = dir.resolve("out.jsonl");
    FileIdentity base = id(7, 70);
    Files.writeString(file, line("/m/a", UnitStatus.COMPLETE, base, false));
    List<FileIdentity> others =
        List.of(
            FileIdentity.observed(2050L, 7L, 70, Instant.parse("2025-01-02T03:04:05.5Z")),
            FileIdentity.observed(2049L, 8L, 70, Instant.parse("2025-01-02T03:04:05.5Z")),
            FileIdentity.observed(2049L, 7L, 71, Instant.parse("2025-01-02T03:04:05.5Z")),
            FileIdentity.observed(2049L, 7L, 70, Instant.parse("2025-01-02T03:04:05.500000001Z")),
            FileIdentity.observed(null, 7L, 70, Instant.parse("2025-01-02T03:04:05.5Z")));
    for (FileIdentity other : others) {
      assertThat(ResumeIndex.load(file, false).keep("/m/a", other)).as(other.toString()).isNull();
    }
    assertThat(ResumeIndex.load(file, false).keep("/m/a", base)).isNotNull();
    assertThat(ResumeIndex.load(file, false).keep("/m/a/", base)).isNull();
  }

  /**
   * A line is kept only for a scan under its layout assumption; REA writes a complete line's
   * assume_layout beside its summary's, so a line where they differ was edited and is refused.
   */
  @Test
  void aLineIsKeptOnlyUnderItsLayoutAssumptionAndMustAgreeWithItsSummary() throws Exception {
    Path file = dir.resolve("out.jsonl");
    String plain = line("/m/a", UnitStatus.COMPLETE, id(1, 10), false);
    String assumed =
        plain
            .replaceFirst("\"status\":\"complete\",", "\"status\":\"complete\",\"assume_layout\":\"ggml-modern\",")
            .replace("\"kind\":\"model-artifact-summary\",",
                "\"kind\":\"model-artifact-summary\",\"assume_layout\":\"ggml-modern\",")
            .replace("/m/a", "/m/b");
    Files.writeString(file, plain + assumed);
    ResumeIndex none = ResumeIndex.load(file, false, false, LayoutAssumption.NONE);
    assertThat(none.keep("/m/a", id(1, 10))).isNotNull();
    assertThat(none.keep("/m/b", id(1, 10))).isNull();
    ResumeIndex modern = ResumeIndex.load(file, false, false, LayoutAssumption.GGML_MODERN);
    assertThat(modern.keep("/m/a", id(1, 10))).isNull();
    assertThat(modern.keep("/m/b", id(1, 10))).isNotNull();

    String forged =
        plain.replaceFirst(
            "\"status\":\"complete\",", "\"status\":\"complete\",\"assume_layout\":\"ggml-modern\",");
    Files.writeString(file, forged);
    ReaException e =
        catchThrowableOfType(
            ReaException.class,
            () -> ResumeIndex.load(file, false, false, LayoutAssumption.GGML_MODERN));
    assertThat(e.getMessage()).contains("line 1 of ", "not the one its summary was made under");
    Files.writeString(file, plain.replaceFirst("\"status\":\"complete\",", "\"status\":\"complete\",\"assume_layout\":[1],"));
    e = catchThrowableOfType(ReaException.class, () -> ResumeIndex.load(file, false));
    assertThat(e.getMessage()).contains("its assume_layout is not a string");
  }

  @Test
  void aLastLineWithoutItsNewlineIsDroppedAndABadWholeLineRefused() throws Exception {
    Path file = dir.resolve("out.jsonl");
    String a = line("/m/a", UnitStatus.COMPLETE, id(1, 10), false);
    String b = line("/m/b", UnitStatus.COMPLETE, id(2, 20), false);
    Files.writeString(file, a + b.substring(0, b.length() - 1));
    ResumeIndex index = ResumeIndex.load(file, false);
    assertThat(index.lines()).isEqualTo(1);
    assertThat(index.droppedTail()).isTrue();
    assertThat(index.validLength()).isEqualTo(a.getBytes(StandardCharsets.UTF_8).length);
    assertThat(index.keep("/m/b", id(2, 20))).isNull();

    Files.writeString(file, a + "{\"schema\":\"rea.other\"}\n" + b);
    ReaException e = catchThrowableOfType(ReaException.class, () -> ResumeIndex.load(file, false));
    assertThat(e.constraint()).isEqualTo(Constraint.BAD_ARGUMENT);
    assertThat(e.getMessage()).contains("line 2 of " + file, "schema is not rea.scan.v1");
    Files.writeString(file, a + "{\"schema\":\"rea.scan.v1\",\n" + b);
    e = catchThrowableOfType(ReaException.class, () -> ResumeIndex.load(file, false));
    assertThat(e.getMessage()).contains("line 2 of ", "not JSON");
  }

  @Test
  void aHundredThousandLinesTakeTwentyOneBytesASlotInAPowerOfTwoOfSlots() throws Exception {
    Path file = dir.resolve("big.jsonl");
    int n = 100_000;
    try (var out = Files.newBufferedWriter(file)) {
      for (int i = 0; i < n; i++) {
        out.write(line("/models/dir" + (i % 100) + "/file-" + i + ".gguf", UnitStatus.COMPLETE, id(i, i), false));
      }
    }
    ResumeIndex index = ResumeIndex.load(file, false);
    assertThat(index.lines()).isEqualTo(n);
    // 2^18 slots: 100,000 entries fill more than three quarters of 2^17.
    assertThat(index.slots()).isEqualTo(1 << 18);
    assertThat(index.bytesHeld()).isEqualTo(21L * (1 << 18));
    for (int i = 0; i < n; i += 997) {
      assertThat(index.keep("/models/dir" + (i % 100) + "/file-" + i + ".gguf", id(i, i))).isNotNull();
    }
  }

  /**
   * A cut last line (no newline: a kill in the middle of its write) over the line limit is
   * dropped like any cut last line; a whole line over the limit is still refused.
   */
  @Test
  void aCutLastLineOverTheLimitIsDroppedAndAWholeOneRefused() throws Exception {
    Path file = dir.resolve("out.jsonl");
    String a = line("/m/a", UnitStatus.COMPLETE, id(1, 10), false);
    byte[] head = a.getBytes(StandardCharsets.UTF_8);
    byte[] cut = new byte[ResumeIndex.MAX_LINE_BYTES + 100_000];
    java.util.Arrays.fill(cut, (byte) 'x');
    cut[0] = '{';
    try (var out = Files.newOutputStream(file)) {
      out.write(head);
      out.write(cut);
    }
    ResumeIndex index = ResumeIndex.load(file, false);
    assertThat(index.lines()).isEqualTo(1);
    assertThat(index.droppedTail()).isTrue();
    assertThat(index.validLength()).isEqualTo(head.length);
    assertThat(index.keep("/m/a", id(1, 10))).isNotNull();

    Files.write(file, new byte[] {'\n'}, java.nio.file.StandardOpenOption.APPEND);
    ReaException e = catchThrowableOfType(ReaException.class, () -> ResumeIndex.load(file, false));
    assertThat(e.getMessage())
        .contains("line 2 of " + file, "longer than " + ResumeIndex.MAX_LINE_BYTES + " bytes");
  }

  /**
   * Lines REA did not write are refused whole (exit 2 from the command), naming the field: a
   * hand edit cannot turn a rejected unit into a kept complete one.
   */
  @Test
  void linesNotInTheShapeOfAScanLineAreRefusedNamingTheField() throws Exception {
    Path file = dir.resolve("out.jsonl");
    String good = line("/m/a", UnitStatus.COMPLETE, id(1, 10), false).strip();
    String rejected = line("/m/b", UnitStatus.REJECTED, id(2, 20), false).strip();
    Files.writeString(file, good + "\n" + rejected + "\n");
    assertThat(ResumeIndex.load(file, false).lines()).as("the lines as REA writes them").isEqualTo(2);
    String forged = rejected.replace("\"status\":\"rejected\"", "\"status\":\"complete\"");
    String[][] cases = {
      {forged.replace("\"kind\":\"file\"", "\"kind\":\"banana\""), "kind"},
      {good.replace("\"" + EVIDENCE_ID + "\",\"summary", "12345,\"summary"), "evidence_id"},
      {good.replace("\"" + EVIDENCE_ID + "\",\"summary", "null,\"summary"), "evidence_id"},
      {good.replace(EVIDENCE_ID + "\",\"summary", "sha256:00\",\"summary"), "evidence_id"},
      {forged, "evidence_id"},
      {forged.replace("\"evidence_id\":null", "\"evidence_id\":\"" + EVIDENCE_ID + "\"")
          .replace("\"summary\":null", "\"summary\":{\"warnings\":[]}"), "summary's kind"},
      {good.replaceFirst("\"summary\":\\{.*\\},\"error\"", "\"summary\":\"x\",\"error\""), "summary"},
      {good.replaceFirst("\"summary\":\\{.*\\},\"error\"", "\"summary\":[1,2],\"error\""),
          "summary is neither an object nor null"},
      {good.replace("\"warnings\":", "\"warnincs\":"), "its summary lacks warnings"},
      {good.replace("\"limitation_count\":", "\"limitation_kount\":"),
          "its summary lacks limitation_count"},
      {good.replace("\"sha256\":null", "\"sha257\":null"), "its summary lacks artifact.sha256"},
      {good.replace("\"error\":null", "\"error\":\"oops\""), "error"},
      {good.replace("\"error\":null", "\"error\":{\"code\":\"x\"}"), "error is not null"},
      {good.replace("\"status\":\"complete\"", "\"status\":\"complete\",\"status\":\"rejected\""),
          "appears twice in one object: Duplicate Object property \"status\""},
      {rejected.replace("\"status\":\"rejected\"", "\"status\":\"rejected\",\"status\":\"complete\""),
          "appears twice in one object: Duplicate Object property \"status\""},
      {good.replace("\"path\":\"/m/a\"", "\"path\":{\"a\":1}"), "path is not a string"},
      {good.replace("\"size\":\"10\"", "\"size\":10"), "identity.size is not a string"},
      {good.replace("\"size\":\"10\"", "\"size\":\"ten\""), "identity.size is not a decimal"},
      {good.replace("\"size\":\"10\"", "\"size\":\"" + "9".repeat(21) + "\""),
          "identity.size is not a decimal number of at most 20 digits"},
      {good.replace("\"error\":null", "\"error\":null,\"extra\":1"), "field extra"},
      {good.replace("\"kind\":\"file\"", "\"kind\":\"set\""), "member_identities"},
      {good.replace("\"warnings\":[]", "\"warnings\":[],\"warnings\":[]"), "Duplicate Object property \"warnings\""},
      // Another line's summary moved here: its file, its verdict or its size are not the line's.
      {good.replace("\"path\":\"/m/a\"}", "\"path\":\"/m/z\"}").replace("\"path\":\"/m/a\",\"file_size", "\"path\":\"/m/z\",\"file_size"), "artifact.path"},
      {good.replace("\"status\":\"complete\",\"artifact\"", "\"status\":\"partial\",\"artifact\""), "summary's status"},
      {good.replace("\"file_size\":\"10\"", "\"file_size\":\"11\""), "artifact.file_size"},
    };
    for (String[] c : cases) {
      assertThat(c[0]).as("the case edits the line").isNotEqualTo(good).isNotEqualTo(rejected);
      Files.writeString(file, good + "\n" + c[0] + "\n");
      ReaException e = catchThrowableOfType(ReaException.class, () -> ResumeIndex.load(file, false));
      assertThat(e).as(c[0]).isNotNull();
      assertThat(e.constraint()).isEqualTo(Constraint.BAD_ARGUMENT);
      assertThat(e.getMessage()).as(c[0]).contains("line 2 of " + file, c[1]);
    }
  }
}
