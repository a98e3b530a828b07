package dev.rea.core.internal.evidence;

import static java.util.Objects.requireNonNull;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Authentication;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.evidence.WireFormat.AuthenticationField;
import dev.rea.core.internal.evidence.WireFormat.BundleField;
import dev.rea.core.internal.evidence.WireFormat.RecordField;
import dev.rea.core.internal.io.StrictJson;
import dev.rea.core.options.Limits;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonToken;

/**
 * Strict import of Evidence JSON (CONTRACT sections 3 and 5): one record ({@code "schema":
 * "rea.evidence.v1"}) or one bundle ({@code {"schema": "rea.bundle.v1", "records": [...]}}).
 *
 * <p>Bounds, checked on the raw bytes before any object is built ({@link StrictJson#open}): first
 * the size, at most {@link #maxInputBytes()} bytes ({@link Limits#evidenceInputBytes()}, 64 MiB by
 * default; files are refused by their size before they are read, {@code EvidenceFiles.read}); then
 * at most {@link #maxDepth()} nested containers (by default {@code 4 + 2 * Limits.nestingLimit()}
 * = 68: bundle object and {@code records} array, record object, {@code metadata} array, row object,
 * then an object and a {@code preview} array per nested ARRAY level). Also strict UTF-8, no BOM,
 * no duplicate keys, nothing after the top-level object. Every Jackson parser over the input
 * carries {@link tools.jackson.core.StreamReadConstraints} made of the same two bounds ({@link
 * StrictJson#constraints}: document, token, string and name length at most {@link
 * #maxInputBytes()}, nesting at most {@link #maxDepth()}); the parser that copies each record for
 * its identity check also stops decoding any string or name longer than the retained budget
 * ({@link Limits#retainedBudgetBytes()}), which no record within the budget can hold.
 *
 * <p>Then every object is read strictly ({@link RecordReader}): unknown properties are refused
 * and required ones must be present, both by the object's {@link WireFormat} table; every value
 * has its CONTRACT type (decimal strings for sizes, offsets, dimensions, counts and 64-bit
 * values; JSON numbers for versions, type IDs, alignment, indices and row counts; the wire
 * spellings of every enumeration; the declared value type of each metadata value), and finally
 * {@link RecordChecks} runs on each record (positional indices, unique names, keys and type
 * labels, derived totals). Property order is free, as in any JSON object.
 *
 * <p>Import does not authenticate: {@code dev.rea.core.internal.auth.EvidenceVerifier} checks the
 * identity and signature of what this class returns, using {@link ImportedRecord#identityFreeJson()}
 * (the record's own bytes without {@code evidence_id} and {@code authentication}, number texts
 * kept exactly) so that what was signed is compared with what was read, not with a re-rendering.
 *
 * <p>Every failure is {@code invalid_input} / {@code evidence_rejected}, naming the field path
 * and the byte offset in the input. Thread-safe (no mutable state).
 */
public final class EvidenceImport {
  /**
   * The longest property name read, in UTF-16 units. Every name in Evidence is one of CONTRACT
   * section 3's (the longest, {@code names_only_inventory}, has 20 characters), so a longer name is
   * refused by its length before Jackson decodes it whole.
   */
  static final int MAX_NAME_CHARS = 256;

  private final Limits limits;
  private final long maxInputBytes;
  private final int maxDepth;

  /**
   * @param limits preview and nesting bounds of metadata arrays
   * @param maxInputBytes largest accepted input in bytes
   */
  public EvidenceImport(Limits limits, long maxInputBytes) {
    this.limits = Objects.requireNonNull(limits, "limits");
    if (maxInputBytes <= 0) {
      throw new IllegalArgumentException("maxInputBytes must be positive: " + maxInputBytes);
    }
    this.maxInputBytes = maxInputBytes;
    this.maxDepth = 4 + 2 * limits.nestingLimit();
  }

  /**
   * An importer bounded by {@code limits}: nesting and previews, and at most {@link
   * Limits#evidenceInputBytes()} bytes of input.
   */
  public EvidenceImport(Limits limits) {
    this(limits, limits.evidenceInputBytes());
  }

