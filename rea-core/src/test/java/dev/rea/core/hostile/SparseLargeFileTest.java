package dev.rea.core.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.format.safetensors.SafetensorsBuilder;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.internal.io.HeaderInput;
import dev.rea.core.options.HashMode;
import java.io.RandomAccessFile;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files larger than 4 GiB with tensors beyond 2^32 (sparse files: the data is a hole, so the
 * test costs a header read): every offset, file offset, length and total is exact, in the record
 * and in its JSON, in header mode. Full hashing of such files is covered by the CLI test of a
 * 2 GiB+ sparse file against sha256sum; hashing 4 GiB here would only cost time.
 */
class SparseLargeFileTest {
  private static final long TWO_32 = 1L << 32;

  @TempDir Path dir;

  private static void extend(Path p, long size) throws Exception {
    try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "rw")) {
      raf.setLength(size);
    }
    assertThat(Files.size(p)).isEqualTo(size);
  }

  @Test
  void ggufTensorsBeyondFourGibibytesHaveExactOffsets() throws Exception {
    long big = (TWO_32 + 64) / 4; // F32 elements: 4 GiB + 64 bytes
    long bOffset = TWO_32 + 64; // 32-aligned
    long cOffset = 3 * TWO_32; // a gap before it is allowed
    GgufBuilder.Built built =
        GgufBuilder.v3()
            .kv("general.architecture", GgufBuilder.str("llama"))
            .tensorAt("a.weight", 0, 0, big)
            .tensorAt("b.weight", 0, bOffset, 16)
            .tensorAt("c.weight", 1, cOffset, 32, 2)
            .data(GgufBuilder.Data.PADDING_ONLY)
            .build();
    Path p = Files.write(dir.resolve("sparse-5g.gguf"), built.bytes());
    long data = built.dataOffset();
    long size = data + cOffset + 128;
    extend(p, size);

    EvidenceRecord r = ModelInspector.standard().inspect(p, HashMode.HEADER);
    assertThat(r.artifact().fileSize()).isEqualTo(size);
    assertThat(r.artifact().headerLength()).isEqualTo(built.headerLength());
    assertThat(r.artifact().bytesRead()).isLessThanOrEqualTo(HeaderInput.INITIAL_READ);
    assertThat(((FormatFacts.Gguf) r.formatFacts()).tensorDataOffset()).isEqualTo(data);
    TensorRow a = r.tensors().get(0);
    TensorRow b = r.tensors().get(1);
    TensorRow c = r.tensors().get(2);
    assertThat(a.byteLength()).isEqualTo(TWO_32 + 64);
    assertThat(a.parameterCount()).isEqualTo(big);
    assertThat(b.offset()).isEqualTo(TWO_32 + 64);
    assertThat(b.fileOffset()).isEqualTo(data + TWO_32 + 64);
    assertThat(b.byteLength()).isEqualTo(64);
    assertThat(c.type()).isEqualTo("F16");
    assertThat(c.offset()).isEqualTo(3 * TWO_32);
    assertThat(c.fileOffset()).isEqualTo(data + 3 * TWO_32);
    assertThat(c.byteLength()).isEqualTo(128);
    assertThat(c.fileOffset() + c.byteLength()).isEqualTo(size);
    assertThat(r.totals().byteLength()).isEqualTo(BigInteger.valueOf(TWO_32 + 64 + 64 + 128));
    assertThat(r.totals().parameterCount()).isEqualTo(BigInteger.valueOf(big + 16 + 64));
    String json = new String(EvidenceJson.recordBytes(r, true), StandardCharsets.UTF_8);
    assertThat(json)
        .contains("\"offset\":\"" + (3 * TWO_32) + "\"")
        .contains("\"file_offset\":\"" + (data + 3 * TWO_32) + "\"")
        .contains("\"file_size\":\"" + size + "\"");

    // One byte short: the last known range no longer ends within the file.
    extend(p, size - 1);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> ModelInspector.standard().inspect(p, HashMode.HEADER))
        .hasMessageContaining("tensor[2]");
  }

  @Test
  void safetensorsTensorsBeyondFourGibibytesHaveExactOffsets() throws Exception {
    long aEnd = TWO_32 + 16;
    String header =
        SafetensorsBuilder.builder()
            .tensorAt("a", "U8", 0, aEnd, aEnd)
            .tensorAt("b", "F32", aEnd, aEnd + 16, 2, 2)
            .tensorAt("c", "BF16", aEnd + 16, aEnd + 16 + 2 * TWO_32, TWO_32)
            .json();
    byte[] json = header.getBytes(StandardCharsets.UTF_8);
    long n = json.length;
    Path p = Files.write(dir.resolve("sparse-12g.safetensors"), SafetensorsBuilder.file(json, new byte[0]));
    long data = 8 + n;
    long size = data + aEnd + 16 + 2 * TWO_32;
    extend(p, size);

    EvidenceRecord r = ModelInspector.standard().inspect(p, HashMode.HEADER);
    assertThat(r.artifact().fileSize()).isEqualTo(size);
    assertThat(r.artifact().headerLength()).isEqualTo(data);
    assertThat(((FormatFacts.Safetensors) r.formatFacts()).dataOffset()).isEqualTo(data);
    TensorRow a = r.tensors().get(0);
    TensorRow b = r.tensors().get(1);
    TensorRow c = r.tensors().get(2);
    assertThat(a.byteLength()).isEqualTo(aEnd);
    assertThat(b.offset()).isEqualTo(aEnd);
    assertThat(b.fileOffset()).isEqualTo(data + aEnd);
    assertThat(c.offset()).isEqualTo(aEnd + 16);
    assertThat(c.fileOffset()).isEqualTo(data + aEnd + 16);
    assertThat(c.byteLength()).isEqualTo(2 * TWO_32);
    assertThat(c.parameterCount()).isEqualTo(TWO_32);
    assertThat(r.totals().byteLength()).isEqualTo(BigInteger.valueOf(aEnd + 16 + 2 * TWO_32));
    String text = new String(EvidenceJson.recordBytes(r, true), StandardCharsets.UTF_8);
    assertThat(text).contains("\"file_offset\":\"" + (data + aEnd + 16) + "\"");

    // One byte short of the declared data: truncated data is rejected.
    extend(p, size - 1);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> ModelInspector.standard().inspect(p, HashMode.HEADER))
        .isInstanceOf(dev.rea.core.error.ReaException.class);
  }
}
