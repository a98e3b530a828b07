package dev.rea.spark.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.FileProbe;
import dev.rea.core.Rea;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.Inspection;
import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.source.SeekableSource;
import dev.rea.core.source.SourceIdentity;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Hadoop adapter to REA's seekable source (CONTRACT sections 10 and 14): positioned reads of
 * the header only, the probe's bytes fetched once, identity as length and modification time
 * observed before and after the read.
 */
class HadoopSourceTest {
  @TempDir java.nio.file.Path dir;

  private static final Rea REA = Rea.standard();

  /** A model whose 1 MiB of tensor data follows a header of a few hundred bytes. */
  private static GgufBuilder.Built model() {
    return GgufBuilder.v3()
        .kv("general.architecture", GgufBuilder.str("llama"))
        .tensor("token_embd.weight", 0, 512, 512)
        .build();
  }

  /** Positioned reads over bytes in memory, each call recorded as {offset, length}. */
  private static final class RecordingReadable implements PositionedReadable {
    final byte[] bytes;
    final List<long[]> calls = new ArrayList<>();

    RecordingReadable(byte[] bytes) {
      this.bytes = bytes;
    }

    @Override
    public int read(long position, byte[] buffer, int offset, int length) {
      calls.add(new long[] {position, length});
      if (position >= bytes.length) {
        return -1;
      }
      int n = (int) Math.min(length, bytes.length - position);
      System.arraycopy(bytes, (int) position, buffer, offset, n);
      return n;
    }

    @Override
    public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
      if (read(position, buffer, offset, length) < length) {
        throw new EOFException();
      }
    }

