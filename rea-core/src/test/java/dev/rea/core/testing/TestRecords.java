package dev.rea.core.testing;

import dev.rea.core.evidence.Artifact;
import dev.rea.core.evidence.Coverage;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FileIdentity;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.Request;
import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.ValueType;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.evidence.Derivations;
import dev.rea.core.internal.evidence.EvidenceIds;
import java.util.ArrayList;
import java.util.List;

/**
 * Evidence records built in code for tests (no model file needed). Every record is consistent:
 * indices positional, type rows and totals derived with {@link Derivations}, file offsets equal
 * the data offset plus the relative offset, and an {@code evidence_id} computed.
 */
public final class TestRecords {
  /** Data section offset used by the GGUF records here. */
  public static final long GGUF_DATA_OFFSET = 4096;

  private TestRecords() {}

  /** @return a metadata row with a scalar value */
  public static MetadataRow scalar(int index, String key, ValueType type, MetadataValue v) {
    return new MetadataRow(index, key, type, v);
  }

  /** @return a STRING metadata row */
  public static MetadataRow string(int index, String key, String value) {
    return new MetadataRow(index, key, ValueType.STRING, new MetadataValue.StringValue(value));
  }

  /** @return a UINT32 metadata row */
  public static MetadataRow u32(int index, String key, long value) {
    return new MetadataRow(index, key, ValueType.UINT32, new MetadataValue.IntegerValue(value));
  }

  /** @return an ARRAY of STRING row with the given declared count and preview */
  public static MetadataRow stringArray(int index, String key, long count, String... preview) {
    List<MetadataValue> p = new ArrayList<>();
    for (String s : preview) {
      p.add(new MetadataValue.StringValue(s));
    }
    return new MetadataRow(
        index,
        key,
        ValueType.ARRAY,
        new MetadataValue.ArrayValue(ValueType.STRING, count, p, count == preview.length));
  }

  /** @return a GGUF tensor row of type F32 (id 0) with a derived byte length, packed after {@code offset} */
  public static TensorRow f32(int index, String name, long offset, long... shape) {
    long params = 1;
    List<Long> dims = new ArrayList<>();
    for (long d : shape) {
      params *= d;
      dims.add(d);
    }
    return new TensorRow(index, name, "F32", 0L, dims, params, offset, GGUF_DATA_OFFSET + offset,
        params * 4, StorageValidation.CONSISTENT);
  }

  /** @return a GGUF tensor row with an ambiguous type id (byte length unknown) */
  public static TensorRow ambiguous(int index, String name, int typeId, long offset, long... shape) {
    long params = 1;
    List<Long> dims = new ArrayList<>();
    for (long d : shape) {
      params *= d;
      dims.add(d);
    }
    return new TensorRow(index, name, "AMBIGUOUS_" + typeId, (long) typeId, dims, params, offset,
        GGUF_DATA_OFFSET + offset, null, StorageValidation.UNKNOWN);
  }

  /** @return a GGUF record with an evidence ID (unsigned) */
  public static EvidenceRecord gguf(
      List<MetadataRow> metadata,
      List<TensorRow> tensors,
      List<Limitation> limitations,
      List<Warning> warnings) {
    FileIdentity id = new FileIdentity("2049", "131", 1_000_000, "2026-01-02T03:04:05.123456789Z", true);
    Artifact artifact = new Artifact("/models/test.gguf", "gguf", 1_000_000, 3000,
        "ab".repeat(32), null, 4096, "header", id);
    boolean storage = Derivations.storageComplete(tensors);
    boolean ranges = Derivations.rangesComplete(tensors);
    EvidenceRecord r = new EvidenceRecord(
        EvidenceRecord.SCHEMA,
        null,
        EvidenceRecord.OPERATION,
        EvidenceRecord.STATUS_COMPLETE,
        "2026-01-02T03:04:06Z",
        new Request("/models/test.gguf", "header"),
        null,
        artifact,
        new FormatFacts.Gguf(3, "little", 32L, "default", GGUF_DATA_OFFSET),
        metadata,
        tensors,
        Derivations.types(tensors),
        Derivations.totals(tensors),
        new Coverage(Coverage.COMPLETE, storage ? Coverage.COMPLETE : Coverage.PARTIAL,
            ranges ? Coverage.COMPLETE : Coverage.PARTIAL, Coverage.NONE, Coverage.VERIFIED),
        limitations,
        warnings,
        null);
    return EvidenceIds.withId(r);
  }

