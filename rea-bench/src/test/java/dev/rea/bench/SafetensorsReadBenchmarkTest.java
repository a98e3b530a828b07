package dev.rea.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.HashMode;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reader-only benchmark does the work it claims: it reads the whole 20,439-tensor header,
 * its digest is the SHA-256 of exactly the header's bytes, and its rows are the ones the full
 * inspection reports. No timing is asserted (the benchmark measures that).
 */
class SafetensorsReadBenchmarkTest {
  @TempDir static Path dir;
  private static String previous;

  @BeforeAll
  static void useTemporaryCorpus() {
    previous = System.getProperty(BenchFiles.PROPERTY);
    System.setProperty(BenchFiles.PROPERTY, dir.toString());
  }

  @AfterAll
  static void restore() {
    if (previous == null) {
      System.clearProperty(BenchFiles.PROPERTY);
    } else {
      System.setProperty(BenchFiles.PROPERTY, previous);
    }
  }

  @Test
  void readsTheWholeHeaderAndHashesExactlyIt() throws Exception {
    SafetensorsReadBenchmark bench = new SafetensorsReadBenchmark();
    bench.file = "sharded-20k.safetensors";
    bench.setup();
    SafetensorsReadBenchmark.Result result = bench.readHeader();

    Path file = BenchFiles.file(bench.file);
    long headerLength = result.header().headerLength();
    assertThat(headerLength).isBetween(2_400_000L, 2_700_000L);
    assertThat(result.headerSha256()).isEqualTo(sha256OfPrefix(file, headerLength));
    assertThat(result.header().tensors()).hasSize(20_439);

    EvidenceRecord inspected = ModelInspector.standard().inspect(file, HashMode.HEADER);
    assertThat(result.headerSha256()).isEqualTo(inspected.artifact().headerSha256());
    assertThat(result.header().tensors())
        .extracting(TensorRow::name)
        .containsExactlyElementsOf(
            inspected.tensors().stream().map(TensorRow::name).toList());
  }

  private static String sha256OfPrefix(Path file, long length) throws Exception {
    MessageDigest md = EvidenceIds.sha256();
    byte[] buf = new byte[64 * 1024];
    long left = length;
    try (InputStream in = Files.newInputStream(file)) {
      while (left > 0) {
        int n = in.read(buf, 0, (int) Math.min(buf.length, left));
        assertThat(n).isPositive();
        md.update(buf, 0, n);
        left -= n;
      }
    }
    return HexFormat.of().formatHex(md.digest());
  }
}
