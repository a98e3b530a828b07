package dev.rea.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The readable form of a comparison ({@code model-artifact-diff}, CONTRACT section 11): the two
 * sides, then one line per difference, grouped as the JSON groups them. String values of
 * metadata are quoted and cut as the readable report cuts them; numbers, shapes, types and
 * format facts are printed as numbers and names, not as the JSON strings that carry 64-bit
 * values (CONTRACT section 2); {@code --json} has every value whole. On a terminal each line
 * fits its width ({@link Screen}): a longer one goes on at the next, indented under its text.
 */
final class DiffReport {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final int MAX_VALUE_CHARS = 60;

  private final PrintWriter out;
  private final Screen screen;

  /** The saved Evidence file side A was read from, or null for a fresh reading. */
  private final @Nullable String savedA;

  /** The same for side B. */
  private final @Nullable String savedB;

  private final TensorRows rowsA;
  private final TensorRows rowsB;

  private DiffReport(
      PrintWriter out,
      Screen screen,
      @Nullable String savedA,
      @Nullable String savedB,
      TensorRows rowsA,
      TensorRows rowsB) {
    this.out = out;
    this.screen = screen;
    this.savedA = savedA;
    this.savedB = savedB;
    this.rowsA = rowsA;
    this.rowsB = rowsB;
  }

  /**
   * Prints the comparison {@code json}, each line fitted to {@code screen}: continued on lines
   * indented four columns past its own indent.
   */
  static void print(PrintWriter out, byte[] json, Screen screen) {
    print(out, json, screen, null, null, NO_ROWS, NO_ROWS);
  }

  /** Looks up tensor rows of one side: names in, {@code "TYPE [shape]"} by name out. */
  interface TensorRows {
    /**
     * @param names tensor names the side declares
     * @return the type and shape of each name found
     */
    Map<String, String> describe(java.util.Set<String> names);
  }

  /** No rows to show: added and removed tensors are named alone, as {@code --json} names them. */
  static final TensorRows NO_ROWS = names -> Map.of();

  /**
   * As {@link #print(PrintWriter, byte[], Screen)}, saying under a side that was read from saved
   * Evidence which file it was and when that Evidence was observed.
   *
   * @param savedA the saved Evidence file side A was read from, or null
   * @param savedB the same for side B
   * @param rowsA side A's tensor rows, to show a removed tensor's type and shape
   * @param rowsB side B's, for an added tensor
   */
  static void print(
      PrintWriter out,
      byte[] json,
      Screen screen,
      @Nullable String savedA,
      @Nullable String savedB,
      TensorRows rowsA,
      TensorRows rowsB) {
    new DiffReport(out, screen, savedA, savedB, rowsA, rowsB).print(JSON.readTree(json));
  }

  private void print(JsonNode d) {
    side("A", d.get("a"), savedA);
    side("B", d.get("b"), savedB);
    String layoutNote = layoutNote(d.get("a"), d.get("b"));
    if (layoutNote != null) {
      line(layoutNote);
    }
    out.println();
    List<String> partial = new ArrayList<>();
    for (String side : List.of("a", "b")) {
      if (!d.get(side).path("header_complete").asBoolean(true)) {
        partial.add(side.toUpperCase(java.util.Locale.ROOT));
      }
    }
    if (d.get("same_declarations").asBoolean()) {
      line("The declarations are the same." + bytesNote(d.get("a"), d.get("b"))
          + contentNote(d.get("a"), d.get("b")));
    } else if (partial.isEmpty()) {
      line("The declarations differ:");
    } else {
      line(
          "The declarations are not known to be the same: "
              + String.join(" and ", partial)
              + (partial.size() == 1 ? " holds" : " hold")
              + " a partial header (the read stopped before its end), and what is not held may"
              + " differ; differences in what both hold follow, if any:");
    }
    facts(d);
    metadata(d.get("metadata"));
    byteOrderNote(d);
    tensors(d.get("tensors"));
    types(d.get("types"));
    JsonNode totals = d.get("totals");
    if (!totals.get("a").equals(totals.get("b"))) {
      line("  ~ totals: " + counts(totals.get("a")) + " -> " + counts(totals.get("b")));
    }
    out.flush();
  }

  /**
   * @return for two headers whose bytes differ although their declarations do not, a sentence
   *     saying so and what a declaration does not carry; else empty
   */
  static String bytesNote(JsonNode a, JsonNode b) {
    if (!digestsDiffer(a, b, "header_sha256")) {
      return "";
    }
    return " The headers' bytes differ (header_sha256 above) in what no declaration carries: the"
        + " order of metadata keys or JSON members, whitespace and padding, a float NaN's payload"
        + " bits.";
  }

