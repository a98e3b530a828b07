package dev.rea.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.Constraint;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.internal.io.ByteArrayChannel;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.source.SeekableSource;
import dev.rea.core.source.SourceIdentity;
import dev.rea.core.view.SourceKind;
import dev.rea.core.view.ViewCollection;
import dev.rea.core.view.ViewPage;
import dev.rea.core.view.ViewRequest;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The front door end to end: a path, a caller's open source, signing, files and views. */
class ReaTest {
  @TempDir Path dir;

  private static final Path SAMPLE = repository().resolve("samples/sample-mixed.gguf");

  /** A source over bytes in memory whose identity after the read can be made to differ. */
  private static class MemorySource implements SeekableSource {
    final ByteArrayChannel channel;
    final SourceIdentity before;
    SourceIdentity after;
    final AtomicInteger looks = new AtomicInteger();

    MemorySource(byte[] bytes, SourceIdentity before) {
      this.channel = new ByteArrayChannel(bytes);
      this.before = before;
      this.after = before;
    }

    @Override
    public String name() {
      return "hdfs://nn/models/sample-mixed.gguf";
    }

    @Override
    public SeekableByteChannel channel() {
      return channel;
    }

    @Override
    public SourceIdentity identity() {
      return before;
    }

    @Override
    public SourceIdentity identityNow() {
      looks.incrementAndGet();
      return after;
    }
  }

  @Test
  void aCallersSourceGivesTheSameDeclarationsAsThePath() throws Exception {
    byte[] bytes = Files.readAllBytes(SAMPLE);
    Rea rea = Rea.builder().home(dir.resolve("home")).build();
    EvidenceRecord byPath =
        rea.inspect(SAMPLE, InspectOptions.builder().hash(HashMode.FULL).build()).orThrow();
    Instant modified = Instant.parse("2026-11-30T12:00:00.123456789Z");
    MemorySource source = new MemorySource(bytes, new SourceIdentity(bytes.length, modified, null, 42L));
    // Left anywhere by the caller: the header is still read from byte 0.
    source.channel.position(1000);
    EvidenceRecord bySource =
        rea.inspect(source, InspectOptions.builder().hash(HashMode.FULL).build()).orThrow();

    assertThat(bySource.status()).isEqualTo("complete");
    assertThat(bySource.request().path()).isEqualTo(source.name());
    assertThat(bySource.artifact().path()).isEqualTo(source.name());
    assertThat(bySource.artifact().identity().device()).isNull();
    assertThat(bySource.artifact().identity().inode()).isEqualTo("42");
    assertThat(bySource.artifact().identity().modified()).isEqualTo("2026-11-30T12:00:00.123456789Z");
    assertThat(bySource.artifact().identity().verified()).isTrue();
    assertThat(bySource.artifact().sha256()).isEqualTo(byPath.artifact().sha256());
    assertThat(bySource.artifact().headerSha256()).isEqualTo(byPath.artifact().headerSha256());
    assertThat(bySource.metadata()).isEqualTo(byPath.metadata());
    assertThat(bySource.tensors()).isEqualTo(byPath.tensors());
    assertThat(bySource.types()).isEqualTo(byPath.types());
    assertThat(bySource.totals()).isEqualTo(byPath.totals());
    assertThat(bySource.coverage()).isEqualTo(byPath.coverage());
    assertThat(bySource.evidenceId()).isNotEqualTo(byPath.evidenceId());
    assertThat(source.looks.get()).as("identity observed again after the read").isEqualTo(1);
    assertThat(source.channel.isOpen()).as("the caller's channel is left open").isTrue();
  }

  /**
   * A caller's channel that returns 0 bytes for ever past its data (non-blocking, or broken) is
   * an io_error, not a loop: a hostile trial's channel kept a core busy until killed.
   */
  @Test
  void aChannelThatKeepsReadingNoBytesIsAnIoError() throws Exception {
    byte[] bytes = Files.readAllBytes(SAMPLE);
    byte[] head = java.util.Arrays.copyOf(bytes, 40);
    MemorySource source =
        new MemorySource(head, SourceIdentity.of(bytes.length, Instant.ofEpochSecond(1000))) {
          @Override
          public SeekableByteChannel channel() {
            ByteArrayChannel data = new ByteArrayChannel(head);
            return new SeekableByteChannel() {
              @Override
              public int read(java.nio.ByteBuffer dst) throws java.io.IOException {
                int n = data.read(dst);
                return n < 0 ? 0 : n;
              }

              @Override
              public int write(java.nio.ByteBuffer src) {
                throw new java.nio.channels.NonWritableChannelException();
              }

              @Override
              public long position() throws java.io.IOException {
                return data.position();
              }

              @Override
              public SeekableByteChannel position(long p) throws java.io.IOException {
                data.position(p);
                return this;
              }

              @Override
              public long size() {
                return bytes.length;
              }

              @Override
              public SeekableByteChannel truncate(long size) {
                throw new java.nio.channels.NonWritableChannelException();
              }

              @Override
              public boolean isOpen() {
                return true;
              }

              @Override
              public void close() {}
            };
          }
        };
    Inspection result = Rea.standard().inspect(source, InspectOptions.defaults());
    assertThat(result).isInstanceOf(Inspection.Failed.class);
    Inspection.Failed failed = (Inspection.Failed) result;
    assertThat(failed.error().constraint()).isEqualTo(Constraint.IO_ERROR);
    assertThat(failed.error().getMessage())
        .contains("returned no bytes 1000 times in a row", "at byte 40");
  }