  /** @return an importer with the default limits and input bound */
  public static EvidenceImport standard() {
    return new EvidenceImport(Limits.defaults());
  }

  /** @return the largest accepted input, in bytes */
  public long maxInputBytes() {
    return maxInputBytes;
  }

  /** @return the deepest accepted container nesting */
  public int maxDepth() {
    return maxDepth;
  }

  /**
   * One imported record.
   *
   * @param record the record as read
   * @param identityFreeJson the record's JSON exactly as in the input, without the {@code
   *     evidence_id} and {@code authentication} properties (compact UTF-8, for {@link
   *     EvidenceIds#canonicalize(byte[])}; number texts unchanged)
   * @param offset byte offset of the record's opening brace in the input
   */
  public record ImportedRecord(EvidenceRecord record, byte[] identityFreeJson, long offset) {}

  /**
   * What an input held.
   *
   * @param bundle true for a bundle, false for a single record
   * @param records the records in input order (one for a single record; at least one in a bundle)
   */
  public record Imported(boolean bundle, List<ImportedRecord> records) {
    public Imported {
      records = List.copyOf(records);
    }
  }

  /**
   * Reads a record or bundle.
   *
   * @param json UTF-8 JSON text
   * @return the records, unauthenticated
   * @throws ReaException {@code evidence_rejected} for anything that is not a well-formed record or
   *     bundle
   */
  public Imported read(byte[] json) throws ReaException {
    return check(json).read();
  }

  /**
   * The first, cheap phase of {@link #read}: the bounds, syntax and top-level {@code schema} of
   * the input are checked by streaming over it; no record object is built.
   *
   * @param json UTF-8 JSON text
   * @return the checked input, ready for {@link Checked#screenAuthentication} and {@link
   *     Checked#read}
   * @throws ReaException {@code evidence_rejected} when the input breaks a bound, is not JSON, or
   *     its {@code schema} is neither {@code rea.evidence.v1} nor {@code rea.bundle.v1}
   */
  public Checked check(byte[] json) throws ReaException {
    Objects.requireNonNull(json, "json");
    StrictJson checked =
        StrictJson.open(
            json, maxInputBytes, maxDepth, MAX_NAME_CHARS, Constraint.EVIDENCE_REJECTED, "evidence");
    // Every later pass reopens the input; the first parser is not needed.
    checked.close();
    String schema = rootSchema(checked);
    boolean bundle;
    if (EvidenceJson.BUNDLE_SCHEMA.equals(schema)) {
      bundle = true;
    } else if (EvidenceRecord.SCHEMA.equals(schema)) {
      bundle = false;
    } else {
      throw RecordChecks.reject(RecordField.SCHEMA.json(),
          "schema must be " + EvidenceRecord.SCHEMA + " or " + EvidenceJson.BUNDLE_SCHEMA);
    }
    return new Checked(checked, bundle);
  }

  /**
   * An input whose bounds, syntax and schema were checked ({@link #check}), from which nothing
   * has been built yet. Not thread-safe.
   */
  public final class Checked {
    private final StrictJson json;
    private final boolean bundle;

    private Checked(StrictJson json, boolean bundle) {
      this.json = json;
      this.bundle = bundle;
    }

    /** @return true for a bundle, false for a single record */
    public boolean bundle() {
      return bundle;
    }

    /**
     * Streams over the input (Jackson's parser, no tree) and hands each record's {@code
     * authentication} object to {@code screen}, in input order, before any record is built: the
     * check that lets a verifier refuse unsigned Evidence, or Evidence signed by an untrusted
     * key, at the cost of one pass of the tokenizer. Every other property of a record is skipped
     * unread, and bundle elements that are not objects are left for {@link #read} to refuse.
     *
     * @throws ReaException {@code evidence_rejected} when an {@code authentication} is not an
     *     object, has a property other than {@code scheme}, {@code key_id} and {@code signature},
     *     a value that is not a string, or lacks one of the three (the same field paths and
     *     messages as {@link #read}); or whatever {@code screen} throws
     */
    public void screenAuthentication(AuthenticationScreen screen) throws ReaException {
      Objects.requireNonNull(screen, "screen");
      try (StrictJson j = json.reopen()) {
        j.next();
        if (!bundle) {
          screenRecord(j, 0, "", screen);
          return;
        }
        String name;
        while ((name = j.nextName()) != null) {
          j.next();
          if (BundleField.RECORDS.json().equals(name) && j.current() == JsonToken.START_ARRAY) {
            int i = 0;
            while (j.nextElement()) {
              if (j.current() == JsonToken.START_OBJECT) {
                screenRecord(j, i, recordPrefix(i), screen);
              } else {
                j.skipValue();
              }
              i++;
            }
          } else {
            j.skipValue();
          }
        }
      }
    }

