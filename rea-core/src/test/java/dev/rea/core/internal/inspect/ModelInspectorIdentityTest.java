package dev.rea.core.internal.inspect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Coverage;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.internal.detect.DetectedFormat;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.format.FormatReader;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.internal.format.ReadContext;
import dev.rea.core.internal.io.FileAccess;
import dev.rea.core.internal.io.HeaderInput;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.Limits;
import dev.rea.core.testing.FaultyFileAccess;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The inspector's identity, hashing and failure handling (specification, "Identity and reads"),
 * independent of any format reader: a stub reader consumes a fixed 16-byte "header" of a file
 * that starts with the GGUF magic.
 */
class ModelInspectorIdentityTest {
  private static final int HEADER = 16;

  @TempDir Path dir;

  /** Consumes exactly {@link #HEADER} bytes and declares nothing. */
  static final class StubReader implements FormatReader {
    @Override
    public ParsedHeader read(HeaderInput in, ReadContext ctx) throws ReaException {
      in.skip(HEADER);
      return new ParsedHeader(
          DetectedFormat.GGUF,
          HEADER,
          new FormatFacts.Gguf(3, "little", 32L, "default", 32L),
          List.of(),
          List.of(),
          List.of(),
          List.of());
    }
  }

  private ModelInspector inspector(FileAccess access) {
    Map<DetectedFormat, FormatReader> readers = new EnumMap<>(DetectedFormat.class);
    readers.put(DetectedFormat.GGUF, new StubReader());
    readers.put(DetectedFormat.SAFETENSORS, new StubReader());
    return new ModelInspector(
        Limits.defaults(),
        access,
        Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneOffset.UTC),
        readers);
  }

  private Path file(int size) throws IOException {
    byte[] b = new byte[size];
    new Random(42).nextBytes(b);
    b[0] = 'G';
    b[1] = 'G';
    b[2] = 'U';
    b[3] = 'F';
    Path p = dir.resolve("model-" + size + ".gguf");
    Files.write(p, b);
    // An old mtime, so any later write is visible as a change of modification time.
    Files.setLastModifiedTime(p, FileTime.from(Instant.parse("2020-01-01T00:00:00Z")));
    return p;
  }

  private static String sha256(byte[] b) {
    return EvidenceIds.sha256Hex(b);
  }

  @Test
  void headerModeRecordsHeaderDigestOnly() throws Exception {
    Path p = file(3 << 20);
    byte[] all = Files.readAllBytes(p);
    EvidenceRecord r = inspector(FileAccess.system()).inspect(p, HashMode.HEADER);
    assertThat(r.status()).isEqualTo("complete");
    assertThat(r.observedAt()).isEqualTo("2026-01-02T03:04:05Z");
    assertThat(r.artifact().headerLength()).isEqualTo(HEADER);
    assertThat(r.artifact().headerSha256()).isEqualTo(sha256(Arrays.copyOf(all, HEADER)));
    assertThat(r.artifact().sha256()).isNull();
    assertThat(r.subject()).isNull();
    assertThat(r.artifact().readScope()).isEqualTo("header");
    assertThat(r.artifact().fileSize()).isEqualTo(all.length);
    // Header mode fetches the header and nothing more.
    assertThat(r.artifact().bytesRead()).isEqualTo(r.artifact().headerLength());
    assertThat(r.coverage().digest()).isEqualTo(Coverage.NONE);
    assertThat(r.coverage().finalIdentity()).isEqualTo(Coverage.VERIFIED);
    assertThat(r.artifact().identity().verified()).isTrue();
    assertThat(r.artifact().identity().inode()).isNotNull();
    assertThat(r.artifact().identity().size()).isEqualTo(all.length);
    assertThat(r.evidenceId()).isEqualTo(EvidenceIds.compute(r));
  }

  @Test
  void fullModeDigestEqualsSha256OfTheWholeFile() throws Exception {
    Path p = file((5 << 20) + 123);
    byte[] all = Files.readAllBytes(p);
    long[] last = {0, 0};
    EvidenceRecord r =
        inspector(FileAccess.system())
            .run(
                p,
                HashMode.FULL,
                new ModelInspector.Listener() {
                  @Override
                  public void onHashProgress(long done, long total) {
                    assertThat(done).isGreaterThan(last[0]);
                    last[0] = done;
                    last[1] = total;
                  }
                },
                Cancellation.none())
            .orThrow();
    String whole = sha256(all);
    assertThat(r.artifact().sha256()).isEqualTo(whole);
    assertThat(r.subject()).isNotNull();
    assertThat(r.subject().kind()).isEqualTo("file");
    assertThat(r.subject().sha256()).isEqualTo(whole);
    assertThat(r.artifact().headerSha256()).isEqualTo(sha256(Arrays.copyOf(all, HEADER)));
    assertThat(r.artifact().bytesRead()).isEqualTo(all.length);
    assertThat(r.artifact().readScope()).isEqualTo("full");
    assertThat(r.coverage().digest()).isEqualTo(Coverage.COMPLETE);
    assertThat(last).containsExactly(all.length, all.length);
  }

  @Test
  void appendDuringFullHashIsTargetChangedWithPartialEvidence() throws Exception {
    Path p = file(4 << 20);
    assertChangedDuringHash(
        p, 2 << 20, "grew", () -> Files.write(p, new byte[] {1, 2, 3}, StandardOpenOption.APPEND));
  }

  @Test
  void truncationDuringFullHashIsTargetChanged() throws Exception {
    Path p = file(4 << 20);
    assertChangedDuringHash(
        p,
        2 << 20,
        "ended",
        () -> {
          try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
            raf.setLength(3 << 20);
          }
        });
  }

  @Test
  void inPlaceRewriteDuringFullHashIsTargetChanged() throws Exception {
    Path p = file(4 << 20);
    assertChangedDuringHash(
        p,
        1 << 20,
        "the file's modification time (2020-01-01T00:00:00.000000000Z, now ",
        () -> {
          try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
            raf.seek(3 << 20);
            raf.write(new byte[] {9, 9, 9, 9});
          }
        });
  }

  @Test
  void inPlaceRewriteWithRestoredModificationTimeIsTargetChanged() throws Exception {
    // Same size, same inode, the old mtime put back (as `touch -r` would): only the inode
    // change time, which no program can set back, shows the rewrite.
    Path p = file(4 << 20);
    FileTime mtime = Files.getLastModifiedTime(p);
    Object ctimeBefore = Files.getAttribute(p, "unix:ctime");
    assertChangedDuringHash(
        p,
        1 << 20,
        "the file's inode change time changed during the read",
        () -> {
          try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
            raf.seek(3 << 20);
            raf.write(new byte[] {9, 9, 9, 9});
          }
          Files.setLastModifiedTime(p, mtime);
          // The kernel's clock for ctime is coarse (a scheduler tick): repeat the restore until
          // the change time has moved, so the case under test is the one that happened.
          for (int i = 0; i < 2000 && Files.getAttribute(p, "unix:ctime").equals(ctimeBefore); i++) {
            try {
              Thread.sleep(1);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw new IOException(e);
            }
            Files.setLastModifiedTime(p, mtime);
          }
          assertThat(Files.getLastModifiedTime(p)).isEqualTo(mtime);
          assertThat(Files.size(p)).isEqualTo(4L << 20);
          assertThat(Files.getAttribute(p, "unix:ctime")).isNotEqualTo(ctimeBefore);
        });
  }

  @Test
  void renameOverDuringFullHashIsTargetChanged() throws Exception {
    Path p = file(4 << 20);
    Path other = dir.resolve("other.gguf");
    Files.write(other, Files.readAllBytes(p));
    assertChangedDuringHash(
        p,
        1 << 20,
        "the file's identity (device and inode: the path now names another file) changed during"
            + " the read",
        () -> Files.move(other, p, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE));
  }

  @Test
  void aFileChangedWhileItWasOpenedNamesWhatChanged() throws Exception {
    Path p = file(64);
    FileAccess appendingAtOpen =
        dev.rea.core.testing.FaultyFileAccess.openedBy(
            path -> {
              java.nio.channels.SeekableByteChannel ch = FileAccess.system().open(path);
              Files.write(path, new byte[] {1, 2, 3}, StandardOpenOption.APPEND);
              return ch;
            });
    assertThat(Refusal.of(inspector(appendingAtOpen), p, HashMode.HEADER))
        .satisfies(
            e -> {
              assertThat(e.constraint()).isEqualTo(Constraint.TARGET_CHANGED);
              assertThat(e.getMessage())
                  .startsWith(
                      "the path was replaced or modified while it was opened: its size (64 bytes,"
                          + " now 67), modification time (2020-01-01T00:00:00.000000000Z, now ")
                  .endsWith(") and inode change time changed");
            });
  }

  interface Change {
    void apply() throws IOException;
  }

  /**
   * Applies {@code change} when the full hash reaches {@code atByte} and expects {@code
   * target_changed} whose message starts with (or, when it does not start with "the file's",
   * contains) {@code says}: what changed, named.
   */
  private void assertChangedDuringHash(Path p, long atByte, String says, Change change)
      throws Exception {
    AtomicBoolean done = new AtomicBoolean();
    ModelInspector.Listener hook =
        new ModelInspector.Listener() {
          @Override
          public void beforeHashRead(long offset) {
            if (!done.get() && offset >= atByte) {
              done.set(true);
              try {
                change.apply();
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            }
          }
        };
    assertThat(Refusal.of(inspector(FileAccess.system()), p, HashMode.FULL, hook, Cancellation.none()))
        .satisfies(
            e -> {
              assertThat(e.constraint()).isEqualTo(Constraint.TARGET_CHANGED);
              assertThat(e.path()).isEqualTo(p.toString());
              if (says.startsWith("the file's")) {
                assertThat(e.getMessage()).startsWith(says);
              } else {
                assertThat(e.getMessage()).contains(says);
              }
              assertThat(e.getMessage()).doesNotContain(" or ");
              assertPartial(e.partialEvidence());
            });
    assertThat(done).isTrue();
  }

  private static void assertPartial(EvidenceRecord partial) {
    assertThat(partial).isNotNull();
    assertThat(partial.status()).isEqualTo("partial");
    assertThat(partial.artifact().sha256()).isNull();
    assertThat(partial.subject()).isNull();
    assertThat(partial.artifact().headerSha256()).isNotNull();
    assertThat(partial.coverage().header()).isEqualTo(Coverage.COMPLETE);
    assertThat(partial.coverage().digest()).isEqualTo(Coverage.UNKNOWN);
    assertThat(partial.coverage().finalIdentity()).isEqualTo(Coverage.UNVERIFIED);
    assertThat(partial.artifact().identity().verified()).isFalse();
    assertThat(partial.evidenceId()).isEqualTo(EvidenceIds.compute(partial));
  }

  @Test
  void cancellationDuringFullHashKeepsPartialEvidence() throws Exception {
    Path p = file(4 << 20);
    Cancellation cancel = new Cancellation();
    ModelInspector.Listener hook =
        new ModelInspector.Listener() {
          @Override
          public void onHashProgress(long done, long total) {
            if (done >= (2 << 20)) {
              cancel.cancel();
            }
          }
        };
    assertThat(Refusal.of(inspector(FileAccess.system()), p, HashMode.FULL, hook, cancel))
        .satisfies(
            e -> {
              assertThat(e.constraint()).isEqualTo(Constraint.CANCELLED);
              assertThat(e.code().exitStatus()).isEqualTo(130);
              assertPartial(e.partialEvidence());
              assertThat(e.partialEvidence().artifact().bytesRead()).isLessThan(4 << 20);
            });
  }

  @Test
  void ioErrorDuringFullHashIsExecutionFailureWithDiagnosticsAndPartialEvidence() throws Exception {
    Path p = file(3 << 20);
    FaultyFileAccess access =
        new FaultyFileAccess(FileAccess.system(), (2 << 20) + 17, FaultyFileAccess::eio);
    assertThat(Refusal.of(inspector(access), p, HashMode.FULL))
        .satisfies(
            e -> {
              assertThat(e.constraint()).isEqualTo(Constraint.IO_ERROR);
              assertThat(e.code().exitStatus()).isEqualTo(4);
              assertThat(e.path()).isEqualTo(p.toString());
              assertThat(e.diagnostics()).containsEntry("reason", "Input/output error");
              assertPartial(e.partialEvidence());
              assertThat(e.partialEvidence().artifact().bytesRead()).isEqualTo((2 << 20) + 17);
            });
    assertThat(access.closed()).isEqualTo(1);
  }

  @Test
  void ioErrorInsideTheHeaderIsExecutionFailureWithoutPartialEvidence() throws Exception {
    Path p = file(1 << 20);
    FaultyFileAccess access = new FaultyFileAccess(FileAccess.system(), 8, FaultyFileAccess::eio);
    assertThat(Refusal.of(inspector(access), p, HashMode.HEADER))
        .satisfies(
            e -> {
              assertThat(e.constraint()).isEqualTo(Constraint.IO_ERROR);
              assertThat(e.partialEvidence()).isNull();
              assertThat(e.offset()).isEqualTo(8L);
            });
    assertThat(access.closed()).isEqualTo(1);
  }

  @Test
  void missingDirectoryRelativeAndDeniedPathsAreTyped() throws Exception {
    ModelInspector ins = inspector(FileAccess.system());
    assertThat(Refusal.of(ins, dir.resolve("absent.gguf"), HashMode.HEADER))
        .satisfies(
            e -> assertThat(e.constraint()).isEqualTo(Constraint.NOT_FOUND));
    assertThat(Refusal.of(ins, dir, HashMode.HEADER))
        .satisfies(
            e -> assertThat(e.constraint()).isEqualTo(Constraint.NOT_REGULAR_FILE));
    assertThat(Refusal.of(ins, Path.of("relative.gguf"), HashMode.HEADER))
        .satisfies(
            e -> {
              assertThat(e.constraint()).isEqualTo(Constraint.RELATIVE_PATH);
              assertThat(e.code().exitStatus()).isEqualTo(2);
            });
    Path p = file(64);
    FileAccess denied = dev.rea.core.testing.FaultyFileAccess.deniedOpen();
    assertThat(Refusal.of(inspector(denied), p, HashMode.HEADER))
        .satisfies(
            e -> {
              assertThat(e.constraint()).isEqualTo(Constraint.PERMISSION_DENIED);
              assertThat(e.code().exitStatus()).isEqualTo(3);
            });
    FileAccess tooMany = dev.rea.core.testing.FaultyFileAccess.failingOpen("Too many open files");
    assertThat(Refusal.of(inspector(tooMany), p, HashMode.HEADER))
        .satisfies(
            e -> {
              assertThat(e.constraint()).isEqualTo(Constraint.IO_ERROR);
              assertThat(e.diagnostics()).containsEntry("reason", "Too many open files");
            });
  }

  @Test
  void aSymbolicLinkWhoseTargetIsMissingIsNamedAsSuch() throws Exception {
    ModelInspector ins = inspector(FileAccess.system());
    Path absent = dir.resolve("absent.gguf");
    assertThat(Refusal.of(ins, absent, HashMode.HEADER))
        .satisfies(
            e -> assertThat(e.getMessage()).isEqualTo("no such file: " + absent));
    Path link = Files.createSymbolicLink(dir.resolve("model.gguf"), Path.of("blobs/sha256-0123"));
    assertThat(Refusal.of(ins, link, HashMode.HEADER))
        .satisfies(
            e -> {
              assertThat(e.constraint()).isEqualTo(Constraint.NOT_FOUND);
              assertThat(e.code().exitStatus()).isEqualTo(3);
              assertThat(e.getMessage())
                  .isEqualTo(
                      link
                          + " is a symbolic link whose target does not exist (it points to"
                          + " blobs/sha256-0123)");
              assertThat(e.path()).isEqualTo(link.toString());
            });
  }

  @Test
  void aFileShorterThanItsHeaderIsRejectedAndTheChannelClosed() throws Exception {
    Path p = dir.resolve("short.gguf");
    Files.write(p, new byte[] {'G', 'G', 'U', 'F', 3, 0});
    FaultyFileAccess access =
        new FaultyFileAccess(FileAccess.system(), Long.MAX_VALUE, FaultyFileAccess::eio);
    assertThat(Refusal.of(inspector(access), p, HashMode.HEADER))
        .satisfies(
            e -> {
              assertThat(e.constraint()).isEqualTo(Constraint.FILE_FORMAT_REJECTED);
              assertThat(e.offset()).isEqualTo(0L);
            });
    assertThat(access.opened()).isEqualTo(1);
    assertThat(access.closed()).isEqualTo(1);
  }

  @Test
  void headerDigestIsIndependentOfReadAheadSize() throws Exception {
    Path p = file(200_000);
    byte[] all = Files.readAllBytes(p);
    EvidenceRecord r = inspector(FileAccess.system()).inspect(p, HashMode.FULL);
    assertThat(r.artifact().headerSha256())
        .isEqualTo(HexFormat.of().formatHex(EvidenceIds.sha256().digest(Arrays.copyOf(all, HEADER))));
    assertThat(r.artifact().sha256()).isEqualTo(sha256(all));
  }

  static byte[] bigGguf() {
    return dev.rea.core.testing.HostileFiles.bigGguf();
  }

  static byte[] bigSafetensors() {
    return dev.rea.core.testing.HostileFiles.bigSafetensors();
  }

  /**
   * Rename-over, truncation, append and in-place rewrite while the standard inspector hashes a
   * real GGUF or safetensors file: the hash loop's hook pauses at a chosen byte (past 1 MiB) and
   * the file is changed there. Each is {@code target_changed} with partial Evidence holding every
   * validated row; never a digest.
   */
  @Nested
  class RealFiles {
    @ParameterizedTest(name = "GGUF, {0}")
    @EnumSource(dev.rea.core.testing.FileChanges.class)
    void ggufChangedDuringFullHash(dev.rea.core.testing.FileChanges change) throws Exception {
      changedDuringHash("real.gguf", bigGguf(), change);
    }

    @ParameterizedTest(name = "safetensors, {0}")
    @EnumSource(dev.rea.core.testing.FileChanges.class)
    void safetensorsChangedDuringFullHash(dev.rea.core.testing.FileChanges change) throws Exception {
      changedDuringHash("real.safetensors", bigSafetensors(), change);
    }

    private void changedDuringHash(String name, byte[] bytes, dev.rea.core.testing.FileChanges change)
        throws Exception {
      Path p = dir.resolve(name);
      Files.write(p, bytes);
      dev.rea.core.testing.FileChanges.age(p);
      EvidenceRecord complete = ModelInspector.standard().inspect(p, HashMode.FULL);
      assertThat(complete.artifact().sha256()).isEqualTo(sha256(bytes));
      long pauseAt = (1 << 20) + 4096;
      AtomicBoolean fired = new AtomicBoolean();
      long[] pausedAt = {-1};
      ModelInspector.Listener hook =
          new ModelInspector.Listener() {
            @Override
            public void beforeHashRead(long offset) {
              if (offset >= pauseAt && fired.compareAndSet(false, true)) {
                pausedAt[0] = offset;
                try {
                  change.apply(p);
                } catch (IOException e) {
                  throw new IllegalStateException(e);
                }
              }
            }
          };
      Refusal e = Refusal.of(ModelInspector.standard(), p, HashMode.FULL, hook, Cancellation.none());
      assertThat(fired).isTrue();
      assertThat(pausedAt[0]).isGreaterThanOrEqualTo(pauseAt).isLessThan(bytes.length);
      assertThat(e).as("%s must not produce a digest", change).isNotNull();
      assertThat(e.constraint()).isEqualTo(Constraint.TARGET_CHANGED);
      assertThat(e.diagnostics()).containsEntry("path", p.toString()).containsKey("reason");
      HostFailureTest.assertPartialOf(complete, e.partialEvidence());
    }
  }
}
