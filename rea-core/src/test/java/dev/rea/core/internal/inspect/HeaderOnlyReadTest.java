package dev.rea.core.internal.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.format.gguf.GgufTesting;
import dev.rea.core.internal.io.FileAccess;
import dev.rea.core.options.HashMode;
import dev.rea.core.testing.HostileFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default {@code hash: "header"} "reads only the metadata and tensor directory"
 * (specification, "Identity and reads"): for GGUF and safetensors files whose data section is
 * larger than any read-ahead, REA fetches exactly {@code header_length} bytes, the format probe
 * included.
 */
class HeaderOnlyReadTest {
  @TempDir Path dir;

  private static EvidenceRecord inspect(Path p) throws ReaException {
    return ModelInspector.standard().inspect(p, HashMode.HEADER);
  }

  @Test
  void builtFilesAreReadUpToTheirHeaderEndAndNoFurther() throws Exception {
    List<Path> files = new ArrayList<>();
    files.add(Files.write(dir.resolve("h.gguf"), HostileFiles.gguf()));
    files.add(Files.write(dir.resolve("h.safetensors"), HostileFiles.safetensors()));
    files.add(Files.write(dir.resolve("big.gguf"), HostileFiles.bigGguf()));
    // Metadata only, with padding and data after the directory.
    files.add(
        Files.write(
            dir.resolve("meta.gguf"),
            GgufBuilder.v3()
                .kv("general.architecture", GgufBuilder.str("llama"))
                .kv("a.long.string", GgufBuilder.str("x".repeat(200_000)))
                .tensor("t", 0, 70_000)
                .bytes()));
    files.add(GgufTesting.repositoryRoot().resolve("samples/sample-mixed.gguf"));
    for (Path p : files) {
      EvidenceRecord r = inspect(p);
      assertThat(Files.size(p)).as(p.toString()).isGreaterThan(r.artifact().headerLength());
      assertThat(r.artifact().bytesRead()).as(p.toString()).isEqualTo(r.artifact().headerLength());
    }
  }

  /**
   * Reading only the header must not mean reading it a field at a time: a header of 170,000
   * nested arrays (4 MB) and one of 100,000 arrays of one string are read in a few dozen reads,
   * as a flat array of the same size is (they took 255,000 and 100,000 reads when the readers'
   * lower bound on what follows was not renewed inside an array of arrays). Reads are counted,
   * not timed.
   */
  @Test
  void arraysOfArraysAreReadInLargeReadsToo() throws Exception {
    List<GgufBuilder.Value> small = new ArrayList<>();
    for (int i = 0; i < 170_000; i++) {
      small.add(GgufBuilder.array(0, GgufBuilder.u8(1), GgufBuilder.u8(2), GgufBuilder.u8(3)));
    }
    List<GgufBuilder.Value> strings = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      strings.add(GgufBuilder.array(8, GgufBuilder.str("x")));
    }
    for (GgufBuilder.Value nested :
        new GgufBuilder.Value[] {GgufBuilder.array(9, small), GgufBuilder.array(9, strings)}) {
      Path p =
          Files.write(
              dir.resolve("nested-" + files() + ".gguf"),
              GgufBuilder.v3().kv("a.b", nested).tensor("w", 0, 8).bytes());
      int[] reads = {0};
      FileAccess counting =
          dev.rea.core.testing.FaultyFileAccess.openedBy(
              path -> {
                java.nio.channels.SeekableByteChannel ch = FileAccess.system().open(path);
                return new java.nio.channels.SeekableByteChannel() {
                  @Override
                  public int read(java.nio.ByteBuffer dst) throws IOException {
                    reads[0]++;
                    return ch.read(dst);
                  }

                  @Override
                  public int write(java.nio.ByteBuffer src) throws IOException {
                    return ch.write(src);
                  }

                  @Override
                  public long position() throws IOException {
                    return ch.position();
                  }

                  @Override
                  public java.nio.channels.SeekableByteChannel position(long n) throws IOException {
                    ch.position(n);
                    return this;
                  }

                  @Override
                  public long size() throws IOException {
                    return ch.size();
                  }

                  @Override
                  public java.nio.channels.SeekableByteChannel truncate(long size)
                      throws IOException {
                    ch.truncate(size);
                    return this;
                  }

                  @Override
                  public boolean isOpen() {
                    return ch.isOpen();
                  }

                  @Override
                  public void close() throws IOException {
                    ch.close();
                  }
                };
              });
      EvidenceRecord r =
          ModelInspector.withAccess(dev.rea.core.options.Limits.defaults(), counting).inspect(p, HashMode.HEADER);
      assertThat(r.artifact().headerLength()).isGreaterThan(1_000_000L);
      assertThat(r.artifact().bytesRead()).isEqualTo(r.artifact().headerLength());
      assertThat(reads[0]).as(p.toString()).isLessThan(100);
    }
  }

  private int fileCount;

  private int files() {
    return fileCount++;
  }

  @Test
  void everyCorpusModelThatInspectsIsReadUpToItsHeaderEnd() throws IOException {
    Path corpus = GgufTesting.corpusOrSkip(".");
    int checked = 0;
    try (Stream<Path> all = Files.walk(corpus)) {
      for (Path p : (Iterable<Path>) all.filter(Files::isRegularFile)::iterator) {
        String n = p.getFileName().toString();
        if (!n.endsWith(".gguf") && !n.endsWith(".safetensors")) {
          continue;
        }
        EvidenceRecord r;
        try {
          r = inspect(p.toAbsolutePath());
        } catch (ReaException rejected) {
          continue; // a rejected file has no header length to compare with
        }
        assertThat(r.artifact().bytesRead()).as(p.toString()).isEqualTo(r.artifact().headerLength());
        checked++;
      }
    }
    assertThat(checked).isGreaterThan(50);
  }
}
