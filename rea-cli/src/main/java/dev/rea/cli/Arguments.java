package dev.rea.cli;

import dev.rea.core.FileProbe;
import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.LayoutAssumption;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/** Validation of CLI arguments into core types, as typed {@code invalid_input} failures. */
final class Arguments {
  private Arguments() {}

  /**
   * @param rows the {@code --max_tensor_rows} value
   * @return {@code rows}
   * @throws ReaException {@code bad_argument} naming the option when it is negative
   */
  static int maxTensorRows(int rows) throws ReaException {
    if (rows < 0) {
      throw ReaException.builder(
              Constraint.BAD_ARGUMENT, "--max_tensor_rows must be 0 or more, not " + rows)
          .field("--max_tensor_rows")
          .build();
    }
    return rows;
  }

  /** @return the hash mode for {@code header} or {@code full} */
  static HashMode hashMode(String text) throws ReaException {
    HashMode mode = HashMode.fromWire(text);
    if (mode == null) {
      throw ReaException.builder(
              Constraint.BAD_ARGUMENT, "--hash must be 'header' or 'full', not '" + text + "'")
          .field("--hash")
          .build();
    }
    return mode;
  }

  /** The {@code --assume-layout} option's name. */
  static final String ASSUME_LAYOUT = "--assume-layout";

  /** Its description, shared by every command that inspects files. */
  static final String ASSUME_LAYOUT_HELP =
      "ggml-modern: read GGUF Q8_1, K-quant and ID 16-25 tensors under modern ggml's layouts"
          + " (say so only when you know the writer); the record says its byte lengths rest on"
          + " this assumption.";

  /**
   * @param text the {@code --assume-layout} value, or null when the option was not given
   * @return the layout assumption ({@code none} when not given)
   * @throws ReaException {@code bad_argument} naming the option
   */
  static LayoutAssumption layout(@Nullable String text) throws ReaException {
    if (text == null) {
      return LayoutAssumption.NONE;
    }
    try {
      return LayoutAssumption.parse(text);
    } catch (IllegalArgumentException e) {
      throw ReaException.builder(
              Constraint.BAD_ARGUMENT, ASSUME_LAYOUT + ": " + e.getMessage())
          .field(ASSUME_LAYOUT)
          .build();
    }
  }

  /** U+FFFD REPLACEMENT CHARACTER. */
  private static final char REPLACEMENT = '\uFFFD';

  /**
   * Resolves a path against the working directory (CONTRACT section 1: relative paths are
   * resolved and recorded as absolute). The path is not normalised: the selected spelling is
   * kept. A path holding U+FFFD is refused: the JVM decodes the command line with the locale's
   * encoding and puts U+FFFD in place of bytes that are not valid in it, so the file named on
   * the command line cannot be told from one whose name holds that character (a hostile-input
   * trial had REA inspect, or write, such another file).
   *
   * @throws ReaException {@code bad_argument} naming the option
   */
  static Path resolve(String text) throws ReaException {
    return resolve(text, "PATH");
  }

  /** As {@link #resolve(String)}, naming the option in the error. */
  static Path resolve(String text, String field) throws ReaException {
    if (text.isEmpty()) {
      throw ReaException.builder(Constraint.BAD_ARGUMENT, field + " is empty: give a file path")
          .field(field)
          .build();
    }
    dev.rea.core.options.Limits.checkPathLength(field, text);
    if (text.indexOf(REPLACEMENT) >= 0) {
      throw replaced(
          field,
          field,
          "which file was meant and would open or write another one: rename the file, or reach it"
              + " through a link whose name is valid text");
    }
    try {
      Path p = Path.of(text);
      if (p.isAbsolute()) {
        return p;
      }
      Path cwd = Path.of("").toAbsolutePath();
      if (cwd.toString().indexOf(REPLACEMENT) >= 0) {
        // The JVM decoded the working directory's name (user.dir) the same way.
        throw replaced(
            field,
            field + " is relative, and the working directory's name",
            "which directory it is and would resolve the path in another one: give an absolute"
                + " path, or run from a directory whose name is valid text");
      }
      return cwd.resolve(p);
    } catch (InvalidPathException e) {
      throw ReaException.builder(
              Constraint.BAD_ARGUMENT,
              "invalid path: " + e.getMessage() + dev.rea.core.SelectedPath.localeHint())
          .field(field)
          .build();
    }
  }

