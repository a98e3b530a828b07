package dev.rea.core.internal.format.safetensors;

import static dev.rea.core.internal.format.safetensors.SafetensorsBuilder.builder;
import static dev.rea.core.internal.format.safetensors.SafetensorsBuilder.file;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.internal.evidence.Derivations;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.Limits;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded mutations of valid safetensors files (byte and bit flips, JSON-punctuation overwrites,
 * insertions, deletions, truncations, extensions, length-prefix changes): every mutant either
 * parses into a self-consistent header or fails with a typed {@link ReaException}; no other
 * exception escapes, and the whole run must finish within its timeout (a hang fails it). A
 * failure names the seed and the mutant number, so it can be replayed.
 */
class SafetensorsMutationTest {
  private static final long SEED = 0x5AFE_7E50L;
  private static final int MUTANTS_PER_TEMPLATE = 3_000;
  private static final byte[] ALPHABET =
      "{}[]\":,0123456789-+.eE \t\r\nuU\\abcdefnrtlsFIU_".getBytes(StandardCharsets.US_ASCII);
  private static final Set<Constraint> READER_CONSTRAINTS =
      EnumSet.of(
          Constraint.FILE_FORMAT_REJECTED,
          Constraint.HEADER_CEILING,
          Constraint.NESTING_LIMIT,
          Constraint.RETAINED_BUDGET);

  @TempDir Path dir;

  static List<byte[]> templates() {
    List<byte[]> t = new ArrayList<>();
    t.add(
        file("{\"test\":{\"dtype\":\"I32\",\"shape\":[2,2],\"data_offsets\":[0,16]}}", 16));
    t.add(
        builder()
            .metadata("format", "pt")
            .metadata("k\u00e9y", "v\uD83D\uDE00")
            .tensor("a.weight", "F16", 2, 3)
            .tensor("a.bias", "BF16", 3)
            .tensor("scale", "F8_E8M0", 2)
            .tensor("packed", "F4", 2, 2)
            .tensor("p6", "F6_E2M3", 4)
            .tensor("c", "C64", 1)
            .tensorBytes("odd", "F128", 16, 1)
            .tensorBytes("empty", "I64", 0, 0, 4)
            .tensor("scalar", "U64")
            .padTo8()
            .build());
    t.add(builder().leading("\t\n ").trailing("\r\n  ").tensor("x", "U8", 5).metadataNull().build());
    t.add(
        file(
            "{\"t\":{\"dtype\":\"F\\u00332\",\"shape\":[1,2],\"data_offsets\":[0,8],"
                + "\"extra\":{\"a\":[1,2.5e3,\"s\\n\",null,true,{\"b\":false}]}},"
                + "\"__metadata__\":{\"\\u0061\":\"\\\"q\\\"\"}}",
            8));
    t.add(file("{}", 0));
    for (String name : SafetensorsCorpusTest.ACCEPTED.stream().map(e -> e.file()).toList()) {
      SafetensorsCorpus.committed(name).ifPresent(p -> t.add(readAll(p)));
    }
    return t;
  }

