package dev.rea.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged job as a cluster runs it: {@code rea-spark.jar} on a Spark class path (Spark,
 * Hadoop, Scala and Jackson 2 as a Spark installation's jars/ holds them, without REA), in a
 * child JVM with Spark's JVM options, in local mode: what scripts/spark-scan does. Shows that the
 * jar carries REA and its jackson-core 3 and that they work beside Spark's Jackson 2.
 */
class ShadedJarIT {
  @TempDir Path dir;

  @Test
  void theShadedJarRunsTheJobOnSparksClassPath() throws Exception {
    Path jar = Path.of(System.getProperty("rea.spark.jar"));
    String classpath =
        Files.readString(Path.of(System.getProperty("rea.spark.classpath")), StandardCharsets.UTF_8)
            .trim();
    try (JarFile j = new JarFile(jar.toFile())) {
      assertThat(j.getEntry("dev/rea/spark/ScanJob.class")).isNotNull();
      assertThat(j.getEntry("dev/rea/core/Rea.class")).isNotNull();
      assertThat(j.getEntry("tools/jackson/core/json/JsonFactory.class")).isNotNull();
      assertThat(j.getEntry("com/fasterxml/jackson/core/JsonFactory.class")).isNull();
      assertThat(j.getEntry("org/apache/spark/SparkContext.class")).isNull();
    }
    assertThat(classpath).doesNotContain("rea-core").contains("spark-core_2.13");

    TestCorpus.Written corpus = TestCorpus.write(dir.resolve("corpus"));
    Path out = dir.resolve("out");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(Arrays.asList(System.getProperty("rea.spark.javaOptions").trim().split("\\s+")));
    command.addAll(
        List.of(
            "-Xmx512m",
            "-Dspark.master=local[1]",
            "-Dspark.ui.enabled=false",
            "-Dspark.driver.host=127.0.0.1",
            "-Dspark.driver.bindAddress=127.0.0.1",
            "-cp",
            jar + File.pathSeparator + classpath,
            "dev.rea.spark.ScanJob",
            dir.resolve("corpus").toString(),
            "--output",
            out.toString()));
    Path log = dir.resolve("job.log");
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertThat(p.waitFor(10, TimeUnit.MINUTES)).as("the job ends").isTrue();
    String text = Files.readString(log, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(text).isEqualTo(ScanJob.SOME_NOT_COMPLETE);
    assertThat(text)
        .contains(corpus.models().size() + " complete")
        .contains(corpus.broken().size() + " rejected")
        .doesNotContain("ClassNotFoundException")
        .doesNotContain("NoSuchMethodError");
    for (String table : List.of("files", "tensors", "metadata")) {
      try (var parts = Files.list(out.resolve(table))) {
        assertThat(parts.filter(f -> f.getFileName().toString().endsWith(".parquet")).count())
            .as(table)
            .isPositive();
      }
    }
  }
}
