package dev.rea.cli;

import dev.rea.core.evidence.Artifact;
import dev.rea.core.evidence.Coverage;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.LlamaFtype;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.evidence.Warning;
import dev.rea.core.view.Glob;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;
import org.jspecify.annotations.Nullable;

/**
 * The readable report of one Evidence record: file facts, metadata, a type histogram, the
 * tensor table (truncated with a count), limitations and warnings (each section says {@code none}
 * when it is empty). Every value shown comes from
 * the record; long strings are shortened with their full length stated.
 */
final class HumanReport {
  private static final int MAX_VALUE_CHARS = 72;

  /** Widest tensor name in the tensor table, in terminal columns. */
  private static final int MAX_NAME_COLUMNS = 48;

  private static final int MAX_METADATA_ROWS = 60;

  private final PrintWriter out;
  private final int maxTensorRows;
  private @Nullable Glob tensorFilter;
  private Screen screen = Screen.UNLIMITED;

  HumanReport(PrintWriter out, int maxTensorRows) {
    this.out = out;
    this.maxTensorRows = Math.max(0, maxTensorRows);
  }

  /**
   * Shows only the tensors whose name matches {@code pattern} in the tensor table ({@code
   * --tensors}); null shows them all.
   *
   * @return this report
   */
  HumanReport tensorFilter(@Nullable Glob pattern) {
    this.tensorFilter = pattern;
    return this;
  }

  /**
   * Lays the report out for {@code value} ({@link Screen#UNLIMITED}, the default, keeps every
   * line as long as its content).
   *
   * @return this report
   */
  HumanReport screen(Screen value) {
    this.screen = value;
    return this;
  }

  void print(EvidenceRecord r) {
    Artifact a = r.artifact();
    boolean partial = EvidenceRecord.STATUS_PARTIAL.equals(r.status());
    screen.println(
        out, (partial ? "PARTIAL Evidence for " : "Evidence for ") + TerminalText.printable(a.path()),
        2);
    screen.printFacts(out, facts(r, partial));

    printMetadata(r.metadata(), LlamaFtype.declared(r));
    // Safetensors dtypes have no numeric ID: the column would always be empty.
    printTypes(r.types(), !"safetensors".equals(a.format()));
    printTensors(r.tensors());

    printLimitations(r.limitations());
    printWarningsAndCoverage(r);
    out.flush();
  }

  /** The label and value rows at the top of the report, in print order. */
  private static List<String[]> facts(EvidenceRecord r, boolean partial) {
    Artifact a = r.artifact();
    List<String[]> facts = new ArrayList<>();
    addFileFacts(facts, r);
    facts.add(new String[] {"read", readText(a, partial)});
    facts.add(new String[] {"file sha256", fileShaText(a, partial)});
    facts.add(
        new String[] {
          "identity",
          (a.identity().verified() ? "verified" : "NOT verified")
              + " (device "
              + nullText(a.identity().device(), "?")
              + ", inode "
              + nullText(a.identity().inode(), "?")
              + ", modified "
              + a.identity().modified()
              + ")"
        });
    facts.add(
        new String[] {
          "totals",
          Sizes.count(r.totals().tensorCount(), "tensor")
              + ", "
              + Sizes.grouped(r.totals().parameterCount())
              + " parameters (declared), "
              + (r.totals().byteLength() == null
                  ? Sizes.unknownByteTotal(r.request().assumeLayout() != null)
                  : Sizes.grouped(r.totals().byteLength()) + " bytes of tensor data")
              + (Coverage.PARTIAL.equals(r.coverage().header())
                  ? "; of the entries read before the stop only (see Limitations)"
                  : "")
              + SplitMember.note(r)
        });
    if (r.request().assumeLayout() != null) {
      facts.add(new String[] {"layout", assumedLayout(r)});
    }
    if (!r.warnings().isEmpty()) {
      // Warnings are printed last, after tables that can be long: a reader who stops at the top
      // (an audit of a download) still sees that there are some, e.g. a file that may be cut.
      Set<String> codes = new LinkedHashSet<>();
      for (Warning w : r.warnings()) {
        codes.add(w.code());
      }
      facts.add(
          new String[] {
            "warnings",
            r.warnings().size()
                + " ("
                + TerminalText.printable(String.join(", ", codes))
                + "): see Warnings below"
          });
    }
    facts.add(
        new String[] {
          "evidence id",
          r.evidenceId() == null
              ? "none"
              : r.evidenceId() + " (names this report; each run has its own)"
        });
    return facts;
  }