  /**
   * The refusal of a name holding U+FFFD: "{@code whose} holds U+FFFD, the character Java puts in
   * place of bytes that are not valid in the locale's encoding (...), so REA cannot tell {@code
   * cannotTell}", then {@link dev.rea.core.SelectedPath#localeHint()}.
   */
  private static ReaException replaced(String field, String whose, String cannotTell) {
    return ReaException.builder(
            Constraint.BAD_ARGUMENT,
            whose
                + " holds U+FFFD, the character Java puts in place of bytes that are not valid in"
                + " the locale's encoding ("
                + System.getProperty("sun.jnu.encoding", "unknown")
                + "), so REA cannot tell "
                + cannotTell
                + dev.rea.core.SelectedPath.localeHint())
        .field(field)
        .build();
  }

  /**
   * Resolves an output file and checks, before any work is done, that its directory exists and
   * that it is not a directory itself. A symbolic link to an existing file resolves to that file.
   *
   * @throws ReaException {@code bad_argument} naming the option
   */
  static Path outputFile(String text, String field) throws ReaException {
    Path p = resolve(text, field);
    if (text.length() > 1 && text.endsWith("/")) {
      throw badOutput(field, p, text + " ends with '/', which names a directory; give a file name");
    }
    Path dir = p.getParent();
    if (dir != null && !java.nio.file.Files.isDirectory(dir)) {
      throw badOutput(
          field,
          p,
          java.nio.file.Files.exists(dir)
              ? dir + " is not a directory, so it cannot hold " + p.getFileName()
              : "the directory " + dir + " does not exist (create it first)");
    }
    if (java.nio.file.Files.isDirectory(p)) {
      throw badOutput(field, p, p + " is a directory; give a file name");
    }
    if (java.nio.file.Files.exists(p) && !java.nio.file.Files.isRegularFile(p)) {
      // A FIFO, device or socket: the atomic rename would replace it with a regular file.
      throw badOutput(
          field,
          p,
          p + " exists and is not a regular file (a FIFO, device or socket); give a file name");
    }
    if (!java.nio.file.Files.isSymbolicLink(p)) {
      return p;
    }
    if (!java.nio.file.Files.exists(p)) {
      // Leads nowhere (or round in a loop): the rename would replace the link, losing it.
      String target;
      try {
        target = java.nio.file.Files.readSymbolicLink(p).toString();
      } catch (java.io.IOException | SecurityException e) {
        target = "?";
      }
      throw badOutput(
          field,
          p,
          p
              + " is a symbolic link to "
              + target
              + ", which does not exist (or the links form a loop); give the file to write, or"
              + " create the file the link leads to first");
    }
    // Written through the link: the file it leads to is replaced (atomically, in its own
    // directory) and the link is kept, where a rename onto the link would replace the link.
    try {
      return p.toRealPath();
    } catch (java.io.IOException | SecurityException e) {
      return p; // left to the write, which reports it
    }
  }

  /**
   * Refuses an output file that is the input file itself (the same file by device and inode,
   * through any spelling or link): writing the Evidence there would destroy what it describes.
   *
   * @throws ReaException {@code bad_argument} naming the option
   */
  static void notTheInput(Path output, Path input, String field) throws ReaException {
    boolean same;
    try {
      same = java.nio.file.Files.exists(output) && java.nio.file.Files.isSameFile(output, input);
    } catch (java.io.IOException | SecurityException e) {
      same = false; // the input is missing or unreadable: the inspection reports that
    }
    if (same) {
      throw badOutput(
          field,
          output,
          output + " is the file being inspected; writing the Evidence there would replace the model");
    }
  }

