package dev.rea.core.testing;

import dev.rea.core.evidence.Artifact;
import dev.rea.core.evidence.Authentication;
import dev.rea.core.evidence.Coverage;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FileIdentity;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.Request;
import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.evidence.Subject;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.Totals;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.evidence.Warning;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jspecify.annotations.Nullable;

/**
 * Random Evidence records for serialization properties: every field varied independently (no
 * consistency between fields; {@link TestRecords} builds consistent ones), every {@link
 * ValueType} with nested arrays, strings of controls, quotes, backslashes, U+2028, DEL,
 * non-characters and astral characters, integers at the edges of 2^53 and 2^64, and the doubles
 * and floats where number formatting is hard (subnormals, MIN/MAX, powers of two and their
 * neighbours, NaN, the infinities, -0, the 1e21 and 1e-7 layout thresholds).
 */
public final class RandomRecords {
  /** Characters strings are drawn from (code points; the pair is U+10000, then U+1F600, U+10FFFF). */
  public static final String CHARS =
      "ab.z_09 \"\\/'<>&\u0000\u0001\b\t\n\u000b\f\r\u001f\u007f\u0080\u009f\u00e9\u00ff\u0100"
          + "\u07ff\u0800\u2028\u2029\ud7ff\ue000\ufb33\ufeff\ufffd\uffff\ud800\udc00"
          + "\ud83d\ude00\udbff\udfff";

  private RandomRecords() {}

  /** @return a record drawn from {@code seed} */
  public static EvidenceRecord of(long seed) {
    Random r = new Random(seed);
    int tensorCount = r.nextInt(12);
    List<TensorRow> tensors = new ArrayList<>();
    for (int i = 0; i < tensorCount; i++) {
      tensors.add(tensor(r));
    }
    List<MetadataRow> metadata = new ArrayList<>();
    for (int i = r.nextInt(16); i > 0; i--) {
      metadata.add(metadataRow(r));
    }
    List<TypeRow> types = new ArrayList<>();
    for (int i = r.nextInt(4); i > 0; i--) {
      types.add(new TypeRow(text(r), r.nextBoolean() ? null : longValue(r), r.nextInt(),
          big(r), r.nextBoolean() ? null : big(r)));
    }
    List<Limitation> limitations = new ArrayList<>();
    for (int i = r.nextInt(3); i > 0; i--) {
      limitations.add(limitation(r));
    }
    List<Warning> warnings = new ArrayList<>();
    for (int i = r.nextInt(3); i > 0; i--) {
      warnings.add(new Warning(text(r), text(r)));
    }
    return new EvidenceRecord(
        text(r),
        r.nextBoolean() ? null : "sha256:" + text(r),
        text(r),
        text(r),
        text(r),
        new Request(text(r), text(r), r.nextBoolean() ? null : text(r)),
        r.nextBoolean() ? null : new Subject(text(r), text(r)),
        artifact(r),
        formatFacts(r),
        metadata,
        tensors,
        types,
        new Totals(r.nextInt(), big(r), r.nextBoolean() ? null : big(r)),
        new Coverage(text(r), text(r), text(r), text(r), text(r)),
        limitations,
        warnings,
        r.nextBoolean() ? null : new Authentication(text(r), text(r), text(r)));
  }

  /** @return up to 12 code points of {@link #CHARS} */
  public static String text(Random r) {
    return RandomText.of(r, CHARS, 12);
  }

  private static Artifact artifact(Random r) {
    FileIdentity id = new FileIdentity(nullableText(r), nullableText(r), longValue(r), text(r),
        r.nextBoolean());
    return new Artifact(text(r), text(r), longValue(r), longValue(r), nullableText(r),
        nullableText(r), longValue(r), text(r), id);
  }

  private static FormatFacts formatFacts(Random r) {
    if (r.nextBoolean()) {
      return new FormatFacts.Safetensors(longValue(r), longValue(r));
    }
    return new FormatFacts.Gguf(r.nextInt(), text(r), r.nextBoolean() ? null : longValue(r),
        nullableText(r), r.nextBoolean() ? null : longValue(r));
  }

  private static TensorRow tensor(Random r) {
    List<Long> shape = new ArrayList<>();
    for (int d = r.nextInt(6); d > 0; d--) {
      shape.add(longValue(r));
    }
    return new TensorRow(r.nextInt(), text(r), text(r), r.nextBoolean() ? null : longValue(r),
        shape, longValue(r), longValue(r), r.nextBoolean() ? null : longValue(r),
        r.nextBoolean() ? null : longValue(r),
        r.nextBoolean() ? StorageValidation.CONSISTENT : StorageValidation.UNKNOWN);
  }

  private static Limitation limitation(Random r) {
    List<Integer> indices = null;
    if (r.nextBoolean()) {
      indices = new ArrayList<>();
      for (int i = r.nextInt(4); i > 0; i--) {
        indices.add(r.nextInt());
      }
    }
    List<String> candidates = null;
    if (r.nextBoolean()) {
      candidates = new ArrayList<>();
      for (int i = r.nextInt(4); i > 0; i--) {
        candidates.add(text(r));
      }
    }
    List<String> fitting = null;
    if (r.nextBoolean()) {
      fitting = new ArrayList<>();
      for (int i = r.nextInt(3); i > 0; i--) {
        fitting.add(text(r));
      }
    }
    return new Limitation(text(r), text(r), indices, r.nextBoolean() ? null : longValue(r),
        candidates, fitting);
  }

