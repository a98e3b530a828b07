package dev.rea.cli.scan;

import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;

/**
 * The fields of an earlier scan line that {@code --resume} needs ({@link ResumeIndex}): path,
 * status, identity (as compared: for a set, with its {@code member_identities}) and whether the
 * summary lists a warning. Read with a streaming parser.
 *
 * <p><b>Strict.</b> A kept line is copied into the finished output and counted as its status
 * says, so a line is accepted only in the shape {@link ScanLine} writes (CONTRACT section 10's
 * line, with this project's additions {@code assume_layout} and {@code member_identities},
 * docs/scale.md): an object with exactly the fields {@code schema} ({@code "rea.scan.v1"}),
 * {@code kind} ({@code file} or {@code set}), {@code path} (string), {@code status} (one of
 * {@link UnitStatus}), {@code identity} (an object of {@code device} and {@code inode}, decimal
 * strings or null, {@code size}, a decimal string, and {@code modified}, a string), {@code
 * evidence_id}, {@code summary} and {@code error}, plus {@code assume_layout} (a string) when
 * present and {@code member_identities} on set lines (and only there). By status:
 *
 * <ul>
 *   <li>{@code complete}: {@code evidence_id} is {@code sha256:} and 64 lowercase hex digits,
 *       {@code summary} an object whose {@code kind} is the line's ({@code
 *       model-artifact-summary} or {@code model-set-summary}) and whose {@code
 *       parent_evidence_id} is the line's {@code evidence_id}; {@code error} null;
 *   <li>{@code partial}: the same, with {@code error} an object;
 *   <li>{@code rejected}, {@code failed}, {@code skipped}: {@code evidence_id} and {@code
 *       summary} null, {@code error} an object.
 * </ul>
 *
 * A name repeated in any object of the line is refused (JSON leaves duplicates undefined; a
 * parser that keeps the last would let {@code "status":"complete","status":"rejected"} say
 * two things). Each refusal names the field.
 *
 * @param path the unit's path
 * @param status its status
 * @param identityText {@link ResumeIndex#identityText} of the line's identity
 * @param warnings whether {@code summary.warnings} is a non-empty array
 * @param limitations whether {@code summary.limitation_count} is above 0
 * @param hashed whether the line was made with {@code --hash full}: a file line's {@code
 *     summary.artifact.sha256} is a digest; a set line's {@code member_identities} each carry a
 *     {@code sha256}
 * @param assumeLayout the line's {@code assume_layout} (the layout assumption its unit was
 *     inspected under), or null when it has none
 */
