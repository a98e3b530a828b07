package dev.rea.core.internal.formats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.HashMode;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Writes a CycloneDX BOM in a JVM whose class path is rea-core's run-time class path alone (as
 * Maven resolves it, written by the build to {@code target/runtime-classpath.txt}), so that the
 * dependencies excluded from {@code cyclonedx-core-java} in the pom are shown not to be needed
 * by the writer. A missing class fails the child with {@code NoClassDefFoundError}.
 */
class FormatsRuntimeClasspathTest {
  @Test
  void aBomIsWrittenWithOnlyTheRunTimeClassPath() throws Exception {
    Path listed = Path.of("target/runtime-classpath.txt");
    Assumptions.assumeTrue(Files.isRegularFile(listed), "skipped: no " + listed + " (run by Maven)");
    String runtime = Files.readString(listed, StandardCharsets.UTF_8).trim();
    assertThat(runtime).contains("cyclonedx-core-java").doesNotContain("commons-lang3")
        .doesNotContain("json-schema-validator").doesNotContain("woodstox");
    String cp = String.join(File.pathSeparator,
        Path.of("target/classes").toAbsolutePath().toString(),
        runtime,
        Path.of("target/test-classes").toAbsolutePath().toString());
    Path model = FormatsTesting.resource("gguf/gguf-py-writer/gguf-py-le-v3.gguf");
    Process p = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", cp, Main.class.getName(), model.toString())
        .redirectErrorStream(true)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).startsWith("{\"bomFormat\":\"CycloneDX\",\"specVersion\":\"1.6\"")
        .contains("\"type\":\"machine-learning-model\"")
        .contains("\"name\":\"gguf-py-le-v3.gguf\"");
  }

  /** The child: inspects the file named by its argument and prints its BOM. */
  public static final class Main {
    public static void main(String[] args) throws Exception {
      EvidenceRecord r = ModelInspector.standard().inspect(Path.of(args[0]), HashMode.FULL);
      System.out.print(new String(CycloneDxBom.ofFiles(List.of(r), "0"), StandardCharsets.UTF_8));
    }
  }
}