  /** Adds the format, file size, header and tensor data rows. */
  private static void addFileFacts(List<String[]> facts, EvidenceRecord r) {
    Artifact a = r.artifact();
    if (r.formatFacts() instanceof FormatFacts.Gguf g) {
      String align =
          g.alignment() == null
              ? "unknown"
              : g.alignment() + " bytes (" + g.alignmentSource() + ")";
      facts.add(
          new String[] {
            "format", "GGUF v" + g.version() + ", " + g.byteOrder() + "-endian, alignment " + align
          });
    } else if (r.formatFacts() instanceof FormatFacts.Safetensors s) {
      facts.add(new String[] {"format", "safetensors, JSON header " + Sizes.grouped(s.jsonLength()) + " bytes"});
    }
    facts.add(new String[] {"file size", Sizes.bytes(a.fileSize())});
    if (Coverage.PARTIAL.equals(r.coverage().header())) {
      facts.add(
          new String[] {
            "header",
            "read in part (the read stopped inside it): the declarations below end at byte "
                + Sizes.grouped(a.headerLength())
                + "; its length and sha256 are unknown"
          });
    } else {
      facts.add(
          new String[] {
            "header", Sizes.bytes(a.headerLength()) + ", sha256 " + nullText(a.headerSha256(), "unknown")
          });
    }
    if (r.formatFacts() instanceof FormatFacts.Gguf g) {
      facts.add(
          new String[] {
            "tensor data",
            g.tensorDataOffset() == null ? "unknown" : "starts at byte " + Sizes.grouped(g.tensorDataOffset())
          });
    } else if (r.formatFacts() instanceof FormatFacts.Safetensors s) {
      facts.add(new String[] {"tensor data", "starts at byte " + Sizes.grouped(s.dataOffset())});
    }
  }

  /** What was fetched: the header only, or the whole file (all of it or up to the stop). */
  private static String readText(Artifact a, boolean partial) {
    String read;
    if ("header".equals(a.readScope())) {
      read =
          "header only: "
              + Sizes.bytes(a.bytesRead())
              + " fetched; tensor data neither read, hashed nor interpreted";
    } else if (partial) {
      read =
          "whole file requested: "
              + Sizes.bytes(a.bytesRead())
              + " of "
              + Sizes.grouped(a.fileSize())
              + " fetched before the read stopped";
    } else {
      read = "whole file: " + Sizes.bytes(a.bytesRead()) + " fetched and hashed";
    }
    return read;
  }

  /** The whole-file sha256, or why there is none. */
  private static String fileShaText(Artifact a, boolean partial) {
    String fileSha;
    if (a.sha256() != null) {
      fileSha = a.sha256();
    } else if (partial && "full".equals(a.readScope())) {
      fileSha = "unknown (the full read failed, was cancelled or saw the file change: see the error)";
    } else {
      fileSha = "not computed (use --hash full)";
    }
    return fileSha;
  }

  private void printLimitations(List<Limitation> limitations) {
    out.println();
    out.println("Limitations (" + limitations.size() + ")");
    if (limitations.isEmpty()) {
      out.println("  none");
    }
    java.util.Map<String, String> shownTails = new java.util.HashMap<>();
    for (Limitation l : limitations) {
      screen.println(
          out, "  - [" + l.code() + "] " + TerminalText.message(shortened(l, shownTails)), 4);
      if (l.candidates() != null && !l.candidates().isEmpty()) {
        screen.println(
            out, "    candidates: " + TerminalText.printable(String.join(", ", l.candidates())), 6);
      }
      if (l.candidatesFittingRanges() != null) {
        screen.println(
            out,
            "    candidates fitting the declared ranges: "
                + (l.candidatesFittingRanges().isEmpty()
                    ? "none"
                    : TerminalText.printable(String.join(", ", l.candidatesFittingRanges()))),
            6);
      }
      if (l.tensorIndices() != null && !l.tensorIndices().isEmpty()) {
        screen.println(out, "    tensor indices: " + indices(l.tensorIndices()), 6);
      }
    }
  }

