package dev.rea.core.fuzz;

import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.MetadataValue;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.Totals;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.internal.evidence.Derivations;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.evidence.EvidenceImport;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.internal.evidence.RecordChecks;
import dev.rea.core.internal.format.FormatReader;
import dev.rea.core.internal.format.ParsedHeader;
import dev.rea.core.internal.format.ReadContext;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.internal.io.HeaderInput;
import dev.rea.core.options.Cancellation;
import dev.rea.core.options.HashMode;
import dev.rea.core.options.Limits;
import dev.rea.core.testing.MemoryFileAccess;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.channels.Channels;
import java.nio.file.Path;
import java.util.List;

/**
 * The oracle shared by the fuzz tests (docs/fuzzing.md). For any input:
 *
 * <ul>
 *   <li>only {@link ReaException} may escape a reader, the inspector or Evidence import; any
 *       other throwable (and any {@link AssertionError} raised here) is a finding;
 *   <li>an accepted header was consumed exactly ({@code consumed == header_length}), keeps at
 *       most {@code Limits.previewElements()} (8) preview elements per array, with {@code
 *       preview_complete} exactly when the preview holds every element, has positional indices,
 *       and tensor ranges inside the file;
 *   <li>totals equal the sum of the tensor rows, and the per-type rows add up to the totals;
 *   <li>an accepted file's record passes {@link RecordChecks}, its {@code evidence_id} is the
 *       hash of its content, and its JSON imports back with the same id and rows.
 * </ul>
 */
public final class FuzzOracle {
  private static final Limits LIMITS = Limits.defaults();
  private static final Path PATH = Path.of("/fuzz/input");

  private FuzzOracle() {}

  /** Runs one format reader directly over {@code bytes}; on success checks the header. */
  public static ParsedHeader readDirect(FormatReader reader, byte[] bytes) throws ReaException {
    HeaderInput in =
        new HeaderInput(
            Channels.newChannel(new ByteArrayInputStream(bytes)),
            bytes.length,
            EvidenceIds.sha256(),
            Cancellation.none());
    ParsedHeader h = reader.read(in, ReadContext.of(LIMITS));
    check(in.position() == h.headerLength(),
        "consumed " + in.position() + " bytes for header_length " + h.headerLength());
    check(h.headerLength() <= bytes.length, "header_length past the end of the file");
    checkHeader(h, bytes.length);
    return h;
  }

  /**
   * The whole check for one input of a reader fuzz test: read directly; if accepted, inspect the
   * same bytes through {@link ModelInspector} (full hash, in memory) and round-trip the record
   * through its JSON.
   */
  public static void checkReader(FormatReader reader, byte[] bytes) {
    ParsedHeader h;
    try {
      h = readDirect(reader, bytes);
    } catch (ReaException rejected) {
      checkTyped(rejected);
      return;
    }
    MemoryFileAccess access = new MemoryFileAccess(bytes);
    EvidenceRecord r;
    try {
      r = ModelInspector.withAccess(LIMITS, access).inspect(PATH, HashMode.FULL);
    } catch (ReaException e) {
      // Detection runs first and may refuse bytes the reader alone accepts (e.g. a safetensors
      // header whose first bytes look like another format); nothing else may change the verdict.
      check(
          e.constraint() == dev.rea.core.error.Constraint.UNSUPPORTED_FORMAT,
          "the inspector refused what the reader accepted: " + e.constraint() + ": " + e.getMessage());
      checkTyped(e);
      check(access.opened() == access.closed(), "a channel was left open");
      return;
    }
    check(access.opened() == access.closed(), "a channel was left open");
    check(r.tensors().equals(h.tensors()), "inspector tensors differ from the reader's");
    check(r.metadata().equals(h.metadata()), "inspector metadata differ from the reader's");
    checkRecord(r);
  }

  /** Checks a complete record and its JSON round trip through {@link EvidenceImport}. */
  public static void checkRecord(EvidenceRecord r) {
    try {
      RecordChecks.check(r, "", LIMITS, true);
    } catch (ReaException e) {
      throw new AssertionError("the record fails its own checks: " + e.getMessage(), e);
    }
    check(r.evidenceId().equals(EvidenceIds.compute(r)), "evidence_id is not the record's hash");
    checkTotals(r.tensors(), r.types(), r.totals());
    byte[] json = EvidenceJson.recordBytes(r, true);
    EvidenceImport.Imported back;
    try {
      back = EvidenceImport.standard().read(json);
    } catch (ReaException e) {
      throw new AssertionError("REA's own JSON is not importable: " + e.getMessage(), e);
    }
    check(back.records().size() == 1, "one record expected");
    EvidenceRecord again = back.records().get(0).record();
    check(r.evidenceId().equals(again.evidenceId()), "evidence_id changed through JSON");
    check(r.tensors().equals(again.tensors()), "tensor rows changed through JSON");
    check(r.totals().equals(again.totals()), "totals changed through JSON");
  }

