package dev.rea.core.internal.evidence;

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
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.evidence.WireFormat.MetadataField;
import dev.rea.core.internal.evidence.WireFormat.TensorField;
import dev.rea.core.internal.evidence.WireFormat.TypeField;
import dev.rea.core.internal.io.JsonText;
import dev.rea.core.internal.io.RetainedBudget;
import java.io.OutputStream;
import java.math.BigInteger;
import java.util.List;
import tools.jackson.core.JsonGenerator;

/**
 * What each part of an Evidence record costs as JSON, in bytes, exactly as {@link EvidenceJson}
 * writes it (compact UTF-8, strings escaped as {@link JsonText} describes); property names are
 * counted from the {@link WireFormat} tables the writer takes them from. The retained budget
 * ({@link RetainedBudget}) charges these amounts, so that the signed bundle {@code rea
 * inspect-model-artifact --json} prints is never longer than the budget used (32 MiB by default,
 * half of the 64 MiB {@code EvidenceImport} accepts back). The accounting is described in {@code
 * docs/evidence.md}, "Retained budget".
 *
 * <p>Three kinds of amounts:
 *
 * <ul>
 *   <li>exact lengths from the values ({@link #tensorRowBytes}, {@link #typeRowBytes}, {@link
 *       #limitationBytes}, {@link #warningBytes}), used with the widest value where a value is not
 *       known yet when the charge is due (a safetensors row's final index, a GGUF
 *       {@code file_offset} before the data section is known, a type row's sums);
 *   <li>{@link #FIXED_RECORD_BYTES}: everything whose size does not depend on the file, at its
 *       widest (see the constant);
 *   <li>{@link #shellBytes}: that fixed part plus the strings the inspector adds (the path twice,
 *       two timestamps).
 * </ul>
 *
 * <p>Rows inside a JSON array are separated by commas: every row charge adds one byte for it
 * ({@link #SEPARATOR}), an upper bound.
 */
public final class RecordSize {
  /** The comma before an array element, charged with every row or element. */
  public static final long SEPARATOR = 1;

  /**
   * Exact bytes an ARRAY metadata row's {@code value_sha256} adds to the row's JSON: {@code
   * ,"value_sha256":"<64 hex digits>"}.
   */
  public static final long VALUE_SHA256_BYTES = member(MetadataField.VALUE_SHA256) + 2 + 64;

  /** Bytes of {@code null}. */
  private static final int NULL_BYTES = 4;

  /** Decimal digits of the widest {@code int} index or count (2147483647). */
  public static final int INT_DIGITS = 10;

  /** Decimal digits of the widest unsigned 64-bit value (18446744073709551615). */
  public static final int U64_DIGITS = 20;

  /**
   * Decimal digits of the widest per-type or total sum: at most 2^31-1 tensors of at most 2^64-1
   * elements or bytes each, below 2^95, so at most 29 digits.
   */
  public static final int SUM_DIGITS = 29;

  /**
   * The widest sum a type row or the totals can hold (2^95, 29 digits), used to measure the
   * widest fixed part.
   */
  static final BigInteger WIDEST_SUM = BigInteger.ONE.shiftLeft(95);

  /**
   * Bytes of a record's fixed part, as the signed bundle holding it, with empty row arrays, the
   * path and both timestamps empty, every number at its widest and every choice at its longest
   * spelling ({@code {"schema":"rea.bundle.v1","records":[...]}}, {@code evidence_id}, {@code
   * subject}, {@code artifact} with {@code identity}, the wider of both {@code format_facts},
   * {@code totals}, {@code coverage}, an Ed25519 {@code authentication}): {@link
   * #widestFixedPart()} measures 1,567 bytes (checked by {@code RecordSizeTest}); 2,048 leaves
   * room for a field added later.
   */
  public static final long FIXED_RECORD_BYTES = 2048;

  /**
   * Bytes a property's name takes in compact JSON with what stands before it: {@code ,"name":}
   * for a later member, or {@code {"name":} for the first (the brace in place of the comma).
   */
  static long member(WireFormat.Field field) {
    return field.json().length() + 4;
  }

  /** 10^19 as unsigned 64-bit bits. */
  private static final long TEN_TO_19 = Long.parseUnsignedLong("10000000000000000000");

  private RecordSize() {}

  /**
   * {@code POWERS_OF_TEN[i]} is 10^(i+1), for i from 0 to 17 (10 to 10^18): a value below 10^(i+1)
   * and at least 10^i has i + 1 digits.
   */
  private static final long[] POWERS_OF_TEN = new long[18];

  static {
    long p = 1;
    for (int i = 0; i < POWERS_OF_TEN.length; i++) {
      p *= 10;
      POWERS_OF_TEN[i] = p;
    }
  }

