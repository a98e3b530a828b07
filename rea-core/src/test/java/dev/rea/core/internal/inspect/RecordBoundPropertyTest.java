package dev.rea.core.internal.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ErrorCode;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.auth.EvidenceSigner;
import dev.rea.core.internal.auth.KeyRing;
import dev.rea.core.internal.format.gguf.GgmlType;
import dev.rea.core.internal.format.gguf.GgmlTypes;
import dev.rea.core.internal.format.gguf.GgufBuilder.Value;
import dev.rea.core.internal.format.gguf.GgufBuilder;
import dev.rea.core.internal.format.safetensors.SafetensorsBuilder;
import dev.rea.core.options.Limits;
import dev.rea.core.testing.BudgetedInspection.Outcome;
import dev.rea.core.testing.BudgetedInspection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Property (seeded loops; a failure names its seed): for random GGUF and safetensors headers full
 * of escaped text (control characters, quotes, backslashes, multi-byte characters), wide numbers,
 * arrays, unknown, ambiguous, K-quant and removed types and unknown dtypes, inspected with a
 * random retained budget:
 *
 * <ul>
 *   <li>when the budget check passes, the signed bundle's JSON (what {@code --json} prints) and
 *       the RFC 8785 canonical form are no longer than the bytes charged, which are within the
 *       budget: {@code canonical <= bundle <= used <= limit};
 *   <li>when it does not, the failure is {@code resource_exhausted} / {@code retained_budget}
 *       naming a field and an offset inside the header (or {@code request.path} for the fixed
 *       part), and the same file passes with the default budget, with the same inequality.
 * </ul>
 */
class RecordBoundPropertyTest {
  private static final String ALPHABET =
      "aZ09 ._-/\u0000\u0001\u0007\u001f\"\\\n\t\r\b\f\u007fé\u0120日本😀";

  private static final long[] TENSOR_TYPES = {
    0, 1, 2, 3, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
    28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 4, 5, 43, 99, 0xFFFFFFFFL
  };

  private static final String[] DTYPES = {
    "F64", "F32", "F16", "BF16", "I64", "I32", "I16", "I8", "U8", "U16", "U32", "U64", "BOOL",
    "F8_E4M3", "F8_E5M2", "F8_E4M3FNUZ", "C64"
  };

  private static final int CASES = 250;

  private static EvidenceSigner signer;

  @TempDir static Path home;

  @BeforeAll
  static void keys() throws ReaException {
    signer = new EvidenceSigner(KeyRing.open(home.resolve("rea")));
  }

  /** Tally of one run, so that both branches are known to be exercised. */
  private static final class Tally {
    int passed;
    int refused;
    long widestBundle;
    double tightest;
  }

  @Test
  void ggufRecordsStayWithinTheBytesCharged() {
    runCases("GGUF", 0x6767_7566L, RecordBoundPropertyTest::gguf, ".gguf");
  }

  @Test
  void safetensorsRecordsStayWithinTheBytesCharged() {
    runCases("safetensors", 0x5354_4e53L, RecordBoundPropertyTest::safetensors, ".safetensors");
  }

  /** {@value #CASES} files from {@code make}, case k seeded with {@code seedBase * 31 + k}. */
  private void runCases(
      String format, long seedBase, java.util.function.Function<Random, byte[]> make, String ext) {
    Tally t = new Tally();
    for (int k = 0; k < CASES; k++) {
      long seed = seedBase * 31 + k;
      Random r = new Random(seed);
      byte[] file = make.apply(r);
      check(seed, file, path(r, ext), r, t);
    }
    report(format, t);
  }

  /** A path with escaped characters in its name (no NUL or slash, which paths cannot hold). */
  private static Path path(Random r, String suffix) {
    return Path.of("/m/" + randomText(r, 20).replace('/', '_').replace('\u0000', '_') + suffix);
  }

  private static void report(String what, Tally t) {
    System.out.printf(
        "%s: %d passed, %d refused by the budget; widest bundle %,d bytes; bundle/used at most %.3f%n",
        what, t.passed, t.refused, t.widestBundle, t.tightest);
    assertThat(t.passed).as("cases within the budget").isGreaterThan(CASES / 5);
    assertThat(t.refused).as("cases refused by the budget").isGreaterThan(CASES / 10);
  }

