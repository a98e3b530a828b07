package dev.rea.core.testing;

import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.evidence.EvidenceJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.erdtman.jcs.JsonCanonicalizer;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;

/**
 * The test oracle for REA's own RFC 8785 code: the RFC's reference Java implementation ({@code
 * io.github.erdtman:java-json-canonicalization} 1.1, a test dependency only), an implementation
 * independent of REA's.
 *
 * <p>That library writes some subnormal doubles wrongly (1e-320 as {@code
 * 0.0000...0001e-178}; found by a hostile-input trial), and every evidence_id REA computed was
 * over the RFC's form of those (ECMAScript's Number::toString). So numbers whose value is a
 * subnormal double stand in the library's input as placeholder strings and are written
 * afterwards by {@link #subnormalText}, a separate simple algorithm checked against Node.js's
 * output ({@code evidence/subnormals-ecmascript.txt}).
 */
public final class Rfc8785Oracle {
  private Rfc8785Oracle() {}

  /** @return the oracle's canonical form of the record without evidence_id and authentication */
  public static byte[] canonicalRecord(EvidenceRecord r) {
    return canonicalize(EvidenceJson.recordBytes(r, false));
  }

  /** @return the oracle's "sha256:..." evidence ID of the record */
  public static String evidenceId(EvidenceRecord r) {
    try {
      return "sha256:"
          + java.util.HexFormat.of()
              .formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(canonicalRecord(r)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** @return the library's canonical form of any JSON text, subnormal numbers written right */
  public static byte[] canonicalize(byte[] json) {
    List<long[]> subnormals = subnormalNumbers(json); // {start, end, bits}
    if (subnormals.isEmpty()) {
      return library(json);
    }
    String base = "rea-oracle-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
    ByteArrayOutputStream in = new ByteArrayOutputStream(json.length + 32 * subnormals.size());
    int pos = 0;
    for (int k = 0; k < subnormals.size(); k++) {
      in.write(json, pos, (int) subnormals.get(k)[0] - pos);
      in.writeBytes(("\"" + base + "-" + k + "\"").getBytes(StandardCharsets.US_ASCII));
      pos = (int) subnormals.get(k)[1];
    }
    in.write(json, pos, json.length - pos);
    String out = new String(library(in.toByteArray()), StandardCharsets.UTF_8);
    for (int k = 0; k < subnormals.size(); k++) {
      String quoted = "\"" + base + "-" + k + "\"";
      if (out.indexOf(quoted) != out.lastIndexOf(quoted) || out.indexOf(quoted) < 0) {
        throw new IllegalStateException("placeholder not found once: " + quoted);
      }
      out = out.replace(quoted, subnormalText(Double.longBitsToDouble(subnormals.get(k)[2])));
    }
    return out.getBytes(StandardCharsets.UTF_8);
  }

  /** @return the reference library's canonical form, as it writes it */
  public static byte[] library(byte[] json) {
    try {
      return new JsonCanonicalizer(json).getEncodedUTF8();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static final JsonFactory NUMBERS =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxDocumentLength(-1)
                  .maxStringLength(Integer.MAX_VALUE)
                  .maxNumberLength(Integer.MAX_VALUE)
                  .maxNestingDepth(Integer.MAX_VALUE)
                  .build())
          .build();

  /** @return the byte ranges and values of the number tokens whose value is subnormal */
  private static List<long[]> subnormalNumbers(byte[] json) {
    List<long[]> at = new ArrayList<>();
    try (JsonParser p = NUMBERS.createParser(ObjectReadContext.empty(), json)) {
      for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
        if (t == JsonToken.VALUE_NUMBER_FLOAT || t == JsonToken.VALUE_NUMBER_INT) {
          double d = Double.parseDouble(p.getString());
          if (d != 0 && Math.abs(d) < Double.MIN_NORMAL) {
            long start = p.currentTokenLocation().getByteOffset();
            at.add(new long[] {start, start + p.getString().length(),
                Double.doubleToRawLongBits(d)});
          }
        }
      }
    }
    return at;
  }

  /**
   * A subnormal double as ECMAScript writes it: rounded half-even to 1, 2, ... significant digits
   * until it reads back (subnormals are evenly spaced, so the nearest decimal of the shortest
   * length that reads back is the one), in exponent form ({@code d[.ddd]e-NNN}).
   */
  public static String subnormalText(double d) {
    if (d == 0 || Math.abs(d) >= Double.MIN_NORMAL || Double.isNaN(d)) {
      throw new IllegalArgumentException("not a subnormal double: " + d);
    }
    BigDecimal exact = new BigDecimal(Math.abs(d));
    for (int digits = 1; ; digits++) {
      BigDecimal r = exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
      if (r.doubleValue() == Math.abs(d)) {
        r = r.stripTrailingZeros();
        String s = r.unscaledValue().toString();
        int exponent = s.length() - 1 - r.scale();
        String mantissa = s.length() == 1 ? s : s.charAt(0) + "." + s.substring(1);
        return (d < 0 ? "-" : "") + mantissa + "e" + exponent;
      }
    }
  }
}
