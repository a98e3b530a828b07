package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.format.gguf.GgufTesting;
import dev.rea.core.internal.view.IndexedEvidence;
import dev.rea.core.internal.view.ModelArtifactSummary;
import dev.rea.core.internal.view.ViewPages;
import dev.rea.core.view.SourceKind;
import dev.rea.core.view.ViewRequest;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readable output laid out to a terminal's width ({@link Screen}, {@link FittedTable}, {@link
 * ProgressBar}), in process. The pseudo-terminal test ({@link TerminalWidthPtyTest}) checks the
 * same through a real terminal.
 */
class FittedLayoutTest {
  @TempDir Path dir;

  static String render(Consumer<PrintWriter> print) {
    StringWriter sink = new StringWriter();
    PrintWriter out = new PrintWriter(sink);
    print.accept(out);
    out.flush();
    return sink.toString();
  }

  static final List<FittedTable.Column> TENSORS =
      List.of(
          FittedTable.Column.fixed("#"),
          FittedTable.Column.text("NAME", 20, 32),
          FittedTable.Column.fixed("TYPE"),
          FittedTable.Column.droppable("SHAPE", 2),
          FittedTable.Column.droppable("FILE OFFSET", 4),
          FittedTable.Column.droppable("BYTES", 1),
          FittedTable.Column.droppable("STORAGE", 3));

