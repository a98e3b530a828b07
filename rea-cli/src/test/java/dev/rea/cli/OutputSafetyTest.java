package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.internal.format.gguf.GgufBuilder;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What REA writes is never lost silently, never lands on the model or a device, and never
 * carries a file's control characters to a terminal.
 */
class OutputSafetyTest {
  @TempDir Path dir;

  /** ESC, BEL, CR, DEL, a C1 CSI and a right-to-left override, as a file could declare them. */
  private static final String HOSTILE = "a\u001b]0;owned\u0007b\r\u007f\u009b31m\u202Ez";

  private Path sample() throws IOException {
    Path p = dir.resolve("m.gguf");
    Files.write(
        p,
        GgufBuilder.v3()
            .kv("general.architecture", GgufBuilder.str("llama"))
            .kv("general.name", GgufBuilder.str(HOSTILE))
            .tensor("tok" + HOSTILE, 0, 4)
            .bytes());
    return p;
  }

  private static void assertPrintable(String text) {
    for (int i = 0; i < text.length(); i += Character.charCount(text.codePointAt(i))) {
      int cp = text.codePointAt(i);
      assertThat(TerminalText.unsafeCodePoint(cp))
          .as("character U+%04X at %d in:%n%s", cp, i, text)
          .isFalse();
    }
  }

