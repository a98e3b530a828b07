package dev.rea.cli;

import dev.rea.core.evidence.Artifact;
import dev.rea.core.evidence.Coverage;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.evidence.Warning;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

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

  HumanReport(PrintWriter out, int maxTensorRows) {
    this.out = out;
    this.maxTensorRows = Math.max(0, maxTensorRows);
  }

  void print(EvidenceRecord r) {
    Artifact a = r.artifact();
    boolean partial = EvidenceRecord.STATUS_PARTIAL.equals(r.status());
    out.println((partial ? "PARTIAL Evidence for " : "Evidence for ") + TerminalText.printable(a.path()));
    List<String[]> facts = new ArrayList<>();
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
    facts.add(new String[] {"read", read});
    String fileSha;
    if (a.sha256() != null) {
      fileSha = a.sha256();
    } else if (partial && "full".equals(a.readScope())) {
      fileSha = "unknown (the full read failed, was cancelled or saw the file change: see the error)";
    } else {
      fileSha = "not computed (use --hash full)";
    }
    facts.add(new String[] {"file sha256", fileSha});
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
                  ? "byte total unknown"
                  : Sizes.grouped(r.totals().byteLength()) + " bytes of tensor data")
              + (Coverage.PARTIAL.equals(r.coverage().header())
                  ? "; of the entries read before the stop only (see Limitations)"
                  : "")
              + SplitMember.note(r)
        });
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
                + "): see Warnings at the end"
          });
    }
    facts.add(
        new String[] {
          "evidence id",
          r.evidenceId() == null
              ? "none"
              : r.evidenceId() + " (names this report; each run has its own)"
        });
    TextTable.print(out, List.of(), facts);

    printMetadata(r.metadata());
    // Safetensors dtypes have no numeric ID: the column would always be empty.
    printTypes(r.types(), !"safetensors".equals(a.format()));
    printTensors(r.tensors());

    out.println();
    out.println("Limitations (" + r.limitations().size() + ")");
    if (r.limitations().isEmpty()) {
      out.println("  none");
    }
    for (Limitation l : r.limitations()) {
      out.println("  - [" + l.code() + "] " + TerminalText.printable(l.message()));
      if (l.candidates() != null && !l.candidates().isEmpty()) {
        out.println("    candidates: " + TerminalText.printable(String.join(", ", l.candidates())));
      }
      if (l.tensorIndices() != null && !l.tensorIndices().isEmpty()) {
        out.println("    tensor indices: " + indices(l.tensorIndices()));
      }
    }
    out.println();
    out.println("Warnings (" + r.warnings().size() + ")");
    if (r.warnings().isEmpty()) {
      out.println("  none");
    }
    for (Warning w : r.warnings()) {
      out.println("  - [" + w.code() + "] " + TerminalText.printable(w.message()));
    }
    out.println();
    out.println(
        "Coverage: header "
            + r.coverage().header()
            + ", storage sizes "
            + r.coverage().storageSizes()
            + ", ranges "
            + r.coverage().ranges()
            + ", digest "
            + r.coverage().digest()
            + ", final identity "
            + r.coverage().finalIdentity());
    out.flush();
  }

  private void printMetadata(List<MetadataRow> rows) {
    out.println();
    out.println("Metadata (" + rows.size() + (rows.size() == 1 ? " key)" : " keys)"));
    List<String[]> table = new ArrayList<>();
    int shown = Math.min(rows.size(), MAX_METADATA_ROWS);
    boolean cut = false;
    for (int i = 0; i < shown; i++) {
      MetadataRow m = rows.get(i);
      table.add(new String[] {TerminalText.printable(m.key()), typeText(m), valueText(m.type(), m.value())});
      cut |= longString(m.value());
    }
    if (rows.isEmpty()) {
      out.println("  none");
    }
    TextTable.print(out, List.of(), table);
    if (rows.size() > shown) {
      out.println("  ... " + (rows.size() - shown) + " more keys (use --json for all)");
    }
    if (cut) {
      out.println(
          "  (strings are cut at "
              + MAX_VALUE_CHARS
              + " characters: --json gives them whole, as does inspect-analysis-view --json"
              + " with \"keys\" for a value that fits its 64 KiB page)");
    }
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
    TextTable.print(
        out,
        withIds
            ? List.of("TYPE", "ID", "TENSORS", "PARAMETERS", "BYTES")
            : List.of("TYPE", "TENSORS", "PARAMETERS", "BYTES"),
        table);
  }

  private void printTensors(List<TensorRow> tensors) {
    out.println();
    out.println("Tensors (" + tensors.size() + ")");
    List<String[]> table = new ArrayList<>();
    int shown = Math.min(tensors.size(), maxTensorRows);
    boolean cutNames = false;
    for (int i = 0; i < shown; i++) {
      TensorRow t = tensors.get(i);
      String printable = TerminalText.printable(t.name());
      String name = TextTable.cut(printable, MAX_NAME_COLUMNS);
      cutNames |= !name.equals(printable);
      table.add(
          new String[] {
            Integer.toString(t.index()),
            name,
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
      TextTable.print(
          out, List.of("#", "NAME", "TYPE", "SHAPE", "FILE OFFSET", "BYTES", "STORAGE"), table);
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
          "  (names are cut at " + MAX_NAME_COLUMNS + " columns: --json gives them whole)");
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

  private static String valueText(ValueType type, MetadataValue v) {
    if (v instanceof MetadataValue.ArrayValue a) {
      // Elements are added while they fit; the count of what is shown always survives.
      StringBuilder sb = new StringBuilder("[");
      int shown = 0;
      for (MetadataValue e : a.preview()) {
        String text = valueText(a.elementType(), e);
        if (shown > 0 && sb.length() + text.length() + 2 > MAX_VALUE_CHARS) {
          break;
        }
        if (shown > 0) {
          sb.append(", ");
        }
        sb.append(shorten(text, MAX_VALUE_CHARS));
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
        raw = special != null ? special : (type == ValueType.FLOAT32 ? Float.toString((float) d) : Double.toString(d));
      }
      case BOOL -> raw = Boolean.toString(((MetadataValue.BoolValue) v).value());
      case STRING -> raw = quote(((MetadataValue.StringValue) v).value());
      default -> raw = Long.toString(((MetadataValue.IntegerValue) v).bits());
    }
    return raw;
  }

  /** @return true when the value, or a string in its preview, is longer than is shown */
  private static boolean longString(MetadataValue v) {
    if (v instanceof MetadataValue.StringValue s) {
      return s.value().length() > MAX_VALUE_CHARS;
    }
    if (v instanceof MetadataValue.ArrayValue a) {
      for (MetadataValue e : a.preview()) {
        if (longString(e)) {
          return true;
        }
      }
    }
    return false;
  }

  private static String quote(String s) {
    return TerminalText.quoted(s, MAX_VALUE_CHARS);
  }

  /** Escapes what a terminal would obey (so columns stay aligned), then cuts to {@code max}. */
  private static String shorten(String s, int max) {
    return TextTable.cut(TerminalText.printable(s), max);
  }

  private static String shape(List<Long> dims) {
    StringJoiner j = new StringJoiner(", ", "[", "]");
    for (Long d : dims) {
      j.add(Long.toUnsignedString(d));
    }
    return j.toString();
  }

  private static String indices(List<Integer> idx) {
    StringJoiner j = new StringJoiner(", ");
    int shown = Math.min(idx.size(), 20);
    for (int i = 0; i < shown; i++) {
      j.add(idx.get(i).toString());
    }
    return j + (idx.size() > shown ? ", ... (" + idx.size() + " in all)" : "");
  }


  private static String nullText(String s, String fallback) {
    return s == null ? fallback : s;
  }
}
