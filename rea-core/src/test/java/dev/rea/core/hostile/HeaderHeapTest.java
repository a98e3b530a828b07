package dev.rea.core.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Peak heap while inspecting a ~90 MB header stays under 3x the header size (issue 6, "Must
 * show"): a child JVM whose heap is limited to 3x the header ({@code -Xmx255m} for 90 MB:
 * 255 MiB = 267 MB, so no heap state can exceed 3x) inspects a GGUF with a 90 MB
 * header and a safetensors file with a 90 MB JSON header, succeeds, and reports its peak heap
 * occupancy measured from GC notifications ({@link HeapProbe}); the test asserts the peak is
 * below 3x the header length. Memory, not time, is asserted.
 */
class HeaderHeapTest {
  private static final long TARGET = 90_000_000L;

  @TempDir Path dir;

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void ggufWithANinetyMegabyteHeaderPeaksUnderThreeTimesItsSize() throws Exception {
    Path p = dir.resolve("big-header.gguf");
    long header = LargeHeaders.gguf(p, (int) (TARGET / 30));
    assertThat(header).isBetween(TARGET, TARGET + 1000);
    Map<String, Long> m = probe(p, header);
    assertThat(m.get("header_length")).isEqualTo(header);
    assertThat(m.get("tensors")).isEqualTo(1);
    assertThat(m.get("metadata")).isEqualTo(1);
    assertUnderThreeTimes(m, header);
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void safetensorsWithANinetyMegabyteJsonPeaksUnderThreeTimesItsSize() throws Exception {
    Path p = dir.resolve("big-header.safetensors");
    int tensors = 100_000;
    long json = LargeHeaders.safetensors(p, tensors, 820);
    assertThat(json).isBetween(TARGET - 1_000_000, TARGET + 1_000_000);
    Map<String, Long> m = probe(p, 8 + json);
    assertThat(m.get("header_length")).isEqualTo(8 + json);
    assertThat(m.get("tensors")).isEqualTo(tensors);
    assertUnderThreeTimes(m, 8 + json);
  }

  private static void assertUnderThreeTimes(Map<String, Long> m, long header) {
    System.out.printf(
        "header %,d bytes: peak heap %,d bytes (%.2fx the header; baseline %,d; -Xmx %,d)%n",
        header, m.get("peak_heap_bytes"), m.get("peak_heap_bytes") / (double) header,
        m.get("baseline_heap_bytes"), m.get("max_heap_bytes"));
    assertThat(m.get("max_heap_bytes")).isLessThan(3 * header);
    assertThat(m.get("peak_heap_bytes")).isPositive().isLessThan(3 * header);
  }

  /**
   * Runs {@link HeapProbe} in a child JVM whose maximum heap is the largest whole number of MiB
   * not above 3x the header, and parses its line.
   */
  private Map<String, Long> probe(Path file, long header) throws IOException, InterruptedException {
    // Two MiB below: the JVM rounds the maximum heap up to whole G1 regions.
    long xmxMiB = 3 * header / (1 << 20) - 2;
    Path out = dir.resolve(file.getFileName() + ".out");
    Path err = dir.resolve(file.getFileName() + ".err");
    Process child =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx" + xmxMiB + "m",
                    "-XX:+UseG1GC",
                    "-cp",
                    System.getProperty("java.class.path"),
                    HeapProbe.class.getName(),
                    file.toString()))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!child.waitFor(4, TimeUnit.MINUTES)) {
      child.destroyForcibly();
      throw new AssertionError("the child JVM did not finish");
    }
    String stderr = Files.readString(err, StandardCharsets.UTF_8);
    assertThat(child.exitValue()).as("child failed: %s", stderr).isEqualTo(0);
    Map<String, Long> m = new HashMap<>();
    for (String kv : Files.readString(out, StandardCharsets.UTF_8).trim().split(" ")) {
      String[] parts = kv.split("=");
      m.put(parts[0], Long.parseLong(parts[1]));
    }
    return m;
  }
}
