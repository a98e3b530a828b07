package dev.rea.core.internal.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ErrorCode;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.io.FileAccess;
import dev.rea.core.internal.io.FileSnapshot;
import dev.rea.core.testing.FileChanges;
import dev.rea.core.testing.HookedFileAccess;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@link EvidenceFiles#read}: what is too large, what changed, what has no fixed size. */
class EvidenceFilesTest {
  @TempDir Path tmp;

  static ReaException refused(Path p, long max, FileAccess access, Constraint constraint) {
    try {
      EvidenceFiles.read(p, max, access);
    } catch (ReaException e) {
      assertThat(e.constraint()).as(e.getMessage()).isEqualTo(constraint);
      assertThat(e.path()).isEqualTo(p.toString());
      assertThat(e.getMessage()).doesNotContain("more than " + max);
      return e;
    }
    throw new AssertionError("read " + p);
  }

  private Path file(int size) throws IOException {
    byte[] b = new byte[size];
    Arrays.fill(b, (byte) 'x');
    Path p = tmp.resolve("e.json");
    Files.write(p, b);
    return p;
  }

  @Test
  void aFileThatGrowsWhileReadChangedRatherThanIsTooLarge() throws Exception {
    Path p = file(100);
    HookedFileAccess grows = new HookedFileAccess(FileAccess.system(), 100, FileChanges.APPEND.on(p));
    ReaException e = refused(p, 1000, grows, Constraint.TARGET_CHANGED);
    assertThat(grows.fired()).isTrue();
    assertThat(e.code()).isEqualTo(ErrorCode.EXECUTION_FAILURE);
    assertThat(e.getMessage()).isEqualTo("the evidence file " + p + " changed while it was read:"
        + " it held 100 bytes when opened and yielded more");
    assertThat(e.diagnostics()).containsEntry("size_at_open", "100")
        .doesNotContainKey("requested_bytes");
    assertThat(grows.closed()).isEqualTo(grows.opened()).isEqualTo(1);
    // Also when the file is exactly at the limit: it is not "too large", it changed.
    HookedFileAccess atLimit = new HookedFileAccess(FileAccess.system(), 103, FileChanges.APPEND.on(p));
    assertThat(refused(p, 103, atLimit, Constraint.TARGET_CHANGED).diagnostics())
        .containsEntry("size_at_open", "103");
  }

  @Test
  void aFileThatShrinksWhileReadChanged() throws Exception {
    Path p = file(99);
    HookedFileAccess shrinks = new HookedFileAccess(FileAccess.system(), 0, FileChanges.TRUNCATE.on(p));
    ReaException e = refused(p, 1000, shrinks, Constraint.TARGET_CHANGED);
    assertThat(e.getMessage()).endsWith("changed while it was read: it ended after 66 of the 99"
        + " bytes it held when opened");
  }

  @Test
  void onlyASizeAboveTheLimitIsTooLarge() throws Exception {
    Path p = file(101);
    ReaException e = refused(p, 100, FileAccess.system(), Constraint.EVIDENCE_REJECTED);
    assertThat(e.getMessage())
        .isEqualTo("evidence rejected: the file holds 101 bytes, more than the limit of 100 bytes");
    assertThat(e.diagnostics()).containsEntry("limit", "evidence_input_bytes")
        .containsEntry("limit_bytes", "100").containsEntry("requested_bytes", "101");
    assertThat(EvidenceFiles.read(p, 101)).hasSize(101);
  }

  @Test
  @Timeout(20)
  void procSelfStatusIsNotARegularFileWithAFixedSize() throws Exception {
    Path status = Path.of("/proc/self/status");
    boolean linuxProc = Files.isRegularFile(status) && Files.size(status) == 0;
    if (!linuxProc) {
      System.out.println("skipped: no /proc/self/status of size 0 here");
    }
    assumeTrue(linuxProc);
    ReaException e = refused(status, 64L << 20, FileAccess.system(), Constraint.NOT_REGULAR_FILE);
    assertThat(e.code()).isEqualTo(ErrorCode.TARGET_UNAVAILABLE);
    assertThat(e.getMessage()).isEqualTo("the evidence path is not a regular file with a fixed size"
        + " (its size reads as 0 but it yields bytes): /proc/self/status");
    assertThat(e.diagnostics()).containsEntry("size_at_open", "0")
        .doesNotContainKey("requested_bytes");
  }

  /** A "regular file" that reports size 0 but yields bytes, as procfs files do, on any OS. */
  static final class SizeZero implements FileAccess {
    @Override
    public FileSnapshot stat(Path path) {
      return new FileSnapshot(true, false, 0, null, null, 0, "1970-01-01T00:00:00Z");
    }

    @Override
    public SeekableByteChannel open(Path path) {
      ByteBuffer content = ByteBuffer.wrap("Name:\tjava\n".getBytes());
      return new SeekableByteChannel() {
        boolean open = true;

        @Override
        public int read(ByteBuffer dst) {
          if (!content.hasRemaining()) {
            return -1;
          }
          int n = Math.min(dst.remaining(), content.remaining());
          ByteBuffer slice = content.slice();
          slice.limit(n);
          dst.put(slice);
          content.position(content.position() + n);
          return n;
        }

        @Override
        public int write(ByteBuffer src) {
          throw new UnsupportedOperationException();
        }

        @Override
        public long position() {
          return content.position();
        }

        @Override
        public SeekableByteChannel position(long p) {
          throw new UnsupportedOperationException();
        }

        @Override
        public long size() {
          return 0;
        }

        @Override
        public SeekableByteChannel truncate(long size) {
          throw new UnsupportedOperationException();
        }

        @Override
        public boolean isOpen() {
          return open;
        }

        @Override
        public void close() {
          open = false;
        }
      };
    }
  }