record ResumeLine(
    String path,
    UnitStatus status,
    String identityText,
    boolean warnings,
    boolean limitations,
    boolean hashed,
    @Nullable String assumeLayout,
    @Nullable String evidenceId) {
  private static final JsonFactory JSON =
      JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  private static final Pattern EVIDENCE_ID = Pattern.compile("sha256:[0-9a-f]{64}");
  private static final Pattern DIGEST = Pattern.compile("[0-9a-f]{64}");
  private static final Pattern DECIMAL = Pattern.compile("0|[1-9][0-9]{0,19}");

  /** What the line says, field by field, until it is checked as a whole. */
  private static final class Fields {
    @Nullable String schema;
    @Nullable String kind;
    @Nullable String path;
    @Nullable String status;
    @Nullable String assumeLayout;
    @Nullable String identity;
    /** The identity's size, decimal bytes. */
    @Nullable String size;
    @Nullable String members;
    /** Whether every member identity carries a {@code sha256} (a set line made by --hash full). */
    boolean membersHashed = true;
    boolean hasEvidenceId;
    @Nullable String evidenceId;
    boolean hasSummary;
    @Nullable Summary summary;
    boolean hasError;
    boolean error;
  }

  /** What the summary object says that the line is checked against. */
  private static final class Summary {
    @Nullable String kind;
    @Nullable String parent;
    @Nullable String assumeLayout;
    @Nullable String status;
    @Nullable String path;
    @Nullable String fileSize;
    boolean warnings;
    boolean limitations;
    boolean hashed;
    /** Which of the members every summary has were there (warnings, limitation_count, sha256). */
    boolean hasWarnings;
    boolean hasLimitations;
    boolean hasSha256;
  }

  /**
   * @param line the line's bytes, without its {@code \n}
   * @param length how many bytes of {@code line} it is
   * @return its fields
   * @throws IllegalArgumentException saying why it is not a scan line, naming the field
   */
  static ResumeLine parse(byte[] line, int length) {
    try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), line, 0, length)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalArgumentException("not a JSON object");
      }
      Fields f = new Fields();
      while (p.nextToken() == JsonToken.PROPERTY_NAME) {
        field(p, p.currentName(), p.nextToken(), f);
      }
      if (p.nextToken() != null) {
        throw new IllegalArgumentException("text after the JSON object");
      }
      return checked(f);
    } catch (JacksonException e) {
      String why = String.valueOf(e.getOriginalMessage());
      if (why.startsWith("Duplicate")) {
        // STRICT_DUPLICATE_DETECTION: "Duplicate Object property \"status\"".
        throw new IllegalArgumentException("a name appears twice in one object: " + why);
      }
      throw new IllegalArgumentException("not JSON: " + why);
    }
  }

  /** Reads one top-level field's value (the parser is on its first token). */
  private static void field(JsonParser p, String name, JsonToken v, Fields f) {
    switch (name) {
      case "schema" -> f.schema = string(p, v, name);
      case "kind" -> f.kind = string(p, v, name);
      case "path" -> f.path = string(p, v, name);
      case "status" -> f.status = string(p, v, name);
      case "assume_layout" -> f.assumeLayout = string(p, v, name);
      case "identity" -> {
        String[] size = new String[1];
        f.identity = identity(p, v, "identity", false, size, null);
        f.size = size[0];
      }
      case "member_identities" -> f.members = members(p, v, f);
      case "evidence_id" -> {
        f.hasEvidenceId = true;
        f.evidenceId = v == JsonToken.VALUE_NULL ? null : string(p, v, name);
      }
      case "summary" -> {
        f.hasSummary = true;
        if (v == JsonToken.START_OBJECT) {
          f.summary = summary(p);
        } else if (v != JsonToken.VALUE_NULL) {
          throw new IllegalArgumentException("its summary is neither an object nor null");
        }
      }
      case "error" -> {
        f.hasError = true;
        if (v == JsonToken.START_OBJECT) {
          f.error = true;
          p.skipChildren();
        } else if (v != JsonToken.VALUE_NULL) {
          throw new IllegalArgumentException("its error is neither an object nor null");
        }
      }
      default -> throw new IllegalArgumentException(
          "it has a field " + name + ", which a scan line does not have");
    }
  }

  /** Checks the fields together (CONTRACT section 10's line) and makes the result. */
  private static ResumeLine checked(Fields f) {
    if (!ScanLine.SCHEMA.equals(f.schema)) {
      throw new IllegalArgumentException("its schema is not " + ScanLine.SCHEMA);
    }
    UnitStatus st = f.status == null ? null : UnitStatus.fromWire(f.status);
    String path = f.path;
    String identity = f.identity;
    if (path == null) {
      throw new IllegalArgumentException("it lacks its path field");
    }
    if (st == null) {
      throw new IllegalArgumentException(
          f.status == null ? "it lacks its status field" : "its status field is none a scan writes");
    }
    if (identity == null) {
      throw new IllegalArgumentException("it lacks its identity field");
    }
    boolean set = "set".equals(f.kind);
    if (!set && !"file".equals(f.kind)) {
      throw new IllegalArgumentException("its kind is neither file nor set");
    }
    if (set != (f.members != null)) {
      throw new IllegalArgumentException(
          set ? "it is a set line without member_identities"
              : "it is a file line with member_identities");
    }
    if (!f.hasEvidenceId || !f.hasSummary || !f.hasError) {
      throw new IllegalArgumentException(
          "it lacks its " + (!f.hasEvidenceId ? "evidence_id" : !f.hasSummary ? "summary" : "error")
              + " field");
    }
    Summary s = f.summary;
    boolean evidence = st == UnitStatus.COMPLETE || st == UnitStatus.PARTIAL;
    if (evidence) {
      if (f.evidenceId == null || !EVIDENCE_ID.matcher(f.evidenceId).matches()) {
        throw new IllegalArgumentException("its evidence_id is not sha256: and 64 lowercase hex"
            + " digits, as a " + st.wire() + " line has");
      }
      if (s == null) {
        throw new IllegalArgumentException("its summary is not an object, as a "
            + st.wire() + " line has");
      }
      summaryAgrees(s, set, f);
    } else if (f.evidenceId != null || s != null) {
      throw new IllegalArgumentException(
          "its evidence_id and summary are not null, as a " + st.wire() + " line has");
    }
    if (f.error != (st != UnitStatus.COMPLETE)) {
      throw new IllegalArgumentException(st == UnitStatus.COMPLETE
          ? "its error is not null, as a complete line has"
          : "its error is not an object, as a " + st.wire() + " line has");
    }
    String members = f.members == null ? "" : f.members;
    // A set has no digest of its own (its summary's sha256 is always null): a set line was made
    // by --hash full when each of its files' identities carries one (an index's always does).
    boolean hashed = set ? f.members != null && f.membersHashed : s != null && s.hashed;
    return new ResumeLine(path, st, identity + members,
        s != null && s.warnings, s != null && s.limitations, hashed, f.assumeLayout,
        f.evidenceId);
  }

  /** Checks that the summary is the one of the line's unit, made as the line says. */
  private static void summaryAgrees(Summary s, boolean set, Fields f) {
    String kind = set ? "model-set-summary" : "model-artifact-summary";
    if (!kind.equals(s.kind)) {
      throw new IllegalArgumentException("its summary's kind is not " + kind);
    }
    // What a resumed scan reports of the unit is read from these: a line without them would be
    // taken as a unit without warnings or limitations, read from its header alone.
    if (!s.hasWarnings || !s.hasLimitations || !s.hasSha256) {
      throw new IllegalArgumentException("its summary lacks "
          + (!s.hasWarnings ? "warnings" : !s.hasLimitations ? "limitation_count"
              : "artifact.sha256"));
    }
    if (!Objects.equals(f.evidenceId, s.parent)) {
      throw new IllegalArgumentException(
          "its summary's parent_evidence_id is not the line's evidence_id");
    }
    // A summary moved from another line (another file's, or another verdict's) is not this one's.
    if (!Objects.equals(f.path, s.path)) {
      throw new IllegalArgumentException("its summary's artifact.path is not the line's path");
    }
    if (!Objects.equals(f.status, s.status)) {
      throw new IllegalArgumentException("its summary's status is not the line's status");
    }
    if (!set && !Objects.equals(f.size, s.fileSize)) {
      throw new IllegalArgumentException(
          "its summary's artifact.file_size is not the size of the line's identity");
    }
    if (!Objects.equals(f.assumeLayout, s.assumeLayout)) {
      // REA writes the two together; a line where they differ was edited by hand.
      throw new IllegalArgumentException(
          "its assume_layout is not the one its summary was made under");
    }
  }

  private static String string(JsonParser p, JsonToken v, String name) {
    if (v != JsonToken.VALUE_STRING) {
      throw new IllegalArgumentException("its " + name + " is not a string");
    }
    return p.getString();
  }

  /**
   * Reads an identity object ({@code device}, {@code inode}, {@code size}, {@code modified}, and
   * for a member entry also {@code path} and an optional {@code sha256}).
   *
   * @return {@link ResumeIndex#identityText} of it, or for a member entry {@link
   *     ResumeIndex#memberText}
   */
  private static String identity(
      JsonParser p,
      JsonToken start,
      String what,
      boolean member,
      @Nullable String @Nullable [] sizeOut,
      boolean @Nullable [] hashedOut) {
    if (start != JsonToken.START_OBJECT) {
      throw new IllegalArgumentException("its " + what + " is not an object");
    }
    @Nullable String[] id = new String[5];
    boolean[] seen = new boolean[6];
    while (p.nextToken() == JsonToken.PROPERTY_NAME) {
      String name = p.currentName();
      JsonToken v = p.nextToken();
      int i = switch (name) {
        case "device" -> 0;
        case "inode" -> 1;
        case "size" -> 2;
        case "modified" -> 3;
        case "path" -> member ? 4 : -1;
        case "sha256" -> member ? 5 : -1;
        default -> -1;
      };
      if (i < 0) {
        throw new IllegalArgumentException("its " + what + " has a field " + name
            + ", which an identity does not have");
      }
      seen[i] = true;
      if (i == 5) {
        if (!DIGEST.matcher(string(p, v, what + ".sha256")).matches()) {
          throw new IllegalArgumentException("its " + what + ".sha256 is not 64 lowercase hex digits");
        }
      } else if (i < 2 && v == JsonToken.VALUE_NULL) {
        id[i] = null;
      } else {
        id[i] = string(p, v, what + "." + name);
      }
    }
    String text = identityText(id, seen, what, member);
    if (sizeOut != null) {
      sizeOut[0] = id[2];
    }
    if (hashedOut != null) {
      hashedOut[0] = seen[5];
    }
    return text;
  }

  private static String identityText(
      @Nullable String[] id, boolean[] seen, String what, boolean member) {
    if (!seen[0] || !seen[1] || id[2] == null || id[3] == null || (member && id[4] == null)) {
      throw new IllegalArgumentException("its " + what + " lacks "
          + (member ? "path, " : "") + "device, inode, size or modified");
    }
    for (int i = 0; i < 3; i++) {
      if (id[i] != null && !DECIMAL.matcher(id[i]).matches()) {
        throw new IllegalArgumentException("its " + what + "."
            + (i == 0 ? "device" : i == 1 ? "inode" : "size")
            + " is not a decimal number of at most 20 digits");
      }
    }
    String size = Objects.requireNonNull(id[2]);
    String modified = Objects.requireNonNull(id[3]);
    return member
        ? ResumeIndex.memberText(Objects.requireNonNull(id[4]), id[0], id[1], size, modified)
        : ResumeIndex.identityText(id[0], id[1], size, modified);
  }

  /**
   * @return a set line's member identities as {@link ResumeIndex#identityText(ScanUnit)} appends
   *     them to the anchor's
   */
  private static String members(JsonParser p, JsonToken start, Fields f) {
    if (start != JsonToken.START_ARRAY) {
      throw new IllegalArgumentException("its member_identities is not an array");
    }
    StringBuilder out = new StringBuilder();
    JsonToken t;
    boolean[] hashed = new boolean[1];
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      out.append(identity(p, t, "member_identities entry", true, null, hashed));
      f.membersHashed &= hashed[0];
    }
    return out.toString();
  }

  /**
   * Reads the summary object: its {@code kind}, {@code parent_evidence_id} and {@code
   * assume_layout}, whether its top-level {@code warnings} is non-empty and its {@code
   * limitation_count} above 0, and whether {@code
   * artifact.sha256} is a string.
   */
  private static Summary summary(JsonParser p) {
    Summary s = new Summary();
    while (p.nextToken() == JsonToken.PROPERTY_NAME) {
      String name = p.currentName();
      JsonToken v = p.nextToken();
      switch (name) {
        case "kind" -> s.kind = string(p, v, "summary's kind");
        case "parent_evidence_id" -> s.parent = string(p, v, "summary's parent_evidence_id");
        case "assume_layout" -> s.assumeLayout = string(p, v, "summary's assume_layout");
        case "status" -> s.status = string(p, v, "summary's status");
        case "warnings" -> {
          s.warnings = nonEmptyArray(p, v, "summary's warnings");
          s.hasWarnings = true;
        }
        case "limitation_count" -> {
          if (v != JsonToken.VALUE_NUMBER_INT) {
            throw new IllegalArgumentException("its summary's limitation_count is not an integer");
          }
          s.limitations = p.getNumberValue().longValue() != 0;
          s.hasLimitations = true;
        }
        case "artifact" -> {
          if (v != JsonToken.START_OBJECT) {
            throw new IllegalArgumentException("its summary's artifact is not an object");
          }
          while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String field = p.currentName();
            JsonToken fv = p.nextToken();
            if (field.equals("sha256")) {
              s.hashed = fv == JsonToken.VALUE_STRING;
              s.hasSha256 = true;
            } else if (field.equals("path")) {
              s.path = string(p, fv, "summary's artifact.path");
            } else if (field.equals("file_size")) {
              s.fileSize = string(p, fv, "summary's artifact.file_size");
            }
            p.skipChildren();
          }
        }
        default -> p.skipChildren();
      }
    }
    return s;
  }

  /** @return whether the array at {@code v} has an element (it is skipped) */
  private static boolean nonEmptyArray(JsonParser p, JsonToken v, String what) {
    if (v != JsonToken.START_ARRAY) {
      throw new IllegalArgumentException("its " + what + " is not an array");
    }
    boolean any = false;
    JsonToken t;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      if (t == null) {
        throw new IllegalArgumentException("its " + what + " ends early");
      }
      any = true;
      p.skipChildren();
    }
    return any;
  }
}