  /**
   * A limitation's message, or for a later one of the same code whose text after its first two
   * sentences (what it is, how many tensors) repeats an earlier one's, those two sentences and a
   * pointer back: one K type's paragraph is enough to read the next (--json keeps each whole).
   */
  static String shortened(Limitation l, java.util.Map<String, String> shownTails) {
    String message = l.message();
    int first = CheckCommand.sentenceEnd(message);
    int second = first < 0 ? -1 : CheckCommand.sentenceEnd(message.substring(first + 2));
    if (second < 0) {
      return message;
    }
    int cut = first + 2 + second + 1;
    String tail = message.substring(cut).strip();
    if (tail.isEmpty() || !tail.equals(shownTails.putIfAbsent(l.code(), tail))) {
      return message;
    }
    return message.substring(0, cut) + " The rest reads as for the " + l.code() + " above.";
  }

  private void printWarningsAndCoverage(EvidenceRecord r) {
    out.println();
    out.println("Warnings (" + r.warnings().size() + ")");
    if (r.warnings().isEmpty()) {
      out.println("  none");
    }
    for (Warning w : r.warnings()) {
      screen.println(out, "  - [" + w.code() + "] " + TerminalText.message(w.message()), 4);
    }
    out.println();
    screen.println(
        out,
        "Coverage: header "
            + r.coverage().header()
            + ", storage sizes "
            + r.coverage().storageSizes()
            + ", ranges "
            + r.coverage().ranges()
            + ", digest "
            + r.coverage().digest()
            + ", final identity "
            + r.coverage().finalIdentity(),
        2);
  }

  /**
   * @param fileType the record's {@code general.file_type} row when it holds an integer: its
   *     value is followed by its llama.cpp {@code llama_ftype} name, when it has one
   */
  private void printMetadata(List<MetadataRow> rows, @Nullable MetadataRow fileType) {
    out.println();
    out.println("Metadata (" + rows.size() + (rows.size() == 1 ? " key)" : " keys)"));
    List<String[]> table = new ArrayList<>();
    int shown = Math.min(rows.size(), MAX_METADATA_ROWS);
    boolean cut = false;
    for (int i = 0; i < shown; i++) {
      MetadataRow m = rows.get(i);
      String value = valueText(m.type(), m.value(), MAX_VALUE_CHARS, false) + nameOf(m, fileType);
      table.add(new String[] {TerminalText.printable(m.key()), typeText(m), value});
      cut |= longString(m.value(), MAX_VALUE_CHARS);
    }
    if (rows.isEmpty()) {
      out.println("  none");
    }
    if (screen.limited()) {
      cut = printMetadataFitted(rows.subList(0, shown), table, fileType);
    } else {
      TextTable.print(out, List.of(), table);
    }
    if (rows.size() > shown) {
      out.println("  ... " + (rows.size() - shown) + " more keys (use --json for all)");
    }
    if (cut) {
      screen.println(
          out,
          "  (strings are cut "
              + (screen.limited() ? "to fit" : "at " + MAX_VALUE_CHARS + " characters")
              + ": --json gives them whole, as does inspect-analysis-view --json"
              + " with \"keys\" for a value that fits its 64 KiB page)",
          3);
    }
  }

  /** @return " (NAME)" after the file type's value when it has a llama_ftype name, else "" */
  private static String nameOf(MetadataRow m, @Nullable MetadataRow fileType) {
    return m == fileType && LlamaFtype.name(m) != null ? " (" + LlamaFtype.name(m) + ")" : "";
  }

  /** Indent of a metadata value on a line of its own, on a limited screen. */
  private static final int OWN_LINE_VALUE_INDENT = 6;

  /** Least width of the key column on a limited screen, in columns. */
  private static final int LEAST_KEY_COLUMNS = 16;

  /** Columns a metadata type keeps however narrow the screen ({@code INT32} and most names). */
  private static final int LEAST_TYPE_COLUMNS = 6;

