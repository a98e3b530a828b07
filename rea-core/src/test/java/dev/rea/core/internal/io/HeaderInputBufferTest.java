package dev.rea.core.internal.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.HashMode;
import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link HeaderInput}'s buffer, and {@link PipelinedDigest}'s first chunk, follow the header, not
 * the file: inspecting a large file whose header is small allocates far less than the 1 MiB
 * capacity (a scan of 10,000 such files allocated 12.5 GB for them before), and a header larger
 * than the first buffer is still read whole, with the same bytes fetched.
 */
class HeaderInputBufferTest {
  @TempDir Path dir;

  private static long allocatedBytes() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
        .getCurrentThreadAllocatedBytes();
  }

  private Path sparse(String name, GgufBuilder b, long size) throws Exception {
    Path p = Files.write(dir.resolve(name), b.data(GgufBuilder.Data.PADDING_ONLY).build().bytes());
    try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
      f.setLength(size);
    }
    return p;
  }

  @Test
  void aSmallHeaderInALargeFileAllocatesASmallBuffer() throws Exception {
    Path p =
        sparse(
            "small-header.gguf",
            GgufBuilder.v3()
                .kv("general.architecture", GgufBuilder.str("llama"))
                .tensor("w", 0, 1024, 1024),
            64L << 20);
    ModelInspector inspector = ModelInspector.standard();
    for (int i = 0; i < 20; i++) {
      inspector.inspect(p, HashMode.HEADER); // warm up: class loading, JIT
    }
    long before = allocatedBytes();
    int n = 20;
    for (int i = 0; i < n; i++) {
      inspector.inspect(p, HashMode.HEADER);
    }
    long perInspection = (allocatedBytes() - before) / n;
    // The read buffer alone was 1 MiB per inspection, and the digest's first chunk 256 KiB; now
    // the whole inspection stays under 128 KiB.
    assertThat(perInspection).as("bytes allocated per inspection").isLessThan(HeaderInput.CAPACITY / 8);
  }

  @Test
  void aHeaderLargerThanTheFirstBufferIsReadWholeWithTheSameReads() throws Exception {
    GgufBuilder b =
        GgufBuilder.v3()
            .kv("general.architecture", GgufBuilder.str("llama"))
            .kv("tokenizer.ggml.tokens", GgufBuilder.stringArray("token-", 40_000))
            .tensor("w", 0, 4);
    Path p = sparse("large-header.gguf", b, 32L << 20);
    EvidenceRecord r = ModelInspector.standard().inspect(p, HashMode.HEADER);
    assertThat(r.artifact().headerLength()).isGreaterThan(4L * HeaderInput.INITIAL_READ);
    assertThat(HeaderInput.INITIAL_BUFFER).isLessThan(HeaderInput.INITIAL_READ);
    // Reads stop with the header, as with a buffer of full capacity from the start.
    assertThat(r.artifact().bytesRead()).isEqualTo(r.artifact().headerLength());
    assertThat(r.metadata().get(1).key()).isEqualTo("tokenizer.ggml.tokens");
  }
}
