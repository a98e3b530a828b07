package dev.rea.core.internal.diff;

import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.Totals;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.internal.evidence.EvidenceJson;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * Compares what two files or sets declare (CONTRACT section 11):
 *
 * <pre>
 * { "kind": "model-artifact-diff", "same_declarations": bool,
 *   "a": { "path", "evidence_id", "format", "header_sha256", "sha256", "header_complete",
 *          "observed_at" },
 *   "b": { ... },
 *   "format_facts": [ { "field", "a"?, "b"? } ],   (a side without the fact has no property)
 *   "metadata": { "added": [ rows ], "removed": [ rows ],
 *                 "changed": [ { "member"?, "key", "a", "b" } ],
 *                 "arrays_compared_by_preview": [ keys ] },
 *   "tensors": { "added": [ names ], "removed": [ names ],
 *                "changed": [ { "name", "fields": { field: [ a, b ] } } ], "order_changed": bool },
 *   "types": [ { "type", "a": counts | null, "b": counts | null } ],
 *   "totals": { "a": counts, "b": counts } }
 * </pre>
 *
 * <p>Paths, evidence ids, digests, identities, {@code observed_at} and signatures are shown in
 * {@code a} and {@code b} and never compared. {@code header_complete} is false for a side whose
 * record holds a partial header (a read stopped by a cancel, a limit or a failure): what it holds
 * is compared, but such a side is never the same as another, since it may differ in what it
 * does not hold. Metadata rows pair by key (on set sides by member
 * and key: each member's rows are that member's, and rows and changes carry {@code member}),
 * tensors by name (index and order aside; {@code order_changed} says whether the tensors both
 * sides declare come in another order). A set side's facts include {@code member[k].<field>}
 * where its member k's fact differs from its first member's ({@link DiffSide#ofSet}). Each list of added, removed and changed entries holds at most {@value
 * #MAX_LISTED}, and {@code <list>_omitted} counts the rest. Arrays compare by element type,
 * count and {@code value_sha256}, the digest of every stored element, so a vocabulary changed
 * past its preview is changed. When a side lacks the digest (a record saved before it existed)
 * arrays compare by their previews; when a preview is then incomplete, equal previews are all
 * that can be compared, and the key is listed in {@code arrays_compared_by_preview} so that
 * nobody takes such an array for proven equal. {@code types} lists the type labels whose counts differ;
 * {@code totals} are always both given.
 */
public final class EvidenceDiff {
  /** Most entries listed per list of added, removed or changed entries. */
  public static final int MAX_LISTED = 256;

  /** {@code kind} of a comparison. */
  public static final String KIND = "model-artifact-diff";

  private EvidenceDiff() {}

  /**
   * The outcome of a comparison.
   *
   * @param sameDeclarations true when nothing but per-run and per-path fields differ
   * @param json the comparison object of CONTRACT section 11, UTF-8
   */
  public record Result(boolean sameDeclarations, byte[] json) {}

  /** @return what differs between {@code a} and {@code b} */
  public static Result compare(DiffSide a, DiffSide b) {
    Differences d = new Differences(a, b);
    // What a partial record does not hold is unknown: it may differ there.
    boolean same = d.same() && a.headerComplete() && b.headerComplete();
    ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
    try (JsonGenerator g = EvidenceJson.generator(out)) {
      g.writeStartObject();
      g.writeStringProperty("kind", KIND);
      g.writeBooleanProperty("same_declarations", same);
      writeSide(g, "a", a);
      writeSide(g, "b", b);
      d.writeFacts(g);
      d.writeMetadata(g);
      d.writeTensors(g);
      d.writeTypes(g);
      g.writeName("totals");
      g.writeStartObject();
      g.writeName("a");
      writeTotals(g, a.totals());
      g.writeName("b");
      writeTotals(g, b.totals());
      g.writeEndObject();
      g.writeEndObject();
    }
    return new Result(same, out.toByteArray());
  }

  private static void writeSide(JsonGenerator g, String name, DiffSide s) {
    g.writeName(name);
    g.writeStartObject();
    g.writeStringProperty("path", s.path());
    nullableString(g, "evidence_id", s.evidenceId());
    g.writeStringProperty("format", s.format());
    nullableString(g, "header_sha256", s.headerSha256());
    nullableString(g, "sha256", s.sha256());
    g.writeBooleanProperty("header_complete", s.headerComplete());
    g.writeStringProperty("observed_at", s.observedAt());
    nullableString(g, "assume_layout", s.assumeLayout());
    g.writeEndObject();
  }

  private static void nullableString(JsonGenerator g, String name, @Nullable String v) {
    if (v == null) {
      g.writeNullProperty(name);
    } else {
      g.writeStringProperty(name, v);
    }
  }

  private static void writeTotals(JsonGenerator g, Totals t) {
    g.writeStartObject();
    g.writeNumberProperty("tensor_count", t.tensorCount());
    g.writeStringProperty("parameter_count", t.parameterCount().toString());
    g.writeName("byte_length");
    if (t.byteLength() == null) {
      g.writeNull();
    } else {
      g.writeString(t.byteLength().toString());
    }
    g.writeEndObject();
  }

  /** Writes a JSON-ready value: String, Integer, Long, Boolean, a List of them, or null. */
  static void writeValue(JsonGenerator g, @Nullable Object v) {
    if (v == null) {
      g.writeNull();
    } else if (v instanceof String s) {
      g.writeString(s);
    } else if (v instanceof Integer i) {
      g.writeNumber(i.intValue());
    } else if (v instanceof Long l) {
      g.writeNumber(l.longValue());
    } else if (v instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (v instanceof List<?> list) {
      g.writeStartArray();
      for (Object e : list) {
        writeValue(g, e);
      }
      g.writeEndArray();
    } else {
      throw new IllegalArgumentException("not a JSON-ready value: " + v.getClass());
    }
  }

  /** Writes {@code name: [...]} with at most {@link #MAX_LISTED} items, and the count of the rest. */
  static <T> void writeCapped(
      JsonGenerator g, String name, List<T> items, java.util.function.Consumer<T> writeOne) {
    g.writeName(name);
    g.writeStartArray();
    int n = Math.min(items.size(), MAX_LISTED);
    for (int i = 0; i < n; i++) {
      writeOne.accept(items.get(i));
    }
    g.writeEndArray();
    if (items.size() > n) {
      g.writeNumberProperty(name + "_omitted", items.size() - n);
    }
  }

  /** Everything that differs, found once and written in order. */
  private static final class Differences {
    private final List<String> factFields = new ArrayList<>();
    private final DiffSide a;
    private final DiffSide b;
    private final List<Row> addedRows = new ArrayList<>();
    private final List<Row> removedRows = new ArrayList<>();
    private final List<Row[]> changedRows = new ArrayList<>();
    private final List<String> byPreview = new ArrayList<>();
    private final List<String> addedTensors = new ArrayList<>();
    private final List<String> removedTensors = new ArrayList<>();
    private final List<TensorChange> changedTensors = new ArrayList<>();
    private boolean orderChanged;
    private final List<String> changedTypes = new ArrayList<>();
    private final Map<String, TypeRow> typesA = new HashMap<>();
    private final Map<String, TypeRow> typesB = new HashMap<>();

    Differences(DiffSide a, DiffSide b) {
      this.a = a;
      this.b = b;
      compareFacts();
      compareMetadata();
      compareTensors();
      compareTypes();
    }

    boolean same() {
      return factFields.isEmpty()
          && addedRows.isEmpty()
          && removedRows.isEmpty()
          && changedRows.isEmpty()
          && addedTensors.isEmpty()
          && removedTensors.isEmpty()
          && changedTensors.isEmpty()
          && !orderChanged
          && changedTypes.isEmpty()
          && a.totals().equals(b.totals());
    }

    // ------------------------------------------------------------------------------ facts

    private void compareFacts() {
      if (!a.format().equals(b.format())) {
        factFields.add("format");
      }
      Set<String> fields = new LinkedHashSet<>(a.facts().keySet());
      fields.addAll(b.facts().keySet());
      for (String f : fields) {
        if (!Objects.equals(a.fact(f), b.fact(f)) || a.hasFact(f) != b.hasFact(f)) {
          factFields.add(f);
        }
      }
    }

    /**
     * Writes {@code format_facts}, capped as the other lists are: a set side's facts include its
     * index's metadata, up to the index limit's 1,024 keys.
     */
    void writeFacts(JsonGenerator g) {
      writeCapped(
          g,
          "format_facts",
          new ArrayList<>(factFields),
          f -> {
            g.writeStartObject();
            g.writeStringProperty("field", f);
            writeFact(g, "a", f, a);
            writeFact(g, "b", f, b);
            g.writeEndObject();
          });
    }

    /**
     * Writes one side's value of fact {@code f}, or nothing when that side has no such fact (an
     * index key only one index has): JSON null stays a value (an index key set to null, a GGUF
     * {@code tensor_data_offset} not established), so absence cannot read as null. A set's
     * {@code member[k].<field>} is member k's fact whenever the side has a member k ({@link
     * DiffSide#fact}), so both sides' values show where only one side's member k differs from
     * its first member.
     */
    private static void writeFact(JsonGenerator g, String name, String f, DiffSide side) {
      if (f.equals("format")) {
        g.writeStringProperty(name, side.format());
      } else if (side.hasFact(f)) {
        g.writeName(name);
        writeValue(g, side.fact(f));
      }
    }

    // ------------------------------------------------------------------------------ metadata

    /** A metadata row with its member's index in a set, or null for a single file. */
    private record Row(@Nullable Integer member, MetadataRow row) {
      KeyOf id() {
        return new KeyOf(member, row.key());
      }
    }

    /** What rows pair by: the key, within its member on a set side. */
    private record KeyOf(@Nullable Integer member, String key) {}

    private static List<Row> rows(DiffSide s) {
      List<Row> out = new ArrayList<>(s.metadata().size());
      for (int i = 0; i < s.metadata().size(); i++) {
        out.add(new Row(s.metadataMembers().get(i), s.metadata().get(i)));
      }
      return out;
    }

    private void compareMetadata() {
      List<Row> rowsA = rows(a);
      Map<KeyOf, Row> inA = new LinkedHashMap<>();
      for (Row r : rowsA) {
        inA.put(r.id(), r);
      }
      Set<KeyOf> inB = new LinkedHashSet<>();
      for (Row r : rows(b)) {
        inB.add(r.id());
        Row ra = inA.get(r.id());
        if (ra == null) {
          addedRows.add(r);
        } else if (!sameValue(ra.row(), r.row())) {
          changedRows.add(new Row[] {ra, r});
        } else if (comparedByPreview(ra.row(), r.row()) && !byPreview.contains(r.row().key())) {
          byPreview.add(r.row().key());
        }
      }
      for (Row r : rowsA) {
        if (!inB.contains(r.id())) {
          removedRows.add(r);
        }
      }
    }

    /**
     * Type and value equal. Arrays with {@code value_sha256} on both sides compare by element
     * type, count and digest (the digest covers every element, so a change past the preview is
     * seen); otherwise (a record saved before the field) by element type, count, preview and
     * preview_complete.
     */
    private static boolean sameValue(MetadataRow x, MetadataRow y) {
      if (x.type() != y.type()) {
        return false;
      }
      if (x.valueSha256() != null
          && y.valueSha256() != null
          && x.value() instanceof MetadataValue.ArrayValue ax
          && y.value() instanceof MetadataValue.ArrayValue ay) {
        return ax.elementType() == ay.elementType()
            && ax.count() == ay.count()
            && x.valueSha256().equals(y.valueSha256());
      }
      return x.value().equals(y.value());
    }

    /**
     * Whether two equal-looking array rows were compared by their previews alone: a side lacks
     * {@code value_sha256} and a preview (at any depth) is incomplete.
     */
    private static boolean comparedByPreview(MetadataRow x, MetadataRow y) {
      if (!(x.value() instanceof MetadataValue.ArrayValue)) {
        return false;
      }
      if (x.valueSha256() != null && y.valueSha256() != null) {
        return false;
      }
      return x.value().anyNested(v -> v instanceof MetadataValue.ArrayValue a && !a.previewComplete());
    }

    void writeMetadata(JsonGenerator g) {
      g.writeName("metadata");
      g.writeStartObject();
      writeCapped(
          g, "added", addedRows, r -> EvidenceJson.writeMetadataRow(g, r.row(), r.member()));
      writeCapped(
          g, "removed", removedRows, r -> EvidenceJson.writeMetadataRow(g, r.row(), r.member()));
      writeCapped(
          g,
          "changed",
          changedRows,
          pair -> {
            g.writeStartObject();
            if (pair[1].member() != null) {
              g.writeNumberProperty("member", pair[1].member().intValue());
            }
            g.writeStringProperty("key", pair[0].row().key());
            g.writeName("a");
            writeRowValue(g, pair[0].row());
            g.writeName("b");
            writeRowValue(g, pair[1].row());
            g.writeEndObject();
          });
      writeCapped(g, "arrays_compared_by_preview", byPreview, g::writeString);
      g.writeEndObject();
    }

    /** A row's type and value fields (and {@code value_sha256}), without its index and key. */
    private static void writeRowValue(JsonGenerator g, MetadataRow r) {
      g.writeStartObject();
      g.writeStringProperty("type", r.type().name());
      EvidenceJson.writeMetadataValueFields(g, r.type(), r.value());
      if (r.valueSha256() != null) {
        g.writeStringProperty("value_sha256", r.valueSha256());
      }
      g.writeEndObject();
    }

    // ------------------------------------------------------------------------------ tensors

    private record TensorChange(String name, Map<String, List<@Nullable Object>> fields) {}

    private void compareTensors() {
      Map<String, Integer> inA = new HashMap<>();
      for (int i = 0; i < a.tensors().size(); i++) {
        inA.put(a.tensors().get(i).name(), i);
      }
      Set<String> inB = new LinkedHashSet<>();
      List<String> commonInB = new ArrayList<>();
      for (int j = 0; j < b.tensors().size(); j++) {
        TensorRow tb = b.tensors().get(j);
        inB.add(tb.name());
        Integer i = inA.get(tb.name());
        if (i == null) {
          addedTensors.add(tb.name());
          continue;
        }
        commonInB.add(tb.name());
        Map<String, @Nullable Object> fa = fields(a.tensors().get(i), a.members().get(i));
        Map<String, @Nullable Object> fb = fields(tb, b.members().get(j));
        Map<String, List<@Nullable Object>> changed = new LinkedHashMap<>();
        for (Map.Entry<String, @Nullable Object> e : fa.entrySet()) {
          Object vb = fb.get(e.getKey());
          if (!Objects.equals(e.getValue(), vb)) {
            List<@Nullable Object> pair = new ArrayList<>(2);
            pair.add(e.getValue());
            pair.add(vb);
            changed.put(e.getKey(), pair);
          }
        }
        if (!changed.isEmpty()) {
          changedTensors.add(new TensorChange(tb.name(), changed));
        }
      }
      List<String> commonInA = new ArrayList<>();
      for (TensorRow ta : a.tensors()) {
        if (inB.contains(ta.name())) {
          commonInA.add(ta.name());
        } else {
          removedTensors.add(ta.name());
        }
      }
      orderChanged = !commonInA.equals(commonInB);
    }

    /** A tensor row's compared fields with their JSON values (index aside, member when in a set). */
    private static Map<String, @Nullable Object> fields(TensorRow t, @Nullable Integer member) {
      Map<String, @Nullable Object> f = new LinkedHashMap<>();
      f.put("type", t.type());
      f.put("type_id", t.typeId());
      List<String> shape = new ArrayList<>(t.shape().size());
      for (Long d : t.shape()) {
        shape.add(Long.toUnsignedString(d));
      }
      f.put("shape", shape);
      f.put("parameter_count", Long.toUnsignedString(t.parameterCount()));
      f.put("offset", Long.toUnsignedString(t.offset()));
      f.put("file_offset", t.fileOffset() == null ? null : Long.toUnsignedString(t.fileOffset()));
      f.put("byte_length", t.byteLength() == null ? null : Long.toUnsignedString(t.byteLength()));
      f.put("storage_validation", t.storageValidation().wire());
      f.put("member", member);
      return f;
    }

    void writeTensors(JsonGenerator g) {
      g.writeName("tensors");
      g.writeStartObject();
      writeCapped(g, "added", addedTensors, g::writeString);
      writeCapped(g, "removed", removedTensors, g::writeString);
      writeCapped(
          g,
          "changed",
          changedTensors,
          c -> {
            g.writeStartObject();
            g.writeStringProperty("name", c.name());
            g.writeName("fields");
            g.writeStartObject();
            for (Map.Entry<String, List<@Nullable Object>> e : c.fields().entrySet()) {
              g.writeName(e.getKey());
              writeValue(g, e.getValue());
            }
            g.writeEndObject();
            g.writeEndObject();
          });
      g.writeBooleanProperty("order_changed", orderChanged);
      g.writeEndObject();
    }

    // ------------------------------------------------------------------------------ types

    private void compareTypes() {
      Set<String> labels = new LinkedHashSet<>();
      for (TypeRow t : a.types()) {
        typesA.put(t.type(), t);
        labels.add(t.type());
      }
      for (TypeRow t : b.types()) {
        typesB.put(t.type(), t);
        labels.add(t.type());
      }
      for (String label : labels) {
        TypeRow x = typesA.get(label);
        TypeRow y = typesB.get(label);
        if (x == null || y == null || !counts(x).equals(counts(y))) {
          changedTypes.add(label);
        }
      }
    }

    private static List<@Nullable Object> counts(TypeRow t) {
      List<@Nullable Object> c = new ArrayList<>(3);
      c.add(t.tensorCount());
      c.add(t.parameterCount());
      c.add(t.byteLength());
      return c;
    }

    void writeTypes(JsonGenerator g) {
      g.writeName("types");
      g.writeStartArray();
      for (String label : changedTypes) {
        g.writeStartObject();
        g.writeStringProperty("type", label);
        writeTypeCounts(g, "a", typesA.get(label));
        writeTypeCounts(g, "b", typesB.get(label));
        g.writeEndObject();
      }
      g.writeEndArray();
    }

    private static void writeTypeCounts(JsonGenerator g, String name, @Nullable TypeRow t) {
      g.writeName(name);
      if (t == null) {
        g.writeNull();
        return;
      }
      g.writeStartObject();
      g.writeNumberProperty("tensor_count", t.tensorCount());
      g.writeStringProperty("parameter_count", t.parameterCount().toString());
      g.writeName("byte_length");
      if (t.byteLength() == null) {
        g.writeNull();
      } else {
        g.writeString(t.byteLength().toString());
      }
      g.writeEndObject();
    }
  }
}