  @Test
  void aSourceWhoseIdentityChangedDuringTheReadFailsWithPartialEvidence() throws Exception {
    byte[] bytes = Files.readAllBytes(SAMPLE);
    MemorySource source =
        new MemorySource(bytes, SourceIdentity.of(bytes.length, Instant.ofEpochSecond(1000)));
    source.after = SourceIdentity.of(bytes.length, Instant.ofEpochSecond(2000));
    Inspection result = Rea.standard().inspect(source, InspectOptions.defaults());
    assertThat(result).isInstanceOf(Inspection.Failed.class);
    Inspection.Failed failed = (Inspection.Failed) result;
    assertThat(failed.error().constraint()).isEqualTo(Constraint.TARGET_CHANGED);
    assertThat(failed.error().getMessage()).contains("modification time");
    assertThat(failed.error().path()).isEqualTo(source.name());
    assertThat(failed.partial()).isNotNull();
    assertThat(failed.partial().status()).isEqualTo("partial");
    assertThat(failed.partial().tensors()).hasSize(12);
    assertThat(failed.partial().coverage().finalIdentity()).isEqualTo("unverified");
  }

  @Test
  void aChannelShorterThanItsIdentityIsRefusedBeforeAnythingIsRead() throws Exception {
    byte[] bytes = Files.readAllBytes(SAMPLE);
    MemorySource source =
        new MemorySource(bytes, SourceIdentity.of(bytes.length + 1L, Instant.ofEpochSecond(1)));
    Inspection.Failed failed =
        (Inspection.Failed) Rea.standard().inspect(source, InspectOptions.defaults());
    assertThat(failed.error().constraint()).isEqualTo(Constraint.TARGET_CHANGED);
    assertThat(failed.partial()).isNull();
    assertThat(source.channel.position()).isZero();
  }

  @Test
  void anEmptySourceNameIsABadArgument() {
    SeekableSource nameless =
        new MemorySource(new byte[0], SourceIdentity.of(0, Instant.EPOCH)) {
          @Override
          public String name() {
            return "";
          }
        };
    Inspection r = Rea.standard().inspect(nameless, InspectOptions.defaults());
    assertThat(r.failure()).hasValueSatisfying(e -> assertThat(e.constraint()).isEqualTo(Constraint.BAD_ARGUMENT));
  }

  @Test
  void progressReachesTheCallerAndCoversTheWholeFile() throws Exception {
    List<long[]> seen = new ArrayList<>();
    Rea.standard()
        .inspect(
            SAMPLE,
            InspectOptions.builder()
                .hash(HashMode.FULL)
                .progress((done, total) -> seen.add(new long[] {done, total}))
                .build())
        .orThrow();
    long size = Files.size(SAMPLE);
    assertThat(seen).isNotEmpty();
    assertThat(seen.get(seen.size() - 1)).containsExactly(size, size);
  }

  @Test
  void signedEvidenceWrittenAndReadBackAnswersViews() throws Exception {
    Rea rea = Rea.builder().home(dir.resolve("home")).build();
    EvidenceRecord signed = rea.sign(rea.inspect(SAMPLE, InspectOptions.defaults()).orThrow());
    assertThat(signed.authentication()).isNotNull();
    Path file = dir.resolve("ev.json");
    rea.writeEvidence(file, List.of(signed));
    assertThat(Files.readString(file, StandardCharsets.UTF_8)).startsWith("{\"schema\":\"rea.bundle.v1\"");

    LoadedEvidence loaded = rea.readEvidence(file);
    assertThat(loaded.bundle()).isTrue();
    Evidence ev = loaded.select(null, "by its evidence_id");
    assertThat(ev.evidenceId()).isEqualTo(signed.evidenceId());
    ViewPage page = rea.view(ev, ViewRequest.all(ViewCollection.TENSORS), SourceKind.EVIDENCE_FILE);
    assertThat(page.text()).contains("\"total_matches\":12");

    // Another home does not trust this key: the same file is refused, and nothing is created.
    Path other = dir.resolve("other-home");
    Rea stranger = Rea.builder().home(other).build();
    assertThat(org.assertj.core.api.Assertions.catchThrowableOfType(
                dev.rea.core.error.ReaException.class, () -> stranger.readEvidence(file))
            .constraint())
        .isEqualTo(Constraint.EVIDENCE_REJECTED);
    assertThat(Files.exists(other)).isFalse();
  }