  /**
   * A small GGUF record exercising every value type, a nested array, special floats, a control
   * character, non-ASCII text, an ambiguous tensor type with its limitation, and a warning.
   */
  public static EvidenceRecord small() {
    List<MetadataRow> md = new ArrayList<>();
    md.add(string(0, "general.architecture", "llama"));
    md.add(string(1, "general.name", "Tiny \u00e9t\u00e9 \u001f model"));
    md.add(u32(2, "llama.context_length", 4096));
    md.add(scalar(3, "test.u8", ValueType.UINT8, new MetadataValue.IntegerValue(255)));
    md.add(scalar(4, "test.i8", ValueType.INT8, new MetadataValue.IntegerValue(-128)));
    md.add(scalar(5, "test.u64", ValueType.UINT64, new MetadataValue.IntegerValue(-1L)));
    md.add(scalar(6, "test.i64", ValueType.INT64, new MetadataValue.IntegerValue(Long.MIN_VALUE)));
    md.add(scalar(7, "test.f32", ValueType.FLOAT32, new MetadataValue.FloatValue((double) 1.0e-5f)));
    md.add(scalar(8, "test.f64", ValueType.FLOAT64, new MetadataValue.FloatValue(Double.NaN)));
    md.add(scalar(9, "test.negzero", ValueType.FLOAT32, new MetadataValue.FloatValue(-0.0)));
    md.add(scalar(10, "test.bool", ValueType.BOOL, new MetadataValue.BoolValue(true)));
    md.add(stringArray(11, "tokenizer.ggml.tokens", 32000, "<unk>", "<s>", "</s>", "a", "b", "c", "d", "e"));
    MetadataValue.ArrayValue inner = new MetadataValue.ArrayValue(ValueType.INT32, 2,
        List.of(new MetadataValue.IntegerValue(1), new MetadataValue.IntegerValue(-2)), true);
    md.add(new MetadataRow(12, "test.nested", ValueType.ARRAY,
        new MetadataValue.ArrayValue(ValueType.ARRAY, 1, List.of(inner), true)));
    md.add(string(13, "tokenizer.ggml.model", "llama"));
    List<TensorRow> ts = new ArrayList<>();
    ts.add(f32(0, "token_embd.weight", 0, 8, 4));
    ts.add(ambiguous(1, "blk.0.attn_q.weight", 16, 128, 32, 2));
    ts.add(f32(2, "output.weight", 256, 8, 4));
    List<Limitation> lim = List.of(new Limitation("ambiguous_type_id",
        "type 16 has several released meanings", List.of(1), 16L, List.of("I8", "IQ2_XXS")));
    List<Warning> warn = List.of(new Warning("removed_type", "a removed type was seen"));
    return gguf(md, ts, lim, warn);
  }

  /** @return a GGUF record with {@code n} F32 tensors named {@code blk.<i>.w} and 2 metadata rows */
  public static EvidenceRecord manyTensors(int n) {
    List<TensorRow> ts = new ArrayList<>(n);
    long off = 0;
    for (int i = 0; i < n; i++) {
      TensorRow t = i % 7 == 3 ? ambiguous(i, "blk." + i + ".w", 17, off, 32, 4)
          : f32(i, "blk." + i + ".w", off, 32, 4);
      ts.add(t);
      off += 512;
    }
    List<MetadataRow> md = List.of(string(0, "general.architecture", "llama"),
        string(1, "tokenizer.ggml.model", "llama"));
    return gguf(md, ts, List.of(), List.of());
  }
}