  /**
   * Prints the metadata table within the screen's width: key and type in columns (keys cut only
   * when key and type alone would not leave 8 columns), and a value that does not fit after them
   * on a line of its own below, indented by {@value #OWN_LINE_VALUE_INDENT}, with as many array
   * elements as fit there.
   *
   * @param table the rows as the unlimited table has them (key, type, value)
   * @return whether a string was cut
   */
  private boolean printMetadataFitted(
      List<MetadataRow> rows, List<String[]> table, @Nullable MetadataRow fileType) {
    int keyWidth = 0;
    int typeWidth = 0;
    for (String[] r : table) {
      keyWidth = Math.max(keyWidth, TextTable.columns(r[0]));
      typeWidth = Math.max(typeWidth, TextTable.columns(r[1]));
    }
    // An array of arrays has a label as long as its nesting: cut, it leaves room for the key.
    // Below about 30 columns nothing fits beside a key: the type keeps a few columns and the
    // line runs over (the README accepts widths from 20).
    typeWidth = Math.min(typeWidth, Math.max(LEAST_TYPE_COLUMNS, screen.columns() - 6 - LEAST_KEY_COLUMNS - 8));
    keyWidth = Math.min(keyWidth, Math.max(LEAST_KEY_COLUMNS, screen.columns() - 6 - typeWidth - 8));
    int room = screen.columns() - 6 - keyWidth - typeWidth;
    boolean cut = false;
    boolean keysCut = false;
    for (int i = 0; i < table.size(); i++) {
      String key = FittedTable.cut(table.get(i)[0], keyWidth);
      keysCut |= !key.equals(table.get(i)[0]);
      String type = FittedTable.cut(table.get(i)[1], typeWidth);
      String head =
          "  "
              + key
              + " ".repeat(Math.max(0, keyWidth - TextTable.columns(key)) + 2)
              + type
              + " ".repeat(Math.max(0, typeWidth - TextTable.columns(type)) + 2);
      String value = table.get(i)[2];
      if (TextTable.columns(value) <= room) {
        out.println((head + value).stripTrailing());
        continue;
      }
      MetadataRow m = rows.get(i);
      String suffix = nameOf(m, fileType);
      int budget = screen.columns() - OWN_LINE_VALUE_INDENT - TextTable.columns(suffix);
      // A cut string is followed by "... (N characters)" and escapes take several columns: the
      // limit comes down by what the text still overflows until it fits.
      int max = budget;
      String text = valueText(m.type(), m.value(), max, true);
      // Down to one character: at 30-odd columns a value whose characters are escapes
      // (\u0301 takes six) fits only so.
      while (TextTable.columns(text) > budget && max > 1) {
        max = Math.max(1, max - (TextTable.columns(text) - budget));
        text = valueText(m.type(), m.value(), max, true);
      }
      out.println(head.stripTrailing());
      out.println(" ".repeat(OWN_LINE_VALUE_INDENT) + text + suffix);
      cut |= longString(m.value(), max);
    }
    if (keysCut) {
      // As the tensor table says of its names: a cut key is not the key.
      screen.println(out, "  (keys are cut to fit: --wide or --json gives them whole)", 3);
    }
    return cut;
  }

  private void printTypes(List<TypeRow> types, boolean withIds) {
    out.println();
    out.println("Types (" + types.size() + ")");
    List<String[]> table = new ArrayList<>();
    for (TypeRow t : types) {
      List<String> row = new ArrayList<>(5);
      row.add(TerminalText.printable(t.type()));
      if (withIds) {
        row.add(t.typeId() == null ? "" : t.typeId().toString());
      }
      row.add(Sizes.grouped(t.tensorCount()));
      row.add(Sizes.grouped(t.parameterCount()));
      row.add(t.byteLength() == null ? "unknown" : Sizes.grouped(t.byteLength()));
      table.add(row.toArray(new String[0]));
    }
    if (types.isEmpty()) {
      out.println("  none");
      return;
    }
    List<FittedTable.Column> columns = new ArrayList<>();
    columns.add(FittedTable.Column.text("TYPE", 12, 16));
    if (withIds) {
      columns.add(FittedTable.Column.droppable("ID", 1));
    }
    columns.add(FittedTable.Column.fixed("TENSORS"));
    columns.add(FittedTable.Column.fixed("PARAMETERS"));
    columns.add(FittedTable.Column.fixed("BYTES"));
    FittedTable.printDroppedNote(
        out, FittedTable.print(out, screen, columns, table, true), screen);
  }

  /**
   * The tensor table's columns. To fit a screen, FILE OFFSET, STORAGE, SHAPE and BYTES are
   * dropped in that order before a name is cut; names are then cut in the middle, each kept
   * apart from the others ({@link NameCuts}), to 20 columns at the least; # and TYPE always stay.
   */
  private static final List<FittedTable.Column> TENSOR_COLUMNS =
      List.of(
          FittedTable.Column.fixed("#"),
          FittedTable.Column.name("NAME", 20),
          FittedTable.Column.fixed("TYPE"),
          FittedTable.Column.droppable("SHAPE", 2),
          FittedTable.Column.droppable("FILE OFFSET", 4),
          FittedTable.Column.droppable("BYTES", 1),
          FittedTable.Column.droppable("STORAGE", 3));

