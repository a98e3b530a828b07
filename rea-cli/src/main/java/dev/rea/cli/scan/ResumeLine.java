package dev.rea.cli.scan;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * The fields of an earlier scan line that {@code --resume} needs ({@link ResumeIndex}): path,
 * status, identity (as compared: for a set, with its {@code member_identities}) and whether the summary lists a warning. Read with a streaming
 * parser; the summary is skipped but for its top-level {@code warnings}.
 *
 * @param path the unit's path
 * @param status its status
 * @param identityText {@link ResumeIndex#identityText} of the line's identity
 * @param warnings whether {@code summary.warnings} is a non-empty array
 * @param hashed whether {@code summary.artifact.sha256} is a digest (the line was made with
 *     {@code --hash full})
 * @param assumeLayout the line's {@code assume_layout} (the layout assumption its unit was
 *     inspected under), or null when it has none
 */
record ResumeLine(
    String path,
    UnitStatus status,
    String identityText,
    boolean warnings,
    boolean hashed,
    @Nullable String assumeLayout) {
  private static final JsonFactory JSON = JsonFactory.builder().build();

  /**
   * @param line the line's bytes, without its {@code \n}
   * @param length how many bytes of {@code line} it is
   * @return its fields
   * @throws IllegalArgumentException saying why it is not a scan line
   */
  static ResumeLine parse(byte[] line, int length) {
    try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), line, 0, length)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalArgumentException("not a JSON object");
      }
      String schema = null;
      String path = null;
      String status = null;
      String assumeLayout = null;
      @Nullable String[] identity = null;
      boolean[] summary = new boolean[2];
      boolean summarized = false;
      String summaryLayout = null;
      String members = "";
      while (p.nextToken() == JsonToken.PROPERTY_NAME) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        switch (name) {
          case "schema" -> schema = p.getValueAsString();
          case "path" -> path = p.getValueAsString();
          case "status" -> status = p.getValueAsString();
          case "assume_layout" -> {
            if (value != JsonToken.VALUE_STRING) {
              throw new IllegalArgumentException("its assume_layout is not a string");
            }
            assumeLayout = p.getString();
          }
          case "identity" -> identity = identity(p, value);
          case "member_identities" -> members = members(p, value);
          case "summary" -> {
            if (value == JsonToken.START_OBJECT) {
              summarized = true;
              summaryLayout = summary(p, summary);
            }
          }
          default -> p.skipChildren();
        }
      }
      if (p.nextToken() != null) {
        throw new IllegalArgumentException("text after the JSON object");
      }
      if (summarized && !java.util.Objects.equals(assumeLayout, summaryLayout)) {
        // REA writes the two together; a line where they differ was edited by hand.
        throw new IllegalArgumentException(
            "its assume_layout is not the one its summary was made under");
      }
      if (!ScanLine.SCHEMA.equals(schema)) {
        throw new IllegalArgumentException("its schema is not " + ScanLine.SCHEMA);
      }
      UnitStatus st = status == null ? null : UnitStatus.fromWire(status);
      if (path == null || st == null || identity == null) {
        throw new IllegalArgumentException("it lacks a path, a known status or an identity");
      }
      String size = identity[2];
      String modified = identity[3];
      if (size == null || modified == null) {
        throw new IllegalArgumentException("its identity lacks size or modified");
      }
      return new ResumeLine(
          path,
          st,
          ResumeIndex.identityText(identity[0], identity[1], size, modified) + members,
          summary[0],
          summary[1],
          assumeLayout);
    } catch (JacksonException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
    }
  }

  /** @return device, inode (either may be null), size and modified, as the line spells them */
  private static @Nullable String[] identity(JsonParser p, JsonToken start) {
    if (start != JsonToken.START_OBJECT) {
      throw new IllegalArgumentException("its identity is not an object");
    }
    @Nullable String[] id = new String[4];
    while (p.nextToken() == JsonToken.PROPERTY_NAME) {
      String name = p.currentName();
      JsonToken v = p.nextToken();
      @Nullable String text = v == JsonToken.VALUE_STRING ? p.getString() : null;
      switch (name) {
        case "device" -> id[0] = text;
        case "inode" -> id[1] = text;
        case "size" -> id[2] = text;
        case "modified" -> id[3] = text;
        default -> p.skipChildren();
      }
    }
    return id;
  }

  /**
   * @return a set line's member identities as {@link ResumeIndex#identityText(ScanUnit)} appends
   *     them to the anchor's
   */
  private static String members(JsonParser p, JsonToken start) {
    if (start != JsonToken.START_ARRAY) {
      throw new IllegalArgumentException("its member_identities is not an array");
    }
    StringBuilder out = new StringBuilder();
    JsonToken t;
    while ((t = p.nextToken()) == JsonToken.START_OBJECT) {
      String path = null;
      @Nullable String[] id = new String[4];
      while (p.nextToken() == JsonToken.PROPERTY_NAME) {
        String name = p.currentName();
        JsonToken v = p.nextToken();
        @Nullable String text = v == JsonToken.VALUE_STRING ? p.getString() : null;
        switch (name) {
          case "path" -> path = text;
          case "device" -> id[0] = text;
          case "inode" -> id[1] = text;
          case "size" -> id[2] = text;
          case "modified" -> id[3] = text;
          default -> p.skipChildren();
        }
      }
      if (path == null || id[2] == null || id[3] == null) {
        throw new IllegalArgumentException("a member identity lacks path, size or modified");
      }
      out.append(ResumeIndex.memberText(path, id[0], id[1], id[2], id[3]));
    }
    if (t != JsonToken.END_ARRAY) {
      throw new IllegalArgumentException("its member_identities holds a non-object");
    }
    return out.toString();
  }

  /**
   * Reads the summary object: {@code found[0]} whether its top-level {@code warnings} is
   * non-empty, {@code found[1]} whether {@code artifact.sha256} is a string.
   */
  private static @Nullable String summary(JsonParser p, boolean[] found) {
    String assumeLayout = null;
    while (p.nextToken() == JsonToken.PROPERTY_NAME) {
      String name = p.currentName();
      JsonToken v = p.nextToken();
      if (name.equals("assume_layout")) {
        if (v != JsonToken.VALUE_STRING) {
          throw new IllegalArgumentException("its summary's assume_layout is not a string");
        }
        assumeLayout = p.getString();
        continue;
      }
      if (name.equals("warnings") && v == JsonToken.START_ARRAY) {
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
          if (t == null) {
            throw new IllegalArgumentException("the summary's warnings end early");
          }
          found[0] = true;
          p.skipChildren();
        }
        continue;
      }
      if (name.equals("artifact") && v == JsonToken.START_OBJECT) {
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
          String field = p.currentName();
          JsonToken fv = p.nextToken();
          if (field.equals("sha256")) {
            found[1] = fv == JsonToken.VALUE_STRING;
          }
          p.skipChildren();
        }
        continue;
      }
      p.skipChildren();
    }
    return assumeLayout;
  }
}
