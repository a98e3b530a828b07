package dev.rea.core.testing;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a class's {@code main} in a child JVM with this JVM's class path: for tests of what is
 * fixed when a JVM starts (its heap, system properties read once).
 */
public final class ChildJvm {
  private ChildJvm() {}

  /**
   * What the child did.
   *
   * @param exit its exit status
   * @param output its standard output and standard error, interleaved, trimmed
   */
  public record Result(int exit, String output) {}

  /**
   * @param jvmOptions options before the class name ({@code -Xmx...}, {@code -D...})
   * @param main the class whose {@code main} runs
   * @param timeoutSeconds how long to wait before the child is killed and the test fails
   * @param args the program's arguments
   * @return the exit status and output
   * @throws AssertionError when the child does not finish in time
   */
  public static Result run(
      List<String> jvmOptions, Class<?> main, long timeoutSeconds, String... args)
      throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(main.getName());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("child JVM timed out: " + out);
    }
    return new Result(p.exitValue(), out);
  }
}
