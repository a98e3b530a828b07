package dev.rea.core.internal.formats;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.auth.EvidenceSigner;
import dev.rea.core.internal.auth.KeyRing;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.HashMode;
import dev.rea.core.testing.ScratchDirectories;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.Objects;

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
}
