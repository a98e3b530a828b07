package dev.rea.core;

import dev.rea.core.internal.detect.DetectedFormat;
import dev.rea.core.internal.detect.FormatDetector;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
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
   * How many leading bytes a caller that reads the file itself (a Hadoop file system, an object
   * store) should give {@link #of(byte[], int, long)}, decided from the first 8 bytes so that
   * detection never reads past a model's header: a GGUF magic needs no more; what may be
   * safetensors gets up to 512 bytes but not past the {@code 8 + N} bytes of its header; anything
   * else 512. This is the rule the inspection itself follows, so a probe made this way names a
   * model exactly when the inspection would detect one.
   *
   * @param first the file's first bytes (8, or all of a shorter file)
   * @param n how many of {@code first} are valid
   * @param size the file size in bytes
   * @return the number of leading bytes to read, at most {@code size} and at most 512
   */
  public static int headLength(byte[] first, int n, long size) {
    return FormatDetector.probeLength(first, n, size);
  }

  /**
   * What bytes the caller read say (for files not on the local file system).
   *
   * @param head the file's first bytes: {@link #headLength} of them, or the first 512 (fewer for
   *     a shorter file); only the first {@code length} are used, and the array is copied
   * @param length how many bytes of {@code head} are valid (at most 512)
   * @param size the file size in bytes
   * @return what they show
   * @throws IllegalArgumentException when {@code length} is negative, beyond {@code head} or 512
   */
  public static FileProbe of(byte[] head, int length, long size) {
    if (length < 0 || length > head.length || length > FormatDetector.PROBE_BYTES) {
      throw new IllegalArgumentException("length " + length + " of a " + head.length + "-byte head");
    }
    return new FileProbe(
        new FormatDetector.Probe(Arrays.copyOf(head, length), length, size));
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

  /** @return the bytes read, as text of one character per byte (ISO-8859-1) */
  public String text() {
    return probe.text();
  }

  /** @return the file's size in bytes when it was read */
  public long size() {
    return probe.size();
  }
}
