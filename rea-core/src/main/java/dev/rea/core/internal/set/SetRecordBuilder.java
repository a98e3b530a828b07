package dev.rea.core.internal.set;

import dev.rea.core.evidence.Coverage;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.Limitation;
import dev.rea.core.evidence.ModelSetRecord;
import dev.rea.core.evidence.Request;
import dev.rea.core.evidence.Totals;
import dev.rea.core.evidence.TypeRow;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.evidence.Derivations;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Builds a set record (CONTRACT section 9) from its members' records, one at a time in member
 * order, keeping only what the set record holds (the member entry, the type and total sums, the
 * coverage so far, limitations and warnings), never the members' rows. Not thread-safe.
 */
public final class SetRecordBuilder {
  private final Request request;
  private final String observedAt;
  private final ModelSetRecord.SetInfo set;
  private final List<ModelSetRecord.Member> members = new ArrayList<>();
  private final Map<String, TypeAcc> types = new LinkedHashMap<>();
  private final List<Limitation> limitations = new ArrayList<>();
  private final List<Warning> memberWarnings = new ArrayList<>();
  private int tensorCount;
  private BigInteger params = BigInteger.ZERO;
  private @Nullable BigInteger bytes = BigInteger.ZERO;
  private boolean headerPartial;
  private boolean storagePartial;
  private boolean storageAssumed;
  private boolean rangesPartial;
  private boolean digestUnknown;
  private boolean digestNone;
  private boolean unverified;

  private static final class TypeAcc {
    final String label;
    final @Nullable Long typeId;
    int count;
    BigInteger params = BigInteger.ZERO;
    @Nullable BigInteger bytes = BigInteger.ZERO;

    TypeAcc(String label, @Nullable Long typeId) {
      this.label = label;
      this.typeId = typeId;
    }
  }

  /**
   * @param request the set's request (the path as given, the hash mode)
   * @param observedAt when the set inspection started (RFC 3339 UTC)
   * @param set what holds the set together
   */
  public SetRecordBuilder(Request request, String observedAt, ModelSetRecord.SetInfo set) {
    this.request = Objects.requireNonNull(request, "request");
    this.observedAt = Objects.requireNonNull(observedAt, "observedAt");
    this.set = Objects.requireNonNull(set, "set");
  }

  /**
   * Adds the next member's complete record.
   *
   * @param r the record, with its {@code evidence_id}
   */
  public void add(EvidenceRecord r) {
    int k = members.size();
    members.add(ModelSetRecord.Member.of(k, r));
    String who = "member " + k + " (" + fileName(r.artifact().path()) + "): ";
    for (TypeRow t : r.types()) {
      TypeAcc a = types.computeIfAbsent(t.type() + "\u0000" + t.typeId(),
          x -> new TypeAcc(t.type(), t.typeId()));
      a.count += t.tensorCount();
      a.params = a.params.add(t.parameterCount());
      a.bytes = a.bytes == null || t.byteLength() == null ? null : a.bytes.add(t.byteLength());
    }
    tensorCount += r.totals().tensorCount();
    params = params.add(r.totals().parameterCount());
    bytes = bytes == null || r.totals().byteLength() == null
        ? null : bytes.add(r.totals().byteLength());
    for (Limitation l : r.limitations()) {
      limitations.add(new Limitation(l.code(), who + l.message(), l.tensorIndices(), l.typeId(),
          l.candidates(), l.candidatesFittingRanges()));
    }
    for (Warning w : r.warnings()) {
      memberWarnings.add(new Warning(w.code(), who + w.message()));
    }
    Coverage c = r.coverage();
    headerPartial |= !Coverage.COMPLETE.equals(c.header());
    storagePartial |= Coverage.PARTIAL.equals(c.storageSizes());
    storageAssumed |= Coverage.ASSUMED.equals(c.storageSizes());
    rangesPartial |= !Coverage.COMPLETE.equals(c.ranges());
    digestUnknown |= Coverage.UNKNOWN.equals(c.digest());
    digestNone |= Coverage.NONE.equals(c.digest());
    unverified |= !Coverage.VERIFIED.equals(c.finalIdentity());
  }

  /** @return the members added so far */
  public int size() {
    return members.size();
  }

  /**
   * The complete record, with its {@code evidence_id}.
   *
   * @param setWarnings the set's own warnings (before the members')
   * @return the record
   */
  public ModelSetRecord complete(List<Warning> setWarnings) {
    Coverage c = new Coverage(
        headerPartial ? Coverage.PARTIAL : Coverage.COMPLETE,
        storagePartial ? Coverage.PARTIAL : storageAssumed ? Coverage.ASSUMED : Coverage.COMPLETE,
        rangesPartial ? Coverage.PARTIAL : Coverage.COMPLETE,
        digestUnknown ? Coverage.UNKNOWN : digestNone ? Coverage.NONE : Coverage.COMPLETE,
        unverified ? Coverage.UNVERIFIED : Coverage.VERIFIED);
    return build(ModelSetRecord.STATUS_COMPLETE, c, setWarnings);
  }

  /**
   * The partial record of the members finished so far (CONTRACT section 9: "a cancel gives a
   * partial set record holding the members finished so far"): header coverage partial (not
   * every member was read, or the set was refused), digest unknown, identity unverified.
   *
   * @param setWarnings the set's own warnings known so far
   * @return the record, with its {@code evidence_id}
   */
  public ModelSetRecord partial(List<Warning> setWarnings) {
    Coverage c = new Coverage(
        Coverage.PARTIAL,
        storagePartial ? Coverage.PARTIAL : storageAssumed ? Coverage.ASSUMED : Coverage.COMPLETE,
        rangesPartial ? Coverage.PARTIAL : Coverage.COMPLETE,
        Coverage.UNKNOWN,
        Coverage.UNVERIFIED);
    return build(ModelSetRecord.STATUS_PARTIAL, c, setWarnings);
  }

  private ModelSetRecord build(String status, Coverage coverage, List<Warning> setWarnings) {
    List<TypeAcc> accs = new ArrayList<>(types.values());
    accs.sort(Comparator.comparingLong((TypeAcc a) -> a.typeId == null ? Long.MAX_VALUE : a.typeId)
        .thenComparing((TypeAcc a) -> a.label, Derivations::compareCodePoints));
    List<TypeRow> rows = new ArrayList<>(accs.size());
    for (TypeAcc a : accs) {
      rows.add(new TypeRow(a.label, a.typeId, a.count, a.params, a.bytes));
    }
    List<Warning> warnings = new ArrayList<>(setWarnings);
    warnings.addAll(memberWarnings);
    ModelSetRecord r = new ModelSetRecord(ModelSetRecord.SCHEMA, null, ModelSetRecord.OPERATION,
        status, observedAt, request, set, members, rows, new Totals(tensorCount, params, bytes),
        coverage, limitations, warnings, null);
    return SetRecordJson.withId(r);
  }

  /** @return the last name of a path or URI */
  static String fileName(String path) {
    int slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
    return path.substring(slash + 1);
  }
}
