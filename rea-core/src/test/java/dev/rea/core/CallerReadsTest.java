package dev.rea.core;

import static dev.rea.core.internal.format.gguf.GgufBuilder.ARRAY;
import static dev.rea.core.internal.format.gguf.GgufBuilder.STRING;
import static dev.rea.core.internal.format.gguf.GgufBuilder.UINT32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.array;
import static dev.rea.core.internal.format.gguf.GgufBuilder.bool;
import static dev.rea.core.internal.format.gguf.GgufBuilder.f32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.f32Bits;
import static dev.rea.core.internal.format.gguf.GgufBuilder.f64;
import static dev.rea.core.internal.format.gguf.GgufBuilder.i64;
import static dev.rea.core.internal.format.gguf.GgufBuilder.i8;
import static dev.rea.core.internal.format.gguf.GgufBuilder.str;
import static dev.rea.core.internal.format.gguf.GgufBuilder.u32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.u64;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.format.safetensors.SafetensorsBuilder;
import dev.rea.core.options.InspectOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The public pieces for callers that read files themselves (the Spark job): {@link
 * FileProbe#headLength} and {@link FileProbe#of(byte[], int, long)}, and {@link
 * Rea#metadataValueJson}.
 */
class CallerReadsTest {
  @TempDir Path dir;

  @Test
  void aProbeOfTheHeadLengthNamesWhatAProbeOfThePathNames() throws IOException {
    byte[] gguf = GgufBuilder.v3().kv("general.architecture", str("llama")).tensor("w", 0, 4).bytes();
    byte[] st = SafetensorsBuilder.builder().tensor("w", "F32", 2).build();
    byte[] text = "just some text, longer than eight bytes\n".getBytes(StandardCharsets.UTF_8);
    // A 9th byte '{' after a declared length far past the end: not a model (CONTRACT section 8).
    byte[] tooLong = "abcdefgh{\"x\": 1}".getBytes(StandardCharsets.US_ASCII);
    byte[] big = new byte[4096];
    Arrays.fill(big, (byte) 'x');
    for (byte[] bytes : List.of(gguf, st, text, tooLong, big, new byte[0], new byte[] {'G', 'G'})) {
      Path file = Files.write(dir.resolve("f" + bytes.length), bytes);
      long size = bytes.length;
      byte[] first = Arrays.copyOf(bytes, (int) Math.min(8, size));
      int want = FileProbe.headLength(first, first.length, size);
      FileProbe fromBytes = FileProbe.of(bytes, want, size);
      assertThat(fromBytes.modelFormat()).isEqualTo(FileProbe.of(file).modelFormat());
      assertThat(fromBytes.size()).isEqualTo(size);
    }
  }

  @Test
  void theHeadLengthNeverReachesPastAModelsHeader() {
    byte[] gguf = GgufBuilder.v3().tensor("w", 0, 4).bytes();
    assertThat(FileProbe.headLength(gguf, 8, gguf.length)).isEqualTo(8);
    byte[] st = SafetensorsBuilder.builder().tensor("w", "F32", 2).build();
    long json = st[0] & 0xFF;
    assertThat(FileProbe.headLength(st, 8, st.length)).isEqualTo(8 + json).isLessThan(st.length);
    byte[] text = new byte[4096];
    Arrays.fill(text, (byte) 'x');
    assertThat(FileProbe.headLength(text, 8, text.length)).isEqualTo(512);
    assertThat(FileProbe.headLength(text, 8, 100)).isEqualTo(100);
  }

  @Test
  void aHeadLongerThanItsBytesIsRefused() {
    assertThatThrownBy(() -> FileProbe.of(new byte[4], 5, 10))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> FileProbe.of(new byte[600], 513, 1000))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> FileProbe.of(new byte[4], -1, 10))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void eachMetadataValueIsTheRecordsJsonOfIt() throws Exception {
    byte[] bytes =
        GgufBuilder.v3()
            .kv("u32", u32(4096))
            .kv("u64", u64(-1L))
            .kv("i64", i64(Long.MIN_VALUE))
            .kv("i8", i8(-5))
            .kv("f32", f32(0.1f))
            .kv("nan", f32Bits(0x7FC00000))
            .kv("f64", f64(-0.0))
            .kv("bool", bool(true))
            .kv("str", str("q\"uote\u00e9"))
            .kv("tokens", array(STRING, str("a"), str("b")))
            .kv("nested", array(ARRAY, array(UINT32, u32(1), u32(2))))
            .bytes();
    Path file = Files.write(dir.resolve("values.gguf"), bytes);
    EvidenceRecord record = Rea.standard().inspect(file, InspectOptions.defaults()).orThrow();
    ObjectMapper json = new ObjectMapper();
    JsonNode rows = json.readTree(Rea.recordJson(record)).get("metadata");
    assertThat(record.metadata()).hasSize(11);
    for (MetadataRow row : record.metadata()) {
      ObjectNode whole = (ObjectNode) rows.get(row.index());
      JsonNode expected = whole.has("value") ? whole.get("value") : whole.deepCopy();
      if (!whole.has("value")) {
        ((ObjectNode) expected).remove(List.of("index", "key", "type"));
      }
      String text = Rea.metadataValueJson(row);
      assertThat(json.readTree(text)).as(row.key() + " " + text).isEqualTo(expected);
    }
    assertThat(Rea.metadataValueJson(record.metadata().get(1))).isEqualTo("\"18446744073709551615\"");
  }
}
