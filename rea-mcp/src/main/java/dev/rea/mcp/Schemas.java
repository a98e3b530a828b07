package dev.rea.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tools' input and output JSON Schemas (2020-12), read from {@code schemas.json} beside this
 * class. Each schema is given only the {@code $defs} it references, directly or through other
 * definitions, so {@code tools/list} stays small.
 */
final class Schemas {
  private static final Pattern REF = Pattern.compile("#/\\$defs/([A-Za-z0-9_]+)");
  private static final TypeRef<Map<String, Object>> MAP = new TypeRef<>() {};

  private final McpJsonMapper json;
  private final Map<String, Object> defs;
  private final Map<String, Object> tools;

  @SuppressWarnings("unchecked")
  Schemas(McpJsonMapper json) {
    this.json = json;
    try (InputStream in = Schemas.class.getResourceAsStream("schemas.json")) {
      if (in == null) {
        throw new IllegalStateException("schemas.json missing from the class path");
      }
      Map<String, Object> all = json.readValue(in.readAllBytes(), MAP);
      this.defs = Objects.requireNonNull((Map<String, Object>) all.get("$defs"), "$defs");
      this.tools = Objects.requireNonNull((Map<String, Object>) all.get("tools"), "tools");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** @return the input schema of {@code tool}, with its $defs */
  Map<String, Object> input(String tool) {
    return withDefs(part(tool, "input"));
  }

  /** @return the output schema of {@code tool}, with its $defs */
  Map<String, Object> output(String tool) {
    return withDefs(part(tool, "output"));
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> part(String tool, String which) {
    Map<String, Object> t = (Map<String, Object>) tools.get(tool);
    if (t == null) {
      throw new IllegalArgumentException("no schema for tool " + tool);
    }
    return Objects.requireNonNull((Map<String, Object>) t.get(which), which);
  }

  private Map<String, Object> withDefs(Map<String, Object> schema) {
    Map<String, Object> used = new TreeMap<>();
    Deque<Object> todo = new ArrayDeque<>();
    todo.add(schema);
    while (!todo.isEmpty()) {
      String text;
      try {
        text = json.writeValueAsString(todo.removeFirst());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Matcher m = REF.matcher(text);
      while (m.find()) {
        String name = m.group(1);
        if (!used.containsKey(name)) {
          Object def = defs.get(name);
          if (def == null) {
            throw new IllegalStateException("undefined $defs/" + name);
          }
          used.put(name, def);
          todo.add(def);
        }
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("$schema", "https://json-schema.org/draft/2020-12/schema");
    out.putAll(schema);
    if (!used.isEmpty()) {
      out.put("$defs", used);
    }
    return out;
  }
}