    @Override
    public void readFully(long position, byte[] buffer) throws IOException {
      readFully(position, buffer, 0, buffer.length);
    }
  }

  @Test
  void theInspectionReadsTheHeaderOnceAndNothingPastIt() throws Exception {
    GgufBuilder.Built built = model();
    RecordingReadable in = new RecordingReadable(built.bytes());
    PositionedReadChannel channel = new PositionedReadChannel(in, built.bytes().length);
    byte[] first = channel.readHead(8);
    byte[] head = channel.readHead(FileProbe.headLength(first, first.length, built.bytes().length));
    assertThat(FileProbe.of(head, head.length, built.bytes().length).modelFormat()).hasValue("gguf");
    SeekableSource source = source(channel, built.bytes().length);

    EvidenceRecord r = REA.inspect(source, InspectOptions.defaults()).orThrow();

    assertThat(r.artifact().headerLength()).isEqualTo(built.headerLength());
    long end = 0;
    long asked = 0;
    for (long[] call : in.calls) {
      end = Math.max(end, call[0] + call[1]);
      asked += call[1];
    }
    assertThat(end).as("no read reaches past the header").isLessThanOrEqualTo(built.headerLength());
    assertThat(asked).as("each header byte is fetched once").isEqualTo(built.headerLength());
    assertThat(channel.bytesFetched()).isEqualTo(built.headerLength());
    assertThat(built.bytes().length).isGreaterThan(1 << 20);
  }

  @Test
  void aReadAheadWindowFetchesASmallHeaderInOneRequest() throws Exception {
    GgufBuilder.Built built = model();
    RecordingReadable exact = new RecordingReadable(built.bytes());
    EvidenceRecord without = inspectThrough(new PositionedReadChannel(exact, built.bytes().length));
    RecordingReadable ahead = new RecordingReadable(built.bytes());
    PositionedReadChannel windowed = new PositionedReadChannel(ahead, built.bytes().length, 65536);
    EvidenceRecord with = inspectThrough(windowed);

    assertThat(exact.calls).as("field by field without read-ahead").hasSizeGreaterThan(5);
    assertThat(ahead.calls).as("one request with it").hasSize(1);
    assertThat(windowed.bytesFetched()).isEqualTo(65536);
    assertThat(with.artifact().headerSha256()).isEqualTo(without.artifact().headerSha256());
    assertThat(with.artifact().bytesRead()).isEqualTo(built.headerLength());
    assertThat(with.tensors()).isEqualTo(without.tensors());
  }

  private static EvidenceRecord inspectThrough(PositionedReadChannel channel) throws Exception {
    long size = channel.size();
    byte[] first = channel.readHead(8);
    channel.readHead(FileProbe.headLength(first, first.length, size));
    return REA.inspect(source(channel, size), InspectOptions.defaults()).orThrow();
  }

  @Test
  void aFullHashReadsEveryByte() throws Exception {
    GgufBuilder.Built built = model();
    java.nio.file.Path file = Files.write(dir.resolve("m.gguf"), built.bytes());
    FileSystem fs = HadoopSource.fileSystem(new Path(file.toUri()), new Configuration());
    try (HadoopSource src = HadoopSource.open(fs, fs.getFileStatus(new Path(file.toUri())), HashMode.FULL, 0)) {
      assertThat(src.probe().modelFormat()).hasValue("gguf");
      EvidenceRecord r =
          REA.inspect(src, InspectOptions.builder().hash(HashMode.FULL).build()).orThrow();
      EvidenceRecord local =
          REA.inspect(file, InspectOptions.builder().hash(HashMode.FULL).build()).orThrow();
      assertThat(r.artifact().sha256()).isEqualTo(local.artifact().sha256()).isNotNull();
      assertThat(src.bytesFetched()).isEqualTo(built.bytes().length);
    }
  }

  @Test
  void theLocalFileSystemIsReadWithoutItsChecksumLayer() throws Exception {
    java.nio.file.Path file = Files.write(dir.resolve("m.gguf"), model().bytes());
    Path p = new Path(file.toString());
    FileSystem fs = HadoopSource.fileSystem(p, new Configuration());
    assertThat(fs).isInstanceOf(RawLocalFileSystem.class);
    try (HadoopSource src = HadoopSource.open(fs, fs.getFileStatus(p), HashMode.HEADER, 0)) {
      assertThat(src.name()).isEqualTo("file:" + file);
      EvidenceRecord r = REA.inspect(src, InspectOptions.defaults()).orThrow();
      EvidenceRecord local = REA.inspect(file, InspectOptions.defaults()).orThrow();
      assertThat(r.artifact().path()).isEqualTo("file:" + file);
      assertThat(r.artifact().headerSha256()).isEqualTo(local.artifact().headerSha256());
      assertThat(r.artifact().bytesRead()).isEqualTo(local.artifact().bytesRead());
      assertThat(r.artifact().identity().size()).isEqualTo(Files.size(file));
      assertThat(r.artifact().identity().device()).isNull();
      assertThat(r.coverage().finalIdentity()).isEqualTo("verified");
    }
  }

  @Test
  void aFileThatGrowsAfterItIsOpenedIsTargetChanged() throws Exception {
    java.nio.file.Path file = Files.write(dir.resolve("m.gguf"), model().bytes());
    Path p = new Path(file.toUri());
    FileSystem fs = HadoopSource.fileSystem(p, new Configuration());
    try (HadoopSource src = HadoopSource.open(fs, fs.getFileStatus(p), HashMode.HEADER, 0)) {
      Files.write(file, new byte[] {1, 2, 3}, StandardOpenOption.APPEND);
      Inspection result = REA.inspect(src, InspectOptions.defaults());
      assertThat(result.failure()).hasValueSatisfying(
          e -> assertThat(e.constraint().wireName()).isEqualTo("target_changed"));
    }
  }

  @Test
  void aFileTouchedAfterItIsOpenedIsTargetChanged() throws Exception {
    java.nio.file.Path file = Files.write(dir.resolve("m.gguf"), model().bytes());
    Path p = new Path(file.toUri());
    FileSystem fs = HadoopSource.fileSystem(p, new Configuration());
    FileStatus status = fs.getFileStatus(p);
    try (HadoopSource src = HadoopSource.open(fs, status, HashMode.HEADER, 0)) {
      Files.setLastModifiedTime(
          file, FileTime.fromMillis(status.getModificationTime() + 2000));
      assertThat(src.identityNow()).isNotEqualTo(src.identity());
      assertThat(src.identityNow().size()).isEqualTo(src.identity().size());
      Inspection result = REA.inspect(src, InspectOptions.defaults());
      assertThat(result.failure()).hasValueSatisfying(
          e -> assertThat(e.constraint().wireName()).isEqualTo("target_changed"));
    }
  }

  @Test
  void theChannelIsAReadOnlyWindowOfTheObservedSize() throws Exception {
    RecordingReadable in = new RecordingReadable(new byte[] {1, 2, 3, 4, 5, 6});
    PositionedReadChannel channel = new PositionedReadChannel(in, 4);
    assertThat(channel.readHead(2)).containsExactly(1, 2);
    ByteBuffer buf = ByteBuffer.allocate(10);
    assertThat(channel.read(buf)).isEqualTo(2);
    assertThat(channel.read(buf)).isEqualTo(2);
    assertThat(channel.read(buf)).as("the file grew: reads stop at the observed size").isEqualTo(-1);
    channel.position(1);
    ByteBuffer direct = ByteBuffer.allocateDirect(3);
    assertThat(channel.read(direct)).isEqualTo(1);
    assertThat(direct.get(0)).isEqualTo((byte) 2);
    assertThatThrownBy(() -> channel.write(ByteBuffer.allocate(1)))
        .isInstanceOf(NonWritableChannelException.class);
    channel.close();
    assertThatThrownBy(() -> channel.read(ByteBuffer.allocate(1)))
        .isInstanceOf(ClosedChannelException.class);

    PositionedReadChannel shrunk =
        new PositionedReadChannel(new RecordingReadable(new byte[] {1, 2}), 4);
    ByteBuffer all = ByteBuffer.allocate(4);
    assertThat(shrunk.read(all)).isEqualTo(2);
    assertThat(shrunk.read(all)).as("the file shrank: it ends early").isEqualTo(-1);
  }

  private static SeekableSource source(SeekableByteChannel channel, long size) {
    SourceIdentity id = SourceIdentity.of(size, Instant.parse("2026-01-01T00:00:00Z"));
    return new SeekableSource() {
      @Override
      public String name() {
        return "memory:/model.gguf";
      }

      @Override
      public SeekableByteChannel channel() {
        return channel;
      }

      @Override
      public SourceIdentity identity() {
        return id;
      }
    };
  }
}