  /** Failures are said in words, with the file they concern, never as a Java class name. */
  @Test
  void failureReasonsNameTheProblemAndTheFileNotTheJavaClass() {
    assertThat(EvidenceFiles.reason(new java.nio.file.NoSuchFileException("/proc/.v.tmp")))
        .isEqualTo("No such file or directory (/proc/.v.tmp)");
    assertThat(EvidenceFiles.reason(new java.nio.file.AccessDeniedException("/a/b")))
        .isEqualTo("Permission denied (/a/b)");
    assertThat(EvidenceFiles.reason(new java.nio.file.NotDirectoryException("/a")))
        .isEqualTo("Not a directory (/a)");
    assertThat(EvidenceFiles.reason(new java.nio.file.FileAlreadyExistsException("/a")))
        .isEqualTo("File exists (/a)");
    assertThat(EvidenceFiles.reason(
            new java.nio.file.FileSystemException("/ro/x", null, "Read-only file system")))
        .isEqualTo("Read-only file system (/ro/x)");
    assertThat(EvidenceFiles.reason(new IOException("No space left on device")))
        .isEqualTo("No space left on device");
    assertThat(EvidenceFiles.reason(new IOException())).isEqualTo("IOException");
  }

  /**
   * Writing into /proc (Linux) fails at the temporary file: the message says so in words, and
   * the target is left as it was.
   */
  @Test
  void aWriteThatCannotCreateItsTemporaryFileSaysSoInWords() throws Exception {
    Path version = Path.of("/proc/version");
    boolean linuxProc = Files.isRegularFile(version);
    if (!linuxProc) {
      System.out.println("skipped: no /proc/version here");
    }
    assumeTrue(linuxProc);
    byte[] before = Files.readAllBytes(version);
    ReaException e =
        org.assertj.core.api.Assertions.catchThrowableOfType(
            ReaException.class, () -> EvidenceFiles.writeAtomically(version, new byte[] {'{', '}'}));
    assertThat(e.constraint()).isEqualTo(Constraint.IO_ERROR);
    assertThat(e.getMessage())
        .startsWith("writing the evidence file /proc/version failed: ")
        .contains("(/proc/")
        .doesNotContain("Exception");
    assertThat(e.diagnostics()).containsKey("exception");
    assertThat(Files.readAllBytes(version)).isEqualTo(before);
  }

  @Test
  void aSizeZeroFileThatYieldsBytesHasNoFixedSize() {
    Path p = tmp.resolve("status");
    ReaException e = refused(p, 1000, new SizeZero(), Constraint.NOT_REGULAR_FILE);
    assertThat(e.getMessage()).contains("not a regular file with a fixed size");
  }

  @Test
  void anEmptyFileIsReadAsEmptyAndADirectoryOrMissingPathIsRefused() throws Exception {
    Path empty = Files.write(tmp.resolve("empty.json"), new byte[0]);
    assertThat(EvidenceFiles.read(empty, 10)).isEmpty();
    assertThatThrownBy(() -> EvidenceFiles.read(tmp, 10)).isInstanceOfSatisfying(
        ReaException.class, e -> assertThat(e.constraint()).isEqualTo(Constraint.NOT_REGULAR_FILE));
    assertThatThrownBy(() -> EvidenceFiles.read(tmp.resolve("none.json"), 10))
        .isInstanceOfSatisfying(ReaException.class,
            e -> {
              assertThat(e.constraint()).isEqualTo(Constraint.NOT_FOUND);
              assertThat(e.getMessage()).isEqualTo("no such evidence file: " + tmp.resolve("none.json"));
            });
  }

  @Test
  void aSymbolicLinkWhoseTargetIsMissingIsNamedAsSuch() throws Exception {
    Path link = Files.createSymbolicLink(tmp.resolve("ev.json"), tmp.resolve("gone.json"));
    assertThatThrownBy(() -> EvidenceFiles.read(link, 10))
        .isInstanceOfSatisfying(ReaException.class,
            e -> {
              assertThat(e.constraint()).isEqualTo(Constraint.NOT_FOUND);
              assertThat(e.getMessage())
                  .isEqualTo(link + " is a symbolic link whose target does not exist (it points to "
                      + tmp.resolve("gone.json") + ")");
            });
  }

  @Test
  void linksThatLoopAndAFileUsedAsADirectoryAreMissingNotHostFailures() throws Exception {
    // The specification: a missing or otherwise unusable selected path is target_unavailable,
    // as it is for a model path (ModelInspector); these were io_error (execution_failure).
    Path a = tmp.resolve("loop-a.json");
    Path b = tmp.resolve("loop-b.json");
    Files.createSymbolicLink(a, b);
    Files.createSymbolicLink(b, a);
    Path underFile = file(4).resolve("x.json");
    for (Path p : new Path[] {a, underFile}) {
      ReaException e = refused(p, 10, FileAccess.system(), Constraint.NOT_FOUND);
      assertThat(e.code()).isEqualTo(ErrorCode.TARGET_UNAVAILABLE);
      assertThat(e.getMessage()).startsWith("no such evidence file: " + p + " (");
    }
  }
}
