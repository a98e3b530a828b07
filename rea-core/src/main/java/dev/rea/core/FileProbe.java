package dev.rea.core;

import dev.rea.core.internal.detect.DetectedFormat;
import dev.rea.core.internal.detect.FormatDetector;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * What a file's first bytes say it is, read without parsing it: a GGUF or safetensors model (by
 * content, never by name; CONTRACT section 8 "Detection is by content"), or something else. For
 * callers that must decide what to do with a file before inspecting it: a scan that skips
 * non-model files, a command that must not overwrite a model with its output.
 *
 * <p>Immutable.
 */
public final class FileProbe {
  private final FormatDetector.Probe probe;

  private FileProbe(FormatDetector.Probe probe) {
    this.probe = Objects.requireNonNull(probe, "probe");
  }

  /**
   * Reads a file's first bytes (a few hundred at most) and its size.
   *
   * @param file the file
   * @return what they show
   * @throws IOException when the file cannot be opened or read
   */
  public static FileProbe of(Path file) throws IOException {
    return new FileProbe(FormatDetector.probe(file));
  }

  /**
   * @return {@code "gguf"} or {@code "safetensors"} when the bytes show that model format (a
   *     safetensors file only when the JSON length it declares fits the file), else empty
   */
  public Optional<String> modelFormat() {
    DetectedFormat f = probe.model();
    return f == null ? Optional.empty() : Optional.of(f.wire());
  }

  /** @return the model format's name for people ({@code "GGUF"}, {@code "safetensors"}), or empty */
  public Optional<String> modelDisplayName() {
    DetectedFormat f = probe.model();
    return f == null ? Optional.empty() : Optional.of(f.displayName());
  }

  /**
   * @return whether the bytes start as saved Evidence does: a REA record or bundle ({@code
   *     {"schema":"rea.}), or a DSSE envelope (an object whose first field is {@code payload},
   *     or with {@code payloadType} among its first bytes). A hint for choosing a reader: {@link
   *     Rea#readEvidence} decides.
   */
  public boolean savedEvidence() {
    String start = probe.text().stripLeading();
    return start.startsWith("{\"schema\":\"rea.")
        || start.startsWith("{\"payload\"")
        || (start.startsWith("{") && start.contains("\"payloadType\""));
  }

  /** @return the bytes read, as text of one character per byte (ISO-8859-1) */
  public String text() {
    return probe.text();
  }

  /** @return the file's size in bytes when it was read */
  public long size() {
    return probe.size();
  }
}
