package dev.rea.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.Rea;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.options.InspectOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Spark job in local mode on a generated corpus (CONTRACT section 10): one {@code files} row
 * per unit, agreeing with {@link Rea#inspect(Path, InspectOptions)} of the same file on status,
 * digests, sizes, counts and totals; as many {@code tensors} and {@code metadata} rows as the
 * Evidence has, with the same values; the Parquet tables written with {@code decimal(20,0)} for
 * unsigned 64-bit values.
 *
 * <p>Paths: the job names files by their Hadoop URI ({@code file:/tmp/x/a.gguf}), which is what
 * its Evidence records; {@code Rea.inspect(Path)} records the local path. Rows are matched by the
 * URI's path, and the Evidence compared field by field rather than by {@code evidence_id} (which
 * covers the path and the time of observation, so differs between any two inspections).
 */
class ScanJobTest {
  @TempDir static Path root;
  private static SparkSession spark;
  private static TestCorpus.Written corpus;
  private static ScanTables tables;
  private static final Rea REA = Rea.standard();

  @BeforeAll
  static void start() throws Exception {
    corpus = TestCorpus.write(root.resolve("corpus"));
    spark = LocalSpark.start("ScanJobTest");
    tables =
        ReaScan.scan(
            spark,
            List.of(root.resolve("corpus").toString()),
            ScanOptions.defaults().withListSkipped(true).withFilesPerTask(3));
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  @Test
  void everyFileIsOneRowAndLinksAreNotFollowed() {
    Map<Path, Row> rows = byLocalPath(tables.files());
    List<Path> expected = new ArrayList<>();
    expected.addAll(corpus.models());
    expected.addAll(corpus.broken());
    expected.addAll(corpus.notModels());
    expected.addAll(corpus.links());
    assertThat(rows.keySet()).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(tables.files().count()).isEqualTo(expected.size());
    for (Path link : corpus.links()) {
      Row r = rows.get(link);
      assertThat(r.<String>getAs("status")).isEqualTo("skipped");
      assertThat(r.<String>getAs("error_constraint")).isEqualTo("not_regular_file");
    }
    for (Path other : corpus.notModels()) {
      assertThat(rows.get(other).<String>getAs("status")).as(other.toString()).isEqualTo("skipped");
      assertThat(rows.get(other).<String>getAs("error_constraint")).isEqualTo("unsupported_format");
    }
  }

  @Test
  void modelRowsAgreeWithReaInspect() {
    Map<Path, Row> rows = byLocalPath(tables.files());
    List<Path> inspected = new ArrayList<>(corpus.models());
    inspected.addAll(corpus.broken());
    int complete = 0;
    for (Path file : inspected) {
      Row row = rows.get(file);
      Inspection local = REA.inspect(file, InspectOptions.defaults());
      if (local instanceof Inspection.Complete c) {
        complete++;
        assertAgrees(row, c.record());
      } else {
        ReaException e = local.failure().orElseThrow();
        assertThat(row.<String>getAs("status")).as(file.toString()).isEqualTo("rejected");
        assertThat(row.<String>getAs("error_constraint")).isEqualTo(e.constraint().wireName());
        assertThat(row.<String>getAs("error_code")).isEqualTo(e.code().wireName());
        assertThat(row.<String>getAs("error_field")).isEqualTo(e.field());
        assertThat(row.<BigDecimal>getAs("error_offset"))
            .isEqualTo(e.offset() == null ? null : BigDecimal.valueOf(e.offset()));
        assertThat(row.<String>getAs("evidence_id")).isNull();
      }
    }
    assertThat(complete).isEqualTo(corpus.models().size());
  }

  @Test
  void tensorAndMetadataRowsAreTheEvidencesRows() {
    Map<Path, List<Row>> tensors = groupByLocalPath(tables.tensors());
    Map<Path, List<Row>> metadata = groupByLocalPath(tables.metadata());
    for (Path file : corpus.models()) {
      Inspection local = REA.inspect(file, InspectOptions.defaults());
      assertThat(local).as(file.toString()).isInstanceOf(Inspection.Complete.class);
      EvidenceRecord record = ((Inspection.Complete) local).record();
      List<Row> t = sortedByIndex(tensors.getOrDefault(file, List.of()));
      assertThat(t).hasSize(record.tensors().size());
      for (int i = 0; i < t.size(); i++) {
        assertTensor(t.get(i), record.tensors().get(i));
      }
      List<Row> m = sortedByIndex(metadata.getOrDefault(file, List.of()));
      assertThat(m).hasSize(record.metadata().size());
      for (int i = 0; i < m.size(); i++) {
        MetadataRow expected = record.metadata().get(i);
        assertThat(m.get(i).<String>getAs("key")).isEqualTo(expected.key());
        assertThat(m.get(i).<String>getAs("type")).isEqualTo(expected.type().name());
        assertThat(m.get(i).<String>getAs("value")).isEqualTo(Rea.metadataValueJson(expected));
      }
    }
    // A UINT64 value is a decimal string in JSON (CONTRACT section 2): 2^64 - 1 here.
    Row parameterCount =
        metadata.get(corpus.models().get(0)).stream()
            .filter(r -> r.<String>getAs("key").equals("general.parameter_count"))
            .findFirst()
            .orElseThrow();
    assertThat(parameterCount.<String>getAs("value")).isEqualTo("\"18446744073709551615\"");
  }

  @Test
  void theJobWritesThreeParquetTables() {
    Path out = root.resolve("out");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status =
        ScanJob.run(
            spark,
            ScanJob.Arguments.parse(
                new String[] {root.resolve("corpus").toString(), "--output", out.toString()}),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    // The broken files are rejected units: exit status 1, as rea scan's.
    assertThat(status).isEqualTo(ScanJob.SOME_NOT_COMPLETE);
    Dataset<Row> files = spark.read().parquet(out.resolve("files").toString());
    Dataset<Row> tensors = spark.read().parquet(out.resolve("tensors").toString());
    Dataset<Row> metadata = spark.read().parquet(out.resolve("metadata").toString());
    assertThat(files.count()).isEqualTo(corpus.models().size() + corpus.broken().size());
    assertThat(tensors.count()).isEqualTo(tables.tensors().count());
    assertThat(metadata.count()).isEqualTo(tables.metadata().count());
    assertSameTypes(files.schema(), ScanSchema.FILES);
    assertSameTypes(tensors.schema(), ScanSchema.TENSORS);
    assertSameTypes(metadata.schema(), ScanSchema.METADATA);
    assertThat(files.schema().apply("file_size").dataType().simpleString())
        .isEqualTo("decimal(20,0)");
    String line = err.toString(StandardCharsets.UTF_8);
    int files0 = corpus.models().size() + corpus.broken().size() + corpus.notModels().size()
        + corpus.links().size();
    assertThat(line)
        .contains("rea-spark: " + files0 + " units: " + corpus.models().size() + " complete")
        .containsPattern(" s \\([0-9]+\\.[0-9] units/s\\)")
        .contains(corpus.broken().size() + " rejected")
        .contains((corpus.notModels().size() + corpus.links().size()) + " skipped");
    assertThat(out.resolve(ScanTables.STAGING)).as("the staging copy is removed").doesNotExist();

    ByteArrayOutputStream again = new ByteArrayOutputStream();
    int refused =
        ScanJob.run(
            spark,
            ScanJob.Arguments.parse(
                new String[] {root.resolve("corpus").toString(), "--output", out.toString()}),
            new PrintStream(again, true, StandardCharsets.UTF_8));
    assertThat(refused).isEqualTo(ScanJob.JOB_FAILED);
    assertThat(again.toString(StandardCharsets.UTF_8)).contains("already exists");
  }

  @Test
  void inspectTakesPathsAndMakesEveryFailureARow() throws Exception {
    spark.sparkContext().hadoopConfiguration().set("fs.changing.impl", ChangingFileSystem.class.getName());
    Path model = corpus.models().get(0);
    Path changes = java.nio.file.Files.copy(model, root.resolve("corpus-changes.gguf"));
    List<String> paths =
        List.of(
            "changing://" + changes,
            "changing://" + model,
            root.resolve("no-such-file.gguf").toString(),
            root.resolve("corpus").toString());
    ScanTables t = ReaScan.inspect(spark.createDataset(paths, Encoders.STRING()), ScanOptions.defaults());
    Map<String, Row> rows = new HashMap<>();
    for (Row r : t.files().collectAsList()) {
      rows.put(r.getAs("path"), r);
    }
    assertThat(rows).hasSize(4);
    Row changed = rows.get("changing:" + changes);
    assertThat(changed.<String>getAs("status")).isEqualTo("failed");
    assertThat(changed.<String>getAs("error_constraint")).isEqualTo("target_changed");
    assertThat(changed.<String>getAs("error_code")).isEqualTo("execution_failure");
    assertThat(changed.<String>getAs("evidence_id")).isNull();
    Row same = rows.get("changing:" + model);
    assertThat(same.<String>getAs("status")).isEqualTo("complete");
    Row missing = rows.get("file:" + root.resolve("no-such-file.gguf"));
    assertThat(missing.<String>getAs("status")).isEqualTo("failed");
    assertThat(missing.<String>getAs("error_constraint")).isEqualTo("not_found");
    Row directory = rows.get("file:" + root.resolve("corpus"));
    assertThat(directory.<String>getAs("status")).isEqualTo("failed");
    assertThat(directory.<String>getAs("error_constraint")).isEqualTo("not_regular_file");
    assertThat(t.tensors().count()).isEqualTo(same.<Integer>getAs("tensor_count").longValue());
  }

  private static void assertAgrees(Row row, EvidenceRecord r) {
    String at = r.artifact().path();
    assertThat(row.<String>getAs("status")).as(at).isEqualTo("complete");
    assertThat(row.<String>getAs("kind")).isEqualTo("file");
    assertThat(row.<String>getAs("schema")).isEqualTo("rea.scan.v1");
    assertThat(row.<String>getAs("format")).isEqualTo(r.artifact().format());
    assertThat(row.<String>getAs("header_sha256")).as(at).isEqualTo(r.artifact().headerSha256());
    assertThat(row.<String>getAs("sha256")).isNull();
    assertThat(row.<BigDecimal>getAs("file_size")).isEqualTo(BigDecimal.valueOf(r.artifact().fileSize()));
    assertThat(row.<BigDecimal>getAs("header_length"))
        .isEqualTo(BigDecimal.valueOf(r.artifact().headerLength()));
    assertThat(row.<BigDecimal>getAs("bytes_read"))
        .as("only the header is read")
        .isEqualTo(BigDecimal.valueOf(r.artifact().bytesRead()));
    assertThat(row.<BigDecimal>getAs("identity_size"))
        .isEqualTo(BigDecimal.valueOf(r.artifact().identity().size()));
    assertThat(row.<Integer>getAs("metadata_count")).isEqualTo(r.metadata().size());
    assertThat(row.<Integer>getAs("tensor_count")).isEqualTo(r.tensors().size());
    assertThat(row.<Integer>getAs("type_count")).isEqualTo(r.types().size());
    assertThat(row.<Long>getAs("total_tensor_count")).isEqualTo((long) r.totals().tensorCount());
    assertThat(row.<BigDecimal>getAs("total_parameter_count"))
        .isEqualTo(new BigDecimal(r.totals().parameterCount()));
    assertThat(row.<BigDecimal>getAs("total_byte_length"))
        .isEqualTo(r.totals().byteLength() == null ? null : new BigDecimal(r.totals().byteLength()));
    assertThat(row.<Integer>getAs("warning_count")).isEqualTo(r.warnings().size());
    assertThat(row.<Integer>getAs("limitation_count")).isEqualTo(r.limitations().size());
    assertThat(row.<String>getAs("evidence_id")).startsWith("sha256:");
    assertThat(row.<String>getAs("summary"))
        .contains("\"kind\":\"model-artifact-summary\"")
        .contains("\"header_sha256\":\"" + r.artifact().headerSha256() + "\"");
    assertThat(row.<String>getAs("error_code")).isNull();
  }

  private static void assertTensor(Row row, TensorRow t) {
    assertThat(row.<Integer>getAs("index")).isEqualTo(t.index());
    assertThat(row.<String>getAs("name")).isEqualTo(t.name());
    assertThat(row.<String>getAs("type")).isEqualTo(t.type());
    assertThat(row.<Long>getAs("type_id")).isEqualTo(t.typeId());
    List<BigDecimal> shape = row.getList(row.fieldIndex("shape"));
    assertThat(shape).isEqualTo(t.shape().stream().map(BigDecimal::valueOf).toList());
    assertThat(row.<BigDecimal>getAs("parameter_count")).isEqualTo(BigDecimal.valueOf(t.parameterCount()));
    assertThat(row.<BigDecimal>getAs("offset")).isEqualTo(BigDecimal.valueOf(t.offset()));
    assertThat(row.<BigDecimal>getAs("file_offset"))
        .isEqualTo(t.fileOffset() == null ? null : BigDecimal.valueOf(t.fileOffset()));
    assertThat(row.<BigDecimal>getAs("byte_length"))
        .isEqualTo(t.byteLength() == null ? null : BigDecimal.valueOf(t.byteLength()));
    assertThat(row.<String>getAs("storage_validation")).isEqualTo(t.storageValidation().wire());
  }

  private static void assertSameTypes(StructType actual, StructType expected) {
    assertThat(actual.fieldNames()).containsExactly(expected.fieldNames());
    for (String name : expected.fieldNames()) {
      // Parquet does not keep "array elements are never null": compared without nullability.
      assertThat(actual.apply(name).dataType().simpleString())
          .as(name)
          .isEqualTo(expected.apply(name).dataType().simpleString());
    }
  }

  private static Map<Path, Row> byLocalPath(Dataset<Row> table) {
    Map<Path, Row> out = new HashMap<>();
    for (Row r : table.collectAsList()) {
      assertThat(out.put(localPath(r.getAs("path")), r)).as("one row per path").isNull();
    }
    return out;
  }

  private static Map<Path, List<Row>> groupByLocalPath(Dataset<Row> table) {
    return table.collectAsList().stream()
        .collect(Collectors.groupingBy(r -> localPath(r.getAs("path"))));
  }

  private static List<Row> sortedByIndex(List<Row> rows) {
    List<Row> out = new ArrayList<>(rows);
    out.sort((a, b) -> Integer.compare(a.<Integer>getAs("index"), b.<Integer>getAs("index")));
    return out;
  }

  /** {@code file:/tmp/x/a.gguf} as the local path {@code /tmp/x/a.gguf}. */
  static Path localPath(String hadoopPath) {
    URI uri = new org.apache.hadoop.fs.Path(hadoopPath).toUri();
    assertThat(uri.getScheme()).isEqualTo("file");
    return Path.of(uri.getPath());
  }
}