  /** What Evidence written by REA begins with: a bundle or a record, compact JSON. */
  private static final String EVIDENCE_START = "{\"schema\":\"rea.";

  /**
   * Refuses to replace an existing file that is not Evidence REA wrote: the output may replace
   * an earlier Evidence file (running the same inspection again) or an empty file, never a model
   * or anything else, which would be lost. Evidence REA writes begins with {@code
   * {"schema":"rea.} ({@code rea.bundle.v1} or {@code rea.evidence.v1}); a model is named as
   * such ({@link FileProbe}). A file that cannot be read is left to the write, which reports it.
   *
   * @throws ReaException {@code bad_argument} naming the option
   */
  static void replacesOnlyEvidence(Path output, String field) throws ReaException {
    if (!java.nio.file.Files.isRegularFile(output)) {
      return;
    }
    FileProbe probe;
    try {
      probe = FileProbe.of(output);
    } catch (java.io.IOException | SecurityException e) {
      return;
    }
    // Evidence larger than REA reads back (64 MiB) is not Evidence REA wrote: refused without
    // reading it through.
    if (probe.size() == 0
        || (probe.text().startsWith(EVIDENCE_START)
            && probe.size() <= dev.rea.core.options.Limits.DEFAULT_EVIDENCE_INPUT_BYTES
            && isOneJsonObject(output))) {
      return;
    }
    String model = probe.modelDisplayName().orElse(null);
    throw badOutput(
        field,
        output,
        output
            + " already exists and "
            + (model == null
                ? "is not Evidence that REA wrote"
                : "is a " + model + " model file")
            + "; --evidence_output replaces only an earlier Evidence file (or an empty file):"
            + " choose another file name, or remove that file first");
  }

  /**
   * @return whether the file is one well-formed JSON object and nothing more (read as a stream;
   *     Evidence that begins like REA's but was cut short or altered into non-JSON is not earlier
   *     Evidence); false also when it cannot be read
   */
  private static boolean isOneJsonObject(Path file) {
    try (tools.jackson.core.JsonParser p =
        new tools.jackson.core.json.JsonFactory()
            .createParser(tools.jackson.core.ObjectReadContext.empty(), file.toFile())) {
      if (p.nextToken() != tools.jackson.core.JsonToken.START_OBJECT) {
        return false;
      }
      p.skipChildren();
      return p.nextToken() == null;
    } catch (tools.jackson.core.JacksonException | SecurityException e) {
      return false;
    }
  }

  private static ReaException badOutput(String field, Path p, String problem) {
    return ReaException.builder(Constraint.BAD_ARGUMENT, field + ": " + problem)
        .field(field)
        .path(p.toString())
        .build();
  }

  /** The delivery detail of {@code --detail}. */
  enum Detail {
    COMPLETE,
    SUMMARY
  }

  /**
   * Reads {@code --detail}, given zero or more times.
   *
   * @return {@link Detail#COMPLETE} when absent (the CLI default)
   * @throws ReaException {@code bad_argument} for another value; {@code conflicting_choices}
   *     when both {@code complete} and {@code summary} are given
   */
  static Detail detail(java.util.@Nullable List<String> values) throws ReaException {
    Detail chosen = null;
    if (values == null) {
      return Detail.COMPLETE;
    }
    for (String v : values) {
      Detail d;
      if (v.equals("complete")) {
        d = Detail.COMPLETE;
      } else if (v.equals("summary")) {
        d = Detail.SUMMARY;
      } else {
        throw ReaException.builder(
                Constraint.BAD_ARGUMENT, "--detail must be 'complete' or 'summary', not '" + v + "'")
            .field("--detail")
            .build();
      }
      if (chosen != null && chosen != d) {
        throw ReaException.builder(
                Constraint.CONFLICTING_CHOICES,
                "--detail summary and --detail complete are conflicting choices")
            .field("--detail")
            .build();
      }
      chosen = d;
    }
    return chosen == null ? Detail.COMPLETE : chosen;
  }
}