  /** @return whether both sides carry the digest {@code field} and the two differ */
  private static boolean digestsDiffer(JsonNode a, JsonNode b, String field) {
    JsonNode da = a.get(field);
    JsonNode db = b.get(field);
    return da != null && db != null && da.isString() && db.isString() && !da.equals(db);
  }

  /**
   * @return for two files hashed whole ({@code --hash full}) whose SHA-256s differ, a sentence
   *     saying that their contents differ past what they declare (the tensor data); else empty
   */
  static String contentNote(JsonNode a, JsonNode b) {
    if (!digestsDiffer(a, b, "sha256")) {
      return "";
    }
    return " The files' contents differ all the same (sha256 above): what differs is in bytes no"
        + " declaration describes, such as the tensor data.";
  }

  /**
   * @return for two sides read under different layout assumptions ({@code assume_layout}), a
   *     sentence saying that what rests on the assumption differs for that reason; else null
   */
  static @Nullable String layoutNote(JsonNode a, JsonNode b) {
    JsonNode la = a.path("assume_layout");
    JsonNode lb = b.path("assume_layout");
    if (!la.isString() && !lb.isString() || la.equals(lb)) {
      return null;
    }
    return "Note: A was read "
        + assumed(la)
        + " and B "
        + assumed(lb)
        + ": the byte lengths, storage checks, type names and totals that rest on the assumption"
        + " differ for that reason, not because a declaration did (give both sides the same"
        + " --assume-layout).";
  }

  private static String assumed(JsonNode layout) {
    return layout.isString()
        ? "assuming the " + TerminalText.printable(layout.asString()) + " layouts"
        : "without a layout assumption";
  }

  /** One line of the report, fitted to the screen: continued four columns past its indent. */
  private void line(String text) {
    int indent = 0;
    while (indent < text.length() && text.charAt(indent) == ' ') {
      indent++;
    }
    screen.println(out, text, indent + 4);
  }

  private void side(String name, JsonNode s, @Nullable String savedFile) {
    line(name + ": " + TerminalText.printable(s.get("path").asText()) + " (" + s.get("format").asText() + ")");
    if (savedFile != null) {
      line(
          "   saved Evidence "
              + TerminalText.printable(savedFile)
              + ", observed_at "
              + TerminalText.printable(s.path("observed_at").asText("unknown")));
    }
    if (!s.get("header_sha256").isNull()) {
      line("   header_sha256 " + s.get("header_sha256").asText());
    } else if (!s.path("header_complete").asBoolean(true)) {
      line("   header_sha256 none: partial Evidence, its header was not read whole");
    } else {
      line(
          "   header_sha256 none for a set (each member's header has its own; inspect-model-set"
              + " lists them)");
    }
    if (!s.get("sha256").isNull()) {
      line("   sha256        " + s.get("sha256").asText());
    }
  }

  private void facts(JsonNode d) {
    for (JsonNode f : d.get("format_facts")) {
      String field = f.get("field").asText();
      // An index's metadata value is the index's text: quoted, as metadata strings are.
      boolean text = field.startsWith("index.");
      line(
          "  ~ format fact "
              + TerminalText.printable(field)
              + ": "
              + fact(f, "a", text)
              + " -> "
              + fact(f, "b", text));
    }
    omitted(d, "format_facts", "changed format facts");
  }

  private void metadata(JsonNode m) {
    for (JsonNode r : m.get("added")) {
      line("  + metadata " + key(r) + " = " + value(r, r));
    }
    omitted(m, "added", "added metadata keys");
    for (JsonNode r : m.get("removed")) {
      line("  - metadata " + key(r) + " = " + value(r, r));
    }
    omitted(m, "removed", "removed metadata keys");
    for (JsonNode c : m.get("changed")) {
      // The same spelling under another type (INT32 5, UINT64 5) is a change: name the types.
      boolean retyped = !c.get("a").get("type").equals(c.get("b").get("type"));
      String a = value(c, c.get("a"));
      String b = value(c, c.get("b"));
      if (a.equals(b) && !retyped && c.get("a").path("value").isString()) {
        // Cut at the same place, the two strings read alike: show them where they differ.
        String[] at = whereTheyDiffer(
            c.get("a").get("value").asText(), c.get("b").get("value").asText());
        a = at[0];
        b = at[1];
      }
      line(
          "  ~ metadata "
              + key(c)
              + ": "
              + (retyped ? c.get("a").get("type").asText() + " " : "")
              + a
              + " -> "
              + (retyped ? c.get("b").get("type").asText() + " " : "")
              + b);
    }
    omitted(m, "changed", "changed metadata keys");
    JsonNode byPreview = m.get("arrays_compared_by_preview");
    if (!byPreview.isEmpty()) {
      List<String> keys = new ArrayList<>();
      byPreview.forEach(k -> keys.add(TerminalText.printable(k.asText())));
      line(
          "  note: compared by their first elements only (the records carry no value digest): "
              + String.join(", ", keys));
    }
  }

