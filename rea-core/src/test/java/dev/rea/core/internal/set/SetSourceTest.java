package dev.rea.core.internal.set;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.Rea;
import dev.rea.core.error.Constraint;
import dev.rea.core.evidence.SetInspection;
import dev.rea.core.internal.io.ByteArrayChannel;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.source.SeekableSource;
import dev.rea.core.source.SetSource;
import dev.rea.core.source.SourceIdentity;
import dev.rea.core.testing.SetFixtures;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A set in a directory the caller reaches its own way (the Spark job's Hadoop paths). */
class SetSourceTest {
  @TempDir Path dir;

  /** Files held in memory under an hdfs:// name; counts opens and the channels left open. */
  private static final class MemoryDir implements SetSource {
    final Map<String, byte[]> files = new LinkedHashMap<>();
    final AtomicInteger open = new AtomicInteger();
    int opened;
    final Map<String, Integer> opens = new LinkedHashMap<>();
    /** What a file holds from its second opening on. */
    final Map<String, byte[]> later = new LinkedHashMap<>();

    @Override
    public String directory() {
      return "hdfs://nn/models/m";
    }

    @Override
    public List<String> list() {
      return new ArrayList<>(files.keySet());
    }

    @Override
    public long size(String name) throws IOException {
      byte[] b = files.get(name);
      if (b == null) {
        throw new NoSuchFileException(name);
      }
      return b.length;
    }

    @Override
    public SeekableSource open(String name) throws IOException {
      byte[] b = files.get(name);
      if (b == null) {
        throw new NoSuchFileException(name);
      }
      opened++;
      open.incrementAndGet();
      if (opens.merge(name, 1, Integer::sum) > 1 && later.containsKey(name)) {
        b = later.get(name);
      }
      ByteArrayChannel bytes = new ByteArrayChannel(b);
      SeekableByteChannel ch = new SeekableByteChannel() {
        @Override
        public int read(java.nio.ByteBuffer dst) throws IOException {
          return bytes.read(dst);
        }

        @Override
        public int write(java.nio.ByteBuffer src) throws IOException {
          return bytes.write(src);
        }

        @Override
        public long position() throws IOException {
          return bytes.position();
        }

        @Override
        public SeekableByteChannel position(long p) throws IOException {
          bytes.position(p);
          return this;
        }

        @Override
        public long size() throws IOException {
          return bytes.size();
        }

        @Override
        public SeekableByteChannel truncate(long size) throws IOException {
          bytes.truncate(size);
          return this;
        }

        @Override
        public boolean isOpen() {
          return bytes.isOpen();
        }

        @Override
        public void close() {
          if (bytes.isOpen()) {
            open.decrementAndGet();
          }
          bytes.close();
        }
      };
      SourceIdentity id = SourceIdentity.of(b.length, Instant.EPOCH);
      return new SeekableSource() {
        @Override
        public String name() {
          return directory() + "/" + name;
        }

        @Override
        public SeekableByteChannel channel() {
          return ch;
        }

        @Override
        public SourceIdentity identity() {
          return id;
        }
      };
    }
  }

  private MemoryDir load(Path from) throws IOException {
    MemoryDir d = new MemoryDir();
    try (var s = Files.list(from)) {
      for (Path p : (Iterable<Path>) s.sorted()::iterator) {
        d.files.put(p.getFileName().toString(), Files.readAllBytes(p));
      }
    }
    return d;
  }

  @Test
  void aCheckpointInACallersDirectoryIsInspectedMemberByMember() throws Exception {
    SetFixtures.checkpoint(dir, 3, 2);
    MemoryDir d = load(dir);
    SetInspection.Complete c =
        Rea.standard().inspectSet(d, null, InspectOptions.defaults()).orThrow();
    assertThat(c.set().set().kind()).isEqualTo("safetensors_index");
    assertThat(c.set().set().path()).isEqualTo("hdfs://nn/models/m/model.safetensors.index.json");
    assertThat(c.set().members()).extracting(m -> m.path()).containsExactly(
        "hdfs://nn/models/m/model-00001-of-00003.safetensors",
        "hdfs://nn/models/m/model-00002-of-00003.safetensors",
        "hdfs://nn/models/m/model-00003-of-00003.safetensors");
    assertThat(c.set().totals().tensorCount()).isEqualTo(6);
    // Every channel REA opened (probes, the index, members) is closed again.
    assertThat(d.open.get()).isZero();
    assertThat(d.opened).isGreaterThanOrEqualTo(4);
  }

  @Test
  void aSplitMemberNamedInACallersDirectoryAndAMissingOne() throws Exception {
    SetFixtures.ggufSplit(dir, "s", 3, 1, 1);
    MemoryDir d = load(dir);
    SetInspection.Complete c = Rea.standard()
        .inspectSet(d, "s-00003-of-00003.gguf", InspectOptions.defaults()).orThrow();
    assertThat(c.set().set().kind()).isEqualTo("gguf_split");
    assertThat(c.members()).hasSize(3);
    d.files.remove("s-00002-of-00003.gguf");
    SetInspection.Failed f = (SetInspection.Failed) Rea.standard()
        .inspectSet(d, "s-00001-of-00003.gguf", InspectOptions.defaults());
    assertThat(f.error().constraint()).isEqualTo(Constraint.NOT_FOUND);
    assertThat(f.error().path()).isEqualTo("hdfs://nn/models/m/s-00002-of-00003.gguf");
    assertThat(f.partial().members()).hasSize(1);
    SetInspection.Failed bad = (SetInspection.Failed) Rea.standard()
        .inspectSet(d, "../etc/x.gguf", InspectOptions.defaults());
    assertThat(bad.error().constraint()).isEqualTo(Constraint.BAD_ARGUMENT);
    assertThat(d.open.get()).isZero();
  }

  @Test
  void aConsistentCheckpointReadsItsIndexOnce() throws Exception {
    SetFixtures.checkpoint(dir, 3, 4);
    MemoryDir d = load(dir);
    SetInspection.Complete c =
        Rea.standard().inspectSet(d, "model.safetensors.index.json", InspectOptions.defaults())
            .orThrow();
    assertThat(c.members()).hasSize(3);
    // Members are checked against the index's digest of their names: no second read.
    assertThat(d.opens.get("model.safetensors.index.json")).isEqualTo(1);
  }

  @Test
  void aContradictionIsNamedFromTheIndexReadAgainUnlessItChanged() throws Exception {
    SetFixtures.checkpoint(dir, 3, 2, (s, b) -> {},
        m -> m.put("model.layers.0.mlp.weight", "model-00002-of-00003.safetensors"));
    MemoryDir d = load(dir);
    SetInspection.Failed f = (SetInspection.Failed) Rea.standard()
        .inspectSet(d, "model.safetensors.index.json", InspectOptions.defaults());
    assertThat(f.error().constraint()).isEqualTo(Constraint.SET_REJECTED);
    assertThat(f.error().getMessage()).contains("model.layers.0.mlp.weight");
    assertThat(d.opens.get("model.safetensors.index.json")).isEqualTo(2);
    // The same contradiction, but the index read again is not the index read first.
    byte[] index = d.files.get("model.safetensors.index.json");
    byte[] changed = index.clone();
    int space = new String(changed, java.nio.charset.StandardCharsets.ISO_8859_1).indexOf("  ");
    changed[space] = '\t';
    d.later.put("model.safetensors.index.json", changed);
    d.opens.clear();
    SetInspection.Failed g = (SetInspection.Failed) Rea.standard()
        .inspectSet(d, "model.safetensors.index.json", InspectOptions.defaults());
    assertThat(g.error().constraint()).isEqualTo(Constraint.TARGET_CHANGED);
    assertThat(g.error().getMessage()).contains("changed while the set was read");
    assertThat(g.partial()).isNotNull();
    assertThat(d.open.get()).isZero();
  }
}
