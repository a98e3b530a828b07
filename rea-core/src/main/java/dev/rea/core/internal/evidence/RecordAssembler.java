package dev.rea.core.internal.evidence;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.FormatFacts;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.MetadataRow;
import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.evidence.TensorRow;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.io.FieldPath;
import dev.rea.core.internal.io.JsonText;
import dev.rea.core.internal.io.RetainedBudget;
import dev.rea.core.internal.io.StringAllowance;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Turns the declarations a format reader validated into the parts of an Evidence record, and
 * owns what retaining them costs: the retained budget ({@link RetainedBudget}) charged with the
 * JSON sizes of {@link RecordSize}, the type notes ({@link TypeNotes}, {@link LayoutBounds}) and,
 * for a read stopped inside the header, the snapshot of what was completed ({@link #snapshot}).
 * The readers parse and validate; they call this class before they retain anything (so a refusal
 * never follows the allocation it prevents) and hand it each declaration once it is whole. The
 * accounting is described in {@code docs/evidence.md}, "Retained budget".
 *
 * <p>Every refusal is {@code resource_exhausted} / {@code retained_budget} naming the reader's
 * {@link FieldPath} as it stands and the offset the reader gives. One instance per read; not
 * thread-safe.
 *
 * @param <D> the reader's declaration type, handed back by {@link #tensors()} for the reader's
 *     own later checks (ranges, overlaps)
 */
public final class RecordAssembler<D extends DeclaredTensor> implements StringAllowance {
  /** How the record numbers its rows. */
  public enum RowOrder {
    /** In declaration order (GGUF): a row's index is known when its entry is read. */
    DECLARATION,
    /** In name order (safetensors): indices are known only once every name has been read. */
    NAME
  }

  private static final long OVERHEAD = RetainedBudget.VALUE_OVERHEAD;

  /**
   * Bytes charged per safetensors shape dimension as it is read: the heap floor of one retained
   * value, since each dimension becomes one value of the record. (At 8 bytes, a hostile 8 MB
   * header of 4,100,000 dimensions fitted the budget and peaked at 491 MB of memory.)
   */
  private static final long DIM_BYTES = OVERHEAD;

  /** Longest string a reader may materialise (a Java array bound), in bytes. */
  private static final long MAX_RETAINED_STRING = Integer.MAX_VALUE - 64;

  private final RetainedBudget budget;
  private final FieldPath path;
  private final long fileSize;
  private final RowOrder order;
  private final TypeNotes notes = new TypeNotes();
  private final List<MetadataRow> metadata = new ArrayList<>();
  private final List<D> tensors = new ArrayList<>();
  private @Nullable FormatFacts facts;
  private long completedEnd;
  private long declaredKvs;
  private long declaredTensors;

  /**
   * @param budget the inspection's retained budget (the record's fixed part already charged)
   * @param path the reader's field path, which names every refusal
   * @param fileSize the file's size in bytes
   * @param order how rows are numbered
   */
  public RecordAssembler(RetainedBudget budget, FieldPath path, long fileSize, RowOrder order) {
    this.budget = budget;
    this.path = path;
    this.fileSize = fileSize;
    this.order = order;
  }

  // ---------------------------------------------------------------------------------------------
  // What the reader retains as it reads

  /**
   * Charges one retained object at its heap floor ({@link RetainedBudget#VALUE_OVERHEAD}): a
   * metadata row, a retained array value, a preview element that is not a string. The floor also
   * covers the JSON each adds beside its strings (docs/evidence.md).
   */
  public void chargeValue(long at) throws ReaException {
    budget.charge(OVERHEAD, path, at);
  }

  /**
   * Charges an ARRAY row's {@code value_sha256} ({@link RecordSize#VALUE_SHA256_BYTES}), before
   * its array value is read.
   *
   * @param at offset of the array value (its element type field)
   */
  public void chargeValueDigest(long at) throws ReaException {
    budget.charge(RecordSize.VALUE_SHA256_BYTES, path, at);
  }

  /**
   * Charges the floor of a tensor entry whose dimensions are few (GGUF, at most {@code
   * maxDims}), before its name is read: two retained objects (the declaration and its row) and 8
   * bytes per dimension. The name is charged on its own ({@link #beforeString}); {@link
   * #chargeRowAfterFloor} charges the rest of the row.
   */
  public void chargeEntryFloor(int maxDims, long at) throws ReaException {
    budget.charge(entryFloor(maxDims), path, at);
  }

  private static long entryFloor(int maxDims) {
    return 2 * OVERHEAD + 8L * maxDims;
  }

  /**
   * Refuses a string longer than any Java string can be before anything is charged for it.
   *
   * @param length its declared length in bytes
   * @param at offset of the field that declared the length
   * @throws ReaException {@code retained_budget}, "exceeds the largest retainable string"
   */
  public void checkRetainable(long length, long at) throws ReaException {
    if (length <= MAX_RETAINED_STRING) {
      return;
    }
    String field = path.get();
    throw ReaException.builder(
            Constraint.RETAINED_BUDGET,
            "retaining "
                + field
                + " ("
                + length
                + " bytes) exceeds the largest retainable string")
        .field(field)
        .offset(at)
        .diagnostic("limit", "retained_budget")
        .diagnostic("limit_bytes", Long.toString(budget.limit()))
        .diagnostic("used_bytes", Long.toString(budget.used()))
        .diagnostic("requested_bytes", Long.toString(length))
        .diagnostic(
            "over_bytes",
            Long.toString(Math.max(0, budget.used() + length + OVERHEAD - budget.limit())))
        .build();
  }

  /** A retained string costs its UTF-8 length and the heap floor, then its escapes. */
  @Override
  public long beforeString(long utf8Length, long at) throws ReaException {
    long bytes = utf8Length + OVERHEAD;
    budget.charge(bytes, path, at);
    return bytes;
  }

  @Override
  public void beforeEscapes(long extra, long chargedSoFar, long at) throws ReaException {
    budget.chargeMore(extra, chargedSoFar, path, at);
  }

  /**
   * Charges a row and the name that starts it, measured before the row is built (a safetensors
   * tensor name or metadata key): two retained objects and the name's escaped length.
   */
  public void chargeRowAndName(long nameEscaped, long at) throws ReaException {
    budget.charge(OVERHEAD + nameEscaped + OVERHEAD, path, at);
  }

  /**
   * Charges a string measured before it is kept (its escaped length, {@link JsonText}) and its
   * heap floor: a safetensors metadata value or dtype, or a key of a tensor entry kept to detect
   * duplicates.
   */
  public void chargeString(long escapedLength, long at) throws ReaException {
    budget.charge(escapedLength + OVERHEAD, path, at);
  }

  /** Charges one shape dimension of an entry whose dimensions are many (safetensors). */
  public void chargeDimension(long at) throws ReaException {
    budget.charge(DIM_BYTES, path, at);
  }

  /**
   * Charges a key held only while its object is checked for duplicates (never retained); give it
   * back with {@link #release} when the object ends.
   *
   * @return the bytes held
   */
  public long holdKey(long escapedLength, long at) throws ReaException {
    long bytes = escapedLength + OVERHEAD;
    if (bytes > budget.limit() - budget.used()) {
      budget.chargeHeld(bytes, path.get(), at); // throws retained_budget
    }
    budget.chargeHeld(bytes, "", 0);
    return bytes;
  }

  /** Gives back bytes of {@link #holdKey}. */
  public void release(long bytes) {
    budget.release(bytes);
  }

  /**
   * @return the longest escaped length a string may have for its text to be kept: what is left
   *     of the budget after its heap floor (negative when nothing fits)
   */
  public long stringRoom() {
    return budget.limit() - budget.used() - OVERHEAD;
  }

  /**
   * The refusal of a name the JSON parser stopped decoding because it is longer than the whole
   * budget (nothing is charged).
   *
   * @param in what holds the name, for the message and the field ({@code tensors}, ...)
   * @param at offset of the name's opening quote
   */
  public ReaException nameOverBudget(String in, long at) {
    return budget.refusalOfAtLeast(
        budget.limit() + 1, "a name of more than " + budget.limit() + " bytes in " + in, in, at);
  }

  // ---------------------------------------------------------------------------------------------
  // Declarations

  /** Sets the format facts as far as they are established (the latest call wins). */
  public void facts(FormatFacts established) {
    this.facts = established;
  }

  /**
   * Records the declared counts of a header declared piece by piece (GGUF), for the snapshot.
   *
   * @param end offset just after the counts
   */
  public void declaredCounts(long kvs, long tensorCount, long end) {
    declaredKvs = kvs;
    declaredTensors = tensorCount;
    completedEnd = end;
  }

  /**
   * Takes a whole, validated metadata pair (its strings and values already charged).
   *
   * @param end offset just after it
   */
  public void metadata(MetadataRow row, long end) {
    metadata.add(row);
    completedEnd = end;
  }

  /**
   * Charges the rest of the row of an entry whose floor ({@link #chargeEntryFloor}) and name were
   * charged: its JSON row ({@link RecordSize#tensorRowBytes}) beyond them. The row's {@code
   * file_offset} is not known yet: it is the data offset (at most the file size) plus the entry's
   * offset, so {@code offset + file size} has at least as many digits.
   */
  public void chargeRowAfterFloor(D d, int maxDims, long at) throws ReaException {
    long nameEscaped = JsonText.escapedLength(d.name());
    long offset = d.offset();
    long fileOffsetBound = Long.compareUnsigned(offset, -1L - fileSize) > 0 ? -1L : offset + fileSize;
    long json = rowBytes(d, nameEscaped, fileOffsetBound);
    long charged = entryFloor(maxDims) + OVERHEAD + nameEscaped;
    if (json > charged) {
      budget.chargeMore(json - charged, charged, path, at);
    }
  }

  /**
   * Charges the rest of the row of an entry whose name ({@link #chargeRowAndName}), dimensions
   * ({@link #chargeDimension}) and, for a type that is not checked, label ({@link #chargeString})
   * were charged as they were read: its JSON row beyond them.
   *
   * @param nameEscaped the name's escaped length, as charged
   * @param fileOffset the row's {@code file_offset}
   */
  public void chargeRowAfterParts(D d, long nameEscaped, long fileOffset, long at)
      throws ReaException {
    long json = rowBytes(d, nameEscaped, fileOffset);
    long charged =
        2 * OVERHEAD
            + nameEscaped
            + DIM_BYTES * d.shape().length
            + (d.storageChecked() ? 0 : JsonText.escapedLength(d.type().label()) + OVERHEAD);
    if (json > charged) {
      budget.chargeMore(json - charged, charged, path, at);
    }
  }

  /** The row's JSON bytes and a separating comma, at the widest index when not yet known. */
  private long rowBytes(D d, long nameEscaped, long fileOffset) {
    TensorType type = d.type();
    boolean known = d.byteLength() != DeclaredTensor.UNKNOWN_LENGTH;
    return RecordSize.tensorRowBytes(
            sizingIndex(d),
            nameEscaped + 2,
            TypeNotes.quotedLabel(type),
            type.typeId(),
            d.shape(),
            d.shape().length,
            d.elements(),
            d.offset(),
            fileOffset,
            known,
            d.byteLength(),
            d.storageChecked() ? StorageValidation.CONSISTENT : StorageValidation.UNKNOWN)
        + RecordSize.SEPARATOR;
  }

  private int sizingIndex(D d) {
    return order == RowOrder.DECLARATION ? d.index() : Integer.MAX_VALUE;
  }

  /**
   * Charges the parts of the record the entry's type brings ({@link TypeNotes#sharesOf}): its
   * type row, its note and its place in it, the layout warnings, each at its widest.
   */
  public void chargeTypeShares(D d, long at) throws ReaException {
    long bytes = notes.sharesOf(d, sizingIndex(d));
    if (bytes != 0) {
      budget.charge(bytes, path, at);
    }
  }

  /**
   * Takes a whole, validated tensor entry (charged: its row and its type's shares).
   *
   * @param end offset just after it
   */
  public void tensor(D d, long end) {
    tensors.add(d);
    completedEnd = end;
  }

  /** @return the entries taken so far, in declaration order (the list itself: do not change it) */
  public List<D> tensors() {
    return tensors;
  }

  // ---------------------------------------------------------------------------------------------
  // The record's parts

  /**
   * The parts of a complete header: rows numbered in {@code rowOrder}, each tensor's {@code
   * file_offset} the data section's start plus its offset; the type notes; the layout warnings.
   *
   * @param headerLength the header's length in bytes
   * @param rowOrder the entries in the record's order (declaration order, or sorted by name)
   * @param dataOffset absolute offset of the data section
   * @param metadataOrder the order of metadata rows by key, or null for declaration order
   * @throws IllegalStateException when no facts were given
   */
  public AssembledHeader complete(
      long headerLength,
      List<D> rowOrder,
      long dataOffset,
      @Nullable Comparator<String> metadataOrder) {
    List<TensorRow> rows = new ArrayList<>(rowOrder.size());
    for (int i = 0; i < rowOrder.size(); i++) {
      D d = rowOrder.get(i);
      rows.add(d.row(i, dataOffset + d.offset()));
    }
    List<Limitation> limitations = new ArrayList<>();
    List<Warning> warnings = new ArrayList<>();
    TypeNotes.notes(
        rowOrder, new CandidateFit(rowOrder, fileSize - dataOffset), limitations, warnings);
    LayoutBounds.warnings(rowOrder, fileSize - dataOffset, dataOffset, warnings);
    return new AssembledHeader(
        headerLength, factsOrFail(), metadataRows(metadataOrder), rows, limitations, warnings);
  }

  /**
   * What a read stopped inside the header completed (specification, "Facts and selected
   * queries": "Cancellation retains completed declarations"): every metadata pair and tensor
   * entry taken, each tensor without its file offset (the data section's start follows the
   * directory) and unchecked storage; the type notes as in a complete read; and first, when the
   * budget still holds it, the {@code partial_header} limitation saying how much was read.
   * Ranges and overlaps, which need the whole directory, are not checked.
   *
   * @return the completed part, or null when no facts were established (not even the counts)
   */
  public @Nullable AssembledHeader snapshot() {
    FormatFacts known = facts;
    if (known == null) {
      return null;
    }
    List<TensorRow> rows = new ArrayList<>(tensors.size());
    for (D d : tensors) {
      rows.add(d.row(d.index(), null));
    }
    List<Limitation> limitations = new ArrayList<>();
    List<Warning> warnings = new ArrayList<>();
    TypeNotes.notes(tensors, null, limitations, warnings);
    Limitation stopped =
        partialHeaderLimitation(metadata.size(), declaredKvs, tensors.size(), declaredTensors);
    // Charged like every other part of the record; with the budget spent, the record still says
    // coverage.header "partial".
    if (budget.tryCharge(RecordSize.limitationBytes(stopped))) {
      limitations.add(0, stopped);
    }
    return new AssembledHeader(
        completedEnd, known, metadataRows(null), rows, limitations, warnings);
  }

  private FormatFacts factsOrFail() {
    FormatFacts known = facts;
    if (known == null) {
      throw new IllegalStateException("the reader gave no format facts");
    }
    return known;
  }

  private List<MetadataRow> metadataRows(@Nullable Comparator<String> byKey) {
    if (byKey == null) {
      return metadata;
    }
    List<MetadataRow> sorted = new ArrayList<>(metadata);
    Collections.sort(sorted, (a, b) -> byKey.compare(a.key(), b.key()));
    List<MetadataRow> rows = new ArrayList<>(sorted.size());
    for (int i = 0; i < sorted.size(); i++) {
      MetadataRow r = sorted.get(i);
      rows.add(r.index() == i ? r : r.withIndex(i));
    }
    return rows;
  }

  /**
   * The {@code partial_header} limitation of a read stopped inside a GGUF header: how many of
   * the declared metadata pairs and tensor entries were read whole, so that totals over the rows
   * read are not taken for the file's.
   */
  static Limitation partialHeaderLimitation(long kvsRead, long kvs, long tensorsRead, long tensors) {
    return new Limitation(
        "partial_header",
        "the read stopped inside the header, after "
            + kvsRead
            + " of its "
            + kvs
            + " metadata pairs (metadata_kv_count) and "
            + tensorsRead
            + " of its "
            + tensors
            + " tensor entries (tensor_count) were read whole; the rows, types and totals here"
            + " cover those only",
        null,
        null,
        null);
  }
}
