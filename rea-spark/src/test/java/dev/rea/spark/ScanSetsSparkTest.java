package dev.rea.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.cli.ReaMain;
import dev.rea.core.Rea;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.SetInspection;
import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.testing.SetFixtures;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Model sets in the Spark job (CONTRACT sections 9 and 10), in local mode over a small generated
 * tree (a sharded safetensors checkpoint, a GGUF split set, a checkpoint missing a shard, a split
 * set whose {@code split.tensors.count} disagrees, and loose models beside them and alone): each
 * set is one {@code files} row of kind {@code set} whose {@code tensors} and {@code metadata} rows
 * are the set Evidence's; no member is a row of its own; and the job agrees with {@code rea scan}
 * over the same tree, unit for unit, on kind, status, error, digests and totals.
 */
class ScanSetsSparkTest {
  @TempDir static Path root;
  private static SparkSession spark;
  private static ScanTables tables;
  private static final List<Path> SETS = new ArrayList<>();
  private static final List<Path> MEMBERS = new ArrayList<>();
  private static final List<Path> LOOSE = new ArrayList<>();
  private static final ObjectMapper JSON = new ObjectMapper();

  @BeforeAll
  static void start() throws Exception {
    Path tree = root.resolve("tree");
    SetFixtures.Checkpoint st = SetFixtures.checkpoint(tree.resolve("st"), 3, 2);
    SETS.add(st.index);
    MEMBERS.addAll(st.shards);
    List<Path> split = SetFixtures.ggufSplit(tree.resolve("gg"), "llm", 3, 1, 2);
    SETS.add(split.get(0));
    MEMBERS.addAll(split);
    SetFixtures.Checkpoint cut = SetFixtures.checkpoint(tree.resolve("cut"), 2, 1);
    Files.delete(cut.shards.get(1));
    SETS.add(cut.index);
    MEMBERS.add(cut.shards.get(0));
    List<Path> bad =
        SetFixtures.ggufSplit(
            tree.resolve("gg"), "bad", 2, 1, 1,
            (no, kvs) -> {
              if (no == 2) {
                kvs.put("split.tensors.count", GgufBuilder.i32(5));
              }
            },
            (no, b) -> {});
    SETS.add(bad.get(0));
    MEMBERS.addAll(bad);
    // A split set whose first member is missing is read through a member that is there.
    List<Path> headless = SetFixtures.ggufSplit(tree.resolve("headless"), "hl", 3, 1, 1);
    Files.delete(headless.get(0));
    SETS.add(headless.get(0));
    MEMBERS.addAll(headless.subList(1, 3));
    // A file of any name beside an index that cannot be read carries the index's failure.
    Path broken = Files.createDirectories(tree.resolve("broken"));
    SETS.add(Files.writeString(broken.resolve("model.safetensors.index.json"),
        "{\"weight_map\":{\"a\":\"model.safetensors\",\"a\":\"x\"}}"));
    SETS.add(Files.write(broken.resolve("model.safetensors"), TestCorpus.safetensors(3)));
    hubCache(tree.resolve("hub").resolve("models--org--tiny"));
    // A shard without its index is a set of one, with the set's warning (as rea scan reads it).
    SetFixtures.Checkpoint lone = SetFixtures.checkpoint(tree.resolve("lone"), 2, 1);
    Files.delete(lone.index);
    Files.delete(lone.shards.get(1));
    SETS.add(lone.shards.get(0));
    MEMBERS.add(lone.shards.get(0));
    // A split member under another name is a set of one too, with its own warning.
    Path renamed = Files.copy(split.get(1),
        Files.createDirectories(tree.resolve("renamed")).resolve("model.gguf"));
    SETS.add(renamed);
    MEMBERS.add(renamed);
    LOOSE.add(Files.write(st.dir.resolve("loose.gguf"), TestCorpus.llamaLike(1).bytes()));
    LOOSE.add(Files.write(tree.resolve("gg").resolve("adapter.safetensors"), TestCorpus.safetensors(2)));
    Path singles = Files.createDirectories(tree.resolve("singles"));
    for (int i = 0; i < 8; i++) {
      LOOSE.add(
          Files.write(
              singles.resolve("m-" + i + (i % 2 == 0 ? ".gguf" : ".safetensors")),
              i % 2 == 0 ? TestCorpus.llamaLike(i).bytes() : TestCorpus.safetensors(i)));
    }
    spark = LocalSpark.start("ScanSetsSparkTest");
    tables = ReaScan.scan(spark, List.of(tree.toString()), ScanOptions.defaults().withFilesPerTask(4));
  }

