package dev.rea.core.internal.format.gguf;

import static dev.rea.core.internal.format.gguf.GgufBuilder.ARRAY;
import static dev.rea.core.internal.format.gguf.GgufBuilder.FLOAT32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.STRING;
import static dev.rea.core.internal.format.gguf.GgufBuilder.UINT16;
import static dev.rea.core.internal.format.gguf.GgufBuilder.array;
import static dev.rea.core.internal.format.gguf.GgufBuilder.f32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.str;
import static dev.rea.core.internal.format.gguf.GgufBuilder.u16;
import static dev.rea.core.internal.format.gguf.GgufBuilder.u32;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.internal.format.ReadContext;
import dev.rea.core.internal.io.HeaderInput;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.Limits;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code value_sha256} (CONTRACT section 11) is the SHA-256 of an array value's stored bytes: the
 * digest REA computes while it reads the header equals one computed here over the file's bytes,
 * from the array's element type field to its last element, located by a walker of this test's own
 * (not REA's reader).
 */
class ArrayValueDigestTest {

  @Test
  void everyArrayRowOfTheCorpusMatchesItsBytes() throws IOException {
    Path corpus = GgufTesting.corpusOrSkip("");
    List<Path> files;
    try (Stream<Path> s = Files.walk(corpus)) {
      files =
          s.filter(p -> p.toString().endsWith(".gguf") && Files.isRegularFile(p)).sorted().toList();
    }
    int rows = 0;
    int bigEndianRows = 0;
    int nestedRows = 0;
    int filesWithArrays = 0;
    for (Path f : files) {
      EvidenceRecord r;
      try {
        r = GgufTesting.inspect(f);
      } catch (ReaException rejected) {
        continue;
      }
      byte[] bytes = Files.readAllBytes(f);
      Map<String, String> expected = IndependentWalk.arrayDigests(bytes);
      List<MetadataRow> arrays =
          r.metadata().stream().filter(m -> m.type() == ValueType.ARRAY).toList();
      assertThat(arrays).as(f.toString()).hasSize(expected.size());
      for (MetadataRow m : arrays) {
        assertThat(m.valueSha256()).as(f + " " + m.key()).isEqualTo(expected.get(m.key()));
        rows++;
        if (IndependentWalk.bigEndian(bytes)) {
          bigEndianRows++;
        }
        if (((dev.rea.core.evidence.MetadataValue.ArrayValue) m.value()).elementType()
            == ValueType.ARRAY) {
          nestedRows++;
        }
      }
      filesWithArrays += arrays.isEmpty() ? 0 : 1;
    }
    System.out.println(
        "value_sha256 checked on " + rows + " array rows of " + filesWithArrays + " corpus files");
    assertThat(filesWithArrays).isGreaterThanOrEqualTo(10);
    assertThat(bigEndianRows).as("big-endian array rows").isPositive();
    assertThat(nestedRows).as("nested array rows").isPositive();
  }

  @Test
  void nestedBigEndianArraysHashTheirOuterBytesThroughEveryBufferRefill() throws ReaException {
    List<GgufBuilder.Value> tokens = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      tokens.add(str("token-" + i));
    }
    for (ByteOrder order : List.of(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN)) {
      byte[] bytes =
          GgufBuilder.v3()
              .order(order)
              .kv("general.alignment", u32(32))
              .kv("a.tokens", array(STRING, tokens))
              .kv(
                  "a.nested",
                  array(
                      ARRAY,
                      array(UINT16, u16(1), u16(2)),
                      array(ARRAY, array(FLOAT32, f32(1.5f)), array(STRING, str("x"))),
                      array(UINT16)))
              .bytes();
      Map<String, String> expected = IndependentWalk.arrayDigests(bytes);
      assertThat(expected).containsOnlyKeys("a.tokens", "a.nested");
      // The smallest buffer: every array spans many refills.
      for (int capacity : new int[] {16, 37, HeaderInput.CAPACITY}) {
        HeaderInput in =
            new HeaderInput(
                Channels.newChannel(new ByteArrayInputStream(bytes)),
                bytes.length,
                EvidenceIds.sha256(),
                Cancellation.none(),
                capacity);
        ParsedHeader h = new GgufReader().read(in, ReadContext.of(Limits.defaults()));
        Map<String, String> got = new LinkedHashMap<>();
        for (MetadataRow m : h.metadata()) {
          if (m.type() == ValueType.ARRAY) {
            got.put(m.key(), m.valueSha256());
          } else {
            assertThat(m.valueSha256()).isNull();
          }
        }
        assertThat(got).as(order + " capacity " + capacity).isEqualTo(expected);
      }
    }
  }

  /**
   * A GGUF walker written for this test from the GGUF specification (ggml docs/gguf.md): it
   * finds each top-level array value's byte range and hashes it. It trusts the file (the tests
   * give it files REA accepted).
   */
  static final class IndependentWalk {
    private final ByteBuffer b;

    private IndependentWalk(byte[] bytes) {
      b = ByteBuffer.wrap(bytes).order(bigEndian(bytes) ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
    }

    /** A version whose low 16 bits are zero in little-endian order was written big-endian. */
    static boolean bigEndian(byte[] bytes) {
      int le = ByteBuffer.wrap(bytes, 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
      return (le & 0xFFFF) == 0;
    }

    /** @return key to lowercase hex SHA-256 of each top-level array value's bytes */
    static Map<String, String> arrayDigests(byte[] bytes) {
      IndependentWalk w = new IndependentWalk(bytes);
      ByteBuffer b = w.b;
      b.position(8);
      b.getLong(); // tensor count
      long kvs = b.getLong();
      Map<String, String> out = new LinkedHashMap<>();
      for (long i = 0; i < kvs; i++) {
        int keyLength = (int) b.getLong();
        byte[] key = new byte[keyLength];
        b.get(key);
        int type = b.getInt();
        int start = b.position();
        w.skipValue(type);
        if (type == ARRAY) {
          byte[] value = new byte[b.position() - start];
          System.arraycopy(bytes, start, value, 0, value.length);
          out.put(new String(key, java.nio.charset.StandardCharsets.UTF_8), GgufTesting.sha256(value));
        }
      }
      return out;
    }

    private void skipValue(int type) {
      switch (type) {
        case 0, 1, 7 -> b.position(b.position() + 1);
        case 2, 3 -> b.position(b.position() + 2);
        case 4, 5, 6 -> b.position(b.position() + 4);
        case 10, 11, 12 -> b.position(b.position() + 8);
        case 8 -> {
          long n = b.getLong();
          b.position(Math.toIntExact(b.position() + n));
        }
        case 9 -> {
          int elementType = b.getInt();
          long count = b.getLong();
          for (long k = 0; k < count; k++) {
            skipValue(elementType);
          }
        }
        default -> throw new IllegalArgumentException("value type " + type);
      }
    }
  }
}
