package dev.rea.cli;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.evidence.Warning;
import java.io.PrintWriter;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The readable report of a model set (CONTRACT section 9): one block for the set (kind, members,
 * totals by type, the checks that passed), one short line per member, a rejected set's
 * contradictions, then the warnings. Tensor rows are printed only as {@code --tensors} chooses
 * them ({@link SetTensorMatches}); without it the last lines say how to choose or page them.
 * Text from files goes through {@link TerminalText}.
 */
final class SetReport {
  /** Type rows shown in the set block. */
  private static final int SHOWN_TYPES = 12;

  /** Contradictions listed in a rejected set's report; stderr and {@code --json} give more. */
  private static final int SHOWN_CONTRADICTIONS = 8;
  /** The most characters of an architecture or a name the model line shows. */
  private static final int MODEL_VALUE_CHARS = 64;

  private final PrintWriter out;
  private final Screen screen;

  /** A report with lines as long as their content (a pipe, a file, {@code --wide}). */
  SetReport(PrintWriter out) {
    this(out, Screen.UNLIMITED);
  }

  /**
   * @param screen the width to fit: prose is wrapped at spaces, a digest goes on a line of its
   *     own, the members' table shortens or drops columns ({@link FittedTable})
   */
  SetReport(PrintWriter out, Screen screen) {
    this.out = out;
    this.screen = screen;
  }

  /**
   * @param s the set record (complete or partial)
   * @param checks the cross-checks that passed (empty for a partial record)
   * @param output where the bundle was written, or null
   */
  void print(ModelSetRecord s, List<String> checks, @Nullable Path output) {
    print(s, checks, output, null, null);
  }

  /**
   * As {@link #print(ModelSetRecord, List, Path)}, ending with the tensors {@code --tensors}
   * matched across the members instead of the note on paging tensor rows.
   *
   * @param matches the matching tensors, or null without {@code --tensors} (the note is printed)
   */
  void print(
      ModelSetRecord s,
      List<String> checks,
      @Nullable Path output,
      @Nullable SetTensorMatches matches) {
    print(s, checks, output, null, matches, null);
  }

  /**
   * As {@link #print(ModelSetRecord, List, Path, SetTensorMatches)}, naming the model as the first
   * member declares it.
   *
   * @param first the first member's record, or null: its {@code general.architecture} and {@code
   *     general.name} (a GGUF split set keeps the model's metadata in member 0) become the
   *     {@code model} line
   */
  void print(
      ModelSetRecord s,
      List<String> checks,
      @Nullable Path output,
      @Nullable SetTensorMatches matches,
      @Nullable EvidenceRecord first) {
    print(s, checks, output, null, matches, first);
  }

  /**
   * As {@link #print(ModelSetRecord, List, Path)}, for the partial record of a failed set.
   *
   * @param failure why the set failed, or null: a rejection (members that contradict each other)
   *     is said to be one, since every member was read; another failure stopped the read
   */
  void print(
      ModelSetRecord s, List<String> checks, @Nullable Path output, @Nullable ReaException failure) {
    print(s, checks, output, failure, null, null);
  }

