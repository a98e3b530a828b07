package dev.rea.core.internal.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.evidence.Artifact;
import dev.rea.core.evidence.Authentication;
import dev.rea.core.evidence.Coverage;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FileIdentity;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.Request;
import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.evidence.Subject;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.Totals;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.io.JsonText;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JsonGenerator;

/**
 * The sizes {@link RecordSize} charges are those {@link EvidenceJson} writes: tensor rows exactly,
 * type rows at least, the fixed part of a record at least (and {@link
 * RecordSize#FIXED_RECORD_BYTES} covers its widest form).
 */
class RecordSizeTest {
  private static final String ALPHABET = "ab\u0000\u0001\u001f\"\\/\n\t\u007fé日😀";

  private static String randomText(Random r, int max) {
    return dev.rea.core.testing.RandomText.of(r, ALPHABET, max);
  }

  /** A value of a random decimal width, from 0 to 2^64-1 (as unsigned bits). */
  private static long randomWidth(Random r) {
    switch (r.nextInt(4)) {
      case 0:
        return r.nextInt(10);
      case 1:
        return r.nextLong();
      case 2:
        return -1L - r.nextInt(3);
      default:
        return (long) Math.pow(10, r.nextInt(19)) + r.nextInt(3) - 1;
    }
  }

  private static byte[] tensorJson(TensorRow t) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = EvidenceJson.generator(out)) {
      EvidenceJson.writeTensorRow(g, t);
    }
    return out.toByteArray();
  }

  private static byte[] typeJson(TypeRow t) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = EvidenceJson.generator(out)) {
      EvidenceJson.writeTypeRow(g, t);
    }
    return out.toByteArray();
  }

  @Test
  void tensorRowBytesAreExactlyWhatTheWriterWrites() {
    Random r = new Random(20_261_129L);
    for (int k = 0; k < 5000; k++) {
      int dims = r.nextInt(7);
      List<Long> shape = new ArrayList<>();
      for (int i = 0; i < dims; i++) {
        shape.add(randomWidth(r));
      }
      boolean gguf = r.nextBoolean();
      boolean known = r.nextInt(4) != 0;
      TensorRow t =
          new TensorRow(
              r.nextBoolean() ? r.nextInt(1000) : Integer.MAX_VALUE - r.nextInt(5),
              randomText(r, 40),
              randomText(r, 12),
              gguf ? (Long) (r.nextInt(3) == 0 ? 0xFFFFFFFFL : (long) r.nextInt(50)) : null,
              shape,
              randomWidth(r),
              randomWidth(r),
              randomWidth(r),
              known ? randomWidth(r) : null,
              known ? StorageValidation.CONSISTENT : StorageValidation.UNKNOWN);
      assertThat(RecordSize.tensorRowBytes(t)).as("%s", t).isEqualTo(tensorJson(t).length);
    }
  }

  @Test
  void typeRowBytesCoverEveryRowOfTheLabel() {
    Random r = new Random(7);
    BigInteger widest = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE)
        .multiply(BigInteger.valueOf(Integer.MAX_VALUE));
    assertThat(widest.toString()).hasSize(RecordSize.SUM_DIGITS);
    for (int k = 0; k < 2000; k++) {
      String label = randomText(r, 20);
      Long id = r.nextBoolean() ? null : (long) (r.nextBoolean() ? r.nextInt(40) : 0xFFFFFFFFL);
      BigInteger p = k == 0 ? widest : new BigInteger(r.nextInt(96), r);
      BigInteger b = r.nextInt(5) == 0 ? null : (k == 0 ? widest : new BigInteger(r.nextInt(96), r));
      TypeRow t = new TypeRow(label, id, k == 0 ? Integer.MAX_VALUE : r.nextInt(100_000), p, b);
      long charged = RecordSize.typeRowBytes(JsonText.quotedLength(label), id == null ? -1 : id);
      assertThat((long) typeJson(t).length).as("%s", t).isLessThanOrEqualTo(charged);
      if (k == 0) {
        assertThat((long) typeJson(t).length).isEqualTo(charged);
      }
    }
  }

  @Test
  void theWidestFixedPartFitsItsConstant() {
    long widest = RecordSize.widestFixedPart();
    System.out.println("widest fixed part of a signed bundle: " + widest + " bytes");
    assertThat(widest).isGreaterThan(1000).isLessThanOrEqualTo(RecordSize.FIXED_RECORD_BYTES);
  }

  @Test
  void theShellCoversARecordWithoutRowsAndWithEscapedStrings() {
    String path = "/tmp/a\"b\\c\u0001d/é/model.gguf";
    String observed = "2026-11-29T19:22:37.770138366Z";
    String modified = "+1000000000-12-31T23:59:59.999999999Z";
    long shell = RecordSize.shellBytes(path, observed, modified);
    assertThat(shell)
        .isEqualTo(RecordSize.FIXED_RECORD_BYTES + 2 * (path.getBytes(StandardCharsets.UTF_8).length + 7)
            + observed.length() + modified.length());
    String hex = "f".repeat(64);
    EvidenceRecord r =
        new EvidenceRecord(
            EvidenceRecord.SCHEMA,
            EvidenceIds.PREFIX + hex,
            EvidenceRecord.OPERATION,
            EvidenceRecord.STATUS_COMPLETE,
            observed,
            new Request(path, "full"),
            new Subject("file", hex),
            new Artifact(path, "gguf", Long.MAX_VALUE, Long.MAX_VALUE, hex, hex, Long.MAX_VALUE, "full",
                new FileIdentity("18446744073709551615", "18446744073709551615", Long.MAX_VALUE,
                    modified, true)),
            new FormatFacts.Gguf(3, "little", 4096L, "metadata", Long.MAX_VALUE),
            List.of(),
            List.of(),
            List.of(),
            new Totals(0, BigInteger.ZERO, BigInteger.ZERO),
            new Coverage("complete", "complete", "complete", "complete", "verified"),
            List.of(),
            List.of(),
            new Authentication("ed25519", EvidenceIds.PREFIX + hex, "A".repeat(86) + "=="));
    int bundle = EvidenceJson.bundleBytes(List.of(r)).length;
    assertThat((long) bundle).isLessThanOrEqualTo(shell);
    // The empty parts of the widest form are not all that the constant leaves: a field added
    // later fits in the margin.
    assertThat(RecordSize.FIXED_RECORD_BYTES - RecordSize.widestFixedPart()).isPositive();
  }

  @Test
  void limitationAndWarningBytesAreMeasuredOnTheWriter() {
    Limitation l =
        new Limitation("unknown_dtype", "dtype \"\\u0001\" x", List.of(1, 22, 333), 7L,
            List.of("A", "B\u0001"));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = EvidenceJson.generator(out)) {
      EvidenceJson.writeLimitation(g, l);
    }
    assertThat(RecordSize.limitationBytes(l)).isEqualTo(out.size());
    Limitation empty = new Limitation(l.code(), l.message(), List.of(), 7L, l.candidates());
    long perIndex = RecordSize.indexBytes(1) + RecordSize.indexBytes(22) + RecordSize.indexBytes(333);
    // Each index adds its digits and at most one comma.
    assertThat(RecordSize.limitationBytes(empty) + perIndex)
        .isGreaterThanOrEqualTo(RecordSize.limitationBytes(l))
        .isEqualTo(RecordSize.limitationBytes(l) + 1);
    Warning w = new Warning("removed_type", "tab\there");
    assertThat(RecordSize.warningBytes(w))
        .isEqualTo("{\"code\":\"removed_type\",\"message\":\"tab\\there\"}".length());
  }

  @Test
  void digitsAreCountedAsUnsigned() {
    assertThat(RecordSize.digits(0)).isEqualTo(1);
    assertThat(RecordSize.digits(9)).isEqualTo(1);
    assertThat(RecordSize.digits(10)).isEqualTo(2);
    assertThat(RecordSize.digits(Long.MAX_VALUE)).isEqualTo(19);
    assertThat(RecordSize.digits(-1L)).isEqualTo(20);
    assertThat(RecordSize.digits(Long.MIN_VALUE)).isEqualTo(19); // 9223372036854775808
    assertThat(RecordSize.digits(Long.parseUnsignedLong("9999999999999999999"))).isEqualTo(19);
    assertThat(RecordSize.digits(Long.parseUnsignedLong("10000000000000000000"))).isEqualTo(20);
    // Every power of ten up to 10^18 and its neighbours, against the decimal text.
    for (long p = 1; ; p *= 10) {
      for (long v : new long[] {p - 1, p, p + 1}) {
        assertThat(RecordSize.digits(v))
            .as("digits of %d", v)
            .isEqualTo(Long.toUnsignedString(v).length());
      }
      if (p > Long.MAX_VALUE / 10) {
        break;
      }
    }
    java.util.SplittableRandom random = new java.util.SplittableRandom(8785);
    for (int i = 0; i < 100_000; i++) {
      long v = random.nextLong() >>> random.nextInt(64);
      assertThat(RecordSize.digits(v)).isEqualTo(Long.toUnsignedString(v).length());
    }
    assertThat(RecordSize.numberBytes(-5)).isEqualTo(2);
    assertThat(RecordSize.numberBytes(Long.MIN_VALUE)).isEqualTo(20);
    assertThat(RecordSize.unsignedStringBytes(-1L)).isEqualTo(22);
  }
}