  private void printTensors(List<TensorRow> all) {
    out.println();
    List<TensorRow> tensors = all;
    if (tensorFilter == null) {
      out.println("Tensors (" + Sizes.grouped(tensors.size()) + ")");
    } else {
      tensors = new ArrayList<>();
      for (TensorRow t : all) {
        if (tensorFilter.matches(t.name())) {
          tensors.add(t);
        }
      }
      out.println(
          "Tensors ("
              + Sizes.grouped(tensors.size())
              + " of "
              + Sizes.grouped(all.size())
              + " match --tensors "
              + TerminalText.printable(tensorFilter.pattern())
              + ")");
    }
    List<String[]> table = new ArrayList<>();
    int shown = Math.min(tensors.size(), maxTensorRows);
    String[] printable = new String[shown];
    for (int i = 0; i < shown; i++) {
      printable[i] = TerminalText.printable(tensors.get(i).name());
    }
    String[] names = NameCuts.cut(printable, MAX_NAME_COLUMNS);
    boolean cutNames = !java.util.Arrays.equals(names, printable);
    for (int i = 0; i < shown; i++) {
      TensorRow t = tensors.get(i);
      table.add(
          new String[] {
            Integer.toString(t.index()),
            names[i],
            TerminalText.printable(t.type()),
            shape(t.shape()),
            t.fileOffset() == null ? "unknown" : Sizes.grouped(t.fileOffset()),
            t.byteLength() == null ? "unknown" : Sizes.grouped(t.byteLength()),
            t.storageValidation().wire()
          });
    }
    if (tensors.isEmpty()) {
      out.println("  none");
      return;
    }
    if (shown > 0) {
      FittedTable.Fit fit = FittedTable.print(out, screen, TENSOR_COLUMNS, table, true);
      FittedTable.printDroppedNote(out, fit, screen);
      cutNames |= fit.cut();
    }
    if (tensors.size() > shown) {
      out.println(
          "  ... "
              + (tensors.size() - shown)
              + (tensors.size() - shown == 1 ? " more tensor" : " more tensors")
              + " not shown (--max_tensor_rows N, or --json for all)");
    }
    if (cutNames) {
      out.println(
          screen.limited()
              ? "  (names are cut to fit: --json gives them whole)"
              : "  (names are cut at " + MAX_NAME_COLUMNS + " columns: --json gives them whole)");
    }
  }

  private static String typeText(MetadataRow m) {
    if (m.value() instanceof MetadataValue.ArrayValue a) {
      return arrayType(a);
    }
    return m.type().name();
  }

  private static String arrayType(MetadataValue.ArrayValue a) {
    return "ARRAY<" + elementLabel(a) + ">[" + Long.toUnsignedString(a.count()) + "]";
  }

  /**
   * The label of an array's elements. For an array of arrays it says only what holds for every
   * inner array: their whole label when every one is in the preview and all are alike ({@code
   * ARRAY<INT32>[2]}), their shared element label without a count when only the counts differ
   * ({@code ARRAY<INT32>}), else {@code ARRAY} (inner arrays of different types, or some not in
   * the preview).
   */
  private static String elementLabel(MetadataValue.ArrayValue a) {
    if (a.elementType() != ValueType.ARRAY) {
      return a.elementType().name();
    }
    if (a.preview().isEmpty() || !a.previewComplete()) {
      return ValueType.ARRAY.name();
    }
    Set<String> whole = new HashSet<>();
    Set<String> uncounted = new HashSet<>();
    for (MetadataValue e : a.preview()) {
      MetadataValue.ArrayValue inner = (MetadataValue.ArrayValue) e;
      // One label per inner array, so the work is linear in the preview's arrays (asking twice
      // per level doubled it at every level: 2^32 calls for 32 nested arrays of one element).
      String label = "ARRAY<" + elementLabel(inner) + ">";
      whole.add(label + "[" + Long.toUnsignedString(inner.count()) + "]");
      uncounted.add(label);
    }
    if (whole.size() == 1) {
      return whole.iterator().next();
    }
    return uncounted.size() == 1 ? uncounted.iterator().next() : ValueType.ARRAY.name();
  }

