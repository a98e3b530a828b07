package dev.rea.core.fuzz;

import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.longs;

import dev.rea.core.internal.format.FormatReader;
import dev.rea.core.internal.format.gguf.GgufReader;
import dev.rea.core.internal.format.safetensors.SafetensorsReader;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Property: any mutation of a valid file (flipped bits, boundary values written over a field,
 * truncation, inserted or deleted bytes, one to four at a time) yields a record or a typed error,
 * and an accepted mutant satisfies every invariant of {@link FuzzOracle} (consumed ==
 * header_length, previews of at most 8 elements, totals == sum of rows, a record that
 * round-trips its JSON). The valid files are the fuzz seed generator's. QuickTheories over
 * seeds: a failure names a reproducible seed.
 */
class MutationPropertyTest {
  private static final List<byte[]> GGUF = valid(SeedCorpus.gguf());
  private static final List<byte[]> SAFETENSORS = valid(SeedCorpus.safetensors());
  private static final long[] BOUNDARY = {0, 1, 0x7F, 0x80, 0xFF, 0x7FFF_FFFFL, 0xFFFF_FFFFL, Long.MAX_VALUE, -1};

  private static List<byte[]> valid(Map<String, byte[]> seeds) {
    return seeds.entrySet().stream()
        .filter(e -> e.getKey().equals("built-typical") || e.getKey().equals("built-every-dtype")
            || e.getKey().equals("built-escapes") || e.getKey().equals("built-every-scalar")
            || e.getKey().equals("built-arrays") || e.getKey().equals("built-tensors-mixed")
            || e.getKey().equals("built-be-v3") || e.getKey().equals("built-metadata-null"))
        .map(Map.Entry::getValue)
        .toList();
  }

  static byte[] mutate(byte[] in, Random r) {
    byte[] b = in;
    int mutations = 1 + r.nextInt(4);
    for (int m = 0; m < mutations && b.length > 0; m++) {
      int at = r.nextInt(b.length);
      switch (r.nextInt(5)) {
        case 0 -> {
          b = b.clone();
          b[at] ^= (byte) (1 << r.nextInt(8));
        }
        case 1 -> {
          b = b.clone();
          long v = BOUNDARY[r.nextInt(BOUNDARY.length)];
          int width = new int[] {1, 2, 4, 8}[r.nextInt(4)];
          for (int k = 0; k < width && at + k < b.length; k++) {
            b[at + k] = (byte) (v >>> (8 * k));
          }
        }
        case 2 -> b = Arrays.copyOf(b, at);
        case 3 -> {
          byte[] c = new byte[b.length + 1];
          System.arraycopy(b, 0, c, 0, at);
          c[at] = (byte) r.nextInt(256);
          System.arraycopy(b, at, c, at + 1, b.length - at);
          b = c;
        }
        default -> {
          byte[] c = new byte[b.length - 1];
          System.arraycopy(b, 0, c, 0, at);
          System.arraycopy(b, at + 1, c, at, b.length - at - 1);
          b = c;
        }
      }
    }
    return b;
  }

  private static void property(List<byte[]> files, FormatReader reader, long fixedSeed) {
    qt().withFixedSeed(fixedSeed)
        .withExamples(3000)
        .forAll(longs().all())
        .checkAssert(
            seed -> {
              Random r = new Random(seed);
              byte[] mutant = mutate(files.get(r.nextInt(files.size())), r);
              try {
                FuzzOracle.checkReader(reader, mutant);
              } catch (Throwable t) {
                throw new AssertionError("seed " + seed + ": " + t, t);
              }
            });
  }

  @Test
  void ggufMutantsYieldARecordOrATypedError() {
    property(GGUF, new GgufReader(), 61L);
  }

  @Test
  void safetensorsMutantsYieldARecordOrATypedError() {
    property(SAFETENSORS, new SafetensorsReader(), 62L);
  }
}