  private void tensors(JsonNode t) {
    Map<String, String> added = rowsB.describe(names(t.get("added")));
    for (JsonNode n : t.get("added")) {
      line("  + tensor " + TerminalText.printable(n.asText()) + described(added, n.asText()));
    }
    omitted(t, "added", "added tensors");
    Map<String, String> removed = rowsA.describe(names(t.get("removed")));
    for (JsonNode n : t.get("removed")) {
      line("  - tensor " + TerminalText.printable(n.asText()) + described(removed, n.asText()));
    }
    omitted(t, "removed", "removed tensors");
    lookalikes(t);
    // A tensor whose only change is where it lies follows from other changes (one grew, one was
    // added): such tensors are counted on one line after those changed otherwise, which would
    // else be lost among them.
    List<String> moved = new ArrayList<>();
    Map<String, Integer> movedBy = new java.util.LinkedHashMap<>();
    for (JsonNode c : t.get("changed")) {
      List<String> parts = new ArrayList<>();
      boolean placeOnly = true;
      for (Map.Entry<String, JsonNode> f : c.get("fields").properties()) {
        placeOnly &= PLACE_FIELDS.contains(f.getKey());
        parts.add(
            f.getKey() + " " + amountOr(f.getKey(), f.getValue().get(0)) + " -> "
                + amountOr(f.getKey(), f.getValue().get(1)));
      }
      if (placeOnly && !parts.isEmpty()) {
        moved.add(TerminalText.printable(c.get("name").asText()));
        for (Map.Entry<String, JsonNode> f : c.get("fields").properties()) {
          movedBy.merge(f.getKey(), 1, Integer::sum);
        }
        continue;
      }
      line(
          "  ~ tensor " + TerminalText.printable(c.get("name").asText()) + ": " + String.join("; ", parts));
    }
    if (!moved.isEmpty()) {
      // The count is of the changed tensors --json lists (256 at most): past that, say so.
      JsonNode unlisted = t.get("changed_omitted");
      String of = unlisted == null ? "" : " of the " + t.get("changed").size() + " listed changes";
      // Never "..." for one name: it takes no more room than the words.
      int shown = moved.size() <= MOVED_NAMES + 1 ? moved.size() : MOVED_NAMES;
      List<String> by = new ArrayList<>();
      for (String field : List.of("member", "offset", "file_offset")) {
        Integer n = movedBy.get(field);
        if (n != null) {
          // "offset differs in 12, file_offset in 12": how many of the tensors each field moved.
          by.add(field + (by.isEmpty() ? " differs in " : " in ") + n);
        }
      }
      line(
          "  ~ "
              + (moved.size() == 1 ? "1 tensor" : moved.size() + " tensors")
              + of
              + " changed only where the data lies ("
              + String.join(", ", by)
              + (movedBy.containsKey("offset") || movedBy.containsKey("member")
                  ? ""
                  : ": the tensor data starts elsewhere")
              + "): "
              + String.join(", ", moved.subList(0, shown))
              + (moved.size() > shown
                  ? ", ..." + (unlisted == null ? " (--json lists each)" : "")
                  : ""));
    }
    omitted(t, "changed", "changed tensors");
    if (t.get("order_changed").asBoolean()) {
      line("  the tensors both declare come in another order");
    }
  }

  /** Fields of a tensor that say where its data lies, not what it is. */
  private static final java.util.Set<String> PLACE_FIELDS =
      java.util.Set.of("offset", "file_offset", "member");

  /** Names of tensors that only moved, shown on their line before "...". */
  private static final int MOVED_NAMES = 8;

  private static java.util.Set<String> names(JsonNode list) {
    java.util.Set<String> out = new java.util.HashSet<>();
    for (JsonNode n : list) {
      out.add(n.asText());
    }
    return out;
  }