  /**
   * @param max the most characters a value (or one string of an array) may take; elements of an
   *     array are shown while they fit in it
   * @param strict whether the whole text, an array's count of what is shown included, must fit
   *     in {@code max} (a limited screen); else that count follows the elements
   */
  private static String valueText(ValueType type, MetadataValue v, int max, boolean strict) {
    if (v instanceof MetadataValue.ArrayValue a) {
      // Elements are added while they fit; the count of what is shown always survives.
      StringBuilder sb = new StringBuilder("[");
      int shown = 0;
      int reserve =
          strict
              ? (", ...] (" + a.preview().size() + " of " + Sizes.grouped(a.count()) + " shown)")
                  .length()
              : 0;
      int elementMax = strict ? Math.max(5, max - reserve - 1) : max;
      for (MetadataValue e : a.preview()) {
        String text = valueText(a.elementType(), e, elementMax, strict);
        if (shown > 0 && sb.length() + text.length() + 2 + reserve > max) {
          break;
        }
        if (shown > 0) {
          sb.append(", ");
        }
        sb.append(shorten(text, elementMax));
        shown++;
      }
      boolean all = a.previewComplete() && shown == a.preview().size();
      if (!all) {
        sb.append(shown > 0 ? ", ..." : "...")
            .append("] (")
            .append(shown)
            .append(" of ")
            .append(Sizes.grouped(a.count()))
            .append(" shown)");
      } else {
        sb.append(']');
      }
      return sb.toString();
    }
    String raw;
    switch (type) {
      case UINT64 -> raw = Long.toUnsignedString(((MetadataValue.IntegerValue) v).bits());
      case FLOAT32, FLOAT64 -> {
        double d = ((MetadataValue.FloatValue) v).value();
        String special = MetadataValue.FloatValue.specialText(d);
        // Java's spelling throughout: -0.0 beside 0.0 (the JSON's "-0" is RFC 8785's way out).
        raw = special != null && !special.equals("-0")
            ? special
            : (type == ValueType.FLOAT32 ? Float.toString((float) d) : Double.toString(d));
      }
      case BOOL -> raw = Boolean.toString(((MetadataValue.BoolValue) v).value());
      case STRING -> raw = TerminalText.quoted(((MetadataValue.StringValue) v).value(), max);
      default -> raw = Long.toString(((MetadataValue.IntegerValue) v).bits());
    }
    return raw;
  }

  /** @return true when the value, or a string in its preview, is longer than is shown */
  private static boolean longString(MetadataValue v, int max) {
    if (v instanceof MetadataValue.StringValue s) {
      return s.value().length() > max;
    }
    if (v instanceof MetadataValue.ArrayValue a) {
      for (MetadataValue e : a.preview()) {
        if (longString(e, max)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Escapes what a terminal would obey (so columns stay aligned), then cuts to {@code max}. */
  private static String shorten(String s, int max) {
    return TextTable.cut(TerminalText.printable(s), max);
  }

  static String shape(List<Long> dims) {
    StringJoiner j = new StringJoiner(", ", "[", "]");
    for (Long d : dims) {
      j.add(Long.toUnsignedString(d));
    }
    return j.toString();
  }

  /**
   * The {@code layout} fact of a record read under {@code --assume-layout} (CONTRACT section 12):
   * how many byte lengths rest on the statement rather than on the header.
   */
  static String assumedLayout(EvidenceRecord r) {
    int tensors = 0;
    for (Limitation l : r.limitations()) {
      if ("layout_assumed".equals(l.code()) && l.tensorIndices() != null) {
        tensors = l.tensorIndices().size();
      }
    }
    // Called for a record read under --assume-layout only (the layout fact).
    String layout =
        TerminalText.printable(
            Objects.requireNonNull(r.request().assumeLayout(), "no --assume-layout"));
    return tensors == 0
        ? layout + " assumed (--assume-layout); no tensor here needed it"
        : "ASSUMED "
            + layout
            + " (--assume-layout): the byte lengths of "
            + Sizes.count(tensors, "tensor")
            + " rest on this assumption, not on the header";
  }

  private static String indices(List<Integer> idx) {
    StringJoiner j = new StringJoiner(", ");
    int shown = Math.min(idx.size(), 20);
    for (int i = 0; i < shown; i++) {
      j.add(idx.get(i).toString());
    }
    return j + (idx.size() > shown ? ", ... (" + idx.size() + " in all)" : "");
  }


  private static String nullText(@Nullable String s, String fallback) {
    return s == null ? fallback : s;
  }
}
