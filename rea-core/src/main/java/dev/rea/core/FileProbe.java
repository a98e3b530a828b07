package dev.rea.core;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.detect.DetectedFormat;
import dev.rea.core.internal.detect.FormatDetector;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.Limits;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

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

  /** The file's name, when the probe read a file: it tells a safetensors index from other JSON. */
  private final @Nullable String fileName;

  private FileProbe(FormatDetector.Probe probe, @Nullable String fileName) {
    this.probe = Objects.requireNonNull(probe, "probe");
    this.fileName = fileName;
  }

  /**
   * Reads a file's first bytes (a few hundred at most) and its size.
   *
   * @param file the file
   * @return what they show
   * @throws IOException when the file cannot be opened or read
   */
  public static FileProbe of(Path file) throws IOException {
    return of(dev.rea.core.internal.io.FileAccess.system(), file);
  }

  /** As {@link #of(Path)}, through a front door's file access ({@link Rea#probe}). */
  static FileProbe of(dev.rea.core.internal.io.FileAccess access, Path file) throws IOException {
    Path name = file.getFileName();
    return new FileProbe(FormatDetector.probe(access, file), name == null ? null : name.toString());
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
        new FormatDetector.Probe(Arrays.copyOf(head, length), length, size), null);
  }

  /**
   * @return {@code "gguf"} or {@code "safetensors"} when the bytes show that model format (a
   *     safetensors file only when the JSON length it declares fits the file), else empty
   */
  public Optional<String> modelFormat() {
    DetectedFormat f = probe.model();
    return f == null ? Optional.empty() : Optional.of(f.wire());
  }

  /**
   * The format an inspection reads the file as, when the file plausibly is a model of that
   * format, broken or not: what {@link #modelFormat()} names, and also a safetensors file whose
   * declared JSON length runs past the end of the file without passing the default header
   * ceiling ({@link Limits#DEFAULT_HEADER_CEILING_BYTES}): a truncated download, which the
   * inspection rejects ({@code file_format_rejected}) and a scan must report rather than skip.
   * A text whose ninth byte is an opening bracket or brace declares quintillions of bytes and is
   * not a candidate.
   *
   * @return {@code "gguf"} or {@code "safetensors"}, or empty for a file that is not a model
   */
  public Optional<String> candidateFormat() {
    DetectedFormat f;
    try {
      f = FormatDetector.detect(probe.head(), probe.length(), probe.size());
    } catch (ReaException notAModel) {
      return Optional.empty();
    }
    if (probe.model() == null
        && Long.compareUnsigned(probe.declaredJsonLength(), Limits.DEFAULT_HEADER_CEILING_BYTES)
            > 0) {
      return Optional.empty();
    }
    return Optional.of(f.wire());
  }

  /**
   * Why the file is not a model, for a file that is not a {@link #candidateFormat() candidate}:
   * the failure an inspection of it reports ({@code target_unavailable} / {@code
   * unsupported_format}, with {@code diagnostics.detected} naming what the bytes look like and a
   * hint: CONTRACT section 8, "Detection is by content"; JSON text named {@code
   * *.safetensors.index.json} is said to be a sharded checkpoint's index, CONTRACT section 9),
   * without a path.
   *
   * @return the failure, or empty for a candidate model
   */
  public Optional<ReaException> refusal() {
    if (candidateFormat().isPresent()) {
      return Optional.empty();
    }
    try {
      FormatDetector.detect(probe.head(), probe.length(), probe.size());
    } catch (ReaException e) {
      return Optional.of(fileName == null ? e : ModelInspector.indexNamed(e, fileName));
    }
    // Begins as safetensors does, but declares more JSON than a header may hold and the file has.
    return Optional.of(
        ReaException.builder(
                Constraint.UNSUPPORTED_FORMAT,
                "unsupported format: the first 8 bytes, read as a safetensors JSON length, declare "
                    + Long.toUnsignedString(probe.declaredJsonLength())
                    + " bytes, more than the file holds and than a header may hold; the content"
                    + " is not a model")
            .field("magic")
            .offset(0)
            .diagnostic("detected", "unknown")
            .diagnostic("file_size", Long.toString(probe.size()))
            .build());
  }

  /** @return the model format's name for people ({@code "GGUF"}, {@code "safetensors"}), or empty */
  public Optional<String> modelDisplayName() {
    DetectedFormat f = probe.model();
    return f == null ? Optional.empty() : Optional.of(f.displayName());
  }

  /**
   * @return whether the bytes start as saved Evidence does (JSON whitespace allowed between the
   *     tokens): a REA record or bundle ({@code {"schema":"rea.}), a REA summary or page ({@code {"kind":"model-}: not Evidence, and
   *     the Evidence reader says so and what to give instead), or a DSSE envelope (an object whose first field is {@code payload},
   *     or with {@code payloadType} among its first bytes); also such an object after a byte
   *     order mark, with its members in another order, or with an escaped name (no NUL among
   *     the first bytes, and one of those names or an escape near the start). A hint for
   *     choosing a reader: {@link Rea#readEvidence} decides.
   */
  public boolean savedEvidence() {
    String text = probe.text();
    // A UTF-8 byte order mark, as ISO-8859-1 characters: the Evidence reader refuses it by name.
    String start = (text.startsWith("\u00EF\u00BB\u00BF") ? text.substring(3) : text).stripLeading();
    if (SAVED.matcher(start).lookingAt()
        || (start.startsWith("{") && start.contains("\"payloadType\""))) {
      return true;
    }
    // The same objects with their members in another order or a name spelled with escapes
    // (rewritten by another tool). No model file starts so: a safetensors file starting with
    // "{" (a header length whose low byte is 0x7B) holds a NUL byte among its first 8.
    return start.startsWith("{")
        && text.indexOf('\0') < 0
        && EVIDENCE_NAMES.matcher(start).find();
  }

  /** Member names only Evidence, REA's summaries and DSSE envelopes start with, or an escape. */
  private static final java.util.regex.Pattern EVIDENCE_NAMES =
      java.util.regex.Pattern.compile("\"(?:schema|records|payload|payloadType|kind)\"|\\\\u");

  /**
   * The start of saved Evidence, a summary or page, or an envelope, with any JSON whitespace
   * between the tokens (Evidence reformatted by another tool is still Evidence, to be verified).
   */
  private static final java.util.regex.Pattern SAVED =
      java.util.regex.Pattern.compile(
          "\\{[ \\t\\r\\n]*\"(?:schema\"[ \\t\\r\\n]*:[ \\t\\r\\n]*\"rea\\."
              + "|kind\"[ \\t\\r\\n]*:[ \\t\\r\\n]*\"model-|payload\")");

  /** @return the bytes read, as text of one character per byte (ISO-8859-1) */
  public String text() {
    return probe.text();
  }

  /** @return the file's size in bytes when it was read */
  public long size() {
    return probe.size();
  }
}
