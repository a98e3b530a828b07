package dev.rea.core.internal.format.gguf;

import static dev.rea.core.internal.format.gguf.GgufBuilder.ARRAY;
import static dev.rea.core.internal.format.gguf.GgufBuilder.BOOL;
import static dev.rea.core.internal.format.gguf.GgufBuilder.UINT8;
import static dev.rea.core.internal.format.gguf.GgufBuilder.array;
import static dev.rea.core.internal.format.gguf.GgufBuilder.bool;
import static dev.rea.core.internal.format.gguf.GgufBuilder.f64;
import static dev.rea.core.internal.format.gguf.GgufBuilder.i8;
import static dev.rea.core.internal.format.gguf.GgufBuilder.str;
import static dev.rea.core.internal.format.gguf.GgufBuilder.u32;
import static dev.rea.core.internal.format.gguf.GgufBuilder.u64;
import static dev.rea.core.internal.format.gguf.GgufBuilder.u8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.options.Limits;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flips, overwrites, truncates and extends bytes of valid GGUF files (seeded, many thousands of
 * mutants) and checks that the reader only ever answers with a header or a {@link ReaException}:
 * never another exception, never a hang (each input within a time bound, the whole test under a
 * timeout), and an accepted mutant still consumes exactly its header.
 */
class GgufMutationTest {
  private static final long SEED = 0x5EED_6607L;
  private static final int MUTANTS_PER_SEED = 2500;
  private static final long MAX_MILLIS_PER_INPUT = 2000;

  @TempDir Path tmp;

  private static Map<String, byte[]> seeds() {
    Map<String, byte[]> s = new LinkedHashMap<>();
    s.put(
        "rich-le",
        GgufBuilder.v3()
            .kv("general.architecture", str("llama"))
            .kv("general.alignment", u32(64))
            .kv("llama.context_length", u32(4096))
            .kv("tokenizer.ggml.tokens", GgufBuilder.stringArray("tok", 40))
            .kv("tokenizer.ggml.flags", array(BOOL, bool(true), bool(false), bool(true)))
            .kv("x.nested", array(ARRAY, array(UINT8, u8(1), u8(2)), array(UINT8, u8(3))))
            .kv("x.big", u64(-1L))
            .kv("x.f", f64(Double.NaN))
            .layoutAlignment(64)
            .tensor("token_embd.weight", 0, 8, 4)
            .tensor("blk.0.q", 2, 32, 2)
            .tensor("blk.0.k", 9, 32)
            .tensor("blk.0.v", 12, 256)
            .tensor("blk.0.w", 20, 32)
            .tensor("blk.0.e", 1, 8, 0)
            .bytes());
    s.put(
        "rich-be",
        GgufBuilder.v3()
            .bigEndian()
            .kv("general.architecture", str("llama"))
            .kv("x.i8", i8(-3))
            .kv("tokenizer.ggml.merges", GgufBuilder.stringArray("a b", 12))
            .kv("x.deep", GgufBuilder.nested(5))
            .tensor("a", 0, 16)
            .tensor("b", 30, 16, 2)
            .tensor("c", 31, 64)
            .bytes());
    s.put("zero-tensors", GgufBuilder.v2().kv("general.name", str("vocab")).kv("k", GgufBuilder.stringArray("w", 9)).data(GgufBuilder.Data.NONE).bytes());
    s.put("gguf-py-le-v3", GgufTesting.resource("gguf-py-writer/gguf-py-le-v3.gguf"));
    s.put("llama-spm-head", GgufTesting.resource("real/ggml-vocab-llama-spm.gguf.gz"));
    return s;
  }