  /** @return {@code ": F32 [4, 8]"} when the side's row of {@code name} was found, else "" */
  private static String described(Map<String, String> rows, String name) {
    String d = rows.get(name);
    return d == null ? "" : ": " + TerminalText.printable(d);
  }

  /**
   * Two strings whose cut forms are equal, each shown from a little before their first
   * difference: {@code ..."word wXrd ..."... (151 characters, first difference at character
   * 151)}, character positions counted from 1 in UTF-16 units as Java strings count them.
   */
  private static String[] whereTheyDiffer(String a, String b) {
    int first = 0;
    while (first < a.length() && first < b.length() && a.charAt(first) == b.charAt(first)) {
      first++;
    }
    int from = Math.max(0, first - 20);
    if (from > 0 && Character.isLowSurrogate(a.charAt(from))) {
      from--;
    }
    return new String[] {window(a, from, first), window(b, from, first)};
  }

  private static String window(String s, int from, int first) {
    int to = Math.min(s.length(), from + 40);
    if (to < s.length() && Character.isHighSurrogate(s.charAt(to - 1))) {
      to--;
    }
    return (from > 0 ? "..." : "")
        + TerminalText.quoted(s.substring(from, to), 40)
        + (to < s.length() ? "..." : "")
        + " ("
        + s.length()
        + " characters, first difference at character "
        + (first + 1)
        + ")";
  }

  /**
   * A name added and a name removed that are the same text in Unicode normalization form C look
   * alike on a screen (é as one code point, or e and a combining accent): one line says so, with
   * each name's code points past ASCII, so nobody takes the two lines for a mistake.
   */
  private void lookalikes(JsonNode t) {
    Map<String, String> removed = new java.util.HashMap<>();
    for (JsonNode n : t.get("removed")) {
      removed.putIfAbsent(java.text.Normalizer.normalize(n.asText(), java.text.Normalizer.Form.NFC),
          n.asText());
    }
    for (JsonNode n : t.get("added")) {
      String added = n.asText();
      String was = removed.get(java.text.Normalizer.normalize(added, java.text.Normalizer.Form.NFC));
      if (was != null && !was.equals(added)) {
        line("  note: tensor " + TerminalText.printable(added) + " was added and one that looks"
            + " the same removed: they differ in Unicode normalization (" + codePoints(was)
            + " -> " + codePoints(added) + ")");
      }
    }
  }

  /** @return the code points of {@code s} past ASCII, as {@code U+00E9}, space-separated */
  private static String codePoints(String s) {
    List<String> out = new ArrayList<>();
    s.codePoints().filter(c -> c > 0x7E).forEach(c -> out.add(String.format(java.util.Locale.ROOT, "U+%04X", c)));
    return out.isEmpty() ? "ASCII only" : String.join(" ", out);
  }

  private void types(JsonNode types) {
    for (JsonNode t : types) {
      // A type only one side has is added or removed, as a metadata key is.
      String mark = t.get("a").isNull() ? "+" : t.get("b").isNull() ? "-" : "~";
      line(
          "  "
              + mark
              + " type "
              + TerminalText.printable(t.get("type").asText())
              + ": "
              + (t.get("a").isNull() ? "(none)" : counts(t.get("a")))
              + " -> "
              + (t.get("b").isNull() ? "(none)" : counts(t.get("b"))));
    }
  }

  private void omitted(JsonNode parent, String list, String what) {
    JsonNode n = parent.get(list + "_omitted");
    if (n != null) {
      line("  ... and " + n.asInt() + " more " + what + " (--json lists 256 of each)");
    }
  }

  private static String counts(JsonNode c) {
    return Sizes.count(c.get("tensor_count").asLong(), "tensor")
        + ", "
        + Sizes.grouped(new java.math.BigInteger(c.get("parameter_count").asText()))
        + " parameters, "
        + (c.get("byte_length").isNull()
            ? "unknown"
            : Sizes.grouped(new java.math.BigInteger(c.get("byte_length").asText())))
        + " bytes";
  }

  /** A row's key; on a set side, after its member's index ({@code member 2: key}). */
  private static String key(JsonNode row) {
    String key = TerminalText.printable(row.get("key").asText());
    JsonNode member = row.get("member");
    return member == null ? key : "member " + member.asInt() + ": " + key;
  }

