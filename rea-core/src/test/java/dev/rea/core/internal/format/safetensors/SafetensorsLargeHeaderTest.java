package dev.rea.core.internal.format.safetensors;

import static dev.rea.core.internal.format.safetensors.SafetensorsBuilder.u64le;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ErrorCode;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.Limits;
import dev.rea.core.testing.ChildJvm;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Big headers: a 20,439-tensor directory (the size of a large mixture-of-experts checkpoint,
 * about 2.5 MB of JSON) parses (its speed is for the benchmarks, not for this test); a JSON of exactly 100,000,000 bytes is accepted and
 * one of 100,000,001 is refused as {@code resource_exhausted} / {@code header_ceiling}; strings,
 * names and numbers longer than Jackson's defaults are accepted; and the reader holds the header
 * once, shown by inspecting the 100,000,000-byte header in a child JVM whose heap cannot hold two
 * copies of it.
 */
class SafetensorsLargeHeaderTest {
  private static final long CEILING = 100_000_000L;

  @TempDir Path dir;

  /** A realistic large directory: names like {@code model.layers.12.mlp.experts.45.up_proj.weight}. */
  static byte[] bigDirectory(int tensors, long[] dataBytes) {
    StringBuilder sb = new StringBuilder(tensors * 130);
    sb.append("{\"__metadata__\":{\"format\":\"pt\"}");
    long offset = 0;
    String[] parts = {"gate_proj", "up_proj", "down_proj"};
    for (int i = 0; i < tensors; i++) {
      int layer = i / 384;
      int expert = (i / 3) % 128;
      String name =
          "model.layers." + layer + ".mlp.experts." + expert + "." + parts[i % 3] + ".weight";
      long bytes = 2L * 768 * 2048;
      sb.append(",\"")
          .append(name)
          .append("\":{\"dtype\":\"BF16\",\"shape\":[768,2048],\"data_offsets\":[")
          .append(offset)
          .append(',')
          .append(offset + bytes)
          .append("]}");
      offset += bytes;
    }
    sb.append('}');
    dataBytes[0] = offset;
    byte[] json = sb.toString().getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream(json.length + 8);
    out.writeBytes(u64le(json.length));
    out.writeBytes(json);
    return out.toByteArray();
  }

  @Test
  void twentyThousandTensorsParse() throws Exception {
    long[] data = new long[1];
    byte[] header = bigDirectory(20_439, data);
    long fileSize = header.length + data[0];
    assertThat(header.length).isBetween(2_000_000, 3_000_000);
    ParsedHeader h = SafetensorsReads.readHeaderOnly(header, fileSize, Limits.defaults());
    assertThat(h.tensors()).hasSize(20_439);
    assertThat(h.metadata()).hasSize(1);
    TensorRow first = h.tensors().get(0);
    assertThat(first.name()).isEqualTo("model.layers.0.mlp.experts.0.down_proj.weight");
    assertThat(first.shape()).containsExactly(768L, 2048L);
    assertThat(h.headerLength()).isEqualTo(header.length);
    // Every range checked: the rows cover the declared data exactly.
    long covered = 0;
    for (TensorRow r : h.tensors()) {
      covered += r.byteLength();
    }
    assertThat(covered).isEqualTo(data[0]);
  }