  private void print(
      ModelSetRecord s,
      List<String> checks,
      @Nullable Path output,
      @Nullable ReaException failure,
      @Nullable SetTensorMatches matches,
      @Nullable EvidenceRecord first) {
    boolean partial = ModelSetRecord.STATUS_PARTIAL.equals(s.status());
    boolean rejected = failure != null && failure.constraint() == Constraint.SET_REJECTED;
    screen.println(out,
        (rejected ? "REJECTED model set " : partial ? "PARTIAL model set " : "Model set ")
            + TerminalText.printable(s.set().path()), Screen.OWN_LINE_INDENT);
    List<String[]> facts = new ArrayList<>();
    facts.add(new String[] {"kind", kindText(s)});
    String model = first == null ? null : modelText(first);
    if (model != null) {
      facts.add(new String[] {"model", model});
    }
    if (s.set().index() != null) {
      facts.add(new String[] {"index", Sizes.bytes(s.set().index().fileSize()) + ", sha256 "
          + s.set().index().sha256()});
    }
    BigInteger size = BigInteger.ZERO;
    for (ModelSetRecord.Member m : s.members()) {
      size = size.add(BigInteger.valueOf(m.fileSize()));
    }
    // A partial set's members are those read before its failure, which names how many it has.
    facts.add(new String[] {"files", Sizes.count(s.members().size(), "member")
        + (partial ? " read" : "") + ", " + Sizes.grouped(size) + " bytes"});
    facts.add(new String[] {"totals", Sizes.count(s.totals().tensorCount(), "tensor") + ", "
        + Sizes.grouped(s.totals().parameterCount()) + " parameters (declared), "
        + (s.totals().byteLength() == null
            ? Sizes.unknownByteTotal(s.request().assumeLayout() != null)
            : Sizes.grouped(s.totals().byteLength()) + " bytes of tensor data")
        + (partial ? "; of the " + Sizes.count(s.members().size(), "member") + " read" : "")});
    facts.add(new String[] {"types", typesText(s.types())});
    facts.add(new String[] {"read", readText(s)});
    if (!checks.isEmpty()) {
      facts.add(new String[] {"checks", "passed: " + String.join("; ", checks)});
    }
    if (!s.warnings().isEmpty()) {
      Set<String> codes = new LinkedHashSet<>();
      for (Warning w : s.warnings()) {
        codes.add(w.code());
      }
      facts.add(new String[] {"warnings", s.warnings().size() + " ("
          + TerminalText.printable(String.join(", ", codes)) + "): see Warnings below"});
    }
    facts.add(new String[] {"evidence", String.valueOf(s.evidenceId())});
    screen.printFacts(out, facts);
    printMembers(s);
    if (rejected && failure != null) {
      printContradictions(failure);
    }
    printWarnings(s);
    out.println();
    if (matches != null) {
      printMatches(s, matches);
    } else if (failure == null) {
      // A failed set writes no Evidence file to page (--evidence_output is not written for it),
      // so that way to its rows is not offered.
      screen.println(out, "Tensor rows are not printed for a set: choose them with --tensors GLOB,"
          + " page them with --detail summary --evidence_output FILE --view"
          + " '{\"collection\":\"tensors\"}' (each row names its member), or inspect one member"
          + " with inspect-model-artifact.", 0);
    }
    if (output != null) {
      screen.println(out, "Complete Evidence " + s.evidenceId() + " written to "
          + TerminalText.printable(output.toString()), 0);
    }
  }

  /**
   * The tensor table's columns: the member index, the tensor's index in its member, then as
   * {@code inspect-model-artifact}'s table (SHAPE and BYTES dropped first to fit a screen).
   */
  private static final List<FittedTable.Column> MATCH_COLUMNS =
      List.of(
          FittedTable.Column.fixed("MEMBER"),
          FittedTable.Column.fixed("#"),
          FittedTable.Column.name("NAME", 20),
          FittedTable.Column.fixed("TYPE"),
          FittedTable.Column.droppable("SHAPE", 2),
          FittedTable.Column.droppable("BYTES", 1));

  private void printMatches(ModelSetRecord s, SetTensorMatches matches) {
    out.println(
        "Tensors ("
            + Sizes.grouped(matches.matched())
            + " of "
            + Sizes.grouped(s.totals().tensorCount())
            + " match --tensors "
            + TerminalText.printable(matches.pattern())
            + ")");
    if (matches.matched() == 0) {
      out.println("  none");
      return;
    }
    boolean cut = false;
    if (!matches.rows().isEmpty()) {
      FittedTable.Fit fit = FittedTable.print(out, screen, MATCH_COLUMNS, matches.rows(), true);
      FittedTable.printDroppedNote(out, fit, screen);
      cut |= fit.cut();
    }
    long more = matches.matched() - matches.rows().size();
    if (more > 0) {
      out.println(
          "  ... "
              + Sizes.grouped(more)
              + (more == 1 ? " more tensor" : " more tensors")
              + " not shown (--max_tensor_rows N shows more)");
    }
    if (cut) {
      out.println("  (names are cut to fit the screen: --wide prints them whole)");
    }
  }

  private void printMembers(ModelSetRecord s) {
    out.println();
    out.println("Members (" + s.members().size() + ")");
    List<String[]> rows = new ArrayList<>();
    for (ModelSetRecord.Member m : s.members()) {
      rows.add(new String[] {
        Integer.toString(m.index()),
        // Whole on an unlimited screen (a pipe gets whole lines); fitted below otherwise.
        TerminalText.printable(fileName(m.path())),
        m.format(),
        Sizes.grouped(m.tensorCount()),
        Sizes.grouped(m.parameterCount()),
        Sizes.human(m.fileSize())
      });
    }
    FittedTable.Fit fit = FittedTable.print(out, screen, List.of(
            FittedTable.Column.fixed("#"),
            FittedTable.Column.name("file", 16),
            FittedTable.Column.droppable("format", 4),
            FittedTable.Column.fixed("tensors"),
            FittedTable.Column.droppable("parameters", 3),
            FittedTable.Column.fixed("size")),
        rows, true);
    FittedTable.printDroppedNote(out, fit, screen);
  }

  /**
   * @return whether {@link #print} with this failure lists every contradiction it carries (a
   *     rejected set's, when they are few enough to show all)
   */
  static boolean listsAllContradictions(ReaException failure) {
    if (failure.constraint() != Constraint.SET_REJECTED) {
      return false;
    }
    Object listed = failure.diagnostics().get("contradictions");
    return !(listed instanceof List<?> l) || l.size() <= SHOWN_CONTRADICTIONS;
  }

