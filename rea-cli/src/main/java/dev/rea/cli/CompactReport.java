package dev.rea.cli;

import java.io.PrintWriter;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Readable renderings of a summary and of a page (CONTRACT section 4): the values of the JSON
 * objects, laid out for a person. Rows become a table whose columns are the fields the page
 * carries; long values are shortened with an ellipsis ({@code --json} has them whole).
 */
final class CompactReport {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final int MAX_CELL_CHARS = 60;

  /** A SHA-256 (an evidence ID, a file's or an array's digest): printed whole off a terminal. */
  private static final java.util.regex.Pattern DIGEST =
      java.util.regex.Pattern.compile("(sha256:)?[0-9a-f]{64}");

  private CompactReport() {}

  /** Prints a summary (and its page, if any) with lines as long as their content. */
  static void printSummary(PrintWriter out, byte[] summaryJson, @Nullable Path evidenceFile) {
    printSummary(out, summaryJson, evidenceFile, Screen.UNLIMITED);
  }

  /**
   * Prints a summary (and its page, if any) laid out for {@code screen}: a file's ({@code
   * model-artifact-summary}) or a set's ({@code model-set-summary}, CONTRACT section 9, whose
   * block names the set's kind, index and member count in place of the file's format facts).
   */
  static void printSummary(
      PrintWriter out, byte[] summaryJson, @Nullable Path evidenceFile, Screen screen) {
    JsonNode s = JSON.readTree(summaryJson);
    JsonNode a = s.get("artifact");
    boolean set = s.has("set");
    screen.println(out, (set ? "Summary of the model set " : "Summary of ")
        + TerminalText.printable(a.get("path").asString()), 2);
    List<String[]> facts = set ? setFacts(s) : fileFacts(s);
    JsonNode t = s.get("totals");
    facts.add(
        new String[] {
          "totals",
          amount(t.get("parameter_count"))
              + " parameters (declared), "
              + (t.get("byte_length").isNull()
                  ? Sizes.unknownByteTotal(s.path("assume_layout").isString())
                  : amount(t.get("byte_length")) + " bytes of tensor data")
              // A set's headline comes from its first member; the totals are the whole set's.
              + (set ? "" : SplitMember.ofSummary(s))
        });
    JsonNode layout = s.get("assume_layout");
    if (layout != null && layout.isString()) {
      // The summary's byte lengths and totals rest on the caller's statement (CONTRACT 12).
      facts.add(
          new String[] {
            "layout",
            "ASSUMED "
                + TerminalText.printable(layout.asString())
                + " (--assume-layout): byte lengths of K-quant, Q8_1 and IDs 16-25 rest on this"
                + " assumption, not on the header"
          });
    }
    facts.add(new String[] {"chat template", chatTemplateText(s.get("chat_template"))});
    screen.printFacts(out, facts);
    printTypes(out, s, "gguf".equals(a.get("format").asString()), screen);

    out.println();
    JsonNode headline = s.get("headline_metadata");
    // A safetensors index's metadata: the set record keeps each value as its text, so whether it
    // was a JSON string or number is not known here (docs/sets.md); no type is claimed for it.
    boolean indexText = set && s.get("set").path("index").isObject();
    out.println(
        (indexText ? "Index metadata (" : "Headline metadata (")
            + headline.size()
            + (indexText ? "), each value as its text (a string's or a number's)" : ")"));
    List<String[]> rows = new ArrayList<>();
    JsonNode fileType = s.get("file_type");
    for (JsonNode h : headline) {
      String value =
          indexText
              ? TerminalText.printable(h.get("value").asString())
              : cellText("value", h.get("value"), h);
      if ("general.file_type".equals(h.get("key").asString())
          && fileType != null
          && fileType.isObject()
          && fileType.get("name").isString()) {
        value += " (" + fileType.get("name").asString() + ")";
      }
      rows.add(
          new String[] {
            TerminalText.printable(h.get("key").asString()),
            indexText ? "TEXT" : h.get("type").asString(),
            TextTable.cut(value, MAX_CELL_CHARS)
          });
    }
    if (rows.isEmpty()) {
      out.println("  none");
    }
    FittedTable.print(out, screen, HEADLINE_COLUMNS, rows, false);

    int limitations = s.get("limitation_count").asInt();
    int omitted = s.has("warnings_omitted") ? s.get("warnings_omitted").asInt() : 0;
    out.println();
    out.println(
        "Warnings ("
            + (s.get("warnings").size() + omitted)
            + ")"
            + (s.get("warnings").isEmpty() && omitted == 0 ? ": none" : ""));
    for (JsonNode w : s.get("warnings")) {
      screen.println(
          out,
          "  - ["
              + w.get("code").asString()
              + "] "
              + TerminalText.message(w.get("message").asString()),
          4);
    }
    if (omitted > 0) {
      out.println("  ... " + omitted + " more in the complete Evidence");
    }
    screen.println(
        out,
        "Limitations: "
            + (limitations == 0
                ? "none"
                : limitations + " (listed in the complete Evidence: its \"limitations\" array,"
                    + " or the readable report without --detail summary)"),
        2);
    out.println();
    String id = s.get("parent_evidence_id").asString();
    if (screen.limited()) {
      // The ID on a line of its own: it is 71 characters.
      out.println("Complete Evidence:");
      out.println("  " + id);
      screen.println(
          out,
          evidenceFile == null
              ? "  (not written; use --evidence_output FILE)"
              : "  written to " + TerminalText.printable(evidenceFile.toString()),
          4);
    } else {
      out.println(
          "Complete Evidence: "
              + id
              + (evidenceFile == null
                  ? " (not written; use --evidence_output FILE)"
                  : "\n  written to " + TerminalText.printable(evidenceFile.toString())));
    }
    if (s.has("page")) {
      out.println();
      printPage(out, s.get("page"), screen);
    }
    out.flush();
  }