  /**
   * @return decimal digits of {@code v} read as unsigned (1 to 20). Counted by comparisons with
   *     the powers of ten, not by division: it runs for every number of every row charged.
   */
  public static int digits(long v) {
    if (v < 0) {
      // 2^63 to 2^64-1: 19 digits below 10^19, 20 from there.
      return Long.compareUnsigned(v, TEN_TO_19) < 0 ? 19 : U64_DIGITS;
    }
    int n = 1;
    while (n <= POWERS_OF_TEN.length && v >= POWERS_OF_TEN[n - 1]) {
      n++;
    }
    return n;
  }

  /** @return bytes of {@code v} written as a JSON number (signed) */
  public static int numberBytes(long v) {
    if (v == Long.MIN_VALUE) {
      return 20;
    }
    return v < 0 ? 1 + digits(-v) : digits(v);
  }

  /** @return bytes of {@code v} written as a quoted unsigned decimal string */
  public static int unsignedStringBytes(long v) {
    return 2 + digits(v);
  }

  /**
   * Bytes of the record's fixed part for one inspection: {@link #FIXED_RECORD_BYTES} plus the
   * selected path (written twice, as {@code request.path} and {@code artifact.path}) and the two
   * timestamps ({@code observed_at}, {@code artifact.identity.modified}), each at its JSON-escaped
   * length. Charged by the inspector before the header is read.
   */
  public static long shellBytes(String path, String observedAt, String modified) {
    return FIXED_RECORD_BYTES
        + 2 * JsonText.escapedLength(path)
        + JsonText.escapedLength(observedAt)
        + JsonText.escapedLength(modified);
  }

  /**
   * Exact bytes of one tensor row object as {@link EvidenceJson#writeTensorRow} writes it
   * (without the separating comma):
   *
   * <pre>
   * {"index":I,"name":N,"type":T[,"type_id":ID],"shape":[D,...],"parameter_count":P,
   *  "offset":O,"file_offset":F,"byte_length":B|null,"storage_validation":S}
   * </pre>
   *
   * @param index the row index
   * @param nameQuoted the name's {@link JsonText#quotedLength}
   * @param typeQuoted the type label's {@link JsonText#quotedLength}
   * @param typeId the GGUF type ID, or a negative value for none (safetensors)
   * @param shape dimensions (the first {@code dims} are used), unsigned
   * @param dims number of dimensions
   * @param parameterCount unsigned
   * @param offset unsigned
   * @param fileOffset unsigned
   * @param byteLengthKnown false writes {@code null}
   * @param byteLength unsigned, when known
   * @param storageValidation the validation state
   */
  public static long tensorRowBytes(
      int index,
      long nameQuoted,
      long typeQuoted,
      long typeId,
      long[] shape,
      int dims,
      long parameterCount,
      long offset,
      long fileOffset,
      boolean byteLengthKnown,
      long byteLength,
      StorageValidation storageValidation) {
    long n = member(TensorField.INDEX) + numberBytes(index);
    n += member(TensorField.NAME) + nameQuoted;
    n += member(TensorField.TYPE) + typeQuoted;
    if (typeId >= 0) {
      n += member(TensorField.TYPE_ID) + numberBytes(typeId);
    }
    n += member(TensorField.SHAPE) + "[]".length();
    for (int i = 0; i < dims; i++) {
      n += unsignedStringBytes(shape[i]) + (i > 0 ? 1 : 0);
    }
    n += member(TensorField.PARAMETER_COUNT) + unsignedStringBytes(parameterCount);
    n += member(TensorField.OFFSET) + unsignedStringBytes(offset);
    n += member(TensorField.FILE_OFFSET) + unsignedStringBytes(fileOffset);
    n += member(TensorField.BYTE_LENGTH)
        + (byteLengthKnown ? unsignedStringBytes(byteLength) : NULL_BYTES);
    n += member(TensorField.STORAGE_VALIDATION) + 2 + storageValidation.wire().length();
    return n + "}".length();
  }

  /** @return exact bytes of one tensor row as {@link EvidenceJson#writeTensorRow} writes it */
  public static long tensorRowBytes(TensorRow t) {
    long[] shape = new long[t.shape().size()];
    for (int i = 0; i < shape.length; i++) {
      shape[i] = t.shape().get(i);
    }
    long bytes =
        tensorRowBytes(
            t.index(),
            JsonText.quotedLength(t.name()),
            JsonText.quotedLength(t.type()),
            t.typeId() == null ? -1 : t.typeId(),
            shape,
            shape.length,
            t.parameterCount(),
            t.offset(),
            t.fileOffset() == null ? 0 : t.fileOffset(),
            t.byteLength() != null,
            t.byteLength() == null ? 0 : t.byteLength(),
            t.storageValidation());
    // An unknown file_offset is written null (4 bytes), not "0" (3).
    return t.fileOffset() == null ? bytes + 1 : bytes;
  }