    /**
     * The second phase: reads every record strictly and runs {@link RecordChecks} (see the class
     * comment). At most once.
     *
     * @return the records, unauthenticated
     * @throws ReaException {@code evidence_rejected} for anything that is not a well-formed
     *     record or bundle
     */
    public Imported read() throws ReaException {
      return EvidenceImport.this.read(json, bundle);
    }
  }

  /** Screens one record object; the parser is on its opening brace and ends on its closing one. */
  private static void screenRecord(StrictJson j, int index, String prefix,
      AuthenticationScreen screen) throws ReaException {
    long recordOffset = j.offset();
    AuthenticationClaim claim = null;
    String name;
    while ((name = j.nextName()) != null) {
      if (!RecordField.AUTHENTICATION.json().equals(name)) {
        j.next();
        j.skipValue();
        continue;
      }
      String base = prefix + RecordField.AUTHENTICATION.json();
      j.startObject(() -> base);
      long start = j.offset();
      String[] values = new String[AuthenticationField.values().length];
      long[] offsets = new long[values.length];
      ObjectFields.read(j, AuthenticationField.class, prefix, RecordField.AUTHENTICATION.json(),
          start, field -> {
            values[field.ordinal()] = j.string(() -> base + "." + field.json());
            offsets[field.ordinal()] = j.offset();
          });
      claim = new AuthenticationClaim(index, prefix, start,
          new Authentication(
              requireNonNull(values[AuthenticationField.SCHEME.ordinal()]),
              requireNonNull(values[AuthenticationField.KEY_ID.ordinal()]),
              requireNonNull(values[AuthenticationField.SIGNATURE.ordinal()])),
          offsets[AuthenticationField.SCHEME.ordinal()],
          offsets[AuthenticationField.KEY_ID.ordinal()],
          offsets[AuthenticationField.SIGNATURE.ordinal()]);
    }
    screen.check(claim != null
        ? claim
        : new AuthenticationClaim(index, prefix, recordOffset, null, -1, -1, -1));
  }

  /**
   * A record's {@code authentication} as found by {@link Checked#screenAuthentication}, before
   * the record is read.
   *
   * @param index the record's index in input order (0 for a single record)
   * @param prefix field path prefix: {@code "records[i]."} in a bundle, {@code ""} otherwise
   * @param offset byte offset of the {@code authentication} object's opening brace, or of the
   *     record's when it has none
   * @param authentication the three strings as written, or null when the record has no {@code
   *     authentication} property (their meaning is not checked here)
   * @param schemeOffset byte offset of the {@code scheme} value (-1 when absent)
   * @param keyIdOffset byte offset of the {@code key_id} value (-1 when absent)
   * @param signatureOffset byte offset of the {@code signature} value (-1 when absent)
   */
  public record AuthenticationClaim(
      int index,
      String prefix,
      long offset,
      @Nullable Authentication authentication,
      long schemeOffset,
      long keyIdOffset,
      long signatureOffset) {

    /**
     * @param property {@code ""} for the {@code authentication} object itself, else {@code
     *     "scheme"}, {@code "key_id"} or {@code "signature"}
     * @param reason why it is refused
     * @return {@code evidence_rejected} naming {@code <prefix>authentication[.property]} and the
     *     byte offset of that value
     */
    public ReaException reject(String property, String reason) {
      String field = prefix + "authentication" + (property.isEmpty() ? "" : "." + property);
      long at = switch (property) {
        case "scheme" -> schemeOffset;
        case "key_id" -> keyIdOffset;
        case "signature" -> signatureOffset;
        default -> offset;
      };
      return RecordChecks.reject(field, reason, at);
    }
  }