  /** The first facts of a file's summary: format, size, header, digest, counts. */
  private static List<String[]> fileFacts(JsonNode s) {
    JsonNode a = s.get("artifact");
    List<String[]> facts = new ArrayList<>();
    facts.add(new String[] {"format", formatText(a.get("format").asString(), s.get("format_facts"))});
    facts.add(new String[] {"file size", bytes(a.get("file_size"))});
    facts.add(
        new String[] {"header", bytes(a.get("header_length")) + ", sha256 " + text(a.get("header_sha256"))});
    facts.add(
        new String[] {
          "file sha256", a.get("sha256").isNull() ? "not computed (use --hash full)" : a.get("sha256").asString()
        });
    facts.add(new String[] {"counts", countsText(s.get("counts"))});
    return facts;
  }

  /** @return a summary's {@code counts}: metadata keys, tensors, types */
  private static String countsText(JsonNode c) {
    return Sizes.count(c.get("metadata").asLong(), "metadata key")
        + ", "
        + Sizes.count(c.get("tensors").asLong(), "tensor")
        + ", "
        + Sizes.count(c.get("types").asLong(), "type");
  }

  /**
   * The first facts of a set's summary: its kind and index, its members' format and sizes, the
   * counts over every member. Each member has its own header and digest, so neither is a fact of
   * the set.
   */
  private static List<String[]> setFacts(JsonNode s) {
    JsonNode a = s.get("artifact");
    JsonNode set = s.get("set");
    JsonNode c = s.get("counts");
    List<String[]> facts = new ArrayList<>();
    facts.add(new String[] {"kind", SetReport.kindText(set.get("kind").asString()) + ", "
        + Sizes.count(set.get("member_count").asLong(), "member") + " ("
        + TerminalText.printable(a.get("format").asString()) + ")"});
    JsonNode index = set.get("index");
    if (index != null && index.isObject()) {
      facts.add(new String[] {"index", TerminalText.printable(index.get("path").asString())
          + ", sha256 " + index.get("sha256").asString()});
    }
    facts.add(new String[] {"file size", bytes(a.get("file_size")) + " in all members"});
    // The members' own headers: an index's metadata is no member's, and has a section of its own.
    facts.add(new String[] {"counts", "over all members' headers: " + countsText(c)});
    return facts;
  }

  /**
   * Prints the summary's type rows as the readable report prints the record's: label, ggml type
   * ID (GGUF), tensors, parameters and bytes ({@code unknown} where a length is not
   * established), then how many rows the summary left out.
   */
  /** Headline rows: key (cut to 16 columns at least), type, value (cut to 12 at least). */
  private static final List<FittedTable.Column> HEADLINE_COLUMNS =
      List.of(
          FittedTable.Column.text("KEY", 16, 32),
          FittedTable.Column.fixed("TYPE"),
          FittedTable.Column.text("VALUE", 12, 24));