  private static void check(long seed, byte[] file, Path path, Random r, Tally t) {
    // 4 KiB to 96 KiB, log-uniform.
    long limit = (long) (4096 * Math.pow(24, r.nextDouble()));
    Limits limits = Limits.builder().retainedBudgetBytes(limit).build();
    try {
      Outcome o = BudgetedInspection.inspect(file, path, limits, signer);
      assertWithin(seed, o);
      t.passed++;
      t.widestBundle = Math.max(t.widestBundle, o.bundle().length);
      t.tightest = Math.max(t.tightest, o.bundle().length / (double) o.used());
    } catch (ReaException e) {
      assertThat(e.constraint()).as("seed %d: %s", seed, e.getMessage()).isEqualTo(Constraint.RETAINED_BUDGET);
      assertThat(e.code()).isEqualTo(ErrorCode.RESOURCE_EXHAUSTED);
      assertThat(e.field()).as("seed %d", seed).isNotBlank();
      if (!e.field().equals("request.path")) {
        assertThat(e.offset()).as("seed %d: %s", seed, e.getMessage()).isNotNull().isBetween(0L, (long) file.length);
      }
      assertThat(e.diagnostics()).containsEntry("limit_bytes", Long.toString(limit));
      t.refused++;
      try {
        assertWithin(seed, BudgetedInspection.inspect(file, path, Limits.defaults(), signer));
      } catch (ReaException again) {
        throw new AssertionError("seed " + seed + " fails with the default budget: " + again.getMessage(), again);
      }
    }
  }

  private static void assertWithin(long seed, Outcome o) {
    assertThat((long) o.canonical().length).as("seed %d: canonical <= bundle", seed)
        .isLessThanOrEqualTo(o.bundle().length);
    assertThat((long) o.bundle().length).as("seed %d: bundle <= charged", seed)
        .isLessThanOrEqualTo(o.used());
    assertThat(o.used()).as("seed %d: charged <= limit", seed).isLessThanOrEqualTo(o.limit());
  }

  // ---------------------------------------------------------------------------------------------
  // Generators

  private static String randomText(Random r, int max) {
    return dev.rea.core.testing.RandomText.of(r, ALPHABET, max);
  }

  /** Short usually, sometimes a few thousand characters. */
  private static String randomLongText(Random r) {
    return randomText(r, r.nextInt(8) == 0 ? 3000 : 60);
  }

  private static String randomKey(Random r) {
    String alnum = "abcdefghijklmnopqrstuvwxyz0123456789";
    StringBuilder sb = new StringBuilder();
    int parts = 1 + r.nextInt(4);
    for (int p = 0; p < parts; p++) {
      if (p > 0) {
        sb.append("._-".charAt(r.nextInt(3)));
      }
      int len = 1 + r.nextInt(r.nextInt(10) == 0 ? 60 : 8);
      for (int k = 0; k < len; k++) {
        sb.append(alnum.charAt(r.nextInt(alnum.length())));
      }
    }
    return sb.toString();
  }

  private static long wide(Random r) {
    switch (r.nextInt(4)) {
      case 0:
        return r.nextInt(100);
      case 1:
        return r.nextLong();
      case 2:
        return r.nextBoolean() ? -1L : Long.MIN_VALUE;
      default:
        return (long) Math.pow(10, r.nextInt(19));
    }
  }

  private static Value gguValue(Random r, int type, int level) {
    switch (type) {
      case 0:
        return GgufBuilder.u8(r.nextInt(256));
      case 1:
        return GgufBuilder.i8(r.nextInt(256) - 128);
      case 2:
        return GgufBuilder.u16(r.nextInt(65536));
      case 3:
        return GgufBuilder.i16(r.nextInt(65536) - 32768);
      case 4:
        return GgufBuilder.u32(wide(r) & 0xFFFFFFFFL);
      case 5:
        return GgufBuilder.i32(r.nextBoolean() ? Integer.MIN_VALUE : r.nextInt());
      case 6:
        return GgufBuilder.f32Bits(r.nextBoolean() ? 0x80800001 : r.nextInt());
      case 7:
        return GgufBuilder.bool(r.nextBoolean());
      case 8:
        return GgufBuilder.str(randomLongText(r));
      case 10:
        return GgufBuilder.u64(wide(r));
      case 11:
        return GgufBuilder.i64(wide(r));
      case 12:
        return GgufBuilder.f64(
            r.nextBoolean() ? -2.2250738585072014E-308 : Double.longBitsToDouble(r.nextLong()));
      default:
        int element = level >= 3 ? r.nextInt(9) : r.nextInt(13);
        if (element == 9 && level >= 3) {
          element = 8;
        }
        int count = r.nextInt(r.nextInt(4) == 0 ? 40 : 12);
        List<Value> elements = new ArrayList<>();
        for (int i = 0; i < count; i++) {
          elements.add(gguValue(r, element, level + 1));
        }
        return GgufBuilder.array(element, elements);
    }
  }

