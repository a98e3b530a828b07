package dev.rea.cli.scan;

import dev.rea.core.Rea;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.FileIdentity;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Renders one line of {@code rea scan}'s output (CONTRACT section 10), in this order:
 *
 * <pre>{@code
 * {"schema":"rea.scan.v1","kind":"file","path":"/m/a.gguf","status":"complete",
 *  "identity":{"device":"2049","inode":"131","size":"4096","modified":"2026-...Z"},
 *  "evidence_id":"sha256:...","summary":{...},"error":null}
 * }</pre>
 *
 * <p>A set's line ({@code "kind":"set"}) has {@code member_identities} after {@code identity}
 * (see the overload). {@code identity} is {@code artifact.identity} without {@code verified} (device and inode
 * decimal strings or null, size a decimal string, modified RFC 3339 UTC). {@code summary} is the
 * section 4 summary of the unit's Evidence, as {@code inspect-model-artifact --detail summary
 * --json} prints it (complete and partial units; null otherwise). {@code error} is the inner
 * object of section 6's error ({@code code}, {@code category}, {@code constraint}, {@code
 * message}, {@code details}), without {@code partial_evidence}; null for complete units. The
 * line is compact JSON ending with one {@code \n} and holds no other line break.
 */
public final class ScanLine {
  /** The {@code schema} of a line. */
  public static final String SCHEMA = "rea.scan.v1";

  private static final JsonFactory JSON = JsonFactory.builder().build();

  private ScanLine() {}

  /**
   * @param kind the unit's kind
   * @param path the unit's path
   * @param status its status
   * @param identity the identity of the file the line describes
   * @param evidenceId the Evidence's {@code evidence_id}, or null
   * @param summary the summary, compact UTF-8 JSON, or null
   * @param error the failure, or null
   * @return the line, UTF-8, ending with {@code \n}
   */
  public static byte[] render(
      ScanUnit.Kind kind,
      String path,
      UnitStatus status,
      FileIdentity identity,
      @Nullable String evidenceId,
      byte @Nullable [] summary,
      @Nullable ReaException error) {
    return render(kind, path, status, null, identity, null, Map.of(), evidenceId, summary, error);
  }

  /**
   * As {@link #render(ScanUnit.Kind, String, UnitStatus, FileIdentity, String, byte[],
   * ReaException)}, for a set: after {@code identity} comes {@code member_identities}, the files
   * of the set as the walk found them (index first, then members in member order; each {@code
   * {"path", "device", "inode", "size", "modified"}}), which {@code --resume} compares so that a
   * changed member has its set inspected again.
   *
   * <p>{@code assumeLayout}, when not null, is written as {@code "assume_layout"} after {@code
   * status}: the unit was inspected under that layout assumption ({@code --assume-layout}), which
   * can decide whether it is accepted at all, so {@code --resume} keeps such a line only for a
   * scan that makes the same assumption (a rejected line has no summary to say it).
   *
   * <p>A complete set line's member identities also carry each file's {@code sha256} when it is
   * known (the set summary has no digest of its own: a set is several files): a safetensors
   * index's always (it is read whole), each member's with {@code --hash full}. They are taken
   * from {@code memberSha256} by file name (the files of a set share its directory).
   *
   * @param assumeLayout the layout assumption's wire name, or null when none was made
   * @param members the set's files found by the walk, or null for a line without the field
   * @param memberSha256 a member's full SHA-256 (lowercase hex) by file name; empty when the
   *     members were not hashed
   */
  public static byte[] render(
      ScanUnit.Kind kind,
      String path,
      UnitStatus status,
      @Nullable String assumeLayout,
      FileIdentity identity,
      @Nullable List<ListedFile> members,
      Map<String, String> memberSha256,
      @Nullable String evidenceId,
      byte @Nullable [] summary,
      @Nullable ReaException error) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(summary == null ? 512 : summary.length + 512);
    try (JsonGenerator g = JSON.createGenerator(ObjectWriteContext.empty(), out)) {
      g.writeStartObject();
      g.writeStringProperty("schema", SCHEMA);
      g.writeStringProperty("kind", kind.wire());
      g.writeStringProperty("path", path);
      g.writeStringProperty("status", status.wire());
      if (assumeLayout != null) {
        g.writeStringProperty("assume_layout", assumeLayout);
      }
      g.writeName("identity");
      g.writeStartObject();
      identityFields(g, identity);
      g.writeEndObject();
      if (members != null) {
        g.writeName("member_identities");
        g.writeStartArray();
        for (ListedFile m : members) {
          g.writeStartObject();
          g.writeStringProperty("path", m.path().toString());
          identityFields(g, m.identity());
          Path name = m.path().getFileName();
          String sha256 = name == null ? null : memberSha256.get(name.toString());
          if (sha256 != null) {
            g.writeStringProperty("sha256", sha256);
          }
          g.writeEndObject();
        }
        g.writeEndArray();
      }
      nullableString(g, "evidence_id", evidenceId);
      g.writeName("summary");
      if (summary == null) {
        g.writeNull();
      } else {
        String text = new String(summary, StandardCharsets.UTF_8);
        if (text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) {
          // Rea.summaryJson is compact; a line break would split the line.
          throw new IllegalStateException("the summary JSON holds a line break");
        }
        g.writeRawValue(text);
      }
      g.writeName("error");
      if (error == null) {
        g.writeNull();
      } else {
        copyErrorObject(g, Rea.errorJson(error, null));
      }
      g.writeEndObject();
    }
    out.write('\n');
    return out.toByteArray();
  }

  /** Copies the value of the top-level {@code error} property of section 6's error JSON. */
  private static void copyErrorObject(JsonGenerator g, byte[] errorJson) {
    try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), errorJson)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalStateException("the error JSON is not an object");
      }
      while (p.nextToken() == JsonToken.PROPERTY_NAME) {
        String name = p.currentName();
        p.nextToken();
        if (name.equals("error")) {
          g.copyCurrentStructure(p);
          return;
        }
        p.skipChildren();
      }
      throw new IllegalStateException("the error JSON has no error object");
    }
  }

  private static void identityFields(JsonGenerator g, FileIdentity identity) {
    nullableString(g, "device", identity.device());
    nullableString(g, "inode", identity.inode());
    g.writeStringProperty("size", Long.toString(identity.size()));
    g.writeStringProperty("modified", identity.modified());
  }

  private static void nullableString(JsonGenerator g, String name, @Nullable String value) {
    if (value == null) {
      g.writeNullProperty(name);
    } else {
      g.writeStringProperty(name, value);
    }
  }
}