  /** Checks an imported (accepted) record set. */
  public static void checkImported(EvidenceImport.Imported imported) {
    check(!imported.records().isEmpty(), "an import with no records");
    for (EvidenceImport.ImportedRecord ir : imported.records()) {
      EvidenceRecord r = ir.record();
      checkTotals(r.tensors(), r.types(), r.totals());
      for (MetadataRow m : r.metadata()) {
        checkValue(m.value(), 1);
      }
      for (int i = 0; i < r.tensors().size(); i++) {
        check(r.tensors().get(i).index() == i, "tensor index not positional");
      }
    }
  }

  private static void checkHeader(ParsedHeader h, long fileSize) {
    for (int i = 0; i < h.metadata().size(); i++) {
      MetadataRow m = h.metadata().get(i);
      check(m.index() == i, "metadata index not positional");
      checkValue(m.value(), 1);
    }
    long dataOffset =
        h.facts() instanceof FormatFacts.Gguf g
            ? (g.tensorDataOffset() == null ? -1 : g.tensorDataOffset())
            : ((FormatFacts.Safetensors) h.facts()).dataOffset();
    check(dataOffset >= h.headerLength() && dataOffset <= fileSize, "data offset outside the file");
    for (int i = 0; i < h.tensors().size(); i++) {
      TensorRow t = h.tensors().get(i);
      check(t.index() == i, "tensor index not positional");
      check(t.fileOffset() == dataOffset + t.offset(), "file_offset != data offset + offset");
      BigInteger product = BigInteger.ONE;
      for (long d : t.shape()) {
        product = product.multiply(Derivations.unsigned(d));
      }
      check(product.equals(Derivations.unsigned(t.parameterCount())), "parameter_count != product");
      if (t.byteLength() != null) {
        BigInteger end = Derivations.unsigned(t.fileOffset()).add(Derivations.unsigned(t.byteLength()));
        check(end.compareTo(BigInteger.valueOf(fileSize)) <= 0, "a known range ends past the file");
      }
      if (h.facts() instanceof FormatFacts.Gguf g && g.alignment() != null) {
        check(Long.remainderUnsigned(t.offset(), g.alignment()) == 0, "offset not aligned");
      }
    }
    checkTotals(h.tensors(), Derivations.types(h.tensors()), Derivations.totals(h.tensors()));
  }

  private static void checkValue(MetadataValue v, int level) {
    if (!(v instanceof MetadataValue.ArrayValue a)) {
      return;
    }
    check(level <= LIMITS.nestingLimit(), "array nested past the limit");
    int n = a.preview().size();
    check(n <= LIMITS.previewElements(), "preview of " + n + " elements");
    check(Long.compareUnsigned(n, a.count()) <= 0, "preview longer than the array");
    check(a.previewComplete() == (a.count() == n), "preview_complete wrong");
    for (MetadataValue e : a.preview()) {
      checkValue(e, level + 1);
    }
  }

  /** Totals equal the sum of the rows; per-type rows add up to the totals. */
  static void checkTotals(List<TensorRow> tensors, List<TypeRow> types, Totals totals) {
    BigInteger params = BigInteger.ZERO;
    BigInteger bytes = BigInteger.ZERO;
    for (TensorRow t : tensors) {
      params = params.add(Derivations.unsigned(t.parameterCount()));
      bytes = bytes == null || t.byteLength() == null ? null : bytes.add(Derivations.unsigned(t.byteLength()));
    }
    check(totals.tensorCount() == tensors.size(), "tensor_count != rows");
    check(totals.parameterCount().equals(params), "parameter total != sum of rows");
    check(java.util.Objects.equals(totals.byteLength(), bytes), "byte total != sum of rows");
    long typeCount = 0;
    BigInteger typeParams = BigInteger.ZERO;
    for (TypeRow t : types) {
      typeCount += t.tensorCount();
      typeParams = typeParams.add(t.parameterCount());
    }
    check(typeCount == tensors.size(), "type rows do not add up to the tensor count");
    check(typeParams.equals(params), "type rows do not add up to the parameter total");
  }

  /** A refusal must be fully typed: code, category and a bounded message. */
  public static void checkTyped(ReaException e) {
    check(e.constraint() != null && e.code() != null && e.category() != null, "untyped failure");
    check(e.getMessage() != null && e.getMessage().length() < 4096,
        "unbounded message of " + (e.getMessage() == null ? 0 : e.getMessage().length()) + " chars");
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      throw new AssertionError(what);
    }
  }
}
