package dev.rea.core.golden;

import dev.rea.core.Rea;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.internal.auth.KeyRing;
import dev.rea.core.internal.detect.DetectedFormat;
import dev.rea.core.internal.format.FormatReader;
import dev.rea.core.internal.format.gguf.GgufReader;
import dev.rea.core.internal.format.safetensors.SafetensorsReader;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.options.Limits;
import dev.rea.core.testing.MemoryFileAccess;
import dev.rea.core.testing.ScratchDirectories;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Renders what REA says of one file's bytes, deterministically: the file is served from memory
 * ({@link MemoryFileAccess}: fixed size, device, inode and modification time) at {@code
 * /golden/NAME}, {@code observed_at} is fixed and records are signed with the committed test key
 * {@code golden/signing-key.pem}, all through the front door ({@link Rea}). The text has one section per hash mode, each holding the
 * {@code --json} output (a signed bundle, or the error object with signed partial Evidence) and,
 * for a complete record, the summary.
 */
final class GoldenRun {
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC);

  private static final Path HOME = home();

  private GoldenRun() {}

  static String render(String name, byte[] bytes) throws ReaException {
    StringBuilder out = new StringBuilder();
    for (HashMode mode : HashMode.values()) {
      out.append("== ").append(mode.wire()).append('\n');
      Rea rea = Rea.builder().inspector(inspector(bytes)).home(HOME).build();
      Path path = Path.of("/golden", name);
      Inspection result = rea.inspect(path, InspectOptions.builder().hash(mode).build());
      if (result instanceof Inspection.Failed f) {
        EvidenceRecord partial = f.partial() == null ? null : rea.sign(f.partial());
        out.append(text(Rea.errorJson(f.error(), partial))).append('\n');
      } else {
        EvidenceRecord record = rea.sign(result.orThrow());
        // The CLI streams the bundle (writeBundleJson); a library caller may take the bytes.
        java.io.ByteArrayOutputStream streamed = new java.io.ByteArrayOutputStream();
        Rea.writeBundleJson(List.of(record), streamed);
        byte[] bundle = Rea.bundleJson(List.of(record));
        org.assertj.core.api.Assertions.assertThat(streamed.toByteArray())
            .as("streamed bundle of " + name)
            .isEqualTo(bundle);
        out.append(text(streamed.toByteArray())).append('\n');
        out.append("-- summary\n");
        out.append(text(rea.summaryJson(rea.evidence(record), null))).append('\n');
      }
    }
    return out.toString();
  }

  /**
   * @return the unsigned record of each hash mode, as {@link #render} inspects the file: the
   *     complete record, or the partial Evidence of the failure (none when it has none)
   */
  static List<EvidenceRecord> records(String name, byte[] bytes) {
    List<EvidenceRecord> out = new java.util.ArrayList<>();
    for (HashMode mode : HashMode.values()) {
      Inspection result =
          inspector(bytes)
              .run(Path.of("/golden", name), mode, new ModelInspector.Listener() {}, Cancellation.none());
      if (result instanceof Inspection.Complete complete) {
        out.add(complete.record());
      } else {
        result.partialEvidence().ifPresent(out::add);
      }
    }
    return out;
  }

  private static ModelInspector inspector(byte[] bytes) {
    Map<DetectedFormat, FormatReader> readers = new EnumMap<>(DetectedFormat.class);
    readers.put(DetectedFormat.GGUF, new GgufReader());
    readers.put(DetectedFormat.SAFETENSORS, new SafetensorsReader());
    return new ModelInspector(Limits.defaults(), new MemoryFileAccess(bytes), CLOCK, readers);
  }

  private static String text(byte[] json) {
    return new String(json, StandardCharsets.UTF_8);
  }

  private static Path home() {
    try {
      Path home = ScratchDirectories.createDeletedAtExit("rea-golden-home");
      Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
      Path key = home.resolve(KeyRing.KEY_FILE);
      try (InputStream in =
          Objects.requireNonNull(
              GoldenRun.class.getResourceAsStream("/golden/signing-key.pem"),
              "golden/signing-key.pem")) {
        Files.write(key, in.readAllBytes());
      }
      Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
      return home;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
