package dev.rea.core.internal.evidence;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
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
import dev.rea.core.internal.io.StrictJson;
import dev.rea.core.internal.io.StrictJson.ArrayValue;
import dev.rea.core.internal.io.StrictJson.ObjectValue;
import dev.rea.core.internal.io.StrictJson.ScalarValue;
import dev.rea.core.internal.io.StrictJson.Value;
import dev.rea.core.options.Limits;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.exc.StreamConstraintsException;

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
 * <p>Then every object is read strictly: unknown properties are refused, required ones must be
 * present, every value has its CONTRACT type (decimal strings for sizes, offsets, dimensions,
 * counts and 64-bit values; JSON numbers for versions, type IDs, alignment, indices and row
 * counts; the wire spellings of every enumeration; the declared value type of each metadata
 * value), and finally {@link RecordChecks} runs on each record (positional indices, unique names,
 * keys and type labels, derived totals). Property order is free, as in any JSON object.
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

  /** The one defined {@code request.assume_layout} (CONTRACT section 12). */
  private static final String GGML_MODERN = "ggml-modern";

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
      throw RecordChecks.reject("schema",
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
          if (name.equals("records") && j.current() == JsonToken.START_ARRAY) {
            int i = 0;
            while (j.nextElement()) {
              if (j.current() == JsonToken.START_OBJECT) {
                screenRecord(j, i, "records[" + i + "].", screen);
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
      if (!name.equals("authentication")) {
        j.next();
        j.skipValue();
        continue;
      }
      String base = prefix + "authentication";
      j.startObject(() -> base);
      long start = j.offset();
      String scheme = null;
      String keyId = null;
      String signature = null;
      long schemeAt = -1;
      long keyIdAt = -1;
      long signatureAt = -1;
      String prop;
      while ((prop = j.nextName()) != null) {
        switch (prop) {
          case "scheme":
            scheme = j.string(() -> base + ".scheme");
            schemeAt = j.offset();
            break;
          case "key_id":
            keyId = j.string(() -> base + ".key_id");
            keyIdAt = j.offset();
            break;
          case "signature":
            signature = j.string(() -> base + ".signature");
            signatureAt = j.offset();
            break;
          default:
            throw unknown(j, base + ".", prop);
        }
      }
      for (String[] required : new String[][] {
          {"scheme", scheme}, {"key_id", keyId}, {"signature", signature}}) {
        if (required[1] == null) {
          String what = "authentication." + required[0];
          throw j.errorAt(start, prefix + what, "required property " + what + " is missing");
        }
      }
      claim = new AuthenticationClaim(index, prefix, start,
          new Authentication(scheme, keyId, signature), schemeAt, keyIdAt, signatureAt);
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
    List<byte[]> identityFree = identityFreeCopies(checked, bundle);
    List<EvidenceRecord> records = new ArrayList<>();
    List<Long> offsets = new ArrayList<>();
    try (StrictJson j = checked.reopen()) {
      j.next();
      if (bundle) {
        boolean sawRecords = false;
        String name;
        while ((name = j.nextName()) != null) {
          switch (name) {
            case "schema":
              j.string(() -> "schema");
              break;
            case "records":
              sawRecords = true;
              j.startArray(() -> "records");
              while (j.nextElement()) {
                int i = records.size();
                String prefix = "records[" + i + "].";
                j.requireObject(() -> "records[" + i + "]");
                offsets.add(j.offset());
                records.add(new RecordReader(j, prefix).read());
              }
              break;
            default:
              throw unknown(j, "", name);
          }
        }
        if (!sawRecords) {
          throw j.error("records", "a bundle needs a records array");
        }
        if (records.isEmpty()) {
          throw j.error("records", "a bundle holds at least one record");
        }
      } else {
        offsets.add(j.offset());
        records.add(new RecordReader(j, "").read());
      }
    }
    List<ImportedRecord> out = new ArrayList<>(records.size());
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < records.size(); i++) {
      String prefix = bundle ? "records[" + i + "]." : "";
      EvidenceRecord r = records.get(i);
      RecordChecks.check(r, prefix, limits, true);
      if (!ids.add(r.evidenceId())) {
        throw RecordChecks.reject(prefix + "evidence_id",
            "the bundle holds evidence " + r.evidenceId() + " twice");
      }
      out.add(new ImportedRecord(r, identityFree.get(i), offsets.get(i)));
    }
    return new Imported(bundle, out);
  }

  /**
   * The refusal of a record whose compact JSON is larger than the retained representation
   * budget: REA never writes such a record (the budget bounds every record it produces, as JSON),
   * and authenticating one means putting all of it in canonical form, which takes memory in
   * proportion to it (strings are never split into parts). Found while its identity-free copy is
   * made, which stops there.
   *
   * @return {@code resource_exhausted} / {@code retained_budget} naming the record and its
   *     offset, with the budget in the diagnostics
   */
  private ReaException tooLarge(String field, long offset) {
    long limit = limits.retainedBudgetBytes();
    return ReaException.builder(
            Constraint.RETAINED_BUDGET,
            "the "
                + field
                + " at offset "
                + offset
                + " takes more than "
                + limit
                + " bytes as compact JSON (without evidence_id and authentication): more than the"
                + " retained representation budget that bounds every record REA writes")
        .field(field)
        .offset(offset)
        .diagnostic("limit", "retained_budget")
        .diagnostic("limit_bytes", Long.toString(limit))
        .build();
  }

  /** Reads only the top-level {@code schema} string (after the whole input was checked). */
  private String rootSchema(StrictJson checked) throws ReaException {
    try (StrictJson j = checked.reopen()) {
      j.next();
      String schema = null;
      String name;
      while ((name = j.nextName()) != null) {
        j.next();
        if (name.equals("schema")) {
          schema = j.currentString(() -> "schema");
        } else {
          j.skipValue();
        }
      }
      if (schema == null) {
        throw j.error("schema", "no schema property");
      }
      return schema;
    }
  }

  private static ReaException unknown(StrictJson j, String prefix, String name) {
    return j.error(prefix + ReaException.truncateForMessage(name),
        "unknown property \"" + ReaException.truncateForMessage(name) + "\"");
  }

  /** Copies each record's JSON without its identity properties, keeping number texts. */
  private List<byte[]> identityFreeCopies(StrictJson checked, boolean bundle)
      throws ReaException {
    List<byte[]> out = new ArrayList<>();
    long limit = limits.retainedBudgetBytes();
    // A string or name longer than the budget cannot fit in a record within it (each UTF-16 code
    // unit takes at least one byte of compact JSON), so the copying parser stops decoding one
    // there instead of holding it whole first.
    try (StrictJson j = checked.reopen(limit)) {
      JsonParser p = j.parser();
      try {
        p.nextToken();
        if (!bundle) {
          out.add(copyRecord(p, limit, () -> tooLarge("record", 0)));
          return out;
        }
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
          String name = p.currentName();
          p.nextToken();
          if (name.equals("records")) {
            while (p.nextToken() == JsonToken.START_OBJECT) {
              String field = "records[" + out.size() + "]";
              long at = p.currentTokenLocation().getByteOffset();
              out.add(copyRecord(p, limit, () -> tooLarge(field, at)));
            }
          } else {
            p.skipChildren();
          }
        }
      } catch (JacksonException e) {
        throw j.wrap(e);
      }
    }
    return out;
  }

  /** Thrown by {@link Bounded} when a copy would pass its limit. */
  private static final class TooLarge extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TooLarge() {
      super(null, null, false, false);
    }
  }

  /** A byte buffer that refuses to grow past {@code limit} bytes. */
  private static final class Bounded extends ByteArrayOutputStream {
    private final long limit;

    Bounded(long limit) {
      super(4096);
      this.limit = limit;
    }

    @Override
    public synchronized void write(int b) {
      if (count + 1L > limit) {
        throw new TooLarge();
      }
      super.write(b);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      if (count + (long) len > limit) {
        throw new TooLarge();
      }
      super.write(b, off, len);
    }
  }

  /**
   * @param limit the most bytes the copy may take
   * @param refusal what a longer copy is refused with
   * @return the record's compact JSON without its identity properties
   */
  private static byte[] copyRecord(JsonParser p, long limit, Supplier<ReaException> refusal)
      throws ReaException {
    try {
      return copyRecord(p, limit);
    } catch (TooLarge | StreamConstraintsException e) {
      throw refusal.get();
    }
  }

  private static byte[] copyRecord(JsonParser p, long limit) {
    ByteArrayOutputStream buf = new Bounded(limit);
    try (JsonGenerator g = EvidenceJson.generator(buf)) {
      g.writeStartObject();
      while (p.nextToken() == JsonToken.PROPERTY_NAME) {
        String name = p.currentName();
        p.nextToken();
        if (name.equals("evidence_id") || name.equals("authentication")) {
          p.skipChildren();
          continue;
        }
        g.writeName(name);
        copyValue(p, g);
      }
      g.writeEndObject();
    }
    return buf.toByteArray();
  }

  private static void copyValue(JsonParser p, JsonGenerator g) {
    JsonToken t = p.currentToken();
    switch (t) {
      case START_OBJECT:
        g.writeStartObject();
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
          g.writeName(p.currentName());
          p.nextToken();
          copyValue(p, g);
        }
        g.writeEndObject();
        break;
      case START_ARRAY:
        g.writeStartArray();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          copyValue(p, g);
        }
        g.writeEndArray();
        break;
      case VALUE_STRING:
        g.writeString(p.getString());
        break;
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        g.writeNumber(p.getText());
        break;
      case VALUE_TRUE:
        g.writeBoolean(true);
        break;
      case VALUE_FALSE:
        g.writeBoolean(false);
        break;
      case VALUE_NULL:
        g.writeNull();
        break;
      default:
        throw new IllegalStateException("unexpected token " + t);
    }
  }

  /** Reads one record object; the cursor is on its START_OBJECT. */
  private final class RecordReader {
    private final StrictJson j;
    private final String prefix;

    RecordReader(StrictJson j, String prefix) {
      this.j = j;
      this.prefix = prefix;
    }

    private Supplier<String> f(String name) {
      return () -> prefix + name;
    }

    EvidenceRecord read() throws ReaException {
      long start = j.offset();
      Parts p = new Parts();
      String name;
      while ((name = j.nextName()) != null) {
        readProperty(name, p);
      }
      missing(start, p.schema, "schema");
      missing(start, p.evidenceId, "evidence_id");
      missing(start, p.operation, "operation");
      missing(start, p.status, "status");
      missing(start, p.observedAt, "observed_at");
      missing(start, p.request, "request");
      missing(start, p.sawSubject ? "" : null, "subject");
      missing(start, p.artifact, "artifact");
      missing(start, p.facts, "format_facts");
      missing(start, p.metadata, "metadata");
      missing(start, p.tensors, "tensors");
      missing(start, p.types, "types");
      missing(start, p.totals, "totals");
      missing(start, p.coverage, "coverage");
      missing(start, p.limitations, "limitations");
      missing(start, p.warnings, "warnings");
      FormatFacts formatFacts = interpretFacts(p.facts, p.artifact.format());
      return new EvidenceRecord(p.schema, p.evidenceId, p.operation, p.status, p.observedAt,
          p.request, p.subject, p.artifact, formatFacts, p.metadata, p.tensors, p.types, p.totals,
          p.coverage, p.limitations, p.warnings, p.auth);
    }

    /** Reads one property of the record into {@code p}, checking its value. */
    private void readProperty(String name, Parts p) throws ReaException {
      switch (name) {
        case "schema":
          p.schema = j.string(f("schema"));
          if (!EvidenceRecord.SCHEMA.equals(p.schema)) {
            throw j.error(f("schema"), "schema must be " + EvidenceRecord.SCHEMA);
          }
          break;
        case "evidence_id":
          p.evidenceId = j.string(f("evidence_id"));
          if (!RecordChecks.EVIDENCE_ID.matcher(p.evidenceId).matches()) {
            throw j.error(f("evidence_id"),
                "evidence_id must be sha256: and 64 lowercase hex digits");
          }
          break;
        case "operation":
          p.operation = j.string(f("operation"));
          if (!EvidenceRecord.OPERATION.equals(p.operation)) {
            throw j.error(f("operation"), "operation must be " + EvidenceRecord.OPERATION);
          }
          break;
        case "status":
          p.status = wire(f("status"), EvidenceRecord.STATUS_COMPLETE, EvidenceRecord.STATUS_PARTIAL);
          break;
        case "observed_at":
          p.observedAt = j.string(f("observed_at"));
          checkInstant(p.observedAt);
          break;
        case "request":
          p.request = readRequest();
          break;
        case "subject":
          p.sawSubject = true;
          p.subject = readSubject();
          break;
        case "artifact":
          p.artifact = readArtifact();
          break;
        case "format_facts":
          j.startObject(f("format_facts"));
          p.facts = (ObjectValue) j.readValue(f("format_facts"));
          break;
        case "metadata":
          p.metadata = readMetadata();
          break;
        case "tensors":
          p.tensors = readTensors();
          break;
        case "types":
          p.types = readTypes();
          break;
        case "totals":
          p.totals = readTotals();
          break;
        case "coverage":
          p.coverage = readCoverage();
          break;
        case "limitations":
          p.limitations = readLimitations();
          break;
        case "warnings":
          p.warnings = readWarnings();
          break;
        case "authentication":
          p.auth = readAuthentication();
          break;
        default:
          throw unknown(j, prefix, name);
      }
    }

    /** The record's properties as read so far: null (false) until seen. */
    private final class Parts {
      String schema;
      String evidenceId;
      String operation;
      String status;
      String observedAt;
      Request request;
      Subject subject;
      boolean sawSubject;
      Artifact artifact;
      ObjectValue facts;
      List<MetadataRow> metadata;
      List<TensorRow> tensors;
      List<TypeRow> types;
      Totals totals;
      Coverage coverage;
      List<Limitation> limitations;
      List<Warning> warnings;
      Authentication auth;
    }

    private void missing(long start, @Nullable Object value, String name) throws ReaException {
      if (value == null) {
        throw j.errorAt(start, prefix + name, "required property " + name + " is missing");
      }
    }

    private String wire(Supplier<String> field, String... options) throws ReaException {
      String v = j.string(field);
      for (String o : options) {
        if (o.equals(v)) {
          return o;
        }
      }
      throw j.error(field, "\"" + ReaException.truncateForMessage(v) + "\" is not one of "
          + String.join(", ", options));
    }

    private void checkInstant(String text) throws ReaException {
      boolean ok = text.endsWith("Z");
      if (ok) {
        try {
          Instant.parse(text);
        } catch (DateTimeParseException e) {
          ok = false;
        }
      }
      if (!ok) {
        throw j.error(f("observed_at"), "observed_at must be an RFC 3339 UTC time");
      }
    }

    private String sha(Supplier<String> field) throws ReaException {
      String v = j.string(field);
      if (!RecordChecks.SHA256_HEX.matcher(v).matches()) {
        throw j.error(field, "expected 64 lowercase hex digits");
      }
      return v;
    }

    private @Nullable String nullableSha(Supplier<String> field) throws ReaException {
      String v = j.nullableString(field);
      if (v != null && !RecordChecks.SHA256_HEX.matcher(v).matches()) {
        throw j.error(field, "expected 64 lowercase hex digits or null");
      }
      return v;
    }

    private Request readRequest() throws ReaException {
      long start = j.offset();
      j.startObject(f("request"));
      String path = null;
      String hash = null;
      String assumeLayout = null;
      String name;
      while ((name = j.nextName()) != null) {
        switch (name) {
          case "path":
            path = j.string(f("request.path"));
            break;
          case "hash":
            hash = wire(f("request.hash"), "header", "full");
            break;
          case "assume_layout":
            assumeLayout = wire(f("request.assume_layout"), GGML_MODERN);
            break;
          default:
            throw unknown(j, prefix + "request.", name);
        }
      }
      missing(start, path, "request.path");
      missing(start, hash, "request.hash");
      return new Request(path, hash, assumeLayout);
    }

    private @Nullable Subject readSubject() throws ReaException {
      JsonToken t = j.next();
      if (t == JsonToken.VALUE_NULL) {
        return null;
      }
      j.requireObject(f("subject"));
      long start = j.offset();
      String kind = null;
      String sha = null;
      String name;
      while ((name = j.nextName()) != null) {
        switch (name) {
          case "kind":
            kind = wire(f("subject.kind"), "file");
            break;
          case "sha256":
            sha = sha(f("subject.sha256"));
            break;
          default:
            throw unknown(j, prefix + "subject.", name);
        }
      }
      missing(start, kind, "subject.kind");
      missing(start, sha, "subject.sha256");
      return new Subject(kind, sha);
    }

    private Artifact readArtifact() throws ReaException {
      j.startObject(f("artifact"));
      long start = j.offset();
      String path = null;
      String format = null;
      Long fileSize = null;
      Long headerLength = null;
      String headerSha = null;
      boolean sawHeaderSha = false;
      String sha = null;
      boolean sawSha = false;
      Long bytesRead = null;
      String readScope = null;
      FileIdentity identity = null;
      String name;
      while ((name = j.nextName()) != null) {
        switch (name) {
          case "path":
            path = j.string(f("artifact.path"));
            break;
          case "format":
            format = wire(f("artifact.format"), "gguf", "safetensors");
            break;
          case "file_size":
            fileSize = j.nonNegativeLong(f("artifact.file_size"));
            break;
          case "header_length":
            headerLength = j.nonNegativeLong(f("artifact.header_length"));
            break;
          case "header_sha256":
            sawHeaderSha = true;
            headerSha = nullableSha(f("artifact.header_sha256"));
            break;
          case "sha256":
            sawSha = true;
            sha = nullableSha(f("artifact.sha256"));
            break;
          case "bytes_read":
            bytesRead = j.nonNegativeLong(f("artifact.bytes_read"));
            break;
          case "read_scope":
            readScope = wire(f("artifact.read_scope"), "header", "full");
            break;
          case "identity":
            identity = readIdentity();
            break;
          default:
            throw unknown(j, prefix + "artifact.", name);
        }
      }
      missing(start, path, "artifact.path");
      missing(start, format, "artifact.format");
      missing(start, fileSize, "artifact.file_size");
      missing(start, headerLength, "artifact.header_length");
      missing(start, sawHeaderSha ? "" : null, "artifact.header_sha256");
      missing(start, sawSha ? "" : null, "artifact.sha256");
      missing(start, bytesRead, "artifact.bytes_read");
      missing(start, readScope, "artifact.read_scope");
      missing(start, identity, "artifact.identity");
      return new Artifact(path, format, fileSize, headerLength, headerSha, sha, bytesRead,
          readScope, identity);
    }

    private FileIdentity readIdentity() throws ReaException {
      j.startObject(f("artifact.identity"));
      long start = j.offset();
      String device = null;
      boolean sawDevice = false;
      String inode = null;
      boolean sawInode = false;
      Long size = null;
      String modified = null;
      Boolean verified = null;
      String name;
      while ((name = j.nextName()) != null) {
        switch (name) {
          case "device":
            sawDevice = true;
            device = decimalOrNull(f("artifact.identity.device"));
            break;
          case "inode":
            sawInode = true;
            inode = decimalOrNull(f("artifact.identity.inode"));
            break;
          case "size":
            size = j.nonNegativeLong(f("artifact.identity.size"));
            break;
          case "modified":
            modified = j.string(f("artifact.identity.modified"));
            break;
          case "verified":
            verified = j.bool(f("artifact.identity.verified"));
            break;
          default:
            throw unknown(j, prefix + "artifact.identity.", name);
        }
      }
      missing(start, sawDevice ? "" : null, "artifact.identity.device");
      missing(start, sawInode ? "" : null, "artifact.identity.inode");
      missing(start, size, "artifact.identity.size");
      missing(start, modified, "artifact.identity.modified");
      missing(start, verified, "artifact.identity.verified");
      return new FileIdentity(device, inode, size, modified, verified);
    }

    private @Nullable String decimalOrNull(Supplier<String> field) throws ReaException {
      String v = j.nullableString(field);
      if (v != null) {
        j.parseU64(v, field);
      }
      return v;
    }

    private FormatFacts interpretFacts(ObjectValue facts, String format) throws ReaException {
      String base = prefix + "format_facts";
      Map<String, Value> p = facts.properties();
      if (format.equals("gguf")) {
        allowOnly(facts, base, "version", "byte_order", "alignment", "alignment_source",
            "tensor_data_offset");
        long version = intScalar(p.get("version"), facts, base + ".version", 0, Integer.MAX_VALUE);
        String byteOrder = stringScalar(p.get("byte_order"), facts, base + ".byte_order", false);
        Value al = p.get("alignment");
        requirePresent(al, facts, base + ".alignment");
        Long alignment = isNull(al) ? null
            : intScalar(al, facts, base + ".alignment", 1, 0xFFFF_FFFFL);
        String source = stringScalar(p.get("alignment_source"), facts,
            base + ".alignment_source", true);
        String tdo = stringScalar(p.get("tensor_data_offset"), facts,
            base + ".tensor_data_offset", true);
        Long dataOffset = null;
        if (tdo != null) {
          dataOffset = decimal(tdo, p.get("tensor_data_offset"), base + ".tensor_data_offset");
        }
        return new FormatFacts.Gguf((int) version, byteOrder, alignment, source, dataOffset);
      }
      allowOnly(facts, base, "json_length", "data_offset");
      String jl = stringScalar(p.get("json_length"), facts, base + ".json_length", false);
      String dof = stringScalar(p.get("data_offset"), facts, base + ".data_offset", false);
      return new FormatFacts.Safetensors(
          decimal(jl, p.get("json_length"), base + ".json_length"),
          decimal(dof, p.get("data_offset"), base + ".data_offset"));
    }

    private long decimal(String text, Value at, String field) throws ReaException {
      if (!StrictJson.isCanonicalDecimal(text, false)) {
        throw j.errorAt(at.offset(), field, "expected an unsigned decimal string");
      }
      try {
        long v = Long.parseLong(text);
        if (v >= 0) {
          return v;
        }
      } catch (NumberFormatException e) {
        // fall through
      }
      throw j.errorAt(at.offset(), field, "value exceeds 2^63-1");
    }

    private void allowOnly(ObjectValue o, String base, String... names) throws ReaException {
      Set<String> allowed = Set.of(names);
      for (Map.Entry<String, Value> e : o.properties().entrySet()) {
        if (!allowed.contains(e.getKey())) {
          throw j.errorAt(e.getValue().offset(), base + "." + ReaException.truncateForMessage(e.getKey()),
              "unknown property \"" + ReaException.truncateForMessage(e.getKey()) + "\"");
        }
      }
    }

    private void requirePresent(@Nullable Value v, Value parent, String field) throws ReaException {
      if (v == null) {
        throw j.errorAt(parent.offset(), field, "required property is missing");
      }
    }

    private boolean isNull(Value v) {
      return v instanceof ScalarValue s && s.token() == JsonToken.VALUE_NULL;
    }

    private long intScalar(@Nullable Value v, Value parent, String field, long min, long max)
        throws ReaException {
      requirePresent(v, parent, field);
      if (!(v instanceof ScalarValue s) || s.token() != JsonToken.VALUE_NUMBER_INT) {
        throw j.errorAt(v.offset(), field, "expected an integer number");
      }
      try {
        long x = Long.parseLong(s.text());
        if (x >= min && x <= max && !s.text().equals("-0")) {
          return x;
        }
      } catch (NumberFormatException e) {
        // fall through
      }
      throw j.errorAt(v.offset(), field, "integer is out of range [" + min + ", " + max + "]");
    }

    private @Nullable String stringScalar(
        @Nullable Value v, Value parent, String field, boolean nullable) throws ReaException {
      requirePresent(v, parent, field);
      if (nullable && isNull(v)) {
        return null;
      }
      if (!(v instanceof ScalarValue s) || s.token() != JsonToken.VALUE_STRING) {
        throw j.errorAt(v.offset(), field, nullable ? "expected a string or null" : "expected a string");
      }
      return s.text();
    }

    private List<MetadataRow> readMetadata() throws ReaException {
      j.startArray(f("metadata"));
      List<MetadataRow> rows = new ArrayList<>();
      while (j.nextElement()) {
        int i = rows.size();
        String base = prefix + "metadata[" + i + "]";
        j.requireObject(() -> base);
        ObjectValue row = (ObjectValue) j.readValue(() -> base);
        rows.add(metadataRow(row, base, i));
      }
      return rows;
    }

    private MetadataRow metadataRow(ObjectValue row, String base, int position)
        throws ReaException {
      Map<String, Value> p = row.properties();
      long index = intScalar(p.get("index"), row, base + ".index", 0, Integer.MAX_VALUE);
      if (index != position) {
        throw j.errorAt(p.get("index").offset(), base + ".index",
            "index " + index + " does not match position " + position);
      }
      String key = stringScalar(p.get("key"), row, base + ".key", false);
      ValueType type = valueType(p.get("type"), row, base + ".type");
      if (type == ValueType.ARRAY) {
        allowOnly(row, base, "index", "key", "type", "element_type", "count", "preview",
            "preview_complete", "value_sha256");
        MetadataValue.ArrayValue value = arrayValue(row, base, 1);
        return new MetadataRow(position, key, type, value, valueSha256(row, base));
      }
      allowOnly(row, base, "index", "key", "type", "value");
      Value v = p.get("value");
      requirePresent(v, row, base + ".value");
      return new MetadataRow(position, key, type, scalar(type, v, base + ".value"));
    }

    /**
     * An ARRAY row's optional {@code value_sha256} (CONTRACT section 11): absent in records saved
     * before the field existed; when present, 64 lowercase hex digits.
     */
    private @Nullable String valueSha256(ObjectValue row, String base) throws ReaException {
      Value v = row.properties().get("value_sha256");
      if (v == null) {
        return null;
      }
      String field = base + ".value_sha256";
      String hex = stringScalar(v, row, field, false);
      if (!MetadataRow.isSha256Hex(hex)) {
        throw j.errorAt(v.offset(), field, "expected 64 lowercase hex digits");
      }
      return hex;
    }

    private ValueType valueType(@Nullable Value v, Value parent, String field)
        throws ReaException {
      String name = stringScalar(v, parent, field, false);
      ValueType t = ValueType.byName(name);
      if (t == null) {
        throw j.errorAt(v.offset(), field,
            "\"" + ReaException.truncateForMessage(name) + "\" is not a GGUF value type");
      }
      return t;
    }

    private MetadataValue.ArrayValue arrayValue(ObjectValue o, String base, int level)
        throws ReaException {
      if (level > limits.nestingLimit()) {
        throw j.errorAt(o.offset(), base, "arrays nest deeper than " + limits.nestingLimit());
      }
      Map<String, Value> p = o.properties();
      ValueType et = valueType(p.get("element_type"), o, base + ".element_type");
      String countText = stringScalar(p.get("count"), o, base + ".count", false);
      if (!StrictJson.isCanonicalDecimal(countText, false)) {
        throw j.errorAt(p.get("count").offset(), base + ".count",
            "expected an unsigned decimal string");
      }
      long count;
      try {
        count = Long.parseUnsignedLong(countText);
      } catch (NumberFormatException e) {
        throw j.errorAt(p.get("count").offset(), base + ".count", "count exceeds 2^64-1");
      }
      Value pc = p.get("preview_complete");
      requirePresent(pc, o, base + ".preview_complete");
      if (!(pc instanceof ScalarValue s)
          || (s.token() != JsonToken.VALUE_TRUE && s.token() != JsonToken.VALUE_FALSE)) {
        throw j.errorAt(pc.offset(), base + ".preview_complete", "expected true or false");
      }
      boolean complete = s.token() == JsonToken.VALUE_TRUE;
      Value pv = p.get("preview");
      requirePresent(pv, o, base + ".preview");
      if (!(pv instanceof ArrayValue arr)) {
        throw j.errorAt(pv.offset(), base + ".preview", "expected an array");
      }
      if (arr.items().size() > limits.previewElements()) {
        throw j.errorAt(pv.offset(), base + ".preview",
            "preview holds more than " + limits.previewElements() + " elements");
      }
      List<MetadataValue> items = new ArrayList<>(arr.items().size());
      for (int i = 0; i < arr.items().size(); i++) {
        Value e = arr.items().get(i);
        String ef = base + ".preview[" + i + "]";
        if (et == ValueType.ARRAY) {
          if (!(e instanceof ObjectValue eo)) {
            throw j.errorAt(e.offset(), ef, "expected a nested array object");
          }
          allowOnly(eo, ef, "element_type", "count", "preview", "preview_complete");
          items.add(arrayValue(eo, ef, level + 1));
        } else {
          items.add(scalar(et, e, ef));
        }
      }
      return new MetadataValue.ArrayValue(et, count, items, complete);
    }

    private MetadataValue scalar(ValueType t, Value v, String field) throws ReaException {
      ScalarValue s = v instanceof ScalarValue x ? x : null;
      JsonToken tok = s == null ? null : s.token();
      switch (t) {
        case UINT8:
          return small(s, v, field, 0, 0xFF);
        case INT8:
          return small(s, v, field, -128, 127);
        case UINT16:
          return small(s, v, field, 0, 0xFFFF);
        case INT16:
          return small(s, v, field, Short.MIN_VALUE, Short.MAX_VALUE);
        case UINT32:
          return small(s, v, field, 0, 0xFFFF_FFFFL);
        case INT32:
          return small(s, v, field, Integer.MIN_VALUE, Integer.MAX_VALUE);
        case UINT64:
          if (tok == JsonToken.VALUE_STRING && StrictJson.isCanonicalDecimal(s.text(), false)) {
            try {
              return new MetadataValue.IntegerValue(Long.parseUnsignedLong(s.text()));
            } catch (NumberFormatException e) {
              // fall through
            }
          }
          throw j.errorAt(v.offset(), field, "UINT64 values are unsigned decimal strings");
        case INT64:
          if (tok == JsonToken.VALUE_STRING && StrictJson.isCanonicalDecimal(s.text(), true)) {
            try {
              return new MetadataValue.IntegerValue(Long.parseLong(s.text()));
            } catch (NumberFormatException e) {
              // fall through
            }
          }
          throw j.errorAt(v.offset(), field, "INT64 values are signed decimal strings");
        case FLOAT32:
        case FLOAT64:
          return floating(t, s, v, field);
        case BOOL:
          if (tok == JsonToken.VALUE_TRUE || tok == JsonToken.VALUE_FALSE) {
            return new MetadataValue.BoolValue(tok == JsonToken.VALUE_TRUE);
          }
          throw j.errorAt(v.offset(), field, "BOOL values are true or false");
        case STRING:
          if (tok == JsonToken.VALUE_STRING) {
            return new MetadataValue.StringValue(s.text());
          }
          throw j.errorAt(v.offset(), field, "STRING values are strings");
        default:
          throw j.errorAt(v.offset(), field, "ARRAY is not a scalar type");
      }
    }

    private MetadataValue small(@Nullable ScalarValue s, Value v, String field, long min, long max)
        throws ReaException {
      if (s != null && s.token() == JsonToken.VALUE_NUMBER_INT && !s.text().equals("-0")) {
        try {
          long x = Long.parseLong(s.text());
          if (x >= min && x <= max) {
            return new MetadataValue.IntegerValue(x);
          }
        } catch (NumberFormatException e) {
          // fall through
        }
      }
      throw j.errorAt(v.offset(), field, "expected an integer number in [" + min + ", " + max + "]");
    }

    private MetadataValue floating(ValueType t, @Nullable ScalarValue s, Value v, String field)
        throws ReaException {
      if (s != null && s.token() == JsonToken.VALUE_STRING) {
        switch (s.text()) {
          case "NaN":
            return new MetadataValue.FloatValue(Double.NaN);
          case "+Infinity":
            return new MetadataValue.FloatValue(Double.POSITIVE_INFINITY);
          case "-Infinity":
            return new MetadataValue.FloatValue(Double.NEGATIVE_INFINITY);
          case "-0":
            return new MetadataValue.FloatValue(-0.0);
          default:
            break;
        }
      }
      if (s != null
          && (s.token() == JsonToken.VALUE_NUMBER_FLOAT
              || s.token() == JsonToken.VALUE_NUMBER_INT)) {
        double d = t == ValueType.FLOAT32 ? (double) Float.parseFloat(s.text())
            : Double.parseDouble(s.text());
        if (Double.isInfinite(d)) {
          throw j.errorAt(v.offset(), field, t + " value overflows; infinities are strings");
        }
        if (d == 0.0 && Double.doubleToRawLongBits(d) != 0L) {
          throw j.errorAt(v.offset(), field, "negative zero is the string \"-0\"");
        }
        return new MetadataValue.FloatValue(d);
      }
      throw j.errorAt(v.offset(), field,
          t + " values are numbers or \"NaN\", \"+Infinity\", \"-Infinity\", \"-0\"");
    }

    private List<TensorRow> readTensors() throws ReaException {
      j.startArray(f("tensors"));
      List<TensorRow> rows = new ArrayList<>();
      while (j.nextElement()) {
        int i = rows.size();
        String base = prefix + "tensors[" + i + "]";
        j.requireObject(() -> base);
        rows.add(tensorRow(base, i));
      }
      return rows;
    }

    private TensorRow tensorRow(String base, int position) throws ReaException {
      long start = j.offset();
      Integer index = null;
      String name = null;
      String type = null;
      Long typeId = null;
      List<Long> shape = null;
      Long params = null;
      Long offset = null;
      Long fileOffset = null;
      boolean sawFileOffset = false;
      Long byteLength = null;
      boolean sawByteLength = false;
      StorageValidation sv = null;
      String prop;
      while ((prop = j.nextName()) != null) {
        switch (prop) {
          case "index":
            index = (int) j.integer(() -> base + ".index", 0, Integer.MAX_VALUE);
            if (index != position) {
              throw j.error(base + ".index",
                  "index " + index + " does not match position " + position);
            }
            break;
          case "name":
            name = j.string(() -> base + ".name");
            break;
          case "type":
            type = j.string(() -> base + ".type");
            break;
          case "type_id":
            typeId = j.integer(() -> base + ".type_id", 0, 0xFFFF_FFFFL);
            break;
          case "shape":
            shape = readShape(base);
            break;
          case "parameter_count":
            params = j.u64(() -> base + ".parameter_count");
            break;
          case "offset":
            offset = j.u64(() -> base + ".offset");
            break;
          case "file_offset":
            sawFileOffset = true;
            fileOffset = j.nullableU64(() -> base + ".file_offset");
            break;
          case "byte_length":
            sawByteLength = true;
            byteLength = j.nullableU64(() -> base + ".byte_length");
            break;
          case "storage_validation":
            sv = readStorageValidation(base);
            break;
          default:
            throw unknown(j, base + ".", prop);
        }
      }
      String b = base.substring(prefix.length());
      missing(start, index, b + ".index");
      missing(start, name, b + ".name");
      missing(start, type, b + ".type");
      missing(start, shape, b + ".shape");
      missing(start, params, b + ".parameter_count");
      missing(start, offset, b + ".offset");
      missing(start, sawFileOffset ? "" : null, b + ".file_offset");
      missing(start, sawByteLength ? "" : null, b + ".byte_length");
      missing(start, sv, b + ".storage_validation");
      return new TensorRow(index, name, type, typeId, shape, params, offset, fileOffset,
          byteLength, sv);
    }

    /** A tensor's shape: dimensions as decimal strings of unsigned 64-bit values. */
    private List<Long> readShape(String base) throws ReaException {
      j.startArray(() -> base + ".shape");
      List<Long> dims = new ArrayList<>(4);
      while (j.nextElement()) {
        int d = dims.size();
        dims.add(j.parseU64(j.currentString(() -> base + ".shape[" + d + "]"),
            () -> base + ".shape[" + d + "]"));
      }
      return dims;
    }

    private StorageValidation readStorageValidation(String base) throws ReaException {
      String w = j.string(() -> base + ".storage_validation");
      StorageValidation sv = StorageValidation.fromWire(w);
      if (sv == null) {
        throw j.error(base + ".storage_validation",
            "storage_validation must be consistent or unknown");
      }
      return sv;
    }

    private BigInteger bigDecimal(String text, Supplier<String> field) throws ReaException {
      boolean ok = !text.isEmpty() && text.length() <= 40
          && (text.charAt(0) != '0' || text.length() == 1)
          && text.chars().allMatch(c -> c >= '0' && c <= '9');
      if (!ok) {
        throw j.error(field, "expected an unsigned decimal string");
      }
      return new BigInteger(text);
    }

    private List<TypeRow> readTypes() throws ReaException {
      j.startArray(f("types"));
      List<TypeRow> rows = new ArrayList<>();
      while (j.nextElement()) {
        int i = rows.size();
        String base = prefix + "types[" + i + "]";
        j.requireObject(() -> base);
        long start = j.offset();
        String type = null;
        Long typeId = null;
        Integer count = null;
        BigInteger params = null;
        BigInteger bytes = null;
        boolean sawBytes = false;
        String prop;
        while ((prop = j.nextName()) != null) {
          switch (prop) {
            case "type":
              type = j.string(() -> base + ".type");
              break;
            case "type_id":
              typeId = j.integer(() -> base + ".type_id", 0, 0xFFFF_FFFFL);
              break;
            case "tensor_count":
              count = (int) j.integer(() -> base + ".tensor_count", 0, Integer.MAX_VALUE);
              break;
            case "parameter_count":
              params = bigDecimal(j.string(() -> base + ".parameter_count"),
                  () -> base + ".parameter_count");
              break;
            case "byte_length":
              sawBytes = true;
              String t = j.nullableString(() -> base + ".byte_length");
              bytes = t == null ? null : bigDecimal(t, () -> base + ".byte_length");
              break;
            default:
              throw unknown(j, base + ".", prop);
          }
        }
        String b = "types[" + i + "]";
        missing(start, type, b + ".type");
        missing(start, count, b + ".tensor_count");
        missing(start, params, b + ".parameter_count");
        missing(start, sawBytes ? "" : null, b + ".byte_length");
        rows.add(new TypeRow(type, typeId, count, params, bytes));
      }
      return rows;
    }

    private Totals readTotals() throws ReaException {
      j.startObject(f("totals"));
      long start = j.offset();
      Integer count = null;
      BigInteger params = null;
      BigInteger bytes = null;
      boolean sawBytes = false;
      String prop;
      while ((prop = j.nextName()) != null) {
        switch (prop) {
          case "tensor_count":
            count = (int) j.integer(f("totals.tensor_count"), 0, Integer.MAX_VALUE);
            break;
          case "parameter_count":
            params = bigDecimal(j.string(f("totals.parameter_count")), f("totals.parameter_count"));
            break;
          case "byte_length":
            sawBytes = true;
            String t = j.nullableString(f("totals.byte_length"));
            bytes = t == null ? null : bigDecimal(t, f("totals.byte_length"));
            break;
          default:
            throw unknown(j, prefix + "totals.", prop);
        }
      }
      missing(start, count, "totals.tensor_count");
      missing(start, params, "totals.parameter_count");
      missing(start, sawBytes ? "" : null, "totals.byte_length");
      return new Totals(count, params, bytes);
    }

    private Coverage readCoverage() throws ReaException {
      j.startObject(f("coverage"));
      long start = j.offset();
      String header = null;
      String storage = null;
      String ranges = null;
      String digest = null;
      String identity = null;
      String prop;
      while ((prop = j.nextName()) != null) {
        switch (prop) {
          case "header":
            header = wire(f("coverage.header"), Coverage.COMPLETE, Coverage.PARTIAL);
            break;
          case "storage_sizes":
            storage =
                wire(
                    f("coverage.storage_sizes"),
                    Coverage.COMPLETE,
                    Coverage.PARTIAL,
                    Coverage.ASSUMED);
            break;
          case "ranges":
            ranges = wire(f("coverage.ranges"), Coverage.COMPLETE, Coverage.PARTIAL);
            break;
          case "digest":
            digest = wire(f("coverage.digest"), Coverage.NONE, Coverage.COMPLETE, Coverage.UNKNOWN);
            break;
          case "final_identity":
            identity = wire(f("coverage.final_identity"), Coverage.VERIFIED, Coverage.UNVERIFIED);
            break;
          default:
            throw unknown(j, prefix + "coverage.", prop);
        }
      }
      missing(start, header, "coverage.header");
      missing(start, storage, "coverage.storage_sizes");
      missing(start, ranges, "coverage.ranges");
      missing(start, digest, "coverage.digest");
      missing(start, identity, "coverage.final_identity");
      return new Coverage(header, storage, ranges, digest, identity);
    }

    private List<Limitation> readLimitations() throws ReaException {
      j.startArray(f("limitations"));
      List<Limitation> out = new ArrayList<>();
      while (j.nextElement()) {
        int i = out.size();
        String base = prefix + "limitations[" + i + "]";
        j.requireObject(() -> base);
        long start = j.offset();
        String code = null;
        String message = null;
        List<Integer> indices = null;
        Long typeId = null;
        List<String> candidates = null;
        List<String> fitting = null;
        String prop;
        while ((prop = j.nextName()) != null) {
          switch (prop) {
            case "code":
              code = j.string(() -> base + ".code");
              break;
            case "message":
              message = j.string(() -> base + ".message");
              break;
            case "tensor_indices":
              j.startArray(() -> base + ".tensor_indices");
              indices = new ArrayList<>();
              while (j.nextElement()) {
                int k = indices.size();
                indices.add((int) j.currentInteger(() -> base + ".tensor_indices[" + k + "]", 0,
                    Integer.MAX_VALUE));
              }
              break;
            case "type_id":
              typeId = j.integer(() -> base + ".type_id", 0, 0xFFFF_FFFFL);
              break;
            case "candidates":
              candidates = strings(base + ".candidates");
              break;
            case "candidates_fitting_ranges":
              fitting = strings(base + ".candidates_fitting_ranges");
              break;
            default:
              throw unknown(j, base + ".", prop);
          }
        }
        missing(start, code, "limitations[" + i + "].code");
        missing(start, message, "limitations[" + i + "].message");
        out.add(new Limitation(code, message, indices, typeId, candidates, fitting));
      }
      return out;
    }

    /** Reads an array of strings at {@code field}. */
    private List<String> strings(String field) throws ReaException {
      j.startArray(() -> field);
      List<String> out = new ArrayList<>();
      while (j.nextElement()) {
        int k = out.size();
        out.add(j.currentString(() -> field + "[" + k + "]"));
      }
      return out;
    }

    private List<Warning> readWarnings() throws ReaException {
      j.startArray(f("warnings"));
      List<Warning> out = new ArrayList<>();
      while (j.nextElement()) {
        int i = out.size();
        String base = prefix + "warnings[" + i + "]";
        j.requireObject(() -> base);
        long start = j.offset();
        String code = null;
        String message = null;
        String prop;
        while ((prop = j.nextName()) != null) {
          switch (prop) {
            case "code":
              code = j.string(() -> base + ".code");
              break;
            case "message":
              message = j.string(() -> base + ".message");
              break;
            default:
              throw unknown(j, base + ".", prop);
          }
        }
        missing(start, code, "warnings[" + i + "].code");
        missing(start, message, "warnings[" + i + "].message");
        out.add(new Warning(code, message));
      }
      return out;
    }

    private Authentication readAuthentication() throws ReaException {
      j.startObject(f("authentication"));
      long start = j.offset();
      String scheme = null;
      String keyId = null;
      String signature = null;
      String prop;
      while ((prop = j.nextName()) != null) {
        switch (prop) {
          case "scheme":
            scheme = wire(f("authentication.scheme"), "ed25519");
            break;
          case "key_id":
            keyId = j.string(f("authentication.key_id"));
            if (!RecordChecks.EVIDENCE_ID.matcher(keyId).matches()) {
              throw j.error(f("authentication.key_id"),
                  "key_id must be sha256: and 64 lowercase hex digits");
            }
            break;
          case "signature":
            signature = j.string(f("authentication.signature"));
            break;
          default:
            throw unknown(j, prefix + "authentication.", prop);
        }
      }
      missing(start, scheme, "authentication.scheme");
      missing(start, keyId, "authentication.key_id");
      missing(start, signature, "authentication.signature");
      return new Authentication(scheme, keyId, signature);
    }
  }
}