  /** Decides, from its {@code authentication} alone, whether a record may be read at all. */
  @FunctionalInterface
  public interface AuthenticationScreen {
    /**
     * @param claim one record's authentication
     * @throws ReaException to refuse the input ({@code evidence_rejected}, e.g. from {@link
     *     AuthenticationClaim#reject})
     */
    void check(AuthenticationClaim claim) throws ReaException;
  }

  private Imported read(StrictJson checked, boolean bundle) throws ReaException {
    // The identity-free copies first: a record larger than the budget is refused while it is
    // copied, before anything of it is built (its strings decoded into the record, say).
    List<byte[]> identityFree =
        IdentityFreeCopy.copies(checked, bundle, limits.retainedBudgetBytes());
    List<EvidenceRecord> records = new ArrayList<>();
    List<Long> offsets = new ArrayList<>();
    try (StrictJson j = checked.reopen()) {
      j.next();
      if (bundle) {
        readBundle(j, records, offsets);
      } else {
        offsets.add(j.offset());
        records.add(new RecordReader(j, "", limits).read());
      }
    }
    List<ImportedRecord> out = new ArrayList<>(records.size());
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < records.size(); i++) {
      String prefix = bundle ? recordPrefix(i) : "";
      EvidenceRecord r = records.get(i);
      RecordChecks.check(r, prefix, limits, true);
      String id = requireNonNull(r.evidenceId(), "an imported record has its evidence_id");
      if (!ids.add(id)) {
        throw RecordChecks.reject(prefix + RecordField.EVIDENCE_ID.json(),
            "the bundle holds evidence " + id + " twice");
      }
      out.add(new ImportedRecord(r, identityFree.get(i), offsets.get(i)));
    }
    return new Imported(bundle, out);
  }

  /** {@code records[i].}, the field path prefix of a bundle's record. */
  private static String recordPrefix(int i) {
    return WireFormat.row(BundleField.RECORDS, i) + ".";
  }

  /** Reads a bundle's properties (table {@link BundleField}); the parser is on its brace. */
  private void readBundle(StrictJson j, List<EvidenceRecord> records, List<Long> offsets)
      throws ReaException {
    String recordsName = BundleField.RECORDS.json();
    ObjectFields.PropertyReader<BundleField> each = field -> {
      switch (field) {
        case SCHEMA -> j.string(() -> BundleField.SCHEMA.json());
        case RECORDS -> {
          j.startArray(() -> recordsName);
          while (j.nextElement()) {
            int i = records.size();
            j.requireObject(() -> WireFormat.row(BundleField.RECORDS, i));
            offsets.add(j.offset());
            records.add(new RecordReader(j, recordPrefix(i), limits).read());
          }
        }
      }
    };
    boolean sawRecords = false;
    String name;
    while ((name = j.nextName()) != null) {
      BundleField field = WireFormat.field(BundleField.class, name);
      if (field == null) {
        throw ObjectFields.unknown(j, "", name);
      }
      sawRecords |= field == BundleField.RECORDS;
      each.read(field);
    }
    if (!sawRecords) {
      throw j.error(recordsName, "a bundle needs a records array");
    }
    if (records.isEmpty()) {
      throw j.error(recordsName, "a bundle holds at least one record");
    }
  }

  /** Reads only the top-level {@code schema} string (after the whole input was checked). */
  private String rootSchema(StrictJson checked) throws ReaException {
    String schemaName = RecordField.SCHEMA.json();
    try (StrictJson j = checked.reopen()) {
      j.next();
      String schema = null;
      String name;
      while ((name = j.nextName()) != null) {
        j.next();
        if (name.equals(schemaName)) {
          schema = j.currentString(() -> schemaName);
        } else {
          j.skipValue();
        }
      }
      if (schema == null) {
        throw j.error(schemaName, "no schema property");
      }
      return schema;
    }
  }
}
