package dev.rea.core.internal.formats;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.Warning;
import dev.rea.core.internal.evidence.EvidenceIds;
import dev.rea.core.internal.evidence.EvidenceJson;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;

/**
 * A SARIF 2.1.0 log (OASIS SARIF v2.1.0, errata 01) of what {@code rea scan} and {@code rea
 * check} found (CONTRACT section 13, {@code --format sarif}): one result per rejected or failed
 * unit and one per warning.
 *
 * <p>Log, field by field: {@code $schema} ({@value #SCHEMA}), {@code version} 2.1.0, one run whose
 * {@code tool.driver} is {@code name} REA, {@code version} and {@code rules}: one per distinct
 * rule, in order of first use, {@code id} the rule, {@code
 * shortDescription.text} from {@link SarifRules}, {@code defaultConfiguration.level}. A failure's
 * rule is its constraint's wire name ({@code file_format_rejected}, {@code not_found}, ...), level
 * {@code error}; a warning's rule is its code ({@code short_under_every_layout}, ...), level
 * {@code warning}.
 *
 * <p>Each result: {@code ruleId}, {@code ruleIndex}, {@code level}, {@code message.text} (REA's
 * message), one location whose {@code physicalLocation.artifactLocation} names the file, and,
 * when the failure has a byte offset, {@code region.byteOffset} (bytes from the start of the
 * file; with {@code byteLength} where the extent is known: the four version bytes of an
 * unsupported GGUF version); {@code partialFingerprints["reaResult/v1"]}, the SHA-256 of rule,
 * location and offset, so that a code-scanning service matches a result across runs; {@code
 * properties.field} the failing field when known.
 *
 * <p>File names: given a base directory (the CLI passes its working directory), a file under it is
 * a relative URI reference ({@code models/a.gguf}, percent-encoded) with {@code uriBaseId} {@value
 * #SRCROOT}, and the run's {@code originalUriBaseIds} gives {@value #SRCROOT} as the base's {@code
 * file:} URI; any other file is an absolute {@code file:} URI without a base ID (SARIF section
 * 3.4.3: a {@code uriBaseId} only goes with a relative reference).
 */
public final class SarifLog {
  /** The {@code $schema} written: the OASIS schema of SARIF 2.1.0, errata 01. */
  public static final String SCHEMA =
      "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

  /** The base ID of files under the base directory. */
  public static final String SRCROOT = "%SRCROOT%";

  private SarifLog() {}

  /**
   * Why a unit failed, as its error object says (CONTRACT section 6).
   *
   * @param rule the constraint's wire name, e.g. {@code file_format_rejected}
   * @param message the error's message
   * @param offset the byte offset in the file, an unsigned 64-bit value; null when unknown
   * @param length the length in bytes of what failed at {@code offset}; null when unknown
   * @param field the failing field, e.g. {@code tensor[1].offset}; null when unknown
   */
  public record Failure(
      String rule,
      String message,
      @Nullable Long offset,
      @Nullable Long length,
      @Nullable String field) {
    public Failure {
      Objects.requireNonNull(rule, "rule");
      Objects.requireNonNull(message, "message");
    }

    /**
     * @return the failure of a typed error: its constraint, message, offset and field; the length
     *     is 4 for an unsupported GGUF version (the four version bytes its diagnostics carry),
     *     unknown otherwise
     */
    public static Failure of(ReaException e) {
      Long length =
          e.constraint() == Constraint.UNSUPPORTED_VERSION
                  && e.diagnostics().containsKey("version_bytes")
                  && e.offset() != null
              ? 4L
              : null;
      return new Failure(
          e.constraint().wireName(), Objects.requireNonNull(e.getMessage()), e.offset(), length,
          e.field());
    }
  }

  /**
   * One unit of a scan or check.
   *
   * @param path the file's absolute path (a set's index or first member)
   * @param failure why the unit was rejected or failed; null when it was not
   * @param warnings the warnings of its Evidence, in order
   */
  public record Unit(String path, @Nullable Failure failure, List<Warning> warnings) {
    public Unit {
      Objects.requireNonNull(path, "path");
      warnings = List.copyOf(warnings);
    }
  }

  /**
   * Writes the log.
   *
   * @param toolVersion REA's version
   * @param base the absolute directory relative to which files are named, or null to name every
   *     file by an absolute {@code file:} URI
   * @param units the units, in the order their results are written
   * @return the log's UTF-8 JSON
   */
  public static byte[] write(String toolVersion, @Nullable Path base, List<Unit> units) {
    Map<String, String> rules = new LinkedHashMap<>();
    for (Unit u : units) {
      if (u.failure() != null) {
        rules.putIfAbsent(u.failure().rule(), "error");
      }
      for (Warning w : u.warnings()) {
        rules.putIfAbsent(w.code(), "warning");
      }
    }
    List<String> ruleIds = new ArrayList<>(rules.keySet());
    URI baseUri = base == null ? null : directoryUri(base);
    ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
    try (JsonGenerator g = EvidenceJson.generator(out)) {
      g.writeStartObject();
      g.writeStringProperty("$schema", SCHEMA);
      g.writeStringProperty("version", "2.1.0");
      g.writeName("runs");
      g.writeStartArray();
      g.writeStartObject();
      writeTool(g, toolVersion, rules);
      if (baseUri != null) {
        g.writeName("originalUriBaseIds");
        g.writeStartObject();
        g.writeName(SRCROOT);
        g.writeStartObject();
        g.writeStringProperty("uri", baseUri.toASCIIString());
        g.writeEndObject();
        g.writeEndObject();
      }
      g.writeName("results");
      g.writeStartArray();
      // One result per finding: several units can carry the same one (the shards of an index
      // that cannot be read each fail with the index's error, located in the index).
      Set<List<Object>> written = new HashSet<>();
      for (Unit u : units) {
        Location at = location(baseUri, u.path());
        if (u.failure() != null) {
          Failure f = u.failure();
          if (written.add(Arrays.asList(f.rule(), at, f.offset(), f.message()))) {
            writeResult(g, ruleIds.indexOf(f.rule()), f.rule(), "error", f.message(), at,
                f.offset(), f.length(), f.field());
          }
        }
        for (Warning w : u.warnings()) {
          if (written.add(Arrays.asList(w.code(), at, w.message()))) {
            writeResult(g, ruleIds.indexOf(w.code()), w.code(), "warning", w.message(), at, null,
                null, null);
          }
        }
      }
      g.writeEndArray();
      g.writeEndObject();
      g.writeEndArray();
      g.writeEndObject();
    }
    return out.toByteArray();
  }

