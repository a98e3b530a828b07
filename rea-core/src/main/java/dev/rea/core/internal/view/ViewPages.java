package dev.rea.core.internal.view;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Artifact;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.view.SourceKind;
import dev.rea.core.view.ViewCollection;
import dev.rea.core.view.ViewPage;
import dev.rea.core.view.ViewRequest;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.PrimitiveIterator;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * Answers a {@link ViewRequest} over an {@link IndexedEvidence} with one page (CONTRACT section
 * 4):
 *
 * <pre>
 * { "kind": "model-artifact-page", "parent_evidence_id",
 *   "source": { "kind", "evidence_id", "path", "format", "header_sha256", "sha256", "file_size" },
 *   "header_coverage", "collection", "total_matches", "offset", "limit", "next_offset",
 *   "rows", "array_omissions", "unknowns", "warnings", "warnings_omitted" }
 * </pre>
 *
 * <ul>
 *   <li>{@code source.kind} is how the Evidence was supplied ({@link SourceKind}); the other
 *       {@code source} fields identify the inspected file as the record does ({@code path} is
 *       {@code artifact.path}; {@code file_size} a decimal string).
 *   <li>{@code rows} keep their original {@code index} and the selected fields in the
 *       collection's column order; type rows carry their position in the record's {@code
 *       types} as {@code index}.
 *   <li>{@code array_omissions}: the keys of returned metadata rows whose array preview (or a
 *       nested one) is incomplete.
 *   <li>{@code unknowns}: for each returned tensor or type row with an undetermined value,
 *       {@code {"index", "fields": [...], "limitations": [codes]}}: {@code type} for an {@code
 *       AMBIGUOUS_<id>} or {@code UNKNOWN_<id>} label, {@code byte_length} when it is null,
 *       {@code storage_validation} when it is {@code unknown}; {@code limitations} lists the
 *       record's limitation codes that name the row (by tensor index or type ID). Reported
 *       whatever {@code fields} selects, so a narrowed page never hides uncertainty.
 *   <li>{@code warnings}: page notes first ({@code unmatched_selection} when requested names,
 *       keys, labels or indices match no row; {@code row_omitted} when a single row is larger
 *       than a page), then the record's warnings in order while they fit in {@value
 *       #WARNINGS_BUDGET_BYTES} bytes; {@code warnings_omitted} counts the record warnings left
 *       out, which the complete parent Evidence ({@code parent_evidence_id}) holds.
 * </ul>
 *
 * <p>The whole page is at most {@value #PAGE_BUDGET_BYTES} bytes of JSON. Rows are added in
 * match order while they fit (with their omission key and unknowns entry); the first row that
 * does not fit starts the next page ({@code next_offset}). A row that alone cannot fit in an
 * empty page is returned as {@code {"index", <fields of at most 1 KiB>, "omitted_fields": [...]}}
 * with a {@code row_omitted} warning pointing at the parent Evidence, so paging always advances.
 * {@code next_offset} is null when the page reaches the last match.
 *
 * <p>Cost: the selection is computed from the record's index ({@link Selection}); only the rows
 * of the page are rendered. Thread-safe (no shared mutable state).
 */
public final class ViewPages {
  /** Largest page JSON, in bytes (64 KiB). */
  public static final int PAGE_BUDGET_BYTES = 64 * 1024;

  /** Largest share of a page used by warnings, in bytes. */
  public static final int WARNINGS_BUDGET_BYTES = 8 * 1024;

  /** Largest field kept in a stub row (a row too large for any page), in bytes. */
  static final int STUB_FIELD_BYTES = 1024;

  /** Kind of a page object. */
  public static final String KIND = "model-artifact-page";

  private ViewPages() {}

  /**
   * Answers a view.
   *
   * @param ev the indexed Evidence
   * @param view the view (validated again here)
   * @param source how the Evidence was supplied, for {@code source.kind}
   * @return the page
   * @throws ReaException {@code bad_view} for an invalid view
   */
  public static ViewPage answer(IndexedEvidence ev, ViewRequest view, SourceKind source)
      throws ReaException {
    view.validate();
    if (view.collection() == ViewCollection.MEMBERS) {
      throw ReaException.builder(
              dev.rea.core.error.Constraint.BAD_VIEW,
              "collection members is only for a model set's Evidence (inspect_model_set)")
          .field("collection")
          .build();
    }
    List<String> fields = view.fields();
    if (fields != null && fields.contains(ViewRequest.SET_MEMBER_FIELD)) {
      throw ReaException.builder(
              dev.rea.core.error.Constraint.BAD_VIEW,
              "\"member\" is a field of a model set's tensor rows only (inspect_model_set); a"
                  + " single file's rows have none")
          .field("fields[" + fields.indexOf(ViewRequest.SET_MEMBER_FIELD) + "]")
          .build();
    }
    EvidenceRecord r = ev.record();
    Artifact a = r.artifact();
    Selection sel = Selection.of(ev, view);
    PageWriter.Parent parent = new PageWriter.Parent(ev.evidenceId(), a.path(), a.format(),
        a.headerSha256(), a.sha256(), Long.toString(a.fileSize()), r.coverage().header());
    PageWriter page = new PageWriter(parent, view, source, sel.total(),
        sel.unmatched().isEmpty() ? null : unmatchedWarning(sel), r.warnings());

    PrimitiveIterator.OfInt it = sel.from(view.offset());
    while (!page.full() && it.hasNext()) {
      int i = it.nextInt();
      byte[] row = row(ev, view.collection(), i, view::selects);
      byte[] unknown = unknown(ev, view.collection(), i);
      String omission = omission(ev, view.collection(), i);
      if (!page.fits(row, unknown, omission)) {
        if (!page.isEmpty()) {
          break;
        }
        // A single row larger than a page: keep its small fields, name the others.
        byte[] note = warning(rowOmittedWarning(ev, view.collection(), i, row.length));
        int room = page.remaining() - note.length - 1 - (unknown == null ? 0 : unknown.length + 1);
        if (omission != null && quoted(omission) + 1 > room / 2) {
          omission = null;
        }
        room -= omission == null ? 0 : quoted(omission) + 1;
        row = stub(ev, view, i, room);
        page.noteFirst(note);
      }
      page.add(i, row, unknown, omission);
    }
    return page.finish();
  }

  static int quoted(String s) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(s.length() + 2);
    try (JsonGenerator g = EvidenceJson.generator(out)) {
      g.writeString(s);
    }
    return out.size();
  }

  private static Warning unmatchedWarning(Selection sel) {
    List<String> missing = sel.unmatched();
    StringBuilder m = new StringBuilder();
    m.append(missing.size())
        .append(" of ")
        .append(sel.unmatchedOf())
        .append(" requested ")
        .append(sel.unmatchedWhat())
        .append(" match no row of this Evidence: ");
    // Names, keys and type labels are quoted (they may hold commas); indices are numbers.
    boolean numbers = sel.unmatchedWhat().equals("indices");
    for (int i = 0; i < Math.min(5, missing.size()); i++) {
      if (i > 0) {
        m.append(", ");
      }
      String s = missing.get(i);
      String shown = s.length() > 64 ? s.substring(0, 64) + "..." : s;
      m.append(numbers ? shown : '"' + shown + '"');
    }
    if (missing.size() > 5) {
      m.append(", ...");
    }
    return new Warning("unmatched_selection", m.toString());
  }

  private static Warning rowOmittedWarning(
      IndexedEvidence ev, ViewCollection c, int index, int bytes) {
    return new Warning(
        "row_omitted",
        c.wire()
            + " row "
            + index
            + " needs "
            + bytes
            + " bytes, more than a page of "
            + PAGE_BUDGET_BYTES
            + " bytes; fields over "
            + STUB_FIELD_BYTES
            + " bytes are listed in omitted_fields and are complete in the parent Evidence "
            + ev.evidenceId());
  }

  /** @return one warning object as compact JSON */
  static byte[] warning(Warning w) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(128);
    try (JsonGenerator g = EvidenceJson.generator(out)) {
      EvidenceJson.writeWarning(g, w);
    }
    return out.toByteArray();
  }

  /** Writes a string property, or null. */
  static void nullable(JsonGenerator g, String name, @Nullable String v) {
    if (v == null) {
      g.writeNullProperty(name);
    } else {
      g.writeStringProperty(name, v);
    }
  }

  static @Nullable String omission(IndexedEvidence ev, ViewCollection c, int i) {
    if (c == ViewCollection.METADATA && ev.metadataPreviewIncomplete(i)) {
      return ev.record().metadata().get(i).key();
    }
    return null;
  }

  private static boolean undeterminedLabel(String label) {
    return label.startsWith("AMBIGUOUS_") || label.startsWith("UNKNOWN_");
  }

  static byte @Nullable [] unknown(IndexedEvidence ev, ViewCollection c, int i) {
    List<String> fields = new ArrayList<>(3);
    List<String> codes;
    if (c == ViewCollection.TENSORS) {
      TensorRow t = ev.record().tensors().get(i);
      if (undeterminedLabel(t.type())) {
        fields.add("type");
      }
      if (t.byteLength() == null) {
        fields.add("byte_length");
      }
      if (t.storageValidation() == StorageValidation.UNKNOWN) {
        fields.add("storage_validation");
      }
      codes = fields.isEmpty() ? List.of() : ev.limitationCodesForTensor(i);
    } else if (c == ViewCollection.TYPES) {
      TypeRow t = ev.record().types().get(i);
      if (undeterminedLabel(t.type())) {
        fields.add("type");
      }
      if (t.byteLength() == null) {
        fields.add("byte_length");
      }
      codes = fields.isEmpty() ? List.of() : ev.limitationCodesForType(i);
    } else {
      return null;
    }
    if (fields.isEmpty()) {
      return null;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(96);
    try (JsonGenerator g = EvidenceJson.generator(out)) {
      g.writeStartObject();
      g.writeNumberProperty("index", i);
      g.writeName("fields");
      g.writeStartArray();
      for (String f : fields) {
        g.writeString(f);
      }
      g.writeEndArray();
      g.writeName("limitations");
      g.writeStartArray();
      for (String code : codes) {
        g.writeString(code);
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    return out.toByteArray();
  }

  /** Renders row {@code i} with the fields {@code include} accepts ({@code index} always). */
  static byte[] row(IndexedEvidence ev, ViewCollection c, int i, Predicate<String> include) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator g = EvidenceJson.generator(out)) {
      g.writeStartObject();
      g.writeNumberProperty("index", i);
      switch (c) {
        case TENSORS:
          tensorFields(g, ev.record().tensors().get(i), include);
          break;
        case METADATA:
          metadataFields(g, ev.record().metadata().get(i), include);
          break;
        default:
          typeFields(g, ev.record().types().get(i), include);
          break;
      }
      g.writeEndObject();
    }
    return out.toByteArray();
  }

  static byte[] stub(IndexedEvidence ev, ViewRequest view, int i, int room) {
    int bare = row(ev, view.collection(), i, f -> false).length;
    List<String> kept = new ArrayList<>();
    List<String> dropped = new ArrayList<>();
    int used = bare + 64; // room for the omitted_fields property itself
    for (String f : view.collection().fields()) {
      if (f.equals("index") || !view.selects(f)) {
        continue;
      }
      int cost = row(ev, view.collection(), i, x -> x.equals(f)).length - bare;
      if (cost <= 0) {
        continue; // the field does not exist on this row (e.g. value on an array row)
      }
      if (cost <= STUB_FIELD_BYTES && used + cost + f.length() + 4 <= room) {
        kept.add(f);
        used += cost;
      } else {
        dropped.add(f);
        used += f.length() + 4;
      }
    }
    byte[] partial = row(ev, view.collection(), i, kept::contains);
    ByteArrayOutputStream names = new ByteArrayOutputStream(64);
    try (JsonGenerator g = EvidenceJson.generator(names)) {
      g.writeStartArray();
      for (String f : dropped) {
        g.writeString(f);
      }
      g.writeEndArray();
    }
    // partial ends with '}': reopen it and append "omitted_fields".
    ByteArrayOutputStream out = new ByteArrayOutputStream(partial.length + names.size() + 24);
    out.write(partial, 0, partial.length - 1);
    byte[] mid = ",\"omitted_fields\":".getBytes(StandardCharsets.US_ASCII);
    out.write(mid, 0, mid.length);
    out.write(names.toByteArray(), 0, names.size());
    out.write('}');
    return out.toByteArray();
  }

  private static void tensorFields(JsonGenerator g, TensorRow t, Predicate<String> in) {
    if (in.test("name")) {
      g.writeStringProperty("name", t.name());
    }
    if (in.test("type")) {
      g.writeStringProperty("type", t.type());
    }
    if (in.test("type_id") && t.typeId() != null) {
      g.writeNumberProperty("type_id", t.typeId().longValue());
    }
    if (in.test("shape")) {
      g.writeName("shape");
      EvidenceJson.writeShape(g, t.shape());
    }
    if (in.test("parameter_count")) {
      g.writeStringProperty("parameter_count", Long.toUnsignedString(t.parameterCount()));
    }
    if (in.test("offset")) {
      g.writeStringProperty("offset", Long.toUnsignedString(t.offset()));
    }
    if (in.test("file_offset")) {
      if (t.fileOffset() == null) {
        g.writeNullProperty("file_offset");
      } else {
        g.writeStringProperty("file_offset", Long.toUnsignedString(t.fileOffset()));
      }
    }
    if (in.test("byte_length")) {
      nullable(g, "byte_length",
          t.byteLength() == null ? null : Long.toUnsignedString(t.byteLength()));
    }
    if (in.test("storage_validation")) {
      g.writeStringProperty("storage_validation", t.storageValidation().wire());
    }
  }

  private static void metadataFields(JsonGenerator g, MetadataRow row, Predicate<String> in) {
    if (in.test("key")) {
      g.writeStringProperty("key", row.key());
    }
    if (in.test("type")) {
      g.writeStringProperty("type", row.type().name());
    }
    if (row.value() instanceof MetadataValue.ArrayValue a) {
      if (in.test("element_type")) {
        g.writeStringProperty("element_type", a.elementType().name());
      }
      if (in.test("count")) {
        g.writeStringProperty("count", Long.toUnsignedString(a.count()));
      }
      if (in.test("preview")) {
        g.writeName("preview");
        g.writeStartArray();
        for (MetadataValue e : a.preview()) {
          if (e instanceof MetadataValue.ArrayValue nested) {
            g.writeStartObject();
            EvidenceJson.writeMetadataValueFields(g, ValueType.ARRAY, nested);
            g.writeEndObject();
          } else {
            EvidenceJson.writeScalar(g, a.elementType(), e);
          }
        }
        g.writeEndArray();
      }
      if (in.test("preview_complete")) {
        g.writeBooleanProperty("preview_complete", a.previewComplete());
      }
      if (in.test("value_sha256") && row.valueSha256() != null) {
        g.writeStringProperty("value_sha256", row.valueSha256());
      }
    } else if (in.test("value")) {
      g.writeName("value");
      EvidenceJson.writeScalar(g, row.type(), row.value());
    }
  }

  private static void typeFields(JsonGenerator g, TypeRow t, Predicate<String> in) {
    if (in.test("type")) {
      g.writeStringProperty("type", t.type());
    }
    if (in.test("type_id") && t.typeId() != null) {
      g.writeNumberProperty("type_id", t.typeId().longValue());
    }
    if (in.test("tensor_count")) {
      g.writeNumberProperty("tensor_count", t.tensorCount());
    }
    if (in.test("parameter_count")) {
      g.writeStringProperty("parameter_count", t.parameterCount().toString());
    }
    if (in.test("byte_length")) {
      nullable(g, "byte_length", t.byteLength() == null ? null : t.byteLength().toString());
    }
  }
}