  private static void printTypes(PrintWriter out, JsonNode s, boolean withIds, Screen screen) {
    JsonNode types = s.get("types");
    int omitted = s.has("types_omitted") ? s.get("types_omitted").asInt() : 0;
    out.println();
    out.println("Types (" + (types.size() + omitted) + ")");
    if (types.isEmpty() && omitted == 0) {
      out.println("  none");
      return;
    }
    List<String[]> rows = new ArrayList<>();
    for (JsonNode t : types) {
      List<String> row = new ArrayList<>(5);
      row.add(TerminalText.printable(t.get("type").asString()));
      if (withIds) {
        row.add(t.has("type_id") ? t.get("type_id").asString() : "");
      }
      row.add(Sizes.grouped(t.get("tensor_count").asLong()));
      row.add(amount(t.get("parameter_count")));
      row.add(amount(t.get("byte_length")));
      rows.add(row.toArray(new String[0]));
    }
    List<FittedTable.Column> columns = new ArrayList<>();
    columns.add(FittedTable.Column.text("TYPE", 12, 16));
    if (withIds) {
      columns.add(FittedTable.Column.droppable("ID", 1));
    }
    columns.add(FittedTable.Column.fixed("TENSORS"));
    columns.add(FittedTable.Column.fixed("PARAMETERS"));
    columns.add(FittedTable.Column.fixed("BYTES"));
    FittedTable.printDroppedNote(out, FittedTable.print(out, screen, columns, rows, true), screen);
    if (omitted > 0) {
      out.println("  ... " + omitted + " more in the complete Evidence (view collection types)");
    }
  }

  /** Prints a page given as JSON bytes, with lines as long as their content. */
  static void printPage(PrintWriter out, byte[] pageJson) {
    printPage(out, pageJson, Screen.UNLIMITED);
  }

  /** Prints a page given as JSON bytes, laid out for {@code screen}. */
  static void printPage(PrintWriter out, byte[] pageJson, Screen screen) {
    printPage(out, JSON.readTree(pageJson), screen);
    out.flush();
  }

  private static void printPage(PrintWriter out, JsonNode p, Screen screen) {
    printPageHeading(out, p, screen);
    Set<String> columns = new LinkedHashSet<>();
    for (JsonNode row : p.get("rows")) {
      for (Map.Entry<String, JsonNode> f : row.properties()) {
        columns.add(f.getKey());
      }
    }
    List<String[]> rows = new ArrayList<>();
    boolean cut = false;
    for (JsonNode row : p.get("rows")) {
      String[] cells = new String[columns.size()];
      int i = 0;
      for (String col : columns) {
        String whole = row.has(col) ? cellText(col, row.get(col), row) : "";
        if (screen.limited() && PageColumns.of(col).shortenable()) {
          cells[i++] = whole; // cut to the width the table gives it
          continue;
        }
        if (!screen.limited() && DIGEST.matcher(whole).matches()) {
          cells[i++] = whole; // a digest cut short identifies nothing
          continue;
        }
        cut |= TextTable.columns(whole) > MAX_CELL_CHARS;
        cells[i++] = TextTable.cut(whole, MAX_CELL_CHARS);
      }
      rows.add(cells);
    }
    List<FittedTable.Column> specs = new ArrayList<>();
    for (String col : columns) {
      specs.add(PageColumns.of(col));
    }
    FittedTable.Fit fit = new FittedTable.Fit(List.of(), false);
    if (!rows.isEmpty()) {
      fit = FittedTable.print(out, screen, specs, rows, true);
    }
    FittedTable.printDroppedNote(out, fit, screen);
    if (cut) {
      out.println(
          "  (cells are cut at " + MAX_CELL_CHARS + " characters: add --json for whole values)");
    } else if (fit.cut()) {
      out.println("  (cells are cut to fit: --wide or --json for whole values)");
    }
    printPageNotes(out, p, screen);
  }