  static List<String[]> rows(String name) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"0", name, "Q4_K", "[14336, 4096]", "4,302,931,456", "33,030,144",
        "consistent"});
    rows.add(new String[] {"1", "output.weight", "Q6_K", "[4096, 128256]", "5,102,931,456",
        "unknown", "unknown"});
    return rows;
  }

  @Test
  void anUnlimitedScreenPrintsTheTableAsTextTableDoes() {
    List<String> header = new ArrayList<>();
    for (FittedTable.Column c : TENSORS) {
      header.add(c.title());
    }
    String fitted = render(out -> {
      FittedTable.Fit fit = FittedTable.print(out, Screen.UNLIMITED, TENSORS,
          rows("blk.31.ffn_down.weight"), true);
      assertThat(fit.dropped()).isEmpty();
    });
    String plain = render(out -> TextTable.print(out, header, rows("blk.31.ffn_down.weight")));
    assertThat(fitted).isEqualTo(plain);
  }

  /** Columns that can be neither cut nor dropped close up to one space before they overflow. */
  @Test
  void fixedColumnsCloseUpOnANarrowScreen() {
    List<FittedTable.Column> types =
        List.of(
            FittedTable.Column.text("TYPE", 12, 16),
            FittedTable.Column.fixed("TENSORS"),
            FittedTable.Column.fixed("PARAMETERS"),
            FittedTable.Column.fixed("BYTES"));
    List<String[]> rows = List.<String[]>of(
        new String[] {"AMBIGUOUS_24", "1", "512", "unknown"},
        new String[] {"Q8_0", "2", "12,288", "13,056"});
    // Two spaces apart: 2 + 12 + 2 + 7 + 2 + 10 + 2 + 7 = 44 columns; one apart: 41.
    for (int w = 41; w <= 44; w++) {
      int width = w;
      String text = render(out -> FittedTable.print(out, Screen.of(width), types, rows, true));
      for (String line : text.split("\n")) {
        assertThat(line.length()).as("width %d: %s", width, line).isLessThanOrEqualTo(width);
      }
      assertThat(text).contains("AMBIGUOUS_24");
    }
    assertThat(render(out -> FittedTable.print(out, Screen.of(44), types, rows, true)))
        .startsWith("  TYPE          TENSORS  PARAMETERS  BYTES\n");
    assertThat(render(out -> FittedTable.print(out, Screen.of(43), types, rows, true)))
        .startsWith("  TYPE         TENSORS PARAMETERS BYTES\n");
  }

  @Test
  void columnsAreDroppedMostExpendableFirstAndNumbersStayWhole() {
    for (int width = 40; width <= 120; width++) {
      Screen screen = Screen.of(width);
      FittedTable.Fit[] fit = new FittedTable.Fit[1];
      String text = render(out -> fit[0] = FittedTable.print(out, screen, TENSORS,
          rows("blk.31.ffn_down.weight"), true));
      for (String line : text.split("\n")) {
        assertThat(line.length()).as("width %d: %s", width, line).isLessThanOrEqualTo(width);
      }
      // Dropped in order: FILE OFFSET, STORAGE, SHAPE, BYTES.
      List<String> order = List.of("FILE OFFSET", "STORAGE", "SHAPE", "BYTES");
      assertThat(order.subList(0, fit[0].dropped().size()))
          .containsExactlyInAnyOrderElementsOf(fit[0].dropped());
      // What is shown of a number is the whole number.
      for (String n : List.of("4,302,931,456", "33,030,144", "[14336, 4096]")) {
        assertThat(text.contains(n) || !text.contains(n.substring(0, 3))).as(n).isTrue();
      }
    }
    String at80 = render(out -> FittedTable.print(out, Screen.of(80), TENSORS,
        rows("blk.31.ffn_down.weight"), true));
    assertThat(at80).startsWith("  #  NAME                    TYPE  SHAPE           BYTES       STORAGE\n")
        .doesNotContain("FILE OFFSET");
  }

  @Test
  void columnsAreDroppedToLeaveALongNameItsPreferredWidthThenItIsCut() {
    String name = "blk.31.ffn_down_exps.weight.with.a.very.long.suffix";
    FittedTable.Fit[] fit = new FittedTable.Fit[1];
    String text = render(out -> fit[0] = FittedTable.print(out, Screen.of(80), TENSORS,
        rows(name), true));
    // FILE OFFSET and STORAGE go so that NAME keeps at least 32 columns; the room left over
    // goes to NAME too, which is still cut.
    assertThat(fit[0].dropped()).containsExactly("FILE OFFSET", "STORAGE");
    assertThat(fit[0].cut()).isTrue();
    assertThat(text).isEqualTo(
        "  #  NAME                                       TYPE  SHAPE           BYTES\n"
            + "  0  blk.31.ffn_down_exps.weight.with.a.ver...  Q4_K  [14336, 4096]   33,030,144\n"
            + "  1  output.weight                              Q6_K  [4096, 128256]  unknown\n");
    assertThat(FittedTable.droppedNote(fit[0].dropped(), Screen.of(80))).isEqualTo(
        "  (FILE OFFSET, STORAGE are not shown, to fit 80 columns: --wide shows every column)");
    // Narrower still: NAME gives up width down to 20 before BYTES goes.
    String at50 = render(out -> fit[0] = FittedTable.print(out, Screen.of(50), TENSORS,
        rows(name), true));
    assertThat(fit[0].dropped()).containsExactly("SHAPE", "FILE OFFSET", "STORAGE");
    assertThat(at50.split("\n")[1]).isEqualTo("  0  blk.31.ffn_down_exps.wei...  Q4_K  33,030,144");
  }

  /**
   * Names cut at their end became equal rows (a trial at 80 columns: twelve expert tensors all
   * read {@code model.layers.3.mlp.experts....}): a name column drops every droppable column
   * before cutting, and then cuts each name in the middle, apart from the others.
   */
  @Test
  void namesAreCutOnlyAfterEveryDroppableColumnAndStayApart() {
    List<FittedTable.Column> columns =
        List.of(
            FittedTable.Column.fixed("#"),
            FittedTable.Column.name("NAME", 20),
            FittedTable.Column.fixed("TYPE"),
            FittedTable.Column.droppable("SHAPE", 2),
            FittedTable.Column.droppable("FILE OFFSET", 4),
            FittedTable.Column.droppable("BYTES", 1));
    List<String> names = new ArrayList<>();
    List<String[]> rows = new ArrayList<>();
    for (String expert : List.of("10", "11")) {
      for (String proj : List.of("down", "gate", "up")) {
        String name = "model.layers.3.mlp.experts." + expert + "." + proj + "_proj.weight";
        names.add(name);
        rows.add(new String[] {Integer.toString(rows.size()), name, "Q4_K", "[7168, 2048]",
            "1,234,567,890", "8,257,536"});
      }
    }
    FittedTable.Fit[] fit = new FittedTable.Fit[1];
    String at80 = render(out -> fit[0] = FittedTable.print(out, Screen.of(80), columns, rows, true));
    // Whole names: FILE OFFSET and SHAPE go (a text column kept SHAPE and cut names to 27).
    assertThat(fit[0].cut()).isFalse();
    assertThat(fit[0].dropped()).containsExactly("SHAPE", "FILE OFFSET");
    for (String name : names) {
      assertThat(at80).contains("  " + name + "  ");
    }
    // From 35 columns (24 for names) every name is told apart; below, "10.down" and "11.down"
    // differ too far from either end for 20 columns (the least), and some rows look alike.
    for (int width = 35; width <= 60; width++) {
      Screen screen = Screen.of(width);
      String text = render(out -> FittedTable.print(out, screen, columns, rows, true));
      List<String> shown = new ArrayList<>();
      for (String line : text.split("\n")) {
        assertThat(line.length()).as("width %d: %s", width, line).isLessThanOrEqualTo(width);
        shown.add(line.trim().replaceAll("^\\S+\\s+", "").replaceAll("\\s+Q4_K$", ""));
      }
      assertThat(shown.subList(1, shown.size())).as("width %d", width).doesNotHaveDuplicates();
    }
  }

  @Test
  void aNameIsCutInTheMiddleApartFromTheOthers() {
    String[] names = {
      "model.layers.10.self_attn.k_norm.weight",
      "model.layers.11.self_attn.k_norm.weight",
      "model.layers.10.self_attn.k_proj.weight",
      "model.layers.10.mlp.experts.100.down_proj.weight",
      "model.layers.10.mlp.experts.101.down_proj.weight",
      "short"
    };
    String[] cut = NameCuts.cut(names, 30);
    assertThat(cut)
        .containsExactly(
            "model.layers.10..._norm.weight",
            "model.layers.11..._norm.weight",
            "model.layers...n.k_proj.weight",
            "model.l...100.down_proj.weight",
            "model.l...101.down_proj.weight",
            "short");
    // Never between two digits: 100 and 101 are kept whole at every width.
    for (int width = 12; width <= 48; width++) {
      String[] at = NameCuts.cut(names, width);
      for (int i = 0; i < names.length; i++) {
        String c = at[i];
        assertThat(TextTable.columns(c)).as("%d: %s", width, c).isLessThanOrEqualTo(width);
        int dots = c.indexOf("...");
        while (dots >= 0
            && !(names[i].startsWith(c.substring(0, dots))
                && names[i].endsWith(c.substring(dots + 3)))) {
          dots = c.indexOf("...", dots + 1);
        }
        if (dots < 0) {
          assertThat(c).isEqualTo(names[i]);
          continue;
        }
        String head = c.substring(0, dots);
        String tail = c.substring(dots + 3);
        assertThat(names[i]).startsWith(head).endsWith(tail);
        boolean headSplits = head.matches(".*[0-9]")
            && Character.isDigit(names[i].charAt(head.length()));
        boolean tailSplits = tail.matches("[0-9].*")
            && Character.isDigit(names[i].charAt(names[i].length() - tail.length() - 1));
        assertThat(headSplits || tailSplits).as("%d: %s", width, c).isFalse();
      }
    }
  }

  @Test
  void aCutNeverEndsInsideANumber() {
    assertThat(FittedTable.cut("(8 of 32,000 shown)", 13)).isEqualTo("(8 of ...");
    assertThat(FittedTable.cut("size 1.5 GiB total", 10)).isEqualTo("size ...");
    assertThat(FittedTable.cut("[0.0,0.0,0.0,0.0]", 12)).isEqualTo("[0.0,0.0,...");
    assertThat(FittedTable.cut("token_embd.weight", 10)).isEqualTo("token_e...");
    assertThat(FittedTable.cut("short", 10)).isEqualTo("short");
  }

  @Test
  void wrappedFactsPutLongDigestsOnLinesOfTheirOwn() {
    String digest = "0e945f9df70aae2fd5496a26fab8a4651481e19494648f2e85c767a573b7c289";
    List<String[]> facts = List.of(
        new String[] {"header", "724,398 bytes (707.4 KiB), sha256 " + digest},
        new String[] {"evidence id", "sha256:" + digest + " (names this report)"});
    String text = render(out -> Screen.of(80).printFacts(out, facts));
    assertThat(text).isEqualTo(
        "  header       724,398 bytes (707.4 KiB), sha256\n"
            + "               " + digest + "\n"
            + "  evidence id\n"
            + "    sha256:" + digest + "\n"
            + "               (names this report)\n");
    String wide = render(out -> Screen.UNLIMITED.printFacts(out, facts));
    assertThat(wide).isEqualTo(render(out -> TextTable.print(out, List.of(), facts)));
  }

  @Test
  void theProgressLineFitsEveryWidth() {
    for (int columns = 20; columns <= 200; columns++) {
      ProgressBar bar = new ProgressBar(new PrintWriter(new StringWriter()), "hashing", columns);
      for (String eta : new String[] {"", "3s left", "999m59s left"}) {
        String line = bar.line(0.4321, 1_234_567_890L, 987_654_321_000L, 123_456_789.0, eta);
        assertThat(line.length()).as("%d columns: %s", columns, line).isLessThan(columns);
        assertThat(line).startsWith("hashing");
      }
    }
    // Wide enough: the whole line with a 30-cell bar.
    ProgressBar wide = new ProgressBar(new PrintWriter(new StringWriter()), "hashing", 200);
    assertThat(wide.line(0.5, 512L << 20, 1L << 30, 100.0 * (1 << 20), "5s left"))
        .isEqualTo("hashing [###############               ]  50.0% 512.0 MiB / 1.0 GiB,"
            + " 100.0 MiB/s 5s left");
    ProgressBar narrow = new ProgressBar(new PrintWriter(new StringWriter()), "hashing", 50);
    assertThat(narrow.line(0.5, 512L << 20, 1L << 30, 100.0 * (1 << 20), "5s left"))
        .isEqualTo("hashing [######      ]  50.0% 512.0 MiB / 1.0 GiB");
  }

  /** The records of every accepted file of the test resources, and of the shipped sample. */
  private List<EvidenceRecord> testFileRecords() throws IOException {
    List<Path> files = new ArrayList<>();
    Path root = GgufTesting.repositoryRoot().resolve("rea-core/src/test/resources");
    try (Stream<Path> s = Files.walk(root)) {
      s.filter(Files::isRegularFile)
          .filter(p -> p.toString().endsWith(".gguf") || p.toString().endsWith(".gguf.gz")
              || p.toString().endsWith(".safetensors"))
          .sorted()
          .forEach(files::add);
    }
    files.add(GgufTesting.repositoryRoot().resolve("samples/sample-mixed.gguf"));
    List<EvidenceRecord> records = new ArrayList<>();
    for (Path f : files) {
      Path file = f.toString().endsWith(".gz")
          ? GgufTesting.resourceFile(dir, root.relativize(f).toString().substring("gguf/".length()))
          : f;
      try {
        records.add(GgufTesting.inspect(file));
      } catch (ReaException rejected) {
        // Only accepted files have a report to lay out.
      }
    }
    return records;
  }

  /** The report, the summary and a page of each collection of {@code r}, at {@code screen}. */
  private static List<String> renderedAt(EvidenceRecord r, Screen screen) throws ReaException {
    String report = render(out -> new HumanReport(out, 100).screen(screen).print(r));
    IndexedEvidence ev = IndexedEvidence.of(r);
    String summary = render(out -> CompactReport.printSummary(out,
        ModelArtifactSummary.render(ev, null), null, screen));
    StringBuilder pages = new StringBuilder();
    for (String collection : List.of("tensors", "metadata", "types")) {
      byte[] page = ViewPages.answer(ev, ViewRequest.parse(
          "{\"kind\":\"model-artifact\",\"collection\":\"" + collection + "\"}",
          ViewRequest.Mode.ANALYSIS), SourceKind.EVIDENCE_FILE).json();
      pages.append(render(out -> CompactReport.printPage(out, page, screen)));
    }
    return List.of(report, summary, pages.toString());
  }

  /** Every file of the test resources, reported at 80 columns: no line is longer. */
  @Test
  void reportsOfEveryTestFileFitEightyColumns() throws IOException, ReaException {
    List<EvidenceRecord> records = testFileRecords();
    for (EvidenceRecord r : records) {
      for (String text : renderedAt(r, Screen.of(80))) {
        for (String line : text.split("\n")) {
          if (line.length() > 80) {
            // Only a word that cannot be broken (a path, a digest, a quoted name) may be longer.
            assertThat(line.strip()).as("%s: %s", r.artifact().path(), line).doesNotContain(" ");
          }
        }
      }
    }
    assertThat(records.size()).isGreaterThan(20);
  }

  /**
   * The narrowest widths the README accepts (20 columns and up) lay out every report without
   * failing: at 20 to 30 columns the metadata table once asked for a negative padding.
   */
  @Test
  void everyReportLaysOutAtTheNarrowestWidths() throws IOException, ReaException {
    List<EvidenceRecord> records = testFileRecords();
    for (int columns = 20; columns <= 40; columns++) {
      for (EvidenceRecord r : records) {
        List<String> texts = renderedAt(r, Screen.of(columns));
        assertThat(texts.get(0)).as("%s at %d columns", r.artifact().path(), columns)
            .contains("Tensors (");
      }
    }
  }

  /** A metadata key cut to fit the screen is said to be cut, as a cut tensor name is. */
  @Test
  void aCutMetadataKeyIsSaidToBeCut() throws Exception {
    String longKey = "llama.attention.head_count_kv_of_a_very_long_key_name_indeed_really";
    byte[] bytes =
        dev.rea.core.internal.format.gguf.GgufBuilder.v3()
            .kv("general.architecture", dev.rea.core.internal.format.gguf.GgufBuilder.str("llama"))
            .kv(longKey, dev.rea.core.internal.format.gguf.GgufBuilder.u32(8))
            .tensor("w", 0, 4)
            .bytes();
    EvidenceRecord r = GgufTesting.inspectBytes(dir, "long-key.gguf", bytes);
    String narrow = render(out -> new HumanReport(out, 100).screen(Screen.of(60)).print(r));
    assertThat(narrow).doesNotContain(longKey)
        .contains("(keys are cut to fit: --wide or --json gives them whole)");
    String wide = render(out -> new HumanReport(out, 100).print(r));
    assertThat(wide).contains(longKey).doesNotContain("keys are cut");
  }

  /** A string of escapes cut to fit a narrow screen: the line fits it, to the last character. */
  @Test
  void aValueOfEscapesIsCutToFitANarrowScreen() throws Exception {
    String marks = "e\u0301".repeat(63);
    byte[] bytes =
        dev.rea.core.internal.format.gguf.GgufBuilder.v3()
            .kv("general.architecture", dev.rea.core.internal.format.gguf.GgufBuilder.str("llama"))
            .kv("general.name", dev.rea.core.internal.format.gguf.GgufBuilder.str(marks))
            .tensor("w", 0, 4)
            .bytes();
    EvidenceRecord r = GgufTesting.inspectBytes(dir, "marks.gguf", bytes);
    for (int columns = 30; columns <= 40; columns++) {
      int width = columns;
      String report = render(out -> new HumanReport(out, 100).screen(Screen.of(width)).print(r));
      String line = report.lines().filter(l -> l.contains("(126 characters)")).findFirst().orElseThrow();
      assertThat(TextTable.columns(line)).as("%d columns: %s", columns, line).isLessThanOrEqualTo(columns);
    }
  }
}