  private static MetadataRow metadataRow(Random r) {
    ValueType type = ValueType.values()[r.nextInt(ValueType.values().length)];
    String key = text(r);
    MetadataValue value = value(r, type, 0);
    // Half the ARRAY rows carry value_sha256 (CONTRACT section 11), derived from the key so that
    // the random stream, and so every other drawn value, stays as it was.
    String digest =
        type == ValueType.ARRAY && (key.hashCode() & 1) == 0
            ? dev.rea.core.internal.evidence.EvidenceIds.sha256Hex(
                key.getBytes(java.nio.charset.StandardCharsets.UTF_8))
            : null;
    return new MetadataRow(r.nextInt(), key, type, value, digest);
  }

  /** @return a value of the declared type; arrays nest at most three levels */
  public static MetadataValue value(Random r, ValueType type, int depth) {
    switch (type) {
      case UINT8, INT8, UINT16, INT16, UINT32, INT32, UINT64, INT64:
        return new MetadataValue.IntegerValue(longValue(r));
      case FLOAT32:
        return new MetadataValue.FloatValue(floatValue(r));
      case FLOAT64:
        return new MetadataValue.FloatValue(doubleValue(r));
      case BOOL:
        return new MetadataValue.BoolValue(r.nextBoolean());
      case STRING:
        return new MetadataValue.StringValue(text(r));
      default:
        ValueType element = ValueType.values()[r.nextInt(ValueType.values().length)];
        if (depth >= 3 && element == ValueType.ARRAY) {
          element = ValueType.STRING;
        }
        List<MetadataValue> preview = new ArrayList<>();
        for (int i = r.nextInt(5); i > 0; i--) {
          preview.add(value(r, element, depth + 1));
        }
        return new MetadataValue.ArrayValue(element, longValue(r), preview, r.nextBoolean());
    }
  }

  private static @Nullable String nullableText(Random r) {
    return r.nextInt(3) == 0 ? null : text(r);
  }

  /** @return a long, often at an edge (0, +-1, +-2^53 and its neighbours, the extremes) */
  public static long longValue(Random r) {
    long[] edges = {0, 1, -1, 4096, (1L << 53) - 1, 1L << 53, (1L << 53) + 1, -(1L << 53) - 1,
        Long.MAX_VALUE, Long.MIN_VALUE, (1L << 32) - 1, Integer.MIN_VALUE, 999_999_999_999_999_999L};
    switch (r.nextInt(4)) {
      case 0:
        return edges[r.nextInt(edges.length)];
      case 1:
        return r.nextInt(100_000);
      case 2:
        return r.nextLong() >> r.nextInt(64);
      default:
        return r.nextLong();
    }
  }

  private static BigInteger big(Random r) {
    switch (r.nextInt(3)) {
      case 0:
        return BigInteger.valueOf(r.nextInt(1_000_000));
      case 1:
        return BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.valueOf(r.nextInt(3)));
      default:
        return new BigInteger(1 + r.nextInt(140), r);
    }
  }

  /** @return a FLOAT32 value (widened): specials, edges, or any bit pattern */
  public static double floatValue(Random r) {
    float[] edges = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0.0f, 0.0f,
        Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL, Float.MAX_VALUE, -Float.MAX_VALUE,
        1.0e-5f, 0.1f, 1.0e10f, 3.4e38f, 16777216f, 16777217f};
    if (r.nextInt(3) == 0) {
      return edges[r.nextInt(edges.length)];
    }
    return Float.intBitsToFloat(r.nextInt());
  }

  /** @return a FLOAT64 value: specials, subnormals, powers of two, thresholds, or any bits */
  public static double doubleValue(Random r) {
    double[] edges = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 0.0,
        Double.MIN_VALUE, -Double.MIN_VALUE, Double.MIN_NORMAL, Math.nextDown(Double.MIN_NORMAL),
        Double.MAX_VALUE, -Double.MAX_VALUE, 1e21, Math.nextDown(1e21), 1e-7, Math.nextUp(1e-7),
        1e-6, Math.nextDown(1e-6), 0x1p53, 0x1p53 + 2, 9007199254740991.0, 1e23, 1e-320, 0.1};
    switch (r.nextInt(5)) {
      case 0:
        return edges[r.nextInt(edges.length)];
      case 1:
        // A power of two or a neighbour: the rounding interval is asymmetric there.
        double p = Math.scalb(1.0, r.nextInt(2098) - 1074);
        return switch (r.nextInt(3)) {
          case 0 -> p;
          case 1 -> Math.nextDown(p);
          default -> Math.nextUp(p);
        };
      case 2:
        // A subnormal.
        return Double.longBitsToDouble(r.nextLong() & 0x800F_FFFF_FFFF_FFFFL);
      case 3:
        return r.nextInt(1_000_000) * Math.pow(10, r.nextInt(60) - 30);
      default:
        return Double.longBitsToDouble(r.nextLong());
    }
  }
}
