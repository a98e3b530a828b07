package dev.rea.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Table columns are sized in terminal columns, so wide and combining characters align. */
class TextTableTest {
  private static String[] lines(List<String> header, List<String[]> rows) {
    StringWriter sink = new StringWriter();
    PrintWriter out = new PrintWriter(sink);
    TextTable.print(out, header, rows);
    out.flush();
    return sink.toString().split(System.lineSeparator());
  }

  @Test
  void wideAndCombiningCharactersKeepTheNextColumnInPlace() {
    String[] l =
        lines(
            List.of("NAME", "TYPE"),
            List.of(
                new String[] {"ab", "F32"},
                new String[] {"\u5b57\u5b57", "F32"}, // two CJK characters: 4 columns
                new String[] {"e\u0301\u0301", "F32"}, // one letter, two combining accents: 1
                new String[] {"\ud83d\ude00", "F32"})); // an emoji outside the BMP: 2
    // Every TYPE cell starts at the same terminal column.
    for (String line : l) {
      int at = line.lastIndexOf("F32") >= 0 ? line.lastIndexOf("F32") : line.indexOf("TYPE");
      assertThat(TextTable.columns(line.substring(0, at))).as(line).isEqualTo(2 + 4 + 2);
    }
    assertThat(TextTable.columns("\u5b57a\u0301\ud83d\ude00")).isEqualTo(2 + 1 + 0 + 2);
  }

  @Test
  void aHugeCellPushesOnlyItsOwnRow() {
    String huge = "t".repeat(100_000);
    String[] l =
        lines(
            List.of("NAME", "TYPE"),
            List.of(new String[] {"short", "F32"}, new String[] {huge, "F16"}));
    // The other rows keep the width of their ordinary cells; the long name is whole.
    assertThat(l[0]).isEqualTo("  NAME   TYPE");
    assertThat(l[1]).isEqualTo("  short  F32");
    assertThat(l[2]).isEqualTo("  " + huge + "  F16");
    String atLimit = "u".repeat(TextTable.MAX_PADDED_COLUMNS);
    String[] m = lines(List.of(), List.of(new String[] {atLimit, "x"}, new String[] {"a", "y"}));
    assertThat(m[1]).isEqualTo("  a" + " ".repeat(TextTable.MAX_PADDED_COLUMNS - 1) + "  y");
  }

  @Test
  void cutCountsColumnsAndNeverSplitsASurrogatePair() {
    assertThat(TextTable.cut("abcdef", 6)).isEqualTo("abcdef");
    assertThat(TextTable.cut("abcdefg", 6)).isEqualTo("abc...");
    // Four wide characters take 8 columns: cut to 6, one fits in the 3 left before "...".
    assertThat(TextTable.cut("\u5b57\u5b57\u5b57\u5b57", 6)).isEqualTo("\u5b57...");
    String emoji = "\ud83d\ude00\ud83d\ude00\ud83d\ude00\ud83d\ude00";
    String cut = TextTable.cut(emoji, 6);
    assertThat(cut).isEqualTo("\ud83d\ude00...");
    assertThat(cut.chars().filter(c -> Character.isSurrogate((char) c)).count()).isEqualTo(2);
  }

  /** A cut never keeps part of an escape: "...u001b[1m" would show text that is not there. */
  @Test
  void aCutKeepsAnEscapeWholeOrDropsIt() {
    String esc = "\\u001b";
    String name = "abc" + esc + "[1mtail";
    for (int max = 4; max <= name.length(); max++) {
      String cut = TextTable.cut(name, max);
      assertThat(TextTable.columns(cut)).as("max %d", max).isLessThanOrEqualTo(max);
      String shown = cut.endsWith("...") ? cut.substring(0, cut.length() - 3) : cut;
      assertThat(name).startsWith(shown);
      assertThat(shown.length() <= 3 || shown.length() >= 3 + esc.length()).as(cut).isTrue();
    }
    for (int max = 8; max <= 24; max++) {
      for (String cut : NameCuts.cut(new String[] {esc + "x".repeat(20) + esc + "[1m", "other"}, max)) {
        int back = cut.indexOf("...");
        String tail = back < 0 ? cut : cut.substring(back + 3);
        String head = back < 0 ? cut : cut.substring(0, back);
        assertThat(tail.startsWith("u001b") || tail.startsWith("001b") || tail.startsWith("01b")
            || tail.startsWith("1b") || tail.startsWith("b[")).as(cut).isFalse();
        assertThat(head.endsWith("\\") || head.endsWith("\\u") || head.endsWith("\\u0")
            || head.endsWith("\\u00") || head.endsWith("\\u001")).as(cut).isFalse();
      }
    }
  }
}