  private static byte[] gguf(Random r) {
    GgufBuilder b = GgufBuilder.v3();
    if (r.nextInt(4) == 0) {
      b.bigEndian();
    }
    Set<String> keys = new HashSet<>();
    // A quarter of the files are tensor directories alone, where rows with wide numbers cost more
    // than their floor and nothing else leaves slack.
    boolean directoryOnly = r.nextInt(4) == 0;
    int kvs = directoryOnly ? 0 : r.nextInt(14);
    for (int i = 0; i < kvs; i++) {
      String key = randomKey(r);
      if (key.equals("general.alignment") || !keys.add(key)) {
        continue;
      }
      b.kv(key, gguValue(r, r.nextInt(13), 1));
    }
    Set<String> names = new HashSet<>();
    int tensors = r.nextInt(r.nextInt(5) == 0 ? 120 : 25);
    for (int i = 0; i < tensors; i++) {
      long typeId = TENSOR_TYPES[r.nextInt(TENSOR_TYPES.length)];
      GgmlType type = GgmlTypes.of(typeId);
      int nd = r.nextInt(5);
      long[] dims = new long[nd];
      boolean empty = nd > 0 && r.nextInt(directoryOnly ? 2 : 5) == 0;
      for (int j = 0; j < nd; j++) {
        if (empty) {
          // A zero first, then any widths: no product can overflow, nothing is stored.
          dims[j] = j == 0 ? 0 : wide(r);
        } else if (j == 0 && type.rowMultiple() > 1) {
          dims[j] = type.rowMultiple() * (1 + r.nextInt(2));
        } else {
          dims[j] = 1 + r.nextInt(4);
        }
      }
      if (nd == 0 && type.rowMultiple() > 1) {
        dims = new long[] {type.rowMultiple()};
      }
      String name;
      do {
        name = directoryOnly ? Integer.toString(r.nextInt(1 << 20)) : randomText(r, 24);
        while (name.getBytes(StandardCharsets.UTF_8).length > 64) {
          name = name.substring(0, name.length() - 1);
        }
      } while (!names.add(name));
      long elements = 1;
      for (long d : dims) {
        elements *= d;
      }
      GgufBuilder.Tensor t = new GgufBuilder.Tensor(name, typeId, dims);
      if (elements != 0 && GgufBuilder.storageBytes(typeId, elements) == 0) {
        t.dataBytes(1 + r.nextInt(8)); // unknown layouts: some bytes, so they start in the file
      }
      b.tensor(t);
    }
    b.padAfterLastTensor(r.nextBoolean());
    if (r.nextBoolean()) {
      b.trailing(new byte[1 + r.nextInt(64)]);
    }
    return b.build().bytes();
  }

  private static byte[] safetensors(Random r) {
    SafetensorsBuilder.Builder b = SafetensorsBuilder.builder();
    int meta = r.nextInt(8);
    for (int i = 0; i < meta; i++) {
      b.metadata(randomText(r, 30), randomLongText(r));
    }
    Set<String> names = new HashSet<>();
    names.add("__metadata__");
    int tensors = r.nextInt(r.nextInt(5) == 0 ? 120 : 25);
    for (int i = 0; i < tensors; i++) {
      String name;
      do {
        name = randomText(r, 40);
      } while (!names.add(name));
      int nd = r.nextInt(r.nextInt(6) == 0 ? 40 : 5);
      long[] dims = new long[nd];
      boolean empty = nd > 0 && r.nextInt(5) == 0;
      for (int j = 0; j < nd; j++) {
        dims[j] = empty ? (j == 0 ? 0 : wide(r) & Long.MAX_VALUE) : (j < 5 ? 1 + r.nextInt(3) : 1);
      }
      if (r.nextInt(5) == 0) {
        b.tensorBytes(name, "X" + randomText(r, 12), empty ? 0 : r.nextInt(9), dims);
      } else {
        b.tensor(name, DTYPES[r.nextInt(DTYPES.length)], dims);
      }
    }
    return b.build();
  }
}
