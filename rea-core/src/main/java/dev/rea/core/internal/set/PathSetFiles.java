package dev.rea.core.internal.set;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.internal.detect.DetectedFormat;
import dev.rea.core.internal.detect.FormatDetector;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.internal.io.FileAccess;
import dev.rea.core.internal.io.FileSnapshot;
import dev.rea.core.internal.io.MissingPaths;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.Limits;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * {@link SetFiles} over a local directory. Members are {@code dir.resolve(name)} for plain names
 * (no separator, no {@code ..}), so they never leave it; a member that is a symbolic link is
 * followed, as the file operation follows one (Hugging Face's cache links every file to a blob).
 */
final class PathSetFiles implements SetFiles {
  private final Path dir;
  private final ModelInspector inspector;
  private final Limits limits;

  PathSetFiles(Path dir, ModelInspector inspector, Limits limits) {
    this.dir = dir;
    this.inspector = inspector;
    this.limits = limits;
  }

  @Override
  public String directory() {
    return dir.toString();
  }

  @Override
  public String pathOf(String name) {
    return dir.resolve(name).toString();
  }

  @Override
  public List<SetGrouping.Listed> listing() throws ReaException {
    List<SetGrouping.Listed> out = new ArrayList<>();
    FileAccess access = inspector.access();
    try {
      for (Path p : access.list(dir)) {
        String name = p.getFileName().toString();
        // Names do not decide what a model is (a GGUF file named other.bin is one): the content
        // is read through the listed path, which keeps the name's bytes.
        if (dev.rea.core.text.FileNames.undecodable(p)
            && (mayBeMember(name) || formatOf(access, p) != null)) {
          // A member of that name could not be read: the model would be judged without it.
          throw dev.rea.core.text.FileNames.undecodableName(
              p, "a model file REA cannot name, so the directory's model cannot be told whole");
        }
        // An index name that is not a regular file (a FIFO, a directory, a dangling link) is
        // listed all the same: reading it fails without opening it, and that failure is the
        // answer for a shard it would name (docs/sets.md), not the shard taken alone.
        if (!isRegularFile(access, p) && !SafetensorsIndex.isIndexName(name)) {
          continue;
        }
        out.add(new SetGrouping.Listed(
            name, SafetensorsIndex.isIndexName(name) ? null : modelFormat(name)));
      }
    } catch (IOException e) {
      throw failure(dir.toString(), e, "listing the directory failed");
    }
    return out;
  }

  private static boolean mayBeMember(String name) {
    return name.endsWith(".gguf") || name.endsWith(".safetensors") || SafetensorsIndex.isIndexName(name);
  }

  @Override
  public @Nullable String modelFormat(String name) {
    return formatOf(inspector.access(), dir.resolve(name));
  }

  /** @return whether the path names a regular file (following a link), as {@link Files#isRegularFile} */
  private static boolean isRegularFile(FileAccess access, Path p) {
    try {
      return access.stat(p).regularFile();
    } catch (IOException e) {
      return false;
    }
  }

  /** @return the model format of a regular file by its content, or null */
  private static @Nullable String formatOf(FileAccess access, Path p) {
    // The probe opens only a regular file (a FIFO blocks its open until a writer comes: the
    // inspection that follows refuses it, not_regular_file, without opening it).
    try {
      DetectedFormat f = FormatDetector.probe(access, p).model();
      return f == null ? null : f.wire();
    } catch (IOException e) {
      return null;
    }
  }

  @Override
  public long size(String name) throws ReaException {
    Path p = dir.resolve(name);
    try {
      return inspector.access().stat(p).size();
    } catch (IOException e) {
      throw failure(p.toString(), e, "reading the file's size failed");
    }
  }

  @Override
  public SafetensorsIndexReader.IndexSource indexSource(String name) throws ReaException {
    Path p = dir.resolve(name);
    FileAccess access = inspector.access();
    FileSnapshot stat;
    try {
      stat = access.stat(p);
    } catch (IOException absentOrUnreadable) {
      stat = null; // reading its size below names the failure
    }
    if (stat != null && !stat.regularFile()) {
      // Never opened: a FIFO would block the read until a writer came.
      throw ReaException.builder(
              Constraint.NOT_REGULAR_FILE,
              (stat.directory() ? "the index is a directory" : "the index is not a regular file")
                  + ": " + p)
          .path(p.toString())
          .build();
    }
    long size = stat != null ? stat.size() : size(name);
    try {
      SafetensorsIndexReader.checkSize(size, limits);
    } catch (ReaException e) {
      throw e.withPath(p.toString());
    }
    if (size == 0 && yieldsBytes(access, p)) {
      // /proc/self/status and its kind: refused as the file operation refuses them.
      throw ReaException.builder(
              Constraint.NOT_REGULAR_FILE,
              "the index is not a regular file with a fixed size (its size reads as 0 but it"
                  + " yields bytes): " + p)
          .path(p.toString())
          .diagnostic("size_at_open", "0")
          .build();
    }
    // The reader checks the ceiling again as bytes arrive, whatever the size was a moment ago.
    return () -> java.nio.channels.Channels.newInputStream(access.open(p));
  }

  /** @return whether a file whose size reads as 0 has a byte to read all the same */
  private static boolean yieldsBytes(FileAccess access, Path p) {
    try (java.io.InputStream in = java.nio.channels.Channels.newInputStream(access.open(p))) {
      return in.read() >= 0;
    } catch (IOException e) {
      return false; // the read proper reports it
    }
  }

  @Override
  public Limits limits() {
    return limits;
  }

  /** Local files, each opened by its own inspection: yes. */
  @Override
  public boolean concurrent() {
    return true;
  }

  @Override
  public Inspection inspect(
      String name, HashMode hash, ModelInspector.Listener listener, Cancellation cancellation) {
    return inspector.run(dir.resolve(name), hash, listener, cancellation);
  }

  /** A host failure on a path, typed as the file operation types it. */
  static ReaException failure(String path, IOException e, String what) {
    Constraint c;
    String message;
    if (e instanceof NoSuchFileException) {
      c = Constraint.NOT_FOUND;
      message = "no such file: " + path;
    } else if (e instanceof AccessDeniedException) {
      c = Constraint.PERMISSION_DENIED;
      message = "permission denied: " + path;
    } else if (e instanceof java.nio.file.FileSystemException fse && MissingPaths.unresolvable(fse)) {
      c = Constraint.NOT_FOUND;
      message = "no such file: " + path + " (" + fse.getReason() + ")";
    } else {
      c = Constraint.IO_ERROR;
      String reason =
          e instanceof java.nio.file.FileSystemException fse && fse.getReason() != null
              ? fse.getReason()
              : e.getClass().getSimpleName();
      message = what + ": " + path + " (" + reason + ")";
    }
    return ReaException.builder(c, message)
        .path(path)
        .diagnostic("path", path)
        .diagnostic("reason", String.valueOf(e.getMessage()))
        .cause(e)
        .build();
  }
}
