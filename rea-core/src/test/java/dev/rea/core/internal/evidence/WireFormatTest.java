package dev.rea.core.internal.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.Request;
import dev.rea.core.internal.evidence.WireFormat.ArtifactField;
import dev.rea.core.internal.evidence.WireFormat.AuthenticationField;
import dev.rea.core.internal.evidence.WireFormat.BundleField;
import dev.rea.core.internal.evidence.WireFormat.CoverageField;
import dev.rea.core.internal.evidence.WireFormat.Field;
import dev.rea.core.internal.evidence.WireFormat.GgufFactsField;
import dev.rea.core.internal.evidence.WireFormat.IdentityField;
import dev.rea.core.internal.evidence.WireFormat.LimitationField;
import dev.rea.core.internal.evidence.WireFormat.MetadataField;
import dev.rea.core.internal.evidence.WireFormat.MetadataShape;
import dev.rea.core.internal.evidence.WireFormat.RecordField;
import dev.rea.core.internal.evidence.WireFormat.RequestField;
import dev.rea.core.internal.evidence.WireFormat.SafetensorsFactsField;
import dev.rea.core.internal.evidence.WireFormat.SubjectField;
import dev.rea.core.internal.evidence.WireFormat.TensorField;
import dev.rea.core.internal.evidence.WireFormat.TotalsField;
import dev.rea.core.internal.evidence.WireFormat.TypeField;
import dev.rea.core.internal.evidence.WireFormat.WarningField;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Keeps {@link WireFormat} equal to what {@link EvidenceJson} writes. Every record of the committed
 * golden recordings (signed bundles and the partial Evidence of error objects, both hash modes,
 * GGUF and safetensors) is imported and written again by the writer, plus one record with {@code
 * request.assume_layout} (no golden file uses it); every JSON object of the output is classified
 * by where it sits (record, {@code artifact.identity}, a tensor row, a nested array...) and its
 * property names, kinds and order are compared with that object kind's table: each name written
 * is in the table, each name of the table is written somewhere, required ones in every object,
 * and never null unless the table says nullable.
 */
class WireFormatTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** Per table: the names seen, in first-seen order. */
  private static final Map<String, Set<String>> SEEN = new LinkedHashMap<>();

  private static final List<String> PROBLEMS = new ArrayList<>();

  @BeforeAll
  static void writeEveryGoldenRecord() throws Exception {
    List<EvidenceRecord> records = new ArrayList<>();
    try (Stream<Path> files = Files.list(goldenDirectory())) {
      for (Path p : files.sorted().toList()) {
        for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
          records.addAll(recordsOf(line));
        }
      }
    }
    assertThat(records.size()).as("records in the recordings").isGreaterThan(150);
    EvidenceRecord first = records.get(0);
    records.add(withAssumedLayout(first));
    for (EvidenceRecord r : records) {
      JsonNode bundle = JSON.readTree(EvidenceJson.bundleBytes(List.of(r)));
      visit(bundle, BundleField.values(), "bundle");
      JsonNode record = bundle.get(BundleField.RECORDS.json()).get(0);
      visitRecord(record);
    }
  }

  @Test
  void everyObjectTheWriterEmitsMatchesItsTable() {
    assertThat(PROBLEMS).isEmpty();
  }

  @Test
  void everyPropertyOfEveryTableIsWritten() {
    assertNamesSeen("bundle", BundleField.values());
    assertNamesSeen("record", RecordField.values());
    assertNamesSeen("request", RequestField.values());
    assertNamesSeen("subject", SubjectField.values());
    assertNamesSeen("artifact", ArtifactField.values());
    assertNamesSeen("identity", IdentityField.values());
    assertNamesSeen("gguf facts", GgufFactsField.values());
    assertNamesSeen("safetensors facts", SafetensorsFactsField.values());
    for (MetadataShape shape : MetadataShape.values()) {
      assertNamesSeen(shape.name(), MetadataField.fields(shape).toArray(new Field[0]));
    }
    assertNamesSeen("tensor", TensorField.values());
    assertNamesSeen("type", TypeField.values());
    assertNamesSeen("totals", TotalsField.values());
    assertNamesSeen("coverage", CoverageField.values());
    assertNamesSeen("limitation", LimitationField.values());
    assertNamesSeen("warning", WarningField.values());
    assertNamesSeen("authentication", AuthenticationField.values());
  }

  @Test
  void theTablesListEveryObjectKindOnce() {
    assertThat(WireFormat.TABLES).doesNotHaveDuplicates().hasSize(16);
    for (Class<? extends Field> table : WireFormat.TABLES) {
      List<String> names = WireFormat.names(table);
      assertThat(names).as(table.getSimpleName()).doesNotHaveDuplicates().isNotEmpty();
      for (String n : names) {
        assertThat(n).as(table.getSimpleName()).matches("[a-z][a-z0-9_]*");
      }
    }
    assertThat(WireFormat.field(TensorField.class, "byte_length"))
        .isEqualTo(TensorField.BYTE_LENGTH);
    assertThat(WireFormat.field(TensorField.class, "element_type")).isNull();
  }

  private static void assertNamesSeen(String kind, Field[] table) {
    assertThat(SEEN.getOrDefault(kind, Set.of()))
        .as("properties written in " + kind + " objects")
        .containsExactlyInAnyOrderElementsOf(WireFormat.names(List.of(table)));
  }

  private static void visitRecord(JsonNode record) {
    visit(record, RecordField.values(), "record");
    visit(record.get(RecordField.REQUEST.json()), RequestField.values(), "request");
    JsonNode subject = record.get(RecordField.SUBJECT.json());
    if (!subject.isNull()) {
      visit(subject, SubjectField.values(), "subject");
    }
    JsonNode artifact = record.get(RecordField.ARTIFACT.json());
    visit(artifact, ArtifactField.values(), "artifact");
    visit(artifact.get(ArtifactField.IDENTITY.json()), IdentityField.values(), "identity");
    JsonNode facts = record.get(RecordField.FORMAT_FACTS.json());
    if ("gguf".equals(artifact.get(ArtifactField.FORMAT.json()).asString())) {
      visit(facts, GgufFactsField.values(), "gguf facts");
    } else {
      visit(facts, SafetensorsFactsField.values(), "safetensors facts");
    }
    for (JsonNode row : record.get(RecordField.METADATA.json())) {
      boolean array = "ARRAY".equals(row.get(MetadataField.TYPE.json()).asString());
      MetadataShape shape = array ? MetadataShape.ARRAY_ROW : MetadataShape.SCALAR_ROW;
      visit(row, MetadataField.fields(shape).toArray(new Field[0]), shape.name());
      if (array) {
        visitNested(row);
      }
    }
    visitRows(record, RecordField.TENSORS, TensorField.values(), "tensor");
    visitRows(record, RecordField.TYPES, TypeField.values(), "type");
    visit(record.get(RecordField.TOTALS.json()), TotalsField.values(), "totals");
    visit(record.get(RecordField.COVERAGE.json()), CoverageField.values(), "coverage");
    visitRows(record, RecordField.LIMITATIONS, LimitationField.values(), "limitation");
    visitRows(record, RecordField.WARNINGS, WarningField.values(), "warning");
    JsonNode auth = record.get(RecordField.AUTHENTICATION.json());
    if (auth != null) {
      visit(auth, AuthenticationField.values(), "authentication");
    }
  }

  private static void visitNested(JsonNode array) {
    for (JsonNode e : array.get(MetadataField.PREVIEW.json())) {
      if (e.isObject()) {
        Field[] nested = MetadataField.fields(MetadataShape.NESTED_ARRAY).toArray(new Field[0]);
        visit(e, nested, MetadataShape.NESTED_ARRAY.name());
        visitNested(e);
      }
    }
  }

  private static void visitRows(JsonNode record, Field array, Field[] table, String kind) {
    for (JsonNode row : record.get(array.json())) {
      visit(row, table, kind);
    }
  }

  /** Compares one written object with its table, collecting what differs in PROBLEMS. */
  private static void visit(JsonNode object, Field[] table, String kind) {
    if (object == null || !object.isObject()) {
      PROBLEMS.add(kind + ": expected an object, found " + object);
      return;
    }
    Set<String> seen = SEEN.computeIfAbsent(kind, k -> new LinkedHashSet<>());
    int lastPosition = -1;
    for (String name : object.propertyNames()) {
      seen.add(name);
      int position = position(table, name);
      if (position < 0) {
        PROBLEMS.add(kind + ": written property " + name + " is not in the table");
        continue;
      }
      if (position < lastPosition) {
        PROBLEMS.add(kind + ": " + name + " is written out of the table's order");
      }
      lastPosition = position;
      Field f = table[position];
      JsonNode v = object.get(name);
      if (v.isNull()) {
        if (f.presence() != WireFormat.Presence.NULLABLE) {
          PROBLEMS.add(kind + ": " + name + " is null but not nullable");
        }
      } else if (!hasKind(v, f.kind())) {
        PROBLEMS.add(kind + ": " + name + " is " + v.getNodeType() + ", not " + f.kind());
      }
    }
    for (Field f : table) {
      if (f.presence().required() && !object.has(f.json())) {
        PROBLEMS.add(kind + ": required " + f.json() + " is not written");
      }
    }
  }

  private static int position(Field[] table, String name) {
    for (int i = 0; i < table.length; i++) {
      if (table[i].json().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  private static boolean hasKind(JsonNode v, WireFormat.Kind kind) {
    return switch (kind) {
      case STRING -> v.isString();
      case DECIMAL -> v.isString() && v.asString().matches("0|[1-9][0-9]*");
      case NUMBER -> v.isIntegralNumber();
      case BOOLEAN -> v.isBoolean();
      case OBJECT -> v.isObject();
      case ARRAY -> v.isArray();
      case TYPED -> v.isValueNode();
    };
  }

  /** The records of one recording line: a bundle's, or an error object's partial Evidence. */
  private static List<EvidenceRecord> recordsOf(String line) throws Exception {
    if (line.startsWith("{\"schema\":\"rea.bundle.v1\"")) {
      return imported(line.getBytes(StandardCharsets.UTF_8));
    }
    if (line.startsWith("{\"error\"")) {
      JsonNode partial = JSON.readTree(line).get("partial_evidence");
      if (partial != null) {
        return imported(JSON.writeValueAsBytes(partial));
      }
    }
    return List.of();
  }

  private static List<EvidenceRecord> imported(byte[] json) throws Exception {
    List<EvidenceRecord> out = new ArrayList<>();
    for (EvidenceImport.ImportedRecord r : EvidenceImport.standard().read(json).records()) {
      out.add(r.record());
    }
    return out;
  }

  private static EvidenceRecord withAssumedLayout(EvidenceRecord r) {
    Request q = new Request(r.request().path(), r.request().hash(), "ggml-modern");
    return new EvidenceRecord(r.schema(), r.evidenceId(), r.operation(), r.status(),
        r.observedAt(), q, r.subject(), r.artifact(), r.formatFacts(), r.metadata(), r.tensors(),
        r.types(), r.totals(), r.coverage(), r.limitations(), r.warnings(), r.authentication());
  }

  private static Path goldenDirectory() throws IOException {
    Path here = Paths.get("").toAbsolutePath();
    Path module = Files.isDirectory(here.resolve("src/test/resources/golden"))
        ? here : here.resolve("rea-core");
    return module.resolve("src/test/resources/golden/committed");
  }
}
