package dev.rea.core.internal.detect;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.evidence.EvidenceJson;
import java.io.IOException;
import dev.rea.core.internal.io.ChannelReads;
import dev.rea.core.internal.io.FileAccess;
import dev.rea.core.internal.io.FileSnapshot;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Detects a file's format from its leading bytes, never from its name (specification, first
 * paragraph; CONTRACT section 8 "Both").
 *
 * <ul>
 *   <li>GGUF: the four bytes {@code G G U F} (docs/gguf.md: the magic is the same bytes in either
 *       byte order).
 *   <li>safetensors: an 8-byte length, then JSON whose first non-whitespace byte (space, tab, CR,
 *       LF) is {@code '{'}, or whose whitespace fills the rest of the probe of a longer file
 *       (leading whitespace has no length limit). The length itself is validated by the reader,
 *       so a file that declares more than it holds is detected as safetensors and then rejected
 *       with a typed reason.
 *   <li>Recognised non-models are {@code unsupported_format} with a hint: ZIP (PyTorch
 *       archives), pickle, legacy GGML/GGMF/GGJT/GGLA/GGSN magics, Git LFS pointer files, HTML,
 *       Evidence REA saved (a bundle or record: {@code detected} is {@code rea_evidence}, with
 *       its {@code schema}; the CLI and the MCP server add how to read it, in their own terms) and
 *       other bare JSON (e.g. a sharded checkpoint's index).
 * </ul>
 */
public final class FormatDetector {
  /** Leading bytes the detector examines. */
  public static final int PROBE_BYTES = 512;

  private static final byte[] GGUF_MAGIC = {'G', 'G', 'U', 'F'};
  private static final String LFS_PREFIX = "version https://git-lfs.github.com/spec/";

  private FormatDetector() {}

  /**
   * A file's first {@link #PROBE_BYTES} bytes (fewer for a short file) and its size, for saying
   * in a message what a file is; never for reading it.
   *
   * @param head the bytes read ({@code length} of them are valid)
   * @param size the file size in bytes
   */
  public record Probe(byte[] head, int length, long size) {
    /**
     * @return the model format the bytes show ({@link #detect}), or null when not a model. A
     *     safetensors file is named only when the JSON length its first eight bytes declare fits
     *     the file: a text whose ninth byte is {@code [} or {@code {} would declare a length of
     *     quintillions of bytes
     */
    public @Nullable DetectedFormat model() {
      DetectedFormat f;
      try {
        f = detect(head, length, size);
      } catch (ReaException notAModel) {
        return null;
      }
      if (f == DetectedFormat.SAFETENSORS
          && Long.compareUnsigned(FormatDetector.declaredJsonLength(head), Math.max(0, size - 8)) > 0) {
        return null;
      }
      return f;
    }

    /**
     * @return the safetensors JSON length the first eight bytes declare (unsigned
     *     little-endian; compare with {@link Long#compareUnsigned}), or 0 for a shorter file
     */
    public long declaredJsonLength() {
      return length < 8 ? 0 : FormatDetector.declaredJsonLength(head);
    }

    /** @return the bytes as text, one character per byte (ISO-8859-1) */
    public String text() {
      return new String(head, 0, length, StandardCharsets.ISO_8859_1);
    }
  }

  /**
   * Reads a regular file's first {@link #PROBE_BYTES} bytes and its size.
   *
   * @throws IOException when the file cannot be opened or read, or is not a regular file (a FIFO,
   *     a device, a directory): opening a FIFO blocks until a writer comes, so it is never opened
   */
  public static Probe probe(Path file) throws IOException {
    return probe(FileAccess.system(), file);
  }

  /**
   * As {@link #probe(Path)}, examining and opening the file through {@code access} (a scan's
   * {@link dev.rea.core.internal.io.ConfinedFileAccess}).
   *
   * @throws IOException as {@link #probe(Path)}
   */
  public static Probe probe(FileAccess access, Path file) throws IOException {
    FileSnapshot stat;
    try {
      stat = access.stat(file);
    } catch (IOException e) {
      throw new IOException("not a regular file: " + file, e);
    }
    if (!stat.regularFile()) {
      throw new IOException("not a regular file: " + file);
    }
    byte[] head = new byte[PROBE_BYTES];
    try (SeekableByteChannel ch = access.open(file)) {
      ByteBuffer buf = ByteBuffer.wrap(head);
      // Until full or the end of the file; a channel that keeps reading no bytes ends it too.
      while (buf.hasRemaining() && ChannelReads.read(ch, buf) > 0) {
        // read on
      }
      return new Probe(head, buf.position(), ch.size());
    }
  }

  /**
   * @param head the file's first bytes (at most {@link #PROBE_BYTES}; fewer for a short file)
   * @param headLength how many bytes of {@code head} are valid
   * @param fileSize the file size in bytes
   * @return the format
   * @throws ReaException {@code target_unavailable} / {@code unsupported_format}, with {@code
   *     diagnostics.detected} naming what the file looks like and a hint in the message
   */
  public static DetectedFormat detect(byte[] head, int headLength, long fileSize)
      throws ReaException {
    if (headLength >= 4 && startsWith(head, headLength, GGUF_MAGIC)) {
      return DetectedFormat.GGUF;
    }
    if (looksLikeSafetensors(head, headLength, fileSize)) {
      return DetectedFormat.SAFETENSORS;
    }
    throw unsupported(head, headLength, fileSize);
  }

  /**
   * How many leading bytes {@link #detect} should be given when the file is read for inspection,
   * so that detection never reads past a model's header (the default {@code hash: "header"}
   * reads only the header: specification, "Identity and reads"): the first 8 bytes decide it. A
   * GGUF magic needs no more; what may be safetensors gets up to {@link #PROBE_BYTES} but not
   * past its {@code 8 + N} header bytes; anything else (refused as unsupported) the whole probe.
   *
   * @param first the file's first bytes (8, or fewer for a shorter file)
   * @param n how many of them are valid
   * @param fileSize the file size in bytes
   * @return the number of leading bytes to read for detection, at most {@code fileSize}
   */
  public static int probeLength(byte[] first, int n, long fileSize) {
    long end = PROBE_BYTES;
    if (n >= 8) {
      if (startsWith(first, n, GGUF_MAGIC)) {
        end = 8;
      } else {
        long declared = declaredJsonLength(first);
        if (declared > 0 && declared <= fileSize - 8) {
          end = Math.min(end, 8 + declared);
        }
      }
    }
    return (int) Math.min(end, fileSize);
  }

  /** @return the safetensors JSON length the first 8 bytes declare (unsigned little-endian) */
  private static long declaredJsonLength(byte[] head) {
    long declared = 0;
    for (int i = 7; i >= 0; i--) {
      declared = (declared << 8) | (head[i] & 0xFF);
    }
    return declared;
  }

  private static boolean looksLikeSafetensors(byte[] head, int n, long fileSize) {
    if (n < 9) {
      return false;
    }
    long declared = declaredJsonLength(head);
    if (declared == 0) {
      return false;
    }
    int i = 8;
    // A UTF-8 byte-order mark, stray control bytes (but not NUL) and JSON whitespace before the
    // first JSON token still mark a safetensors file: the reader then rejects them by name and
    // offset (BOM, control byte), which says more than "unsupported format".
    if (n >= 11 && (head[8] & 0xFF) == 0xEF && (head[9] & 0xFF) == 0xBB && (head[10] & 0xFF) == 0xBF) {
      i = 11;
    }
    for (; i < n; i++) {
      int c = head[i] & 0xFF;
      if (c == '{' || c == '[') {
        return true;
      }
      if (c == 0 || c >= 0x20 && c != ' ') {
        return false;
      }
    }
    // Only whitespace or control bytes after the prefix so far. Leading whitespace is valid and
    // may be longer than the probe (CONTRACT section 8), so when the file continues past the
    // probe the safetensors reader decides, with a typed verdict.
    return n == PROBE_BYTES && fileSize > n;
  }

  private static ReaException unsupported(byte[] head, int n, long fileSize) {
    String kind;
    String hint;
    String schema = evidenceSchema(head, n);
    if (n == 0) {
      kind = "empty";
      hint = "the file is empty; it is neither GGUF nor safetensors";
    } else if (n >= 4
        && head[0] == 'P'
        && head[1] == 'K'
        && ((head[2] == 3 && head[3] == 4)
            || (head[2] == 5 && head[3] == 6)
            || (head[2] == 7 && head[3] == 8))) {
      kind = "zip";
      hint =
          "the file is a ZIP archive (PyTorch .pt/.pth/.bin checkpoints are ZIP archives of"
              + " pickles); REA does not deserialize PyTorch files: convert it to safetensors or"
              + " GGUF with a trusted workflow and inspect that";
    } else if (n >= 2 && (head[0] & 0xFF) == 0x80 && head[1] >= 2 && head[1] <= 5) {
      kind = "pickle";
      hint =
          "the file is a Python pickle (protocol "
              + head[1]
              + "), as legacy PyTorch and NumPy object files are; REA never unpickles: convert"
              + " it to safetensors or GGUF with a trusted workflow and inspect that";
    } else if (n >= 4 && legacyGgmlMagic(head) != null) {
      kind = "ggml_legacy";
      hint =
          "the file has the legacy '"
              + legacyGgmlMagic(head)
              + "' magic of pre-GGUF llama.cpp formats; convert it to GGUF with llama.cpp's"
              + " conversion tools and inspect that";
    } else if (startsWithAscii(head, n, LFS_PREFIX)) {
      kind = "git_lfs_pointer";
      hint =
          "the file is a Git LFS pointer, not the model itself; fetch the content (for example"
              + " `git lfs pull`) and inspect the real file";
    } else if (looksLikeHtml(head, n)) {
      kind = "html";
      hint =
          "the file is an HTML page (often a login or error page saved in place of a download);"
              + " download the model again";
    } else if (n >= 4 && head[0] == 'F' && head[1] == 'U' && head[2] == 'G' && head[3] == 'G') {
      kind = "gguf_reversed_magic";
      hint =
          "the file starts with 'FUGG', a byte-reversed GGUF magic; GGUF keeps the bytes 'GGUF'"
              + " in both byte orders, so this is not a GGUF file";
    } else if (schema != null) {
      kind = "rea_evidence";
      hint =
          "the file is Evidence that REA saved ("
              + (schema.equals(EvidenceJson.BUNDLE_SCHEMA)
                  ? "a " + EvidenceJson.BUNDLE_SCHEMA + " bundle"
                  : "a " + EvidenceRecord.SCHEMA + " record")
              + "), not a model";
    } else if (firstNonWhitespace(head, n) == '{' || firstNonWhitespace(head, n) == '[') {
      kind = "json";
      hint = jsonHint(head, n);
    } else {
      kind = "unknown";
      hint =
          "the content is not GGUF (magic 'GGUF') and not safetensors (8-byte little-endian"
              + " length, then a JSON object)";
    }
    // The bytes themselves are not echoed: a file that is no model may be anything the caller
    // can read (an MCP client can name /etc/shadow), and "detected" already says what it looks
    // like.
    ReaException.Builder b =
        ReaException.builder(Constraint.UNSUPPORTED_FORMAT, "unsupported format: " + hint)
            .field("magic")
            .offset(0)
            .diagnostic("detected", kind);
    if (schema != null && kind.equals("rea_evidence")) {
      b.diagnostic("schema", schema);
    }
    return b.diagnostic("file_size", Long.toString(fileSize))
        .build();
  }

  /**
   * @return the schema of Evidence REA wrote ({@code rea.bundle.v1} or {@code rea.evidence.v1})
   *     when the bytes begin as such a JSON object does, {@code {"schema":"rea.bundle.v1"},
   *     whitespace allowed (a file reformatted by a JSON tool); else null
   */
  static @Nullable String evidenceSchema(byte[] head, int n) {
    String text = new String(head, 0, n, StandardCharsets.ISO_8859_1);
    int[] at = {0};
    if (!expect(text, at, "{") || !expect(text, at, "\"schema\"") || !expect(text, at, ":")) {
      return null;
    }
    for (String schema : new String[] {EvidenceJson.BUNDLE_SCHEMA, EvidenceRecord.SCHEMA}) {
      int[] here = {at[0]};
      if (expect(text, here, "\"" + schema + "\"")) {
        return schema;
      }
    }
    return null;
  }

  /** Skips JSON whitespace from {@code at[0]}, then consumes {@code token} if it is there. */
  private static boolean expect(String text, int[] at, String token) {
    int i = at[0];
    while (i < text.length() && " \t\r\n".indexOf(text.charAt(i)) >= 0) {
      i++;
    }
    if (!text.startsWith(token, i)) {
      return false;
    }
    at[0] = i + token.length();
    return true;
  }

  private static @Nullable String legacyGgmlMagic(byte[] head) {
    String le = new String(new byte[] {head[3], head[2], head[1], head[0]}, StandardCharsets.ISO_8859_1);
    String be = new String(head, 0, 4, StandardCharsets.ISO_8859_1);
    for (String m : new String[] {"ggml", "ggmf", "ggjt", "ggla", "ggsn"}) {
      if (m.equals(le) || m.equals(be)) {
        return m;
      }
    }
    return null;
  }

  private static boolean looksLikeHtml(byte[] head, int n) {
    int i = 0;
    if (n >= 3 && (head[0] & 0xFF) == 0xEF && (head[1] & 0xFF) == 0xBB && (head[2] & 0xFF) == 0xBF) {
      i = 3;
    }
    while (i < n && Character.isWhitespace(head[i])) {
      i++;
    }
    String rest =
        new String(head, i, Math.min(n - i, 32), StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
    return rest.startsWith("<!doctype html")
        || rest.startsWith("<html")
        || rest.startsWith("<head")
        || rest.startsWith("<body")
        || rest.startsWith("<!--");
  }

  private static int firstNonWhitespace(byte[] head, int n) {
    for (int i = 0; i < n; i++) {
      int c = head[i] & 0xFF;
      if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
        return c;
      }
    }
    return -1;
  }

  /**
   * @return what JSON text that is no model is: only an index's text names the shards, so a
   *     config.json or tokenizer.json gets no hint about them
   */
  private static String jsonHint(byte[] head, int n) {
    return contains(head, n, "\"weight_map\"")
        ? "the file is JSON text, not a model (a sharded checkpoint's .index.json lists the"
            + " .safetensors shards: inspect those)"
        : "the file is JSON text, not a model";
  }

  /** @return whether the first {@code n} bytes of {@code head} hold {@code ascii} */
  private static boolean contains(byte[] head, int n, String ascii) {
    byte[] b = ascii.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    outer:
    for (int i = 0; i + b.length <= n; i++) {
      for (int j = 0; j < b.length; j++) {
        if (head[i + j] != b[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private static boolean startsWith(byte[] head, int n, byte[] prefix) {
    if (n < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (head[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  private static boolean startsWithAscii(byte[] head, int n, String prefix) {
    return startsWith(head, n, prefix.getBytes(StandardCharsets.US_ASCII));
  }
}