  /**
   * One line when the byte order differs (of the files, or of a set's member k, {@code
   * member[k].byte_order}) and a changed array row was compared by {@code value_sha256}: that
   * digest covers the value's bytes as stored (CONTRACT section 11), so a little-endian file and
   * its big-endian copy list equal arrays of multi-byte elements as changed.
   */
  private void byteOrderNote(JsonNode d) {
    boolean orderDiffers = false;
    for (JsonNode f : d.get("format_facts")) {
      String field = f.get("field").asText();
      orderDiffers |= field.equals("byte_order") || field.endsWith("].byte_order");
    }
    boolean hashedArray = false;
    for (JsonNode c : d.get("metadata").get("changed")) {
      hashedArray |= c.get("a").has("value_sha256") && c.get("b").has("value_sha256");
    }
    if (orderDiffers && hashedArray) {
      line(
          "  note: arrays compared by value_sha256 hash their bytes in file order; the byte order"
              + " differs, so equal values can hash differently");
    }
  }

  /**
   * A row's value: the scalar, or an array's element type and count, and the first 12 digits of
   * its {@code value_sha256} when it has one (arrays of the same type and count that differ past
   * their preview differ there).
   */
  /**
   * @param keyed the row or change that carries the {@code key}
   * @param row the row whose value is shown
   */
  private static String value(JsonNode keyed, JsonNode row) {
    if (row.has("value")) {
      // A 64-bit integer or a non-finite float is a JSON string; only STRING values are text.
      JsonNode type = row.get("type");
      return type != null && !"STRING".equals(type.asText())
          ? plain(row.get("value")) + fileTypeName(keyed.path("key").asText(), row)
          : text(row.get("value"));
    }
    String shape = row.get("element_type").asText() + "[" + row.get("count").asText() + "]";
    JsonNode digest = row.get("value_sha256");
    return digest == null ? shape : shape + " sha256 " + digest.asText().substring(0, 12) + "...";
  }

  /**
   * @return " (NAME)" after a GGUF {@code general.file_type} integer that llama.cpp's {@code
   *     llama_ftype} names ({@link dev.rea.core.evidence.LlamaFtype}), as the readable report
   *     shows it; else ""
   */
  private static String fileTypeName(String key, JsonNode row) {
    JsonNode v = row.get("value");
    if (!dev.rea.core.evidence.LlamaFtype.KEY.equals(key)
        || !(v.isIntegralNumber() || v.isString())) {
      return "";
    }
    try {
      // 64-bit values come as strings; one past Long.MAX_VALUE (UINT64) has no name.
      String name = dev.rea.core.evidence.LlamaFtype.name(Long.parseLong(v.asText()));
      return name == null ? "" : " (" + name + ")";
    } catch (NumberFormatException e) {
      return "";
    }
  }

  /** A tensor's counted fields, printed grouped by thousands as the type and total lines are. */
  private static final Set<String> AMOUNT_FIELDS =
      Set.of("parameter_count", "byte_length", "offset", "file_offset");

  /** @return an amount field's value grouped ({@code 1,024}), any other as {@link #plain} */
  private static String amountOr(String field, JsonNode v) {
    if (AMOUNT_FIELDS.contains(field) && v != null && (v.isIntegralNumber() || v.isString())) {
      String digits = v.asText();
      if (!digits.isEmpty() && digits.length() <= 20 && digits.chars().allMatch(Character::isDigit)) {
        return Sizes.grouped(new java.math.BigInteger(digits));
      }
    }
    return plain(v);
  }

  /**
   * A value that is a number, a name or a list of them, as a person writes it: a string without
   * quotes (cut and made printable), an array as {@code [4, 8]}, null as {@code none}.
   */
  private static String plain(JsonNode v) {
    if (v == null || v.isNull()) {
      return "none";
    }
    if (v.isString()) {
      return TerminalText.printable(TextTable.cut(v.asText(), MAX_VALUE_CHARS));
    }
    if (v.isArray()) {
      List<String> items = new ArrayList<>();
      v.forEach(e -> items.add(plain(e)));
      return "[" + String.join(", ", items) + "]";
    }
    return TerminalText.printable(v.toString());
  }

  /** One side of a changed fact: {@code absent} when that side has no such fact (no property). */
  private static String fact(JsonNode f, String side, boolean text) {
    if (!f.has(side)) {
      return "absent";
    }
    return text ? text(f.get(side)) : plain(f.get(side));
  }

  /** A JSON value for a line: strings quoted and cut, others as written. */
  private static String text(JsonNode v) {
    if (v == null || v.isNull()) {
      return "null";
    }
    if (v.isString()) {
      return TerminalText.quoted(v.asText(), MAX_VALUE_CHARS);
    }
    return TerminalText.printable(v.toString());
  }
}