  @Test
  void jacksonDefaultLimitsDoNotApply() throws Exception {
    // Jackson 3 defaults: strings 20,000,000 chars, names 50,000, numbers 1,000 digits, depth 500.
    String longValue = "v".repeat(20_000_001);
    String longName = "n".repeat(60_000);
    String longNumber = "9".repeat(1_500);
    String json =
        "{\"__metadata__\":{\"k\":\""
            + longValue
            + "\"},\""
            + longName
            + "\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[0,2],\"x\":"
            + longNumber
            + "}}";
    ParsedHeader h = SafetensorsReads.read(SafetensorsBuilder.file(json, 2));
    assertThat(((MetadataValue.StringValue) h.metadata().get(0).value()).value()).hasSize(20_000_001);
    assertThat(h.tensors().get(0).name()).hasSize(60_000);
  }

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void aHundredMillionByteJsonIsAcceptedAndOneMoreIsRefused() throws Exception {
    Path ok = writeHugeHeader(dir.resolve("ceiling.safetensors"), CEILING);
    EvidenceRecord r = ModelInspector.standard().inspect(ok, HashMode.HEADER);
    assertThat(r.artifact().headerLength()).isEqualTo(8 + CEILING);
    assertThat(r.tensors()).hasSize(1);
    assertThat(r.tensors().get(0).fileOffset()).isEqualTo(8 + CEILING);
    assertThat(r.metadata()).hasSize(1);
    Files.delete(ok);

    // N = 100,000,001 and the file holds that many bytes after the prefix (sparse: nothing is
    // written, nothing is read).
    Path over = dir.resolve("over.safetensors");
    try (RandomAccessFile f = new RandomAccessFile(over.toFile(), "rw")) {
      f.write(u64le(CEILING + 1));
      f.write("{}".getBytes(StandardCharsets.US_ASCII));
      f.setLength(8 + CEILING + 1);
    }
    try {
      ModelInspector.standard().inspect(over, HashMode.HEADER);
      throw new AssertionError("accepted a 100,000,001-byte JSON");
    } catch (ReaException e) {
      assertThat(e.constraint()).isEqualTo(Constraint.HEADER_CEILING);
      assertThat(e.code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
      assertThat(e.field()).isEqualTo("json_length");
      assertThat(e.offset()).isZero();
      assertThat(e.diagnostics())
          .containsEntry("limit", "header_ceiling")
          .containsEntry("limit_bytes", "100000000")
          .containsEntry("requested_bytes", "100000001")
          .containsEntry("over_bytes", "1");
    } finally {
      Files.delete(over);
    }
  }

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void theHeaderIsHeldOnceInMemory() throws Exception {
    Path file = writeHugeHeader(dir.resolve("once.safetensors"), CEILING);
    try {
      // Heap: 180 MB, of which 164 MB old generation: one 100 MB copy of the header fits, two do
      // not. The control run allocates a second 100 MB array first and must run out of memory,
      // which shows the bound has teeth.
      ChildJvm.Result control = runChild(file, "control");
      assertThat(control.exit()).as(control.output()).isEqualTo(HugeHeaderChild.EXIT_OUT_OF_MEMORY);
      ChildJvm.Result run = runChild(file, "inspect");
      assertThat(run.exit()).as(run.output()).isEqualTo(0);
      assertThat(run.output()).contains("header_length=100000008 tensors=1 metadata=1");
    } finally {
      Files.delete(file);
    }
  }

  /**
   * A skipped string (an unknown member of a tensor entry) nearly as long as the header ceiling
   * is checked as it streams by: the same 180 MB heap, which could not hold it decoded as UTF-16
   * (200 MB) even once, inspects the file.
   */
  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void aHugeSkippedStringIsNeverHeldWhole() throws Exception {
    Path file = dir.resolve("skipped.safetensors");
    byte[] head =
        "{\"t\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4],\"x\":\""
            .getBytes(StandardCharsets.US_ASCII);
    byte[] tail = "\"}}".getBytes(StandardCharsets.US_ASCII);
    long jsonLength = CEILING - 8;
    writeFilled(file, head, jsonLength - head.length - tail.length, (byte) 'a', tail);
    try {
      ChildJvm.Result run = runChild(file, "inspect");
      assertThat(run.exit()).as(run.output()).isEqualTo(0);
      assertThat(run.output()).contains("header_length=" + (8 + jsonLength) + " tensors=1 metadata=0");
    } finally {
      Files.delete(file);
    }
  }

  /**
   * A tensor name of 40,000,000 bytes, more than the 32 MiB retained budget, is refused as it is
   * read (Jackson's name limit is the budget) in the same 180 MB heap. Decoded whole first, as
   * before, its name buffers (up to 64 MB of quads, then 80 MB of UTF-16 and the string) beside
   * the header did not fit that heap.
   */
  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void aNameLongerThanTheBudgetIsNeverDecodedWhole() throws Exception {
    Path file = dir.resolve("long-name.safetensors");
    byte[] tail =
        "\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4]}}"
            .getBytes(StandardCharsets.US_ASCII);
    writeFilled(file, new byte[] {'{', '"'}, 40_000_000, (byte) 'n', tail);
    try {
      ChildJvm.Result run = runChild(file, "inspect");
      assertThat(run.exit()).as(run.output()).isEqualTo(HugeHeaderChild.EXIT_REJECTED);
      assertThat(run.output())
          .contains(
              "rejected: retained_budget: retaining a name of more than 33554432 bytes in tensors"
                  + " (offset 9)");
    } finally {
      Files.delete(file);
    }
  }

  /**
   * Writes {@code u64le(json length) + head + fill bytes of fillByte + tail + 4 data bytes}, the
   * fill a megabyte at a time.
   */
  private static void writeFilled(Path file, byte[] head, long fill, byte fillByte, byte[] tail)
      throws IOException {
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(u64le(head.length + fill + tail.length)));
      ch.write(ByteBuffer.wrap(head));
      byte[] chunk = new byte[1 << 20];
      Arrays.fill(chunk, fillByte);
      for (long n = fill; n > 0; ) {
        int k = (int) Math.min(chunk.length, n);
        ByteBuffer b = ByteBuffer.wrap(chunk, 0, k);
        while (b.hasRemaining()) {
          ch.write(b);
        }
        n -= k;
      }
      ch.write(ByteBuffer.wrap(tail));
      ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}));
    }
  }

  private static ChildJvm.Result runChild(Path file, String mode) throws Exception {
    return ChildJvm.run(
        List.of("-XX:+UseSerialGC", "-Xmx180m", "-Xmn16m"),
        HugeHeaderChild.class,
        240,
        file.toString(),
        mode);
  }

  /**
   * Writes {@code u64le(jsonLength) + json + 4 data bytes}, where the JSON is one U8 tensor and a
   * metadata entry padded with leading and trailing whitespace to exactly {@code jsonLength}
   * bytes.
   */
  static Path writeHugeHeader(Path path, long jsonLength) throws IOException {
    byte[] core =
        "{\"__metadata__\":{\"k\":\"v\"},\"t\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4]}}"
            .getBytes(StandardCharsets.US_ASCII);
    long pad = jsonLength - core.length;
    long lead = pad / 2;
    long trail = pad - lead;
    try (FileChannel ch =
        FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(u64le(jsonLength)));
      writeSpaces(ch, lead);
      ch.write(ByteBuffer.wrap(core));
      writeSpaces(ch, trail);
      ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}));
    }
    assertThat(Files.size(path)).isEqualTo(8 + jsonLength + 4);
    return path;
  }

  private static void writeSpaces(FileChannel ch, long n) throws IOException {
    byte[] chunk = new byte[1 << 20];
    Arrays.fill(chunk, (byte) ' ');
    chunk[0] = '\n';
    chunk[1] = '\t';
    chunk[2] = '\r';
    while (n > 0) {
      int k = (int) Math.min(chunk.length, n);
      ByteBuffer b = ByteBuffer.wrap(chunk, 0, k);
      while (b.hasRemaining()) {
        ch.write(b);
      }
      n -= k;
    }
  }
}