  private static void writeTool(JsonGenerator g, String toolVersion, Map<String, String> rules) {
    g.writeName("tool");
    g.writeStartObject();
    g.writeName("driver");
    g.writeStartObject();
    g.writeStringProperty("name", "REA");
    g.writeStringProperty("version", toolVersion);
    g.writeName("rules");
    g.writeStartArray();
    for (Map.Entry<String, String> rule : rules.entrySet()) {
      g.writeStartObject();
      g.writeStringProperty("id", rule.getKey());
      g.writeName("shortDescription");
      g.writeStartObject();
      g.writeStringProperty("text", SarifRules.describe(rule.getKey()));
      g.writeEndObject();
      g.writeName("defaultConfiguration");
      g.writeStartObject();
      g.writeStringProperty("level", rule.getValue());
      g.writeEndObject();
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
    g.writeEndObject();
  }

  /** Where a result is: a URI, relative to {@value #SRCROOT} or absolute. */
  private record Location(String uri, boolean relative) {}

  private static void writeResult(
      JsonGenerator g,
      int ruleIndex,
      String ruleId,
      String level,
      String message,
      Location at,
      @Nullable Long offset,
      @Nullable Long length,
      @Nullable String field) {
    g.writeStartObject();
    g.writeStringProperty("ruleId", ruleId);
    g.writeNumberProperty("ruleIndex", ruleIndex);
    g.writeStringProperty("level", level);
    g.writeName("message");
    g.writeStartObject();
    g.writeStringProperty("text", message);
    g.writeEndObject();
    g.writeName("locations");
    g.writeStartArray();
    g.writeStartObject();
    g.writeName("physicalLocation");
    g.writeStartObject();
    g.writeName("artifactLocation");
    g.writeStartObject();
    g.writeStringProperty("uri", at.uri());
    if (at.relative()) {
      g.writeStringProperty("uriBaseId", SRCROOT);
    }
    g.writeEndObject();
    if (offset != null) {
      g.writeName("region");
      g.writeStartObject();
      g.writeName("byteOffset");
      g.writeNumber(new BigInteger(Long.toUnsignedString(offset)));
      if (length != null) {
        g.writeName("byteLength");
        g.writeNumber(new BigInteger(Long.toUnsignedString(length)));
      }
      g.writeEndObject();
    }
    g.writeEndObject();
    g.writeEndObject();
    g.writeEndArray();
    g.writeName("partialFingerprints");
    g.writeStartObject();
    String key = ruleId + "\n" + at.uri() + "\n" + (offset == null ? "" : Long.toUnsignedString(offset));
    g.writeStringProperty(
        "reaResult/v1",
        HexFormat.of().formatHex(EvidenceIds.sha256().digest(key.getBytes(StandardCharsets.UTF_8))));
    g.writeEndObject();
    if (field != null) {
      g.writeName("properties");
      g.writeStartObject();
      g.writeStringProperty("field", field);
      g.writeEndObject();
    }
    g.writeEndObject();
  }

  /** @return the {@code file:} URI of a directory, ending in {@code /} */
  private static URI directoryUri(Path base) {
    String uri = base.toAbsolutePath().normalize().toUri().toASCIIString();
    return URI.create(uri.endsWith("/") ? uri : uri + "/");
  }

  private static Location location(@Nullable URI base, String path) {
    URI file;
    try {
      file =
          path.startsWith("file:")
              ? URI.create(path)
              : URI.create(Path.of(path).toAbsolutePath().normalize().toUri().toASCIIString());
    } catch (IllegalArgumentException e) { // InvalidPathException too
      try {
        // A path the platform cannot name (it came from elsewhere): quoted as a file: URI.
        file = new URI("file", null, path.startsWith("/") ? path : "/" + path, null);
      } catch (URISyntaxException notEven) {
        return new Location("file:///", false);
      }
    }
    if (base != null) {
      URI relative = base.relativize(file);
      if (!relative.isAbsolute()) {
        String text = relative.getRawPath();
        int colon = text.indexOf(':');
        int slash = text.indexOf('/');
        // A first segment with a colon would read as a scheme: "./" keeps it a path.
        return new Location(colon >= 0 && (slash < 0 || colon < slash) ? "./" + text : text, true);
      }
    }
    return new Location(file.toASCIIString(), false);
  }
}