  /** The page's first two lines: which matches it holds and the Evidence it was cut from. */
  private static void printPageHeading(PrintWriter out, JsonNode p, Screen screen) {
    int offset = p.get("offset").asInt();
    int n = p.get("rows").size();
    int total = p.get("total_matches").asInt();
    out.println(
        "Page of "
            + p.get("collection").asString()
            + ": "
            + (total == 0
                ? "no rows match"
                : (n == 0 ? "no rows" : "matches " + (offset + 1) + " to " + (offset + n))
                    + " of "
                    + Sizes.grouped(total))
            + (p.get("next_offset").isNull()
                ? " (last page)"
                : " (next page: offset " + p.get("next_offset").asInt() + ")"));
    screen.println(
        out,
        "  from Evidence "
            + p.get("parent_evidence_id").asString()
            + " of "
            + TerminalText.printable(p.get("source").get("path").asString())
            + " ("
            + p.get("source").get("format").asString()
            + ", header "
            + p.get("header_coverage").asString()
            + ")",
        4);
  }

  /** The lines under the table: omitted array previews, unknown fields and warnings. */
  private static void printPageNotes(PrintWriter out, JsonNode p, Screen screen) {
    if (p.get("array_omissions").size() > 0) {
      List<String> keys = new ArrayList<>();
      for (JsonNode k : p.get("array_omissions")) {
        keys.add(k.asString());
      }
      screen.println(
          out, "  incomplete array previews: " + TerminalText.printable(String.join(", ", keys)), 4);
    }
    for (JsonNode u : p.get("unknowns")) {
      List<String> fields = new ArrayList<>();
      for (JsonNode f : u.get("fields")) {
        fields.add(f.asString());
      }
      screen.println(
          out,
          "  row "
              + u.get("index").asInt()
              + ": unknown "
              + String.join(", ", fields)
              + (u.get("limitations").size() > 0 ? " (" + codes(u.get("limitations")) + ")" : ""),
          4);
    }
    for (JsonNode w : p.get("warnings")) {
      screen.println(
          out,
          "  warning ["
              + w.get("code").asString()
              + "] "
              + TerminalText.message(w.get("message").asString()),
          4);
    }
    if (p.get("warnings_omitted").asInt() > 0) {
      out.println(
          "  " + p.get("warnings_omitted").asInt() + " more warnings are in the complete Evidence");
    }
  }

  private static String formatText(String format, JsonNode facts) {
    if ("gguf".equals(format)) {
      return "GGUF v"
          + facts.get("version").asInt()
          + ", "
          + facts.get("byte_order").asString()
          + "-endian, alignment "
          + (facts.get("alignment").isNull()
              ? "unknown"
              : facts.get("alignment").asLong() + " bytes (" + facts.get("alignment_source").asString() + ")");
    }
    return "safetensors, JSON header " + Sizes.grouped(Long.parseLong(facts.get("json_length").asString())) + " bytes";
  }

  private static String chatTemplateText(JsonNode ct) {
    List<String> parts = new ArrayList<>();
    if (ct.get("default").asBoolean()) {
      parts.add("default template present");
    }
    if (ct.get("named").size() > 0) {
      List<String> names = new ArrayList<>();
      for (JsonNode n : ct.get("named")) {
        names.add(n.asString());
      }
      parts.add("named templates with content: " + String.join(", ", names));
    }
    if (ct.get("names_only_inventory").asBoolean()) {
      parts.add("a names-only tokenizer.chat_templates list (no template content)");
    }
    return parts.isEmpty() ? "none" : String.join("; ", parts);
  }

  /** Limitation codes (REA's own snake_case words) as {@code a, b}, cut to {@link #MAX_CELL_CHARS}. */
  private static String codes(JsonNode array) {
    List<String> items = new ArrayList<>();
    for (JsonNode e : array) {
      items.add(e.asString());
    }
    return TextTable.cut(TerminalText.printable(String.join(", ", items)), MAX_CELL_CHARS);
  }

  /**
   * Row fields holding an amount (unsigned decimal strings in the JSON; null where the amount
   * could not be established): shown by {@link #amount}, as the readable report shows them.
   */
  private static final Set<String> AMOUNTS =
      Set.of("parameter_count", "offset", "file_offset", "byte_length", "tensor_count",
          "file_size");

