package dev.rea.core.internal.inspect;

import static dev.rea.core.internal.format.gguf.GgufBuilder.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ErrorCategory;
import dev.rea.core.error.ErrorCode;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Coverage;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.format.safetensors.SafetensorsBuilder;
import dev.rea.core.internal.io.FileAccess;
import dev.rea.core.internal.io.FileSnapshot;
import dev.rea.core.internal.io.HeaderInput;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.Limits;
import dev.rea.core.testing.FaultyFileAccess;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Host failures on real GGUF and safetensors files (specification, "Identity and reads";
 * CONTRACT sections 6 and 8): a read that fails at any byte of the header or of the data
 * section, a permission removed while reading, EMFILE, a path that vanishes or becomes
 * unexaminable after it was opened, and missing, non-regular or unreadable paths. Every failure
 * is typed, carries the path and the reason in {@code details.diagnostics}, keeps partial
 * Evidence exactly when the header had validated, and closes the descriptor before returning.
 */
class HostFailureTest {
  @TempDir Path dir;

  static byte[] gguf() {
    return dev.rea.core.testing.HostileFiles.gguf();
  }

  static byte[] safetensors() {
    return dev.rea.core.testing.HostileFiles.safetensors();
  }

  private static ModelInspector inspector(FileAccess access) {
    return ModelInspector.withAccess(Limits.defaults(), access);
  }

  private Path write(String name, byte[] bytes) throws IOException {
    return Files.write(dir.resolve(name), bytes);
  }

  /** Every header byte, and data-section bytes at a stride plus the boundaries. */
  private static List<Long> positions(long headerLength, long size) {
    TreeSet<Long> p = new TreeSet<>();
    for (long i = 0; i <= headerLength; i++) {
      p.add(i);
    }
    for (long i = headerLength; i < size; i += 4093) {
      p.add(i);
    }
    for (long i : new long[] {
      HeaderInput.INITIAL_READ - 1, HeaderInput.INITIAL_READ, HeaderInput.INITIAL_READ + 1,
      size - 2, size - 1
    }) {
      if (i >= 0 && i < size) {
        p.add(i);
      }
    }
    return new ArrayList<>(p);
  }

  @Test
  void eioAtEveryByteOfAGgufHeaderAndDataSection() throws Exception {
    byte[] bytes = gguf();
    assertThat(bytes.length).isGreaterThan(HeaderInput.INITIAL_READ * 2);
    failEverywhere(write("host.gguf", bytes), bytes.length);
  }

  @Test
  void eioAtEveryByteOfASafetensorsHeaderAndDataSection() throws Exception {
    byte[] bytes = safetensors();
    assertThat(bytes.length).isGreaterThan(HeaderInput.INITIAL_READ * 2);
    failEverywhere(write("host.safetensors", bytes), bytes.length);
  }

  private void failEverywhere(Path p, long size) throws Exception {
    EvidenceRecord complete = inspector(FileAccess.system()).inspect(p, HashMode.FULL);
    long headerLength = complete.artifact().headerLength();
    // Nothing past the header is read before it validates (detection included), so a failure
    // at any later byte finds a validated header.
    long validatedFrom = validatedFrom(headerLength, size);
    int partials = 0;
    int headerFailures = 0;
    for (long at : positions(validatedFrom, size)) {
      // Full hash: every byte of the file is read, so every position fails.
      FaultyFileAccess access = new FaultyFileAccess(FileAccess.system(), at, FaultyFileAccess::eio);
      Refusal e = Refusal.of(inspector(access), p, HashMode.FULL);
      assertThat(e).as("EIO at byte %d", at).isNotNull();
      assertThat(e.constraint()).as("at %d: %s", at, e.getMessage()).isEqualTo(Constraint.IO_ERROR);
      assertThat(e.code()).isEqualTo(ErrorCode.EXECUTION_FAILURE);
      assertThat(e.category()).isEqualTo(ErrorCategory.HOST_FAILURE);
      assertThat(e.offset()).as("offset of the failed read").isEqualTo(at);
      assertThat(e.path()).isEqualTo(p.toString());
      assertThat(e.diagnostics())
          .containsEntry("path", p.toString())
          .containsEntry("reason", "Input/output error")
          .containsEntry("offset", Long.toString(at));
      assertThat(access.failedAt()).isEqualTo(at);
      assertThat(access.opened()).isEqualTo(1);
      assertThat(access.closed()).as("descriptor closed before the call returned").isEqualTo(1);
      if (at < validatedFrom) {
        // Before the header validated: nothing unvalidated is exposed.
        assertThat(e.partialEvidence()).as("at %d", at).isNull();
        headerFailures++;
      } else {
        assertPartialOf(complete, e.partialEvidence());
        assertThat(e.partialEvidence().artifact().bytesRead()).isEqualTo(at);
        partials++;
      }
      // Header mode reads only the header: it fails inside it and succeeds after it.
      FaultyFileAccess headerOnly =
          new FaultyFileAccess(FileAccess.system(), at, FaultyFileAccess::eio);
      if (at < validatedFrom) {
        Refusal h = Refusal.of(inspector(headerOnly), p, HashMode.HEADER);
        assertThat(h.constraint()).isEqualTo(Constraint.IO_ERROR);
        assertThat(h.offset()).isEqualTo(at);
        assertThat(h.partialEvidence()).isNull();
      } else {
        EvidenceRecord r = inspector(headerOnly).inspect(p, HashMode.HEADER);
        assertThat(r.status()).isEqualTo("complete");
        assertThat(r.tensors()).isEqualTo(complete.tensors());
        assertThat(r.artifact().headerSha256()).isEqualTo(complete.artifact().headerSha256());
      }
      assertThat(headerOnly.closed()).isEqualTo(headerOnly.opened()).isEqualTo(1);
    }
    assertThat(headerFailures).isEqualTo(validatedFrom);
    assertThat(partials).isGreaterThan(10);
  }

