package dev.rea.core.internal.formats;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.auth.EvidenceSigner;
import dev.rea.core.internal.auth.KeyRing;
import dev.rea.core.internal.detect.DetectedFormat;
import dev.rea.core.internal.format.FormatReader;
import dev.rea.core.internal.format.gguf.GgufReader;
import dev.rea.core.internal.format.safetensors.SafetensorsCorpus;
import dev.rea.core.internal.format.safetensors.SafetensorsReader;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.Limits;
import dev.rea.core.testing.MemoryFileAccess;
import dev.rea.core.testing.ScratchDirectories;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/** Shared fixtures of the format tests: test resources, key rings and signed records. */
final class FormatsTesting {
  private FormatsTesting() {}

  /** @return the absolute path of a test resource, e.g. {@code gguf/handcrafted/ok-v3-le.gguf} */
  static Path resource(String name) {
    URL url = Objects.requireNonNull(FormatsTesting.class.getResource("/" + name), name);
    try {
      return Path.of(url.toURI()).toAbsolutePath();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** @return a new key ring with its own key pair, in a directory deleted when the JVM ends */
  static KeyRing newRing(String name) {
    try {
      return KeyRing.open(ScratchDirectories.createDeletedAtExit("rea-formats-" + name).resolve("rea"));
    } catch (ReaException e) {
      throw new IllegalStateException(e);
    }
  }

  /** @return the file's Evidence, inspected with {@code hash} and signed by {@code ring} */
  static EvidenceRecord signed(KeyRing ring, Path file, HashMode hash) throws ReaException {
    return new EvidenceSigner(ring).sign(ModelInspector.standard().inspect(file, hash));
  }

  /**
   * One model input of the golden test ({@code dev.rea.core.golden.GoldenEvidenceTest}): its name
   * (relative to its root) and file ({@code .gz} files hold the model compressed).
   */
  record Input(String name, Path file) {
    byte[] bytes() {
      try {
        if (file.toString().endsWith(".gz")) {
          try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            return in.readAllBytes();
          }
        }
        return Files.readAllBytes(file);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /**
   * @return the golden test's committed inputs: the model files under {@code gguf/} and {@code
   *     safetensors/} of the test resources and the two fuzz seed directories
   */
  static List<Input> committedInputs() throws IOException {
    Path resources = Objects.requireNonNull(resource("gguf").getParent());
    List<Input> inputs = new ArrayList<>();
    for (String sub :
        List.of(
            "gguf",
            "safetensors",
            "dev/rea/core/fuzz/GgufFuzzTestInputs",
            "dev/rea/core/fuzz/SafetensorsFuzzTestInputs")) {
      try (Stream<Path> files = Files.walk(resources.resolve(sub))) {
        for (Path p : files.filter(Files::isRegularFile).sorted().toList()) {
          String name = resources.relativize(p).toString();
          if (!name.endsWith(".md")) {
            inputs.add(new Input(name, p));
          }
        }
      }
    }
    return inputs;
  }

  /** @return every {@code .gguf} and {@code .safetensors} file of the shared corpus, if present */
  static Optional<List<Input>> corpusInputs() throws IOException {
    Optional<Path> corpus = SafetensorsCorpus.sharedDirectory().map(Path::getParent);
    if (corpus.isEmpty()) {
      return Optional.empty();
    }
    List<Input> inputs = new ArrayList<>();
    try (Stream<Path> files = Files.walk(corpus.get())) {
      for (Path p : files.filter(Files::isRegularFile).sorted().toList()) {
        String name = corpus.get().relativize(p).toString();
        if (name.endsWith(".gguf") || name.endsWith(".safetensors")) {
          inputs.add(new Input(name, p));
        }
      }
    }
    return Optional.of(inputs);
  }

  /**
   * Inspects bytes held in memory at {@code /models/NAME}, with a fixed clock, as the golden test
   * does.
   *
   * @throws ReaException when REA refuses the file
   */
  static EvidenceRecord inspectBytes(String name, byte[] bytes, HashMode hash)
      throws ReaException {
    Map<DetectedFormat, FormatReader> readers = new EnumMap<>(DetectedFormat.class);
    readers.put(DetectedFormat.GGUF, new GgufReader());
    readers.put(DetectedFormat.SAFETENSORS, new SafetensorsReader());
    Clock clock = Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC);
    return new ModelInspector(Limits.defaults(), new MemoryFileAccess(bytes), clock, readers)
        .inspect(Path.of("/models", name), hash);
  }
}