  private static byte[] readAll(Path p) {
    try {
      return Files.readAllBytes(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void mutantsFailOnlyWithTypedErrors() throws Exception {
    List<byte[]> templates = templates();
    assertThat(templates).hasSizeGreaterThanOrEqualTo(10);
    SplittableRandom random = new SplittableRandom(SEED);
    Limits limits = Limits.defaults();
    int accepted = 0;
    int rejected = 0;
    long slowest = 0;
    int total = 0;
    for (int ti = 0; ti < templates.size(); ti++) {
      byte[] template = templates.get(ti);
      // Each template is valid to begin with.
      SafetensorsReads.read(template, limits);
      for (int m = 0; m < MUTANTS_PER_TEMPLATE; m++) {
        byte[] mutant = mutate(template, random);
        String id = "seed " + SEED + ", template " + ti + ", mutant " + m;
        long start = System.nanoTime();
        try {
          ParsedHeader h = SafetensorsReads.read(mutant, limits, 64 + random.nextInt(4096));
          checkConsistent(h, mutant.length, id);
          accepted++;
        } catch (ReaException e) {
          assertThat(READER_CONSTRAINTS).as(id + ": " + e.getMessage()).contains(e.constraint());
          assertThat(e.field()).as(id).isNotNull();
          assertThat(e.offset()).as(id).isNotNull().isBetween(0L, (long) mutant.length);
          assertThat(e.getMessage()).as(id).isNotBlank();
          rejected++;
        } catch (RuntimeException | Error e) {
          throw new AssertionError(id + ": untyped " + e, e);
        }
        slowest = Math.max(slowest, System.nanoTime() - start);
        total++;
      }
    }
    System.out.printf(
        "safetensors mutation test: %d mutants, %d accepted, %d rejected, slowest %.1f ms%n",
        total, accepted, rejected, slowest / 1e6);
    assertThat(total).isGreaterThanOrEqualTo(30_000);
    assertThat(rejected).isGreaterThan(total / 2);
    assertThat(accepted).isPositive();
  }

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void mutantsThroughTheInspectorFailOnlyWithTypedErrors() throws Exception {
    List<byte[]> templates = templates();
    SplittableRandom random = new SplittableRandom(SEED + 1);
    ModelInspector inspector = ModelInspector.standard();
    Path p = dir.resolve("mutant.safetensors");
    for (int m = 0; m < 1_500; m++) {
      byte[] mutant = mutate(templates.get(m % templates.size()), random);
      Files.write(p, mutant);
      try {
        inspector.inspect(p, m % 3 == 0 ? HashMode.FULL : HashMode.HEADER);
      } catch (ReaException e) {
        assertThat(e.constraint()).isNotNull();
        assertThat(e.path()).isEqualTo(p.toString());
      } catch (RuntimeException | Error e) {
        throw new AssertionError("seed " + (SEED + 1) + ", mutant " + m + ": untyped " + e, e);
      }
    }
  }

  /** An accepted header must satisfy every rule the reader promises. */
  private static void checkConsistent(ParsedHeader h, long fileSize, String id) {
    long covered = 0;
    List<TensorRow> t = h.tensors();
    long[][] ranges = new long[t.size()][];
    for (int i = 0; i < t.size(); i++) {
      TensorRow r = t.get(i);
      assertThat(r.index()).as(id).isEqualTo(i);
      if (i > 0) {
        assertThat(Derivations.compareCodePoints(t.get(i - 1).name(), r.name())).as(id).isNegative();
      }
      assertThat(r.fileOffset()).as(id).isEqualTo(h.headerLength() + r.offset());
      assertThat(r.byteLength()).as(id).isNotNull();
      covered += r.byteLength();
      ranges[i] = new long[] {r.offset(), r.offset() + r.byteLength()};
    }
    assertThat(h.headerLength() + covered).as(id + " coverage").isEqualTo(fileSize);
    Arrays.sort(ranges, (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    long start = 0;
    for (long[] r : ranges) {
      assertThat(r[0]).as(id + " contiguous").isEqualTo(start);
      start = r[1];
    }
  }

  static byte[] mutate(byte[] template, SplittableRandom r) {
    byte[] b = template.clone();
    int rounds = 1 + (r.nextInt(4) == 0 ? r.nextInt(4) : 0);
    for (int k = 0; k < rounds; k++) {
      b = mutateOnce(b, r);
    }
    return b;
  }

  private static byte[] mutateOnce(byte[] b, SplittableRandom r) {
    int headerEnd = headerEnd(b);
    int kind = r.nextInt(9);
    if (b.length == 0) {
      kind = 6;
    }
    switch (kind) {
      case 0: // random byte, mostly in the header
        {
          byte[] c = b.clone();
          c[position(c.length, headerEnd, r)] = (byte) r.nextInt(256);
          return c;
        }
      case 1: // one bit
        {
          byte[] c = b.clone();
          c[position(c.length, headerEnd, r)] ^= (byte) (1 << r.nextInt(8));
          return c;
        }
      case 2: // JSON punctuation
        {
          byte[] c = b.clone();
          int at = position(c.length, headerEnd, r);
          int n = 1 + r.nextInt(3);
          for (int i = at; i < Math.min(c.length, at + n); i++) {
            c[i] = ALPHABET[r.nextInt(ALPHABET.length)];
          }
          return c;
        }
      case 3: // delete a span in the header (length prefix kept: N now lies)
        {
          int at = position(b.length, headerEnd, r);
          int n = Math.min(b.length - at, 1 + r.nextInt(8));
          byte[] c = new byte[b.length - n];
          System.arraycopy(b, 0, c, 0, at);
          System.arraycopy(b, at + n, c, at, b.length - at - n);
          return c;
        }
      case 4: // insert bytes and fix N when inside the JSON, so the JSON itself is what changed
        {
          int at = Math.min(b.length, 8 + r.nextInt(Math.max(1, headerEnd - 7)));
          int n = 1 + r.nextInt(6);
          byte[] c = new byte[b.length + n];
          System.arraycopy(b, 0, c, 0, at);
          for (int i = 0; i < n; i++) {
            c[at + i] = ALPHABET[r.nextInt(ALPHABET.length)];
          }
          System.arraycopy(b, at, c, at + n, b.length - at);
          if (c.length >= 8 && at <= headerEnd && r.nextBoolean()) {
            long len = le(c) + n;
            ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN).putLong(0, len);
          }
          return c;
        }
      case 5: // truncate
        return Arrays.copyOf(b, r.nextInt(b.length + 1));
      case 6: // extend
        {
          int n = 1 + r.nextInt(64);
          byte[] c = Arrays.copyOf(b, b.length + n);
          for (int i = b.length; i < c.length; i++) {
            c[i] = (byte) r.nextInt(256);
          }
          return c;
        }
      case 7: // change the length prefix
        {
          if (b.length < 8) {
            return b;
          }
          byte[] c = b.clone();
          long len = le(c);
          long[] choices = {len + 1, len - 1, len + r.nextInt(64) - 32, r.nextLong(), 0, -1L, 1L << 63};
          ByteBuffer.wrap(c).order(ByteOrder.LITTLE_ENDIAN).putLong(0, choices[r.nextInt(choices.length)]);
          return c;
        }
      default: // duplicate a span of the JSON in place of another (structure-shaped garbage)
        {
          if (headerEnd - 8 < 4) {
            return b;
          }
          byte[] c = b.clone();
          int from = 8 + r.nextInt(headerEnd - 8);
          int to = 8 + r.nextInt(headerEnd - 8);
          int n = Math.min(1 + r.nextInt(24), Math.min(headerEnd - from, headerEnd - to));
          System.arraycopy(b, from, c, to, n);
          return c;
        }
    }
  }

  private static int headerEnd(byte[] b) {
    if (b.length < 8) {
      return b.length;
    }
    long n = le(b);
    return n < 0 || n > b.length - 8 ? b.length : (int) (8 + n);
  }

  private static long le(byte[] b) {
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong(0);
  }

  private static int position(int length, int headerEnd, SplittableRandom r) {
    if (headerEnd > 0 && r.nextInt(10) != 0) {
      return r.nextInt(headerEnd);
    }
    return r.nextInt(length);
  }
}