  /**
   * The library never writes Evidence over a model file (a caller that passes the model's path as
   * the output): the model stays byte for byte, and an earlier Evidence file is still replaced.
   */
  @Test
  void evidenceIsNeverWrittenOverAModel() throws Exception {
    Rea rea = Rea.builder().home(dir.resolve("home")).build();
    EvidenceRecord signed = rea.sign(rea.inspect(SAMPLE, InspectOptions.defaults()).orThrow());
    Path model = Files.copy(SAMPLE, dir.resolve("victim.gguf"));
    byte[] before = Files.readAllBytes(model);
    dev.rea.core.error.ReaException e =
        org.assertj.core.api.Assertions.catchThrowableOfType(
            dev.rea.core.error.ReaException.class,
            () -> rea.writeEvidence(model, List.of(signed)));
    assertThat(e.constraint()).isEqualTo(Constraint.BAD_ARGUMENT);
    assertThat(e.getMessage()).contains("is a GGUF model file; Evidence is not written over a model");
    assertThat(e.path()).isEqualTo(model.toString());
    assertThat(Files.readAllBytes(model)).isEqualTo(before);
    Path earlier = dir.resolve("ev.json");
    rea.writeEvidence(earlier, List.of(signed));
    rea.writeEvidence(earlier, List.of(signed));
    assertThat(rea.readEvidence(earlier).bundle()).isTrue();
  }

  @Test
  void inspectSignedGivesWhatInspectThenSignGives() throws Exception {
    Rea rea =
        Rea.builder()
            .home(dir.resolve("home"))
            .clock(
                java.time.Clock.fixed(
                    Instant.parse("2026-12-01T00:00:00Z"), java.time.ZoneOffset.UTC))
            .build();
    EvidenceRecord together = rea.inspectSigned(SAMPLE, InspectOptions.defaults()).orThrow();
    assertThat(together.authentication()).isNotNull();
    assertThat(together)
        .isEqualTo(rea.sign(rea.inspect(SAMPLE, InspectOptions.defaults()).orThrow()));

    // A home that cannot hold a key: the record comes back unsigned, and sign names the problem.
    Path notADirectory = Files.writeString(dir.resolve("home-file"), "x");
    Rea keyless = Rea.builder().home(notADirectory).build();
    EvidenceRecord unsigned = keyless.inspectSigned(SAMPLE, InspectOptions.defaults()).orThrow();
    assertThat(unsigned.authentication()).isNull();
    assertThat(unsigned.evidenceId()).startsWith("sha256:");
    assertThat(
            org.assertj.core.api.Assertions.catchThrowableOfType(
                dev.rea.core.error.ReaException.class, () -> keyless.sign(unsigned)))
        .isNotNull();
  }

  @Test
  void aSessionRetainsWithinItsBudgetAndReleases() throws Exception {
    Rea rea = Rea.standard();
    Evidence ev = rea.evidence(rea.inspect(SAMPLE, InspectOptions.defaults()).orThrow());
    EvidenceSession small = rea.newSession(ev.retainedBytes() - 1);
    assertThat(org.assertj.core.api.Assertions.catchThrowableOfType(
                dev.rea.core.error.ReaException.class, () -> small.retain(ev))
            .constraint())
        .isEqualTo(Constraint.RETAINED_BUDGET);
    EvidenceSession session = rea.newSession(ev.retainedBytes());
    assertThat(session.retain(ev).evidenceId()).isEqualTo(ev.evidenceId());
    assertThat(session.usedBytes()).isEqualTo(ev.retainedBytes());
    session.release(ev.evidenceId());
    assertThat(session.contains(ev.evidenceId())).isFalse();
    assertThat(session.usedBytes()).isZero();
  }

  private static Path repository() {
    Path here = Paths.get("").toAbsolutePath();
    return Files.exists(here.resolve("samples")) ? here : here.getParent();
  }

  /**
   * Evidence named by a FIFO is refused at once: opening a FIFO blocks until a writer comes, and
   * the read that told REA's JSON from an envelope opened it before any check (it hung forever).
   * The read runs on a daemon thread; if it has not answered within the wait, a writer opens the
   * FIFO so the thread ends, and the test fails.
   */
  @Test
  void evidenceFromAFifoIsRefusedWithoutWaiting() throws Exception {
    Path fifo = dir.resolve("ev.fifo");
    boolean made;
    try {
      made = new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0;
    } catch (java.io.IOException e) {
      made = false;
    }
    org.junit.jupiter.api.Assumptions.assumeTrue(made, "mkfifo is not available");
    Rea rea = Rea.builder().home(dir.resolve("home")).build();
    java.util.concurrent.CompletableFuture<Throwable> read = new java.util.concurrent.CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        rea.readEvidence(fifo);
        read.complete(null);
      } catch (Throwable e) {
        read.complete(e);
      }
    });
    t.setDaemon(true);
    t.start();
    Throwable failure;
    try {
      failure = read.get(30, java.util.concurrent.TimeUnit.SECONDS);
    } catch (java.util.concurrent.TimeoutException hung) {
      try (var unblock = Files.newOutputStream(fifo)) {
        unblock.write('x');
      }
      throw new AssertionError("reading Evidence from a FIFO waited for a writer", hung);
    }
    assertThat(failure).isInstanceOfSatisfying(dev.rea.core.error.ReaException.class,
        e -> assertThat(e.constraint()).isEqualTo(Constraint.NOT_REGULAR_FILE));
  }
}
