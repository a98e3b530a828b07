package dev.rea.core.internal.format.safetensors;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Optional;

/**
 * Locates safetensors test files: the shared corpus at {@code ../shared/corpus/safetensors}
 * relative to the repository root (the directory holding {@code mvnw}, found upwards from the
 * working directory), overridable with the system property {@code rea.corpus} or the environment
 * variable {@code REA_CORPUS} (the {@code corpus} directory), and the small subset committed
 * under {@code src/test/resources/safetensors/}. Reusable through the rea-core test-jar.
 */
public final class SafetensorsCorpus {
  /**
   * @return the line printed when the shared corpus is absent, naming where it was looked for:
   *     {@code REA_CORPUS} (or {@code rea.corpus}) when set, else {@code ../shared/corpus}
   */
  public static String skipped() {
    String override = System.getProperty("rea.corpus", System.getenv("REA_CORPUS"));
    return override != null && !override.isBlank()
        ? "skipped: the corpus " + override + " (REA_CORPUS) not found"
        : "skipped: ../shared/corpus not found";
  }

  private SafetensorsCorpus() {}

  /** @return the shared corpus's {@code safetensors} directory, when it exists */
  public static Optional<Path> sharedDirectory() {
    String override = System.getProperty("rea.corpus", System.getenv("REA_CORPUS"));
    if (override != null && !override.isBlank()) {
      Path p = Paths.get(override).toAbsolutePath().resolve("safetensors").normalize();
      return Files.isDirectory(p) ? Optional.of(p) : Optional.empty();
    }
    Path dir = Paths.get("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve("mvnw"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      return Optional.empty();
    }
    // The outermost directory with mvnw is the repository root (modules have none).
    Path up = dir.getParent();
    while (up != null && Files.exists(up.resolve("mvnw"))) {
      dir = up;
      up = dir.getParent();
    }
    Path p = dir.resolve("../shared/corpus/safetensors").normalize();
    return Files.isDirectory(p) ? Optional.of(p) : Optional.empty();
  }

  /** @return the committed copy of {@code name}, when there is one */
  public static Optional<Path> committed(String name) {
    URL url = SafetensorsCorpus.class.getResource("/safetensors/" + name);
    if (url == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Paths.get(url.toURI()));
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