  /** A stream every write to which fails as a full device's does. */
  private static OutputStream fullDevice() {
    return new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        throw new IOException("No space left on device");
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        throw new IOException("No space left on device");
      }
    };
  }

  @Test
  void aFailingStdoutTurnsSuccessIntoExecutionFailure() throws Exception {
    Path model = sample();
    PrintWriter out =
        new PrintWriter(new OutputStreamWriter(fullDevice(), StandardCharsets.UTF_8), true);
    StringWriter err = new StringWriter();
    int status =
        ReaMain.run(
            new String[] {"inspect-model-artifact", model.toString(), "--json"},
            out,
            new PrintWriter(err, true),
            Map.of("REA_HOME", CliRunner.HOME.toString()));
    assertThat(status).isEqualTo(4);
    assertThat(err.toString()).contains("execution_failure (io_error): could not write the output");
  }

  /**
   * The process's own stdout takes JSON as bytes, not through the writer: a full device there
   * is the same {@code execution_failure}, not an internal error with a stack trace.
   */
  @Test
  void aFullDeviceUnderTheProcessStdoutIsExecutionFailure() throws Exception {
    Path model = sample();
    OutputStream full = fullDevice();
    for (String detail : new String[] {"complete", "summary"}) {
      StringWriter err = new StringWriter();
      int status =
          ReaMain.run(
              new String[] {"inspect-model-artifact", model.toString(), "--json", "--detail", detail},
              new Output.Stdout(full),
              new PrintWriter(err, true),
              Map.of("REA_HOME", CliRunner.HOME.toString()));
      assertThat(status).as(detail).isEqualTo(4);
      assertThat(err.toString())
          .as(detail)
          .contains("execution_failure (io_error): could not write the output")
          .doesNotContain("internal error");
    }
    // diff's 1 (the declarations differ) is an answer: lost, it is 4 too, with or without --json.
    Path other = dir.resolve("other.gguf");
    Files.write(
        other,
        GgufBuilder.v3().kv("general.architecture", GgufBuilder.str("qwen2")).tensor("w", 0, 4).bytes());
    for (String[] args :
        new String[][] {
          {"diff", model.toString(), other.toString()},
          {"diff", model.toString(), other.toString(), "--json"},
          {"check", model.toString(), dir.resolve("missing.gguf").toString()}
        }) {
      StringWriter err = new StringWriter();
      int status =
          ReaMain.run(
              args,
              new Output.Stdout(full),
              new PrintWriter(err, true),
              Map.of("REA_HOME", CliRunner.HOME.toString()));
      assertThat(status).as(String.join(" ", args)).isEqualTo(4);
    }
  }

  @Test
  void aFailingStdoutKeepsAnEarlierFailureStatus() {
    PrintWriter out = new PrintWriter(new OutputStreamWriter(OutputStream.nullOutputStream()) {
      @Override
      public void write(String s, int off, int len) throws IOException {
        throw new IOException("Broken pipe");
      }
    }, true);
    out.print("x");
    StringWriter err = new StringWriter();
    assertThat(ReaMain.outputChecked(3, out, new PrintWriter(err, true))).isEqualTo(3);
    // 1 is an answer (diff: the declarations differ; check: a unit failed), lost with stdout.
    assertThat(ReaMain.outputChecked(1, out, new PrintWriter(err, true))).isEqualTo(4);
    assertThat(err.toString()).contains("could not write the output");
    StringWriter fine = new StringWriter();
    assertThat(ReaMain.outputChecked(0, new PrintWriter(fine), new PrintWriter(err))).isEqualTo(0);
    // An execution failure was reported by the command itself (scan: its stdout failed): no
    // second message.
    StringWriter once = new StringWriter();
    assertThat(ReaMain.outputChecked(4, out, new PrintWriter(once, true))).isEqualTo(4);
    assertThat(once.toString()).isEmpty();
  }

  @Test
  void evidenceOutputOnTheModelItselfIsRefusedAndTheModelKept() throws Exception {
    Path model = sample();
    byte[] before = Files.readAllBytes(model);
    Path link = dir.resolve("link.gguf");
    Files.createSymbolicLink(link, model);
    for (String output : new String[] {model.toString(), link.toString(), dir + "/./m.gguf"}) {
      CliRunner.Result r =
          CliRunner.run("inspect-model-artifact", model.toString(), "--evidence_output", output, "--json");
      assertThat(r.status()).as(output).isEqualTo(2);
      assertThat(r.json().get("error").get("constraint").asString()).isEqualTo("bad_argument");
      assertThat(r.json().get("error").get("details").get("field").asString())
          .isEqualTo("--evidence_output");
      assertThat(r.json().get("error").get("message").asString()).contains("is the file being inspected");
      assertThat(Files.readAllBytes(model)).isEqualTo(before);
      assertThat(Files.isSymbolicLink(link)).isTrue();
    }
  }

  @Test
  void evidenceOutputNeverReplacesAModelOrAnyOtherFileButDoesReplaceEarlierEvidence()
      throws Exception {
    Path model = sample();
    Path otherModel = dir.resolve("other.gguf");
    Files.copy(model, otherModel);
    Path safetensors = dir.resolve("w.safetensors");
    byte[] json = "{\"w\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}".getBytes(StandardCharsets.UTF_8);
    java.nio.ByteBuffer st = java.nio.ByteBuffer.allocate(8 + json.length + 1).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    st.putLong(json.length).put(json);
    Files.write(safetensors, st.array());
    Path notes = dir.resolve("notes.txt");
    Files.writeString(notes, "my notes\n");
    // Begins like Evidence, but is not one JSON object: not earlier Evidence either.
    Path cut = dir.resolve("cut.json");
    Files.writeString(cut, "{\"schema\":\"rea.bundle.v1\",\"records\":[IMPORTANT DATA");
    Path twoObjects = dir.resolve("two.json");
    Files.writeString(twoObjects, "{\"schema\":\"rea.bundle.v1\",\"records\":[]}\n{\"mine\":1}");
    // Text whose ninth byte opens an array is not named a safetensors file (it would declare
    // quintillions of bytes of JSON).
    Path brackets = dir.resolve("brackets.txt");
    Files.writeString(brackets, "[".repeat(40) + "]".repeat(40));
    String[][] cases = {
      {brackets.toString(), "already exists and is not Evidence that REA wrote"},
      {otherModel.toString(), "already exists and is a GGUF model file"},
      {safetensors.toString(), "already exists and is a safetensors model file"},
      {notes.toString(), "already exists and is not Evidence that REA wrote"},
      {cut.toString(), "already exists and is not Evidence that REA wrote"},
      {twoObjects.toString(), "already exists and is not Evidence that REA wrote"},
    };
    for (String[] c : cases) {
      byte[] before = Files.readAllBytes(Path.of(c[0]));
      CliRunner.Result r =
          CliRunner.run(
              "inspect-model-artifact", model.toString(), "--detail", "summary", "--evidence_output", c[0], "--json");
      assertThat(r.status()).as(c[0]).isEqualTo(2);
      assertThat(r.json().get("error").get("constraint").asString()).isEqualTo("bad_argument");
      assertThat(r.json().get("error").get("details").get("field").asString()).isEqualTo("--evidence_output");
      assertThat(r.json().get("error").get("message").asString()).contains(c[1]);
      assertThat(Files.readAllBytes(Path.of(c[0]))).as(c[0]).isEqualTo(before);
    }
    // One JSON object starting like Evidence but larger than REA reads back (64 MiB; here a
    // small bundle followed by 65 MiB of whitespace) is not earlier Evidence: refused by its
    // size, without being read through.
    Path huge = dir.resolve("huge.json");
    try (java.nio.channels.FileChannel ch =
        java.nio.channels.FileChannel.open(
            huge, java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE)) {
      ch.write(java.nio.ByteBuffer.wrap(
          "{\"schema\":\"rea.bundle.v1\",\"records\":[]}".getBytes(StandardCharsets.US_ASCII)));
      byte[] spaces = new byte[1 << 20];
      java.util.Arrays.fill(spaces, (byte) ' ');
      for (int i = 0; i < 65; i++) {
        ch.write(java.nio.ByteBuffer.wrap(spaces));
      }
    }
    long hugeSize = Files.size(huge);
    CliRunner.Result refusedHuge =
        CliRunner.run(
            "inspect-model-artifact", model.toString(), "--detail", "summary", "--evidence_output",
            huge.toString(), "--json");
    assertThat(refusedHuge.status()).isEqualTo(2);
    assertThat(refusedHuge.json().get("error").get("message").asString())
        .contains("already exists and is not Evidence that REA wrote");
    assertThat(Files.size(huge)).isEqualTo(hugeSize);
    Files.delete(huge);
    // Earlier Evidence (and an empty file) is replaced: running the inspection again works.
    Path evidence = dir.resolve("ev.json");
    Files.createFile(evidence);
    for (int run = 0; run < 2; run++) {
      CliRunner.Result r =
          CliRunner.run(
              "inspect-model-artifact", model.toString(), "--detail", "summary", "--evidence_output", evidence.toString(), "--json");
      assertThat(r.status()).as(r.out()).isEqualTo(0);
      assertThat(Files.readString(evidence)).startsWith("{\"schema\":\"rea.bundle.v1\"");
    }
  }

  /** {@code m.gguf/} names a directory to the system, so neither a model nor an output there. */
  @Test
  void aFilePathWithATrailingSlashIsNotFoundAndIsNoOutputFile() throws Exception {
    Path model = sample();
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", model + "/", "--json");
    assertThat(r.status()).isEqualTo(3);
    assertThat(r.json().get("error").get("constraint").asString()).isEqualTo("not_found");
    assertThat(r.json().get("error").get("details").get("field").asString()).isEqualTo("PATH");
    assertThat(r.json().get("error").get("details").get("path").asString()).isEqualTo(model + "/");
    CliRunner.Result out =
        CliRunner.run(
            "inspect-model-artifact", model.toString(), "--evidence_output", dir + "/new.json/", "--json");
    assertThat(out.status()).isEqualTo(2);
    assertThat(out.json().get("error").get("details").get("field").asString()).isEqualTo("--evidence_output");
    assertThat(Files.exists(dir.resolve("new.json"))).isFalse();
  }

  @Test
  void aPathLongerThanPathMaxIsRefusedWithoutEchoingIt() {
    String longPath = "/" + "q".repeat(50_000);
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", longPath, "--json");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.json().get("error").get("constraint").asString()).isEqualTo("bad_argument");
    assertThat(r.json().get("error").get("message").asString()).contains("50001 bytes long");
    assertThat(r.out()).doesNotContain("q".repeat(100));
  }

  @Test
  void evidenceOutputOnADeviceIsRefused() throws Exception {
    Path model = sample();
    Path device = Path.of("/dev/null");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(device) && !Files.isRegularFile(device));
    CliRunner.Result r =
        CliRunner.run("inspect-model-artifact", model.toString(), "--evidence_output", "/dev/null", "--json");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.json().get("error").get("constraint").asString()).isEqualTo("bad_argument");
    assertThat(r.json().get("error").get("message").asString()).contains("is not a regular file");
  }

  @Test
  void theReadableReportShowsControlCharactersEscaped() throws Exception {
    Path model = sample();
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", model.toString());
    assertThat(r.status()).as(r.err()).isEqualTo(0);
    assertPrintable(r.out());
    assertPrintable(r.err());
    // The tensor name (shown as is apart from the escapes) and the value (quoted) are there.
    // A long name keeps its beginning and its end (NameCuts).
    assertThat(r.out()).contains("toka\\u001b]0;owned\\u0007...");
    assertThat(r.out()).contains("\\u009b31m\\u202ez");
    // The JSON is the Evidence: its strings keep every character.
    CliRunner.Result json = CliRunner.run("inspect-model-artifact", model.toString(), "--json");
    assertThat(json.status()).isEqualTo(0);
    assertThat(json.json().get("records").get(0).get("tensors").get(0).get("name").asString())
        .isEqualTo("tok" + HOSTILE);
  }

  /**
   * A line feed, tab or line separator in a file's names or values cannot forge a row: the full
   * report, the summary, analysis-view pages and error messages each show it escaped, inside its
   * own line.
   */
  @Test
  void lineBreaksFromTheFileCannotStartARowOfTheirOwn() throws Exception {
    String forged = "x\nFAKE\tROW\u2028y";
    String escaped = "x\\u000aFAKE\\u0009ROW\\u2028y";
    // A string value (not a name or key) is quoted as the report quotes strings: \n and \t as
    // their JSON escapes.
    String quoted = "x\\nFAKE\\tROW\\u2028y";
    Path gguf = dir.resolve("lines.gguf");
    Files.write(
        gguf,
        GgufBuilder.v3()
            .kv("general.architecture", GgufBuilder.str("llama"))
            .kv("general.name", GgufBuilder.str("Model" + forged))
            .kv("k.forged", GgufBuilder.str("v" + forged))
            .tensor("tok" + forged, 0, 4)
            .bytes());
    Path safetensors = dir.resolve("lines.safetensors");
    String json =
        "{\"__metadata__\":{\"k" + jsonEscaped(forged) + "\":\"v" + jsonEscaped(forged) + "\"},"
            + "\"t" + jsonEscaped(forged) + "\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}";
    byte[] header = json.getBytes(StandardCharsets.UTF_8);
    java.nio.ByteBuffer st =
        java.nio.ByteBuffer.allocate(8 + header.length + 1).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    st.putLong(header.length).put(header);
    Files.write(safetensors, st.array());

    for (Path model : new Path[] {gguf, safetensors}) {
      Path evidence = dir.resolve(model.getFileName() + "-evidence.json");
      CliRunner.Result full = CliRunner.run("inspect-model-artifact", model.toString());
      CliRunner.Result summary =
          CliRunner.run(
              "inspect-model-artifact", model.toString(), "--detail", "summary",
              "--evidence_output", evidence.toString());
      CliRunner.Result metadata =
          CliRunner.run(
              "inspect-analysis-view", "--source", evidence.toString(), "--view",
              "{\"kind\":\"model-artifact\",\"collection\":\"metadata\"}");
      CliRunner.Result tensors =
          CliRunner.run(
              "inspect-analysis-view", "--source", evidence.toString(), "--view",
              "{\"kind\":\"model-artifact\",\"collection\":\"tensors\"}");
      for (CliRunner.Result r : new CliRunner.Result[] {full, summary, metadata, tensors}) {
        assertThat(r.status()).as(r.err()).isEqualTo(0);
        assertPrintable(r.out());
        assertThat(r.out()).as(r.out()).doesNotContain("\nFAKE").doesNotContain("\t");
      }
      assertThat(full.out()).as(model.toString()).contains("t" + (model == gguf ? "ok" : "") + escaped);
      assertThat(tensors.out()).contains("t" + (model == gguf ? "ok" : "") + escaped);
      if (model == gguf) {
        assertThat(summary.out()).contains("\"Model" + quoted + "\"");
        assertThat(metadata.out()).contains("\"v" + quoted + "\"");
      } else {
        assertThat(metadata.out()).contains("k" + escaped).contains("\"v" + quoted + "\"");
      }
    }

    // A refused key is quoted in the error message, escaped on its one line.
    Path badKey = dir.resolve("bad-key.gguf");
    Files.write(badKey, GgufBuilder.v3().kv("k" + forged, GgufBuilder.str("v")).bytes());
    CliRunner.Result refused = CliRunner.run("inspect-model-artifact", badKey.toString());
    assertThat(refused.status()).isEqualTo(3);
    assertPrintable(refused.err());
    assertThat(refused.err()).contains("k" + escaped).doesNotContain("\nFAKE").doesNotContain("\t");
  }

  /** @return a safetensors file in the test's directory: the header, then {@code dataBytes} zeros */
  private Path safetensors(String name, String header, int dataBytes) throws IOException {
    byte[] h = header.getBytes(StandardCharsets.UTF_8);
    java.nio.ByteBuffer st =
        java.nio.ByteBuffer.allocate(8 + h.length + dataBytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    st.putLong(h.length).put(h);
    return Files.write(dir.resolve(name), st.array());
  }

  /** An unknown safetensors dtype is a value from the file too: escaped in both tables. */
  @Test
  void anUnknownDtypeWithALineFeedStaysInItsCell() throws Exception {
    Path p =
        safetensors(
            "dtype.safetensors",
            "{\"w\":{\"dtype\":\"F\\n32\\tX\",\"shape\":[1],\"data_offsets\":[0,4]}}",
            4);
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", p.toString());
    assertThat(r.status()).as(r.err()).isEqualTo(0);
    assertPrintable(r.out());
    assertThat(r.out()).doesNotContain("\n32").doesNotContain("\t");
    // The Types row and the Tensors row.
    assertThat(r.out().split("F\\\\u000a32\\\\u0009X", -1)).hasSizeGreaterThanOrEqualTo(3);
  }

  /**
   * A limitation quotes the dtype as the Evidence does (ESC as a JSON escape): the report shows
   * that escape once, as the tables show the name, not with its backslash escaped again; a
   * backslash of the file's own stays told apart (the quote doubles it).
   */
  @Test
  void aLimitationShowsAQuotedNameAsTheTablesDo() throws Exception {
    Path p =
        safetensors(
            "esc.safetensors",
            "{\"w\":{\"dtype\":\"F\\u001b[31mX\",\"shape\":[1],\"data_offsets\":[0,4]},"
                + "\"v\":{\"dtype\":\"B\\\\u200b\",\"shape\":[1],\"data_offsets\":[4,8]}}",
            8);

    CliRunner.Result r = CliRunner.run("inspect-model-artifact", p.toString());

    assertThat(r.status()).as(r.err()).isEqualTo(0);
    assertPrintable(r.out());
    // The table cell and the limitation name the ESC dtype alike.
    assertThat(r.out()).contains("F\\u001b[31mX  ").contains("dtype \"F\\u001b[31mX\" is not a dtype");
    // The dtype B, backslash, u200b (six characters, no U+200B): the quote doubles the backslash.
    assertThat(r.out()).contains("dtype \"B\\\\u200b\" is not a dtype");
    CliRunner.Result check = CliRunner.run("check", p.toString(), "--fail-on", "limitations");
    assertThat(check.status()).isEqualTo(1);
    assertThat(check.out()).contains("dtype \"F\\u001b[31mX\" ").doesNotContain("u005c");
  }

  private static String jsonEscaped(String s) {
    return s.replace("\n", "\\n").replace("\t", "\\t");
  }

  @Test
  void errorMessagesQuotingTheFileOrTheCommandLineAreEscaped() throws Exception {
    Path p = dir.resolve("dup.gguf");
    Files.write(
        p,
        GgufBuilder.v3()
            .tensor("w" + HOSTILE, 0, 4)
            .tensor("w" + HOSTILE, 0, 4)
            .bytes());
    CliRunner.Result r = CliRunner.run("inspect-model-artifact", p.toString());
    assertThat(r.status()).isEqualTo(3);
    assertThat(r.err()).contains("duplicate tensor name").contains("\\u001b");
    assertPrintable(r.err());
    assertPrintable(r.out());

    CliRunner.Result usage = CliRunner.run("inspect-model-artifact", p.toString(), "--x" + HOSTILE);
    assertThat(usage.status()).isEqualTo(2);
    assertThat(usage.err()).contains("\\u001b");
    assertPrintable(usage.err());

    CliRunner.Result missing = CliRunner.run("inspect-model-artifact", dir.resolve("no" + HOSTILE).toString());
    assertThat(missing.status()).isEqualTo(3);
    assertPrintable(missing.err());
  }

  @Test
  void printableLeavesOrdinaryTextAloneAndEscapesEachUnsafeCharacter() {
    assertThat(TerminalText.printable("plain text with ünïcödé and 漢字")).isEqualTo("plain text with ünïcödé and 漢字");
    assertThat(TerminalText.printable("\u0000\u001f\u007f\u0080\u009f\u202a\u2069"))
        .isEqualTo("\\u0000\\u001f\\u007f\\u0080\\u009f\\u202a\\u2069");
    // A value is one line: its line feeds, tabs and Unicode line separators are escaped too.
    assertThat(TerminalText.printable("a\nb\tc\u2028d\u2029e"))
        .isEqualTo("a\\u000ab\\u0009c\\u2028d\\u2029e");
    // Invisible bidirectional marks and zero-width characters: each shown, none obeyed.
    assertThat(TerminalText.printable("\u200f\u200e\u061c\u200b\u2060\ufeffx\u00e9\u4e2d"))
        .isEqualTo("\\u200f\\u200e\\u061c\\u200b\\u2060\\ufeffx\u00e9\u4e2d");
    // Every format character (Cf), tag characters hiding ASCII text ("llama" + hidden "hi"),
    // variation selectors, fillers and an unpaired surrogate; an emoji passes whole.
    assertThat(TerminalText.printable("\u00ad\u206a\ufff9\u034f\u3164\ufe0f"))
        .isEqualTo("\\u00ad\\u206a\\ufff9\\u034f\\u3164\\ufe0f");
    String hidden = "llama" + new String(Character.toChars(0xE0068)) + new String(Character.toChars(0xE0069));
    assertThat(TerminalText.printable(hidden)).isEqualTo("llama\\udb40\\udc68\\udb40\\udc69");
    assertThat(TerminalText.printable(new String(Character.toChars(0xE0100)) + "\ud800x"))
        .isEqualTo("\\udb40\\udd00\\ud800x");
    assertThat(TerminalText.printable("\uD83D\uDE00")).isEqualTo("\uD83D\uDE00");
    // The six characters backslash u 2 0 0 b do not print as U+200B does: every backslash-u of a
    // value starts an escape. Other backslashes pass.
    assertThat(TerminalText.printable("w\\u200b")).isEqualTo("w\\u005cu200b");
    assertThat(TerminalText.printable("w\u200b")).isEqualTo("w\\u200b");
    assertThat(TerminalText.printable("a\\b\\")).isEqualTo("a\\b\\");
    assertThat(TerminalText.quoted(hidden, 100)).isEqualTo("\"llama\\udb40\\udc68\\udb40\\udc69\"");
    assertThat(TerminalText.printable(null)).isNull();
    // Outside normalization form C, combining marks are escaped (e + U+0301 draws as é); text in
    // form C keeps them: a Devanagari vowel sign, a Vietnamese double accent, é itself.
    assertThat(TerminalText.printable("cafe\u0301")).isEqualTo("cafe\\u0301");
    assertThat(TerminalText.quoted("cafe\u0301", 100)).isEqualTo("\"cafe\\u0301\"");
    assertThat(TerminalText.printable("\u0915\u093f \u1ec7 caf\u00e9")).isEqualTo("\u0915\u093f \u1ec7 caf\u00e9");
    // Marks stacked past three on one character (text in form C, so the rule above keeps them)
    // are escaped from the fourth: they would draw over the lines around. U+2800 draws nothing.
    String stacked = "x" + "\u0300".repeat(6) + "y";
    assertThat(Normalizer.isNormalized(stacked, Normalizer.Form.NFC)).isTrue();
    assertThat(TerminalText.printable(stacked)).isEqualTo("x\u0300\u0300\u0300" + "\\u0300".repeat(3) + "y");
    assertThat(TerminalText.quoted(stacked, 100)).isEqualTo("\"x\u0300\u0300\u0300" + "\\u0300".repeat(3) + "y\"");
    assertThat(TerminalText.printable("a\u2800b")).isEqualTo("a\\u2800b");
    assertThat(TerminalText.printable("\u1ec7\u0301\u0323")).isEqualTo("\u1ec7\\u0301\\u0323");
    StringWriter sink = new StringWriter();
    PrintWriter raw = new PrintWriter(sink);
    PrintWriter safe = TerminalText.wrap(raw);
    assertThat(TerminalText.wrap(safe)).isSameAs(safe);
    assertThat(TerminalText.raw(safe)).isSameAs(raw);
    safe.print('\u001b');
    safe.print(new char[] {'x', '\r'});
    safe.println("y\u0085\tz\u2028");
    safe.flush();
    // REA's own text keeps its line feeds and tabs (they lay the report out).
    assertThat(sink.toString())
        .isEqualTo("\\u001bx\\u000dy\\u0085\tz\\u2028" + System.lineSeparator());
  }
}