  /**
   * @return the first offset whose failure comes after the header validated: the header's end,
   *     since the header mode reads only the header (specification, "Identity and reads")
   */
  static long validatedFrom(long headerLength, long size) {
    return Math.min(headerLength, size);
  }

  /** Partial Evidence keeps every validated row; digests unknown, identity unverified. */
  static void assertPartialOf(EvidenceRecord complete, EvidenceRecord partial) {
    assertThat(partial).isNotNull();
    assertThat(partial.status()).isEqualTo("partial");
    assertThat(partial.metadata()).isEqualTo(complete.metadata());
    assertThat(partial.tensors()).isEqualTo(complete.tensors());
    assertThat(partial.types()).isEqualTo(complete.types());
    assertThat(partial.totals()).isEqualTo(complete.totals());
    assertThat(partial.formatFacts()).isEqualTo(complete.formatFacts());
    assertThat(partial.artifact().headerSha256()).isEqualTo(complete.artifact().headerSha256());
    assertThat(partial.artifact().headerLength()).isEqualTo(complete.artifact().headerLength());
    assertThat(partial.artifact().sha256()).isNull();
    assertThat(partial.subject()).isNull();
    assertThat(partial.coverage().header()).isEqualTo(Coverage.COMPLETE);
    assertThat(partial.coverage().digest()).isEqualTo(Coverage.UNKNOWN);
    assertThat(partial.coverage().finalIdentity()).isEqualTo(Coverage.UNVERIFIED);
    assertThat(partial.artifact().identity().verified()).isFalse();
    assertThat(partial.evidenceId()).isEqualTo(EvidenceIds.compute(partial));
  }