  /**
   * A Hugging Face cache repository: a checkpoint and a GGUF file as hash-named blobs, linked from
   * a snapshot by their names, and a snapshot link that leads out of the repository. The job reads
   * the checkpoint once, as a set under the snapshot's names, the GGUF file under its link's
   * name, and neither the blobs nor the link that leads out (as rea scan does).
   */
  private static void hubCache(Path repo) throws Exception {
    Path blobs = Files.createDirectories(repo.resolve("blobs"));
    Path snapshot = Files.createDirectories(repo.resolve("snapshots").resolve("rev1"));
    SetFixtures.Checkpoint ckpt = SetFixtures.checkpoint(root.resolve("staging"), 2, 2);
    List<Path> files = new ArrayList<>(ckpt.shards);
    files.add(ckpt.index);
    files.add(Files.write(ckpt.dir.resolve("tiny.gguf"), TestCorpus.llamaLike(3).bytes()));
    int n = 0;
    for (Path f : files) {
      Path blob = Files.move(f, blobs.resolve("b" + n++ + "0f3e9a"));
      Path link = snapshot.resolve(f.getFileName().toString());
      Files.createSymbolicLink(link, Path.of("../../blobs").resolve(blob.getFileName()));
      if (f.equals(ckpt.index)) {
        SETS.add(link);
      } else if (f.getFileName().toString().endsWith(".gguf")) {
        LOOSE.add(link);
      } else {
        MEMBERS.add(link);
      }
    }
    Path outside = Files.write(root.resolve("outside.gguf"), TestCorpus.llamaLike(4).bytes());
    Files.createSymbolicLink(snapshot.resolve("elsewhere.gguf"), outside);
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  private static Map<String, Row> filesByLocalPath() {
    Map<String, Row> m = new HashMap<>();
    for (Row r : tables.files().collectAsList()) {
      String path = Path.of(URI.create(r.<String>getAs("path"))).toString();
      assertThat(m.put(path, r)).as("one row per unit: " + path).isNull();
    }
    return m;
  }

  @Test
  void eachSetIsOneRowWhoseTensorAndMetadataRowsAreTheSetEvidences() {
    Map<String, Row> rows = filesByLocalPath();
    List<String> expected = new ArrayList<>();
    SETS.forEach(p -> expected.add(p.toString()));
    LOOSE.forEach(p -> expected.add(p.toString()));
    assertThat(rows.keySet()).containsExactlyInAnyOrderElementsOf(expected);
    for (Path m : MEMBERS) {
      if (!SETS.contains(m)) {
        assertThat(rows).doesNotContainKey(m.toString());
      }
    }
    Map<String, Integer> tensors = countByLocalPath(tables.tensors().collectAsList());
    Map<String, Integer> metadata = countByLocalPath(tables.metadata().collectAsList());
    Rea rea = Rea.standard();
    List<Row> tensorRows = tables.tensors().collectAsList();
    List<Row> metadataRows = tables.metadata().collectAsList();
    int complete = 0;
    for (Path set : SETS) {
      Row row = rows.get(set.toString());
      assertThat(row.<String>getAs("kind")).isEqualTo("set");
      SetInspection local = rea.inspectSet(set, InspectOptions.defaults());
      if (!(local instanceof SetInspection.Complete c)) {
        assertThat(row.<String>getAs("error_constraint"))
            .isEqualTo(local.failure().orElseThrow().constraint().wireName());
        assertThat(row.<String>getAs("evidence_id")).isNull();
        continue;
      }
      complete++;
      assertThat(row.<String>getAs("status")).isEqualTo("complete");
      int t = 0;
      int md = 0;
      int rowsT = 0;
      int rowsM = 0;
      // The row's tensors and metadata rows are every member's own, named by the member's path.
      Map<String, String> memberIds = new HashMap<>();
      for (Row tr : tensorRows) {
        memberIds.put(Path.of(URI.create(tr.<String>getAs("path"))).toString(), tr.getAs("evidence_id"));
      }
      for (EvidenceRecord r : c.members()) {
        String member = r.artifact().path();
        assertThat(memberIds.get(member)).as(member).startsWith("sha256:");
        t += r.tensors().size();
        md += r.metadata().size();
        int tn = tensors.getOrDefault(member, 0);
        int mn = metadata.getOrDefault(member, 0);
        assertThat(tn).as(member).isEqualTo(r.tensors().size());
        assertThat(mn).as(member).isEqualTo(r.metadata().size());
        rowsT += tn;
        rowsM += mn;
      }
      assertThat(rowsT).isEqualTo(t).isPositive();
      assertThat(rowsM).isEqualTo(md).isPositive();
      assertThat(row.<Integer>getAs("tensor_count")).isEqualTo(t);
      assertThat(row.<Integer>getAs("metadata_count")).isEqualTo(md);
      // The set's rows join its files row on unit_path, each with its member's index.
      String unit = row.getAs("path");
      Map<Integer, Integer> perMember = new HashMap<>();
      for (Row tr : tensorRows) {
        if (unit.equals(tr.getAs("unit_path"))) {
          perMember.merge(tr.<Integer>getAs("member"), 1, Integer::sum);
        }
      }
      for (int k = 0; k < c.members().size(); k++) {
        assertThat(perMember.getOrDefault(k, 0)).as(unit + " member " + k)
            .isEqualTo(c.members().get(k).tensors().size());
      }
      assertThat(perMember.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(t);
      assertThat(metadataRows.stream().filter(m -> unit.equals(m.getAs("unit_path"))).count())
          .isEqualTo(md);
      assertThat(row.<Long>getAs("total_tensor_count")).isEqualTo((long) c.set().totals().tensorCount());
      assertThat(row.<BigDecimal>getAs("total_parameter_count"))
          .isEqualTo(new BigDecimal(c.set().totals().parameterCount()));
      assertThat(row.<Integer>getAs("type_count")).isEqualTo(c.set().types().size());
    }
    assertThat(complete).isEqualTo(5);
    // A file unit's rows: unit_path is the file's own path, member null.
    for (Path loose : LOOSE) {
      Row row = rows.get(loose.toString());
      String unit = row.getAs("path");
      List<Row> own = tensorRows.stream().filter(tr -> unit.equals(tr.getAs("unit_path"))).toList();
      assertThat(own).as(unit).hasSize(row.<Integer>getAs("tensor_count") == null
          ? 0 : row.<Integer>getAs("tensor_count"));
      for (Row tr : own) {
        assertThat(tr.<String>getAs("path")).isEqualTo(unit);
        assertThat(tr.<Integer>getAs("member")).isNull();
      }
    }
    Row lone = rows.get(SETS.get(SETS.size() - 2).toString());
    assertThat(lone.<String>getAs("summary")).contains("\"shard_without_index\"")
        .contains("\"single_file\"");
    Row renamed = rows.get(SETS.get(SETS.size() - 1).toString());
    assertThat(renamed.<String>getAs("summary")).contains("\"split_member_alone\"")
        .contains("\"single_file\"");
  }

  /** A Hugging Face cache's blobs/ and a snapshot link that leads out are skipped, named. */
  @Test
  void aHubCacheIsReadThroughItsSnapshotsAlone() {
    Path repo = root.resolve("tree").resolve("hub").resolve("models--org--tiny");
    Map<String, Row> units = new HashMap<>();
    for (Row r : tables.units().collectAsList()) {
      units.put(Path.of(URI.create(r.<String>getAs("path"))).toString(), r);
    }
    assertThat(units.keySet()).noneMatch(p -> p.startsWith(repo.resolve("blobs") + "/"));
    assertThat(tables.units().collectAsList())
        .extracting(r -> r.<String>getAs("path"))
        .contains(repo.resolve("blobs").toUri().toString().replaceAll("/$", "")
            .replace("file:///", "file:/"));
    Row blobs = units.get(repo.resolve("blobs").toString());
    assertThat(blobs.<String>getAs("status")).isEqualTo("skipped");
    assertThat(blobs.<String>getAs("error_constraint")).isEqualTo("not_regular_file");
    assertThat(blobs.<String>getAs("error_message")).contains("Hugging Face cache's blobs");
    Row out = units.get(repo.resolve("snapshots/rev1/elsewhere.gguf").toString());
    assertThat(out.<String>getAs("status")).isEqualTo("skipped");
    assertThat(out.<String>getAs("error_message")).contains("symbolic link");
    Row gguf = units.get(repo.resolve("snapshots/rev1/tiny.gguf").toString());
    assertThat(gguf.<String>getAs("status")).isEqualTo("complete");
  }

  /** @return rows per local path (the job names files by their Hadoop URI) */
  private static Map<String, Integer> countByLocalPath(List<Row> rows) {
    Map<String, Integer> m = new HashMap<>();
    for (Row r : rows) {
      m.merge(Path.of(URI.create(r.<String>getAs("path"))).toString(), 1, Integer::sum);
    }
    return m;
  }

  @Test
  void theJobAgreesWithReaScanUnitForUnit() throws Exception {
    Path home = Files.createDirectories(root.resolve("home"));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status =
        ReaMain.run(
            new String[] {"scan", root.resolve("tree").toString()},
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            Map.of("REA_HOME", home.toString()));
    assertThat(status).as(err.toString()).isEqualTo(1);
    Map<String, JsonNode> lines = new HashMap<>();
    for (String l : out.toString().split("\n")) {
      if (!l.isBlank()) {
        JsonNode n = JSON.readTree(l);
        lines.put(n.get("path").asString(), n);
      }
    }
    Map<String, Row> rows = filesByLocalPath();
    assertThat(rows.keySet()).containsExactlyInAnyOrderElementsOf(lines.keySet());
    int sets = 0;
    for (Map.Entry<String, JsonNode> e : lines.entrySet()) {
      JsonNode line = e.getValue();
      Row row = rows.get(e.getKey());
      String what = e.getKey();
      assertThat(row.<String>getAs("kind")).as(what).isEqualTo(line.get("kind").asString());
      assertThat(row.<String>getAs("status")).as(what).isEqualTo(line.get("status").asString());
      if (line.get("summary").isNull()) {
        assertThat(row.<String>getAs("error_constraint"))
            .as(what)
            .isEqualTo(line.get("error").get("constraint").asString());
        // The same words; the job names files by their Hadoop URI.
        assertThat(row.<String>getAs("error_message").replace("file:/", "/"))
            .as(what)
            .isEqualTo(line.get("error").get("message").asString());
        continue;
      }
      JsonNode said = line.get("summary");
      JsonNode spark = JSON.readTree(row.<String>getAs("summary"));
      assertThat(spark.get("totals")).as(what).isEqualTo(said.get("totals"));
      assertThat(spark.get("types")).as(what).isEqualTo(said.get("types"));
      assertThat(spark.get("counts")).as(what).isEqualTo(said.get("counts"));
      assertThat(spark.get("artifact").get("header_sha256"))
          .as(what)
          .isEqualTo(said.get("artifact").get("header_sha256"));
      assertThat(spark.get("artifact").get("file_size"))
          .as(what)
          .isEqualTo(said.get("artifact").get("file_size"));
      assertThat(row.<BigDecimal>getAs("total_byte_length"))
          .as(what)
          .isEqualTo(new BigDecimal(said.get("totals").get("byte_length").asString()));
      if (line.get("kind").asString().equals("set")) {
        sets++;
        // The set's digests: the index's SHA-256 (a checkpoint), and its kind and member count.
        JsonNode a = spark.get("set");
        JsonNode b = said.get("set");
        assertThat(a.get("kind")).isEqualTo(b.get("kind"));
        assertThat(a.get("member_count")).isEqualTo(b.get("member_count"));
        JsonNode ai = a.get("index");
        JsonNode bi = b.get("index");
        assertThat(ai.isNull() ? null : ai.get("sha256")).as(what).isEqualTo(bi.isNull() ? null : bi.get("sha256"));
      } else {
        assertThat(row.<String>getAs("header_sha256"))
            .as(what)
            .isEqualTo(said.get("artifact").get("header_sha256").asString());
      }
    }
    // The three complete sets (one read through a Hugging Face cache's snapshot), and the sets
    // of one of the lone shard and the renamed member.
    assertThat(sets).isEqualTo(5);
  }
}
