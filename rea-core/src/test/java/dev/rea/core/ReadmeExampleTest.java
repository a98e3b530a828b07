package dev.rea.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "Using it as a Java library" example, compiled from the README's own text against
 * rea-core's classes and its dependencies, then run in a separate JVM on the shipped sample and
 * on a file REA refuses. A change to the public API that breaks the example fails here.
 */
class ReadmeExampleTest {
  @TempDir Path dir;

  @Test
  void theLibraryExampleCompilesAndRunsAsWritten() throws Exception {
    Path source = dir.resolve("InspectOne.java");
    Files.writeString(source, example(), StandardCharsets.UTF_8);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int compiled =
        javac.run(
            null,
            diagnostics,
            diagnostics,
            "--release",
            "17",
            "-cp",
            System.getProperty("java.class.path"),
            "-d",
            dir.toString(),
            source.toString());
    assertThat(compiled).as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();

    Run sample = run(repository().resolve("samples/sample-mixed.gguf"));
    assertThat(sample.exit()).as(sample.output()).isZero();
    assertThat(sample.output())
        .startsWith("gguf, 12 tensors, ")
        .contains("  F32: ")
        .contains("\"kind\":\"model-artifact-summary\"");

    Path notAModel = Files.writeString(dir.resolve("notes.txt"), "hello, not a model\n");
    Run refused = run(notAModel);
    assertThat(refused.exit()).as(refused.output()).isEqualTo(3);
    assertThat(refused.output()).startsWith("unsupported_format: ");
  }

  private record Run(int exit, String output) {}

  private Run run(Path model) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(dir + java.io.File.pathSeparator + System.getProperty("java.class.path"));
    cmd.add("InspectOne");
    cmd.add(model.toString());
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().put("REA_HOME", dir.resolve("home").toString());
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("the example did not finish: " + out);
    }
    return new Run(p.exitValue(), out);
  }

  /** The first {@code java} block after the README's library heading. */
  private static String example() throws IOException {
    String readme = Files.readString(repository().resolve("README.md"), StandardCharsets.UTF_8);
    int section = readme.indexOf("## Using it as a Java library");
    assertThat(section).as("README has the library section").isNotNegative();
    Matcher m = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(readme);
    assertThat(m.find(section)).as("a java block in the library section").isTrue();
    return m.group(1);
  }

  private static Path repository() {
    Path here = Paths.get("").toAbsolutePath();
    return Files.exists(here.resolve("README.md")) ? here : here.getParent();
  }
}