  @Test
  @Timeout(300)
  void mutantsOfValidFilesYieldOnlyTypedErrors() throws Exception {
    Random r = new Random(SEED);
    int accepted = 0;
    int rejected = 0;
    Map<String, Integer> byConstraint = new LinkedHashMap<>();
    for (Map.Entry<String, byte[]> seed : seeds().entrySet()) {
      byte[] valid = seed.getValue();
      ParsedHeader h = GgufTesting.read(valid);
      long headerLength = h.headerLength();
      int mutants = seed.getKey().equals("llama-spm-head") ? 600 : MUTANTS_PER_SEED;
      for (int m = 0; m < mutants; m++) {
        StringBuilder how = new StringBuilder();
        byte[] mutant = mutate(valid, headerLength, r, how);
        long t0 = System.nanoTime();
        try {
          GgufTesting.Read read = GgufTesting.readWith(mutant, Limits.defaults());
          accepted++;
          assertThat(read.consumed()).isEqualTo(read.header().headerLength());
          for (var row : read.header().metadata()) {
            if (row.value() instanceof MetadataValue.ArrayValue a) {
              assertThat(a.preview().size()).isLessThanOrEqualTo(8);
            }
          }
        } catch (ReaException e) {
          rejected++;
          byConstraint.merge(e.constraint().wireName(), 1, Integer::sum);
          assertThat(e.getMessage()).isNotBlank();
          if (e.constraint() == dev.rea.core.error.Constraint.FILE_FORMAT_REJECTED) {
            assertThat(e.field()).as(how.toString()).isNotBlank();
            assertThat(e.offset()).as(how.toString()).isNotNull().isBetween(0L, (long) mutant.length);
          }
        } catch (Throwable t) {
          throw new AssertionError(
              "seed " + seed.getKey() + " mutant " + m + " (" + how + ") threw " + t, t);
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(ms).as(seed.getKey() + " mutant " + m + " (" + how + ") time").isLessThan(MAX_MILLIS_PER_INPUT);
      }
    }
    System.out.println(
        "GGUF mutants: " + (accepted + rejected) + " (" + accepted + " accepted, " + rejected
            + " rejected: " + byConstraint + ")");
    assertThat(accepted + rejected).isGreaterThan(10_000);
    assertThat(rejected).isGreaterThan(1000);
    assertThat(accepted).isGreaterThan(100);
  }

  @Test
  @Timeout(120)
  void mutantsThroughTheInspectorYieldOnlyTypedErrors() throws Exception {
    Random r = new Random(SEED + 1);
    byte[] valid = seeds().get("rich-le");
    long headerLength = GgufTesting.read(valid).headerLength();
    for (int m = 0; m < 300; m++) {
      StringBuilder how = new StringBuilder();
      byte[] mutant = mutate(valid, headerLength, r, how);
      Path file = GgufTesting.write(tmp, "m" + m + ".gguf", mutant);
      try {
        GgufTesting.inspect(file);
      } catch (ReaException e) {
        assertThat(e.path()).isEqualTo(file.toAbsolutePath().toString());
      } catch (Throwable t) {
        throw new AssertionError("mutant " + m + " (" + how + ") threw " + t, t);
      }
    }
  }

  private static final long[] SPECIAL_U64 = {
    0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 31, 32, 33, 63, 64, 65, 255, 256, 65535, 1L << 31, 1L << 32,
    (1L << 32) - 1, 1L << 62, Long.MAX_VALUE, Long.MIN_VALUE, -1L, -2L, -32L, 100_000_000L,
    100_000_001L
  };

  /** Applies 1 to 3 random mutations, mostly inside the header. */
  static byte[] mutate(byte[] valid, long headerLength, Random r, StringBuilder how) {
    byte[] b = valid.clone();
    int n = 1 + r.nextInt(3);
    for (int k = 0; k < n; k++) {
      int span = (int) Math.min(b.length, headerLength + 64);
      if (span == 0) {
        break;
      }
      int at = r.nextInt(span);
      switch (r.nextInt(8)) {
        case 0:
          b[at] ^= (byte) (1 << r.nextInt(8));
          how.append("flip@").append(at).append(' ');
          break;
        case 1:
          b[at] = (byte) new int[] {0, 1, 2, 0x7F, 0x80, 0xC0, 0xFF, 9, 12, 13}[r.nextInt(10)];
          how.append("byte@").append(at).append(' ');
          break;
        case 2:
          {
            long v = SPECIAL_U64[r.nextInt(SPECIAL_U64.length)];
            int width = new int[] {4, 8}[r.nextInt(2)];
            for (int i = 0; i < width && at + i < b.length; i++) {
              int shift = r.nextBoolean() ? 8 * i : 8 * (width - 1 - i);
              b[at + i] = (byte) (v >>> shift);
            }
            how.append("u").append(width * 8).append('=').append(Long.toUnsignedString(v)).append('@').append(at).append(' ');
            break;
          }
        case 3:
          b = Arrays.copyOf(b, at);
          how.append("truncate@").append(at).append(' ');
          break;
        case 4:
          {
            int extra = 1 + r.nextInt(64);
            int old = b.length;
            b = Arrays.copyOf(b, old + extra);
            for (int i = old; i < b.length; i++) {
              b[i] = (byte) r.nextInt(256);
            }
            how.append("extend+").append(extra).append(' ');
            break;
          }
        case 5:
          {
            // Delete a slice.
            int len = Math.min(1 + r.nextInt(16), b.length - at);
            byte[] c = new byte[b.length - len];
            System.arraycopy(b, 0, c, 0, at);
            System.arraycopy(b, at + len, c, at, b.length - at - len);
            b = c;
            how.append("delete").append(len).append('@').append(at).append(' ');
            break;
          }
        case 6:
          {
            // Duplicate a slice.
            int len = Math.min(1 + r.nextInt(16), b.length - at);
            byte[] c = new byte[b.length + len];
            System.arraycopy(b, 0, c, 0, at + len);
            System.arraycopy(b, at, c, at + len, b.length - at);
            b = c;
            how.append("dup").append(len).append('@').append(at).append(' ');
            break;
          }
        default:
          for (int i = 0; i < 4 && at + i < b.length; i++) {
            b[at + i] = (byte) r.nextInt(256);
          }
          how.append("random4@").append(at).append(' ');
      }
    }
    return b;
  }
}