  /**
   * Widest bytes of the type row of a label, whatever the tensors that carry it: {@code
   * tensor_count} at {@value #INT_DIGITS} digits, both sums at {@value #SUM_DIGITS} digits
   * (without the separating comma).
   *
   * <pre>
   * {"type":T[,"type_id":ID],"tensor_count":C,"parameter_count":P,"byte_length":B|null}
   * </pre>
   *
   * @param typeQuoted the label's {@link JsonText#quotedLength}
   * @param typeId the GGUF type ID, or a negative value for none
   */
  public static long typeRowBytes(long typeQuoted, long typeId) {
    long n = member(TypeField.TYPE) + typeQuoted;
    if (typeId >= 0) {
      n += member(TypeField.TYPE_ID) + numberBytes(typeId);
    }
    n += member(TypeField.TENSOR_COUNT) + INT_DIGITS;
    n += member(TypeField.PARAMETER_COUNT) + 2 + SUM_DIGITS;
    n += member(TypeField.BYTE_LENGTH) + 2 + SUM_DIGITS;
    return n + "}".length();
  }

  /**
   * Exact bytes of a limitation object as {@link EvidenceJson#writeLimitation} writes it (measured
   * by writing it; no comma). Call with an empty {@code tensor_indices} list and the message of
   * the widest count to size a limitation before its tensors are known; each index then adds at
   * most {@link #indexBytes} bytes.
   */
  public static long limitationBytes(Limitation l) {
    Counting out = new Counting();
    try (JsonGenerator g = EvidenceJson.generator(out)) {
      EvidenceJson.writeLimitation(g, l);
    }
    return out.count;
  }

  /** @return exact bytes of a warning object as {@link EvidenceJson#writeWarning} writes it */
  public static long warningBytes(Warning w) {
    Counting out = new Counting();
    try (JsonGenerator g = EvidenceJson.generator(out)) {
      EvidenceJson.writeWarning(g, w);
    }
    return out.count;
  }

  /** @return bytes one entry of a {@code tensor_indices} array adds: its digits and a comma */
  public static long indexBytes(int index) {
    return numberBytes(index) + SEPARATOR;
  }

  /**
   * The widest fixed part (see {@link #FIXED_RECORD_BYTES}), measured by writing it: a signed
   * bundle holding one record with no rows, an empty path and empty timestamps, and every number
   * and choice at its widest.
   */
  public static long widestFixedPart() {
    String hex = "0".repeat(64);
    String id = EvidenceIds.PREFIX + hex;
    String widestU64 = Long.toUnsignedString(-1L);
    FileIdentity identity = new FileIdentity(widestU64, widestU64, Long.MIN_VALUE, "", false);
    Artifact artifact =
        new Artifact(
            "",
            "safetensors",
            Long.MIN_VALUE,
            Long.MIN_VALUE,
            hex,
            hex,
            Long.MIN_VALUE,
            "header",
            identity);
    Coverage coverage =
        new Coverage(
            Coverage.COMPLETE, Coverage.COMPLETE, Coverage.COMPLETE, Coverage.COMPLETE,
            Coverage.UNVERIFIED);
    Totals totals = new Totals(Integer.MAX_VALUE, WIDEST_SUM, WIDEST_SUM);
    // An Ed25519 signature is 64 bytes: 88 base64 characters.
    Authentication auth = new Authentication("ed25519", id, "A".repeat(88));
    long widest = 0;
    FormatFacts[] facts = {
      new FormatFacts.Gguf(Integer.MIN_VALUE, "little", Long.MIN_VALUE, "metadata", Long.MIN_VALUE),
      new FormatFacts.Safetensors(Long.MIN_VALUE, Long.MIN_VALUE)
    };
    for (FormatFacts f : facts) {
      EvidenceRecord r =
          new EvidenceRecord(
              EvidenceRecord.SCHEMA,
              id,
              EvidenceRecord.OPERATION,
              EvidenceRecord.STATUS_COMPLETE,
              "",
              new Request("", "header", "ggml-modern"),
              new Subject("file", hex),
              artifact,
              f,
              List.of(),
              List.of(),
              List.of(),
              totals,
              coverage,
              List.of(),
              List.of(),
              auth);
      widest = Math.max(widest, EvidenceJson.bundleBytes(List.of(r)).length);
    }
    return widest;
  }

  /** Counts bytes written, keeps none. */
  private static final class Counting extends OutputStream {
    long count;

    @Override
    public void write(int b) {
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      count += len;
    }
  }
}