  /**
   * Why a rejected set was rejected, on stdout beside the rest of the report (a reader who keeps
   * only stdout still sees it): the first {@link #SHOWN_CONTRADICTIONS} contradictions the error
   * carries ({@code details.diagnostics.contradictions}, CONTRACT section 9) and the count of all.
   */
  private void printContradictions(ReaException failure) {
    Object listed = failure.diagnostics().get("contradictions");
    List<?> items = listed instanceof List<?> l ? l : List.of();
    Object counted = failure.diagnostics().get("contradiction_count");
    long count = counted instanceof Number n ? n.longValue() : items.size();
    out.println();
    out.println("Contradictions (" + Sizes.grouped(count) + ")");
    if (items.isEmpty()) {
      screen.println(out, "  - " + TerminalText.printable(failure.getMessage()), 4);
      return;
    }
    int shown = Math.min(items.size(), SHOWN_CONTRADICTIONS);
    for (Object item : items.subList(0, shown)) {
      screen.println(out, "  - " + TerminalText.printable(
          item instanceof java.util.Map<?, ?> m ? Failures.finding(m) : String.valueOf(item)), 4);
    }
    if (count > shown) {
      screen.println(out, "  (" + Sizes.grouped(count - shown) + " more; --json lists the first "
          + items.size() + ")", 2);
    }
  }

  private void printWarnings(ModelSetRecord s) {
    if (s.warnings().isEmpty()) {
      return;
    }
    out.println();
    out.println("Warnings (" + s.warnings().size() + ")");
    for (Warning w : s.warnings()) {
      // As the file report prints a warning: "[code] message".
      screen.println(out, "  - [" + TerminalText.printable(w.code()) + "] "
          + TerminalText.message(w.message()), 4);
    }
  }

  /**
   * @return {@code llama, "Llama 3 8B" (general.architecture and general.name of member 0)}, with
   *     whichever of the two string keys the record declares, or null for neither
   */
  static @Nullable String modelText(EvidenceRecord first) {
    String architecture = null;
    String name = null;
    for (MetadataRow row : first.metadata()) {
      if (row.value() instanceof MetadataValue.StringValue v) {
        if (row.key().equals("general.architecture") && architecture == null) {
          architecture = v.value();
        } else if (row.key().equals("general.name") && name == null) {
          name = v.value();
        }
      }
    }
    if (architecture == null && name == null) {
      return null;
    }
    List<String> keys = new ArrayList<>(2);
    StringBuilder sb = new StringBuilder();
    if (architecture != null) {
      sb.append(TextTable.cut(TerminalText.printable(architecture), MODEL_VALUE_CHARS));
      keys.add("general.architecture");
    }
    if (name != null) {
      sb.append(sb.length() > 0 ? ", " : "")
          .append('"').append(TextTable.cut(TerminalText.printable(name), MODEL_VALUE_CHARS))
          .append('"');
      keys.add("general.name");
    }
    return sb.append(" (").append(String.join(" and ", keys)).append(" of member 0)").toString();
  }

  private static String kindText(ModelSetRecord s) {
    return kindText(s.set().kind());
  }

  /**
   * @param kind a set's {@code set.kind} (CONTRACT section 9)
   * @return it in words, as the readable reports say it (the summary's too)
   */
  static String kindText(String kind) {
    switch (kind) {
      case "safetensors_index":
        return "safetensors checkpoint with an index";
      case "gguf_split":
        return "GGUF split set (gguf-split)";
      default:
        return "a single file";
    }
  }

  private static String typesText(List<TypeRow> types) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < Math.min(SHOWN_TYPES, types.size()); i++) {
      TypeRow t = types.get(i);
      b.append(i > 0 ? ", " : "").append(TerminalText.printable(t.type())).append(' ')
          .append(Sizes.count(t.tensorCount(), "tensor"));
      if (t.byteLength() != null) {
        b.append(" (").append(Sizes.grouped(t.byteLength())).append(" bytes)");
      }
    }
    if (types.size() > SHOWN_TYPES) {
      b.append(", ... (").append(types.size()).append(" types)");
    }
    return types.isEmpty() ? "none" : b.toString();
  }

  private static String readText(ModelSetRecord s) {
    if (!"full".equals(s.request().hash())) {
      return "each member's header only; tensor data neither read nor hashed";
    }
    return "complete".equals(s.coverage().digest())
        ? "every member whole, hashed (sha256 per member in --json)"
        : "hashing stopped before the end: sha256 only of the members hashed before the stop";
  }

  static String fileName(String path) {
    int slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
    return path.substring(slash + 1);
  }
}