  private static String cellText(String column, JsonNode v, JsonNode row) {
    if (AMOUNTS.contains(column) && (v.isNull() || isDecimal(v))) {
      return amount(v);
    }
    // A set member's whole-file digest exists only with --hash full.
    if (column.equals("sha256") && v.isNull()) {
      return "not hashed";
    }
    boolean values = column.equals("value") || column.equals("preview");
    if (values && !isText(row, v)) {
      // A number the JSON carries as a string (a UINT64's decimal, NaN, +Infinity, -0) is a
      // number here, spelled as the readable report spells it.
      if (v.isString()) {
        return TerminalText.printable(number(v.asString()));
      }
      if (v.isArray()) {
        List<String> items = new ArrayList<>();
        for (JsonNode e : v) {
          items.add(e.isString() ? number(e.asString()) : JSON.writeValueAsString(e));
        }
        return TerminalText.printable("[" + String.join(", ", items) + "]");
      }
    }
    // A metadata value is quoted when it is a string, as the readable report shows it, so that
    // "7" the string and 7 the number differ.
    if (column.equals("value") && v.isString()) {
      return TerminalText.quoted(v.asString(), Integer.MAX_VALUE);
    }
    return cellText(v);
  }

  /**
   * @return whether a metadata row's value (or its array's elements) is text: a {@code STRING}
   *     type, or a row that names no type; an array whose page left out {@code element_type} is
   *     numbers when its preview holds a JSON number
   */
  private static boolean isText(JsonNode row, JsonNode v) {
    JsonNode type = row.get("type");
    if (type == null || !type.isString()) {
      return true;
    }
    if (type.asString().equals("ARRAY")) {
      JsonNode element = row.get("element_type");
      if (element == null || !element.isString()) {
        for (JsonNode e : v) {
          if (e.isNumber()) {
            return false;
          }
        }
        return true;
      }
      return element.asString().equals("STRING");
    }
    return type.asString().equals("STRING");
  }

  /** @return a number JSON carries as a string, as Java spells it ({@code -0} is {@code -0.0}) */
  private static String number(String s) {
    return s.equals("-0") ? "-0.0" : s;
  }

  /** @return true for a string of 1 to 40 decimal digits (an amount, 2^128 and below) */
  private static boolean isDecimal(JsonNode v) {
    if (!v.isString()) {
      return false;
    }
    String s = v.asString();
    if (s.isEmpty() || s.length() > 40) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  /**
   * @param decimalOrNull an unsigned decimal string, or null where the amount is not established
   * @return the amount grouped by thousands, or {@code unknown}
   */
  private static String amount(JsonNode decimalOrNull) {
    return decimalOrNull.isNull()
        ? "unknown"
        : Sizes.grouped(new BigInteger(decimalOrNull.asString()));
  }

  /**
   * A JSON value as printable text: a string bare; an array of decimal strings (a shape) as
   * {@code [4096, 32000]}; an array of other strings with each one quoted, as the readable report
   * shows them ({@code ["a\tb", "c, d"]}: elements holding commas or quotes stay apart); anything
   * else as compact JSON.
   */
  private static String cellText(JsonNode v) {
    String s;
    if (v == null || v.isNull()) {
      s = "null";
    } else if (v.isString()) {
      s = v.asString();
    } else if (v.isArray() && allStrings(v)) {
      boolean decimals = true;
      for (JsonNode e : v) {
        decimals &= isDecimal(e);
      }
      List<String> items = new ArrayList<>();
      for (JsonNode e : v) {
        items.add(decimals ? e.asString() : TerminalText.quoted(e.asString(), Integer.MAX_VALUE));
      }
      s = "[" + String.join(", ", items) + "]";
    } else {
      s = JSON.writeValueAsString(v);
    }
    // Escaped before any cut, so the table's columns stay aligned.
    return TerminalText.printable(s);
  }

  private static boolean allStrings(JsonNode array) {
    for (JsonNode e : array) {
      if (!e.isString()) {
        return false;
      }
    }
    return true;
  }

  private static String bytes(JsonNode decimal) {
    return Sizes.bytes(Long.parseLong(decimal.asString()));
  }

  private static String text(JsonNode n) {
    return n == null || n.isNull() ? "unknown" : n.asString();
  }
}