  @Test
  void aFileOfSizeZeroThatYieldsBytesIsNotRegularAndAnEmptyOneIsEmpty() throws Exception {
    Path status = Path.of("/proc/self/status");
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Files.isRegularFile(status) && Files.size(status) == 0, "needs Linux /proc");
    Refusal e = Refusal.of(inspector(FileAccess.system()), status, HashMode.HEADER);
    assertThat(e.code()).as(e.getMessage()).isEqualTo(ErrorCode.TARGET_UNAVAILABLE);
    assertThat(e.constraint()).isEqualTo(Constraint.NOT_REGULAR_FILE);
    assertThat(e.getMessage())
        .isEqualTo("the path is not a regular file with a fixed size (its size reads as 0 but it"
            + " yields bytes): /proc/self/status");
    Path empty = write("empty.gguf", new byte[0]);
    Refusal none = Refusal.of(inspector(FileAccess.system()), empty, HashMode.HEADER);
    assertThat(none.constraint()).as(none.getMessage()).isEqualTo(Constraint.UNSUPPORTED_FORMAT);
    assertThat(none.getMessage()).contains("the file is empty");
  }

  @Test
  void aPermissionRemovedWhileReadingIsAnExecutionFailureNotAnUnavailableTarget() throws Exception {
    byte[] bytes = gguf();
    Path p = write("revoked.gguf", bytes);
    EvidenceRecord complete = inspector(FileAccess.system()).inspect(p, HashMode.FULL);
    Supplier<IOException> revoked = () -> new AccessDeniedException(p.toString());
    for (long at : new long[] {10, complete.artifact().headerLength() + 5, bytes.length - 1}) {
      FaultyFileAccess access = new FaultyFileAccess(FileAccess.system(), at, revoked);
      Refusal e = Refusal.of(inspector(access), p, HashMode.FULL);
      assertThat(e.constraint()).isEqualTo(Constraint.IO_ERROR);
      assertThat(e.diagnostics())
          .containsEntry("reason", "Permission denied")
          .containsEntry("path", p.toString());
      assertThat(access.closed()).isEqualTo(1);
      if (at >= validatedFrom(complete.artifact().headerLength(), bytes.length)) {
        assertPartialOf(complete, e.partialEvidence());
      } else {
        assertThat(e.partialEvidence()).isNull();
      }
    }
  }

  /** A seam whose {@code stat} answers normally {@code okStats} times, then fails. */
  private static FileAccess statFailsAfter(int okStats, Supplier<IOException> failure) {
    AtomicInteger stats = new AtomicInteger();
    return new FileAccess() {
      @Override
      public FileSnapshot stat(Path path) throws IOException {
        if (stats.incrementAndGet() > okStats) {
          throw failure.get();
        }
        return FileAccess.system().stat(path);
      }

      @Override
      public SeekableByteChannel open(Path path) throws IOException {
        return FileAccess.system().open(path);
      }
    };
  }

  @Test
  void aPathThatVanishesOrBecomesUnexaminableAfterOpeningIsAHostFailure() throws Exception {
    byte[] bytes = safetensors();
    Path p = write("vanish.safetensors", bytes);
    EvidenceRecord complete = inspector(FileAccess.system()).inspect(p, HashMode.FULL);
    // Stat 1 selects the path, stat 2 checks the opened file, stat 3 ends the read.
    Refusal gone = Refusal.of(inspector(statFailsAfter(2, () -> new NoSuchFileException(p.toString()))), p, HashMode.FULL);
    assertThat(gone.constraint()).isEqualTo(Constraint.TARGET_CHANGED);
    assertThat(gone.diagnostics()).containsEntry("path", p.toString()).containsKey("reason");
    assertPartialOf(complete, gone.partialEvidence());

    Refusal denied = Refusal.of(inspector(statFailsAfter(2, () -> new AccessDeniedException(p.toString()))), p, HashMode.HEADER);
    assertThat(denied.constraint()).isEqualTo(Constraint.IO_ERROR);
    assertThat(denied.code()).isEqualTo(ErrorCode.EXECUTION_FAILURE);
    assertThat(denied.diagnostics())
        .containsEntry("reason", "Permission denied")
        .containsEntry("path", p.toString());
    assertThat(denied.partialEvidence()).isNotNull();
    assertThat(denied.partialEvidence().status()).isEqualTo("partial");

    Refusal early = Refusal.of(inspector(statFailsAfter(1, () -> new NoSuchFileException(p.toString()))), p, HashMode.HEADER);
    assertThat(early.constraint()).isEqualTo(Constraint.TARGET_CHANGED);
    assertThat(early.partialEvidence()).as("nothing validated yet").isNull();
  }

  @Test
  void emfileAndEioAtOpenAreExecutionFailuresWithPathAndReason() throws Exception {
    Path p = write("emfile.gguf", gguf());
    for (String reason : new String[] {"Too many open files", "Input/output error"}) {
      FileAccess failing = dev.rea.core.testing.FaultyFileAccess.failingOpen(reason);
      Refusal e = Refusal.of(inspector(failing), p, HashMode.HEADER);
      assertThat(e.constraint()).isEqualTo(Constraint.IO_ERROR);
      assertThat(e.code()).isEqualTo(ErrorCode.EXECUTION_FAILURE);
      assertThat(e.diagnostics()).containsEntry("reason", reason).containsEntry("path", p.toString());
      assertThat(e.partialEvidence()).isNull();
    }
  }

  /**
   * With no descriptor left, the first open of a process fails while the JDK loads its file
   * channel classes: an {@link ExceptionInInitializerError} around the {@code IOException}, and a
   * {@link NoClassDefFoundError} on later opens. Both are host failures, not defects.
   */
  @Test
  void aFileChannelThatCannotBeLoadedIsAnExecutionFailureNotAnInternalError() throws Exception {
    Path p = write("emfile-init.gguf", gguf());
    Throwable[] failures = {
      new ExceptionInInitializerError(new IOException("Too many open files")),
      new NoClassDefFoundError("Could not initialize class sun.nio.ch.FileChannelImpl"),
    };
    String[] reasons = {
      "Too many open files",
      "the JDK could not load its file I/O support (java.lang.NoClassDefFoundError: Could not"
          + " initialize class sun.nio.ch.FileChannelImpl): descriptors or memory may have run out",
    };
    for (int i = 0; i < failures.length; i++) {
      Throwable thrown = failures[i];
      FileAccess failing =
          FaultyFileAccess.openedBy(
              path -> {
                if (thrown instanceof Error err) {
                  throw err;
                }
                throw new AssertionError(thrown);
              });
      Refusal e = Refusal.of(inspector(failing), p, HashMode.HEADER);
      assertThat(e).as(thrown.toString()).isNotNull();
      assertThat(e.code()).isEqualTo(ErrorCode.EXECUTION_FAILURE);
      assertThat(e.constraint()).isEqualTo(Constraint.IO_ERROR);
      assertThat(e.diagnostics()).containsEntry("reason", reasons[i]).containsEntry("path", p.toString());
    }
  }

  @Test
  void missingNonRegularAndUnreadablePathsAreTargetUnavailable() throws Exception {
    ModelInspector system = inspector(FileAccess.system());
    Refusal missing = Refusal.of(system, dir.resolve("absent.safetensors"), HashMode.HEADER);
    assertThat(missing.constraint()).isEqualTo(Constraint.NOT_FOUND);
    assertThat(missing.code()).isEqualTo(ErrorCode.TARGET_UNAVAILABLE);
    assertThat(missing.category()).isEqualTo(ErrorCategory.MISSING_TARGET);

    Refusal underAFile = Refusal.of(system, write("plain", new byte[1]).resolve("x.gguf"), HashMode.HEADER);
    assertThat(underAFile.constraint()).isEqualTo(Constraint.NOT_FOUND);

    // A symbolic link loop (ELOOP) and a name too long (ENAMETOOLONG) cannot name a file either.
    Path loopA = dir.resolve("loop-a.gguf");
    Path loopB = dir.resolve("loop-b.gguf");
    java.nio.file.Files.createSymbolicLink(loopA, loopB);
    java.nio.file.Files.createSymbolicLink(loopB, loopA);
    Refusal loop = Refusal.of(system, loopA, HashMode.HEADER);
    assertThat(loop.constraint()).isEqualTo(Constraint.NOT_FOUND);
    assertThat(loop.getMessage()).contains("symbolic links");
    Refusal tooLong = Refusal.of(system, dir.resolve("n".repeat(300)), HashMode.HEADER);
    assertThat(tooLong.constraint()).isEqualTo(Constraint.NOT_FOUND);
    assertThat(tooLong.getMessage()).contains("File name too long");

    Refusal directory = Refusal.of(system, dir, HashMode.HEADER);
    assertThat(directory.constraint()).isEqualTo(Constraint.NOT_REGULAR_FILE);
    assertThat(directory.code()).isEqualTo(ErrorCode.TARGET_UNAVAILABLE);

    Path fifo = dir.resolve("pipe.gguf");
    Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
    if (mk.waitFor() == 0) {
      Refusal pipe = Refusal.of(system, fifo, HashMode.HEADER);
      assertThat(pipe.constraint()).isEqualTo(Constraint.NOT_REGULAR_FILE);
    }

    // Unreadable: the tests may run as root, who reads anything, so the seam denies the open.
    Path p = write("unreadable.gguf", gguf());
    FileAccess denied = dev.rea.core.testing.FaultyFileAccess.deniedOpen();
    Refusal unreadable = Refusal.of(inspector(denied), p, HashMode.HEADER);
    assertThat(unreadable.constraint()).isEqualTo(Constraint.PERMISSION_DENIED);
    assertThat(unreadable.code()).isEqualTo(ErrorCode.TARGET_UNAVAILABLE);
    assertThat(unreadable.category()).isEqualTo(ErrorCategory.MISSING_TARGET);
    assertThat(unreadable.path()).isEqualTo(p.toString());
  }

  @Test
  void cancellationAtChosenBytesKeepsPartialEvidenceOnlyAfterTheHeader() throws Exception {
    byte[] bytes = safetensors();
    Path p = write("cancel.safetensors", bytes);
    EvidenceRecord complete = inspector(FileAccess.system()).inspect(p, HashMode.FULL);
    long headerLength = complete.artifact().headerLength();
    long validatedFrom = validatedFrom(headerLength, bytes.length);
    for (long at : new long[] {0, 8, headerLength / 2, headerLength - 1, validatedFrom - 1,
        validatedFrom, validatedFrom + 1, bytes.length / 2, bytes.length - 1}) {
      // The "failure" cancels and then reports an interrupted read, as a SIGINT would.
      CancelAt.Cancelled c = CancelAt.inspect(p, at, HashMode.FULL);
      Refusal e = c.failure();
      FaultyFileAccess access = c.access();
      assertThat(e.constraint()).as("at %d", at).isEqualTo(Constraint.CANCELLED);
      assertThat(e.code().exitStatus()).isEqualTo(130);
      assertThat(access.closed()).isEqualTo(1);
      if (at < validatedFrom) {
        assertThat(e.partialEvidence()).as("at %d", at).isNull();
      } else {
        assertPartialOf(complete, e.partialEvidence());
      }
    }
  }
}
