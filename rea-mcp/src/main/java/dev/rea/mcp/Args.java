package dev.rea.mcp;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Checks one tool call's arguments in the handler (the SDK's own input validation is off, because
 * its failures are plain text without the CONTRACT section 6 error object). Every problem is an
 * {@code invalid_input} {@link ReaException} whose {@code details.field} names the argument.
 */
final class Args {
  private final String prefix;
  private final Map<String, Object> map;

  private Args(String prefix, Map<String, Object> map) {
    this.prefix = prefix;
    this.map = map;
  }

  /**
   * @param arguments the call's arguments (null means none)
   * @param allowed the argument names the tool accepts
   * @throws ReaException {@code bad_argument} for an argument the tool does not take
   */
  static Args of(@Nullable Map<String, Object> arguments, Set<String> allowed)
      throws ReaException {
    return of("", arguments, allowed);
  }

  /**
   * Arguments nested in an object argument; field names in errors get {@code prefix} (e.g.
   * {@code "source."}).
   */
  static Args of(String prefix, @Nullable Map<String, Object> arguments, Set<String> allowed)
      throws ReaException {
    Map<String, Object> m = arguments == null ? Map.of() : arguments;
    Set<String> unknown = new TreeSet<>(m.keySet());
    unknown.removeAll(allowed);
    if (!unknown.isEmpty()) {
      String first = unknown.iterator().next();
      throw Failures.badArgument(
          prefix + first,
          "unknown argument "
              + quote(prefix + first)
              + "; this tool takes "
              + String.join(", ", new TreeSet<>(allowed)));
    }
    return new Args(prefix, m);
  }

  boolean has(String name) {
    return map.containsKey(name) && map.get(name) != null;
  }

  @Nullable Object raw(String name) {
    return map.get(name);
  }

  /** @throws ReaException {@code bad_argument} when missing or not a string */
  String requiredString(String name) throws ReaException {
    Object v = map.get(name);
    String field = prefix + name;
    if (v == null) {
      throw Failures.badArgument(field, "the argument " + quote(field) + " is required");
    }
    if (!(v instanceof String s)) {
      throw Failures.badArgument(field, "the argument " + quote(field) + " must be a string");
    }
    return s;
  }

  /** @return the value, or {@code fallback} when absent; it must be one of {@code allowed} */
  String choice(String name, String fallback, List<String> allowed) throws ReaException {
    Object v = map.get(name);
    if (v == null) {
      return fallback;
    }
    if (!(v instanceof String s) || !allowed.contains(s)) {
      throw Failures.badArgument(
          prefix + name,
          "the argument " + quote(prefix + name) + " must be one of " + String.join(", ", allowed));
    }
    return s;
  }

  /** @return the object argument, or null when absent */
  @Nullable Map<String, Object> optionalObject(String name) throws ReaException {
    Object v = map.get(name);
    if (v == null) {
      return null;
    }
    if (!(v instanceof Map<?, ?> m)) {
      throw Failures.badArgument(
          prefix + name,
          "the argument "
              + quote(prefix + name)
              + " must be an object"
              + (v instanceof String
                  ? ", not a string holding JSON (some clients send every argument as text:"
                      + " pass it as a JSON object)"
                  : ""));
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> cast = (Map<String, Object>) m;
    return cast;
  }

  /**
   * @return the argument as an absolute path
   * @throws ReaException {@code relative_path} for a relative path; {@code bad_argument} when
   *     missing, not a string, empty or not a valid path
   */
  Path absolutePath(String name) throws ReaException {
    return absolutePath(prefix + name, requiredString(name));
  }

  /** Parses {@code text} (the value of {@code field}) as an absolute path. */
  static Path absolutePath(String field, String text) throws ReaException {
    if (text.isEmpty()) {
      throw Failures.badArgument(field, "the path is empty; give an absolute path");
    }
    dev.rea.core.options.Limits.checkPathLength(field, text);
    Path p;
    try {
      p = Path.of(text);
    } catch (InvalidPathException e) {
      throw Failures.badArgument(
          field,
          "not a valid path: " + e.getReason() + dev.rea.core.SelectedPath.localeHint());
    }
    if (!p.isAbsolute()) {
      throw ReaException.builder(
              Constraint.RELATIVE_PATH,
              "the path must be absolute (the server's working directory is not the client's): "
                  + ReaException.truncateForMessage(text))
          .field(field)
          .path(text)
          .build();
    }
    dev.rea.core.SelectedPath.checkTrailingSlash(field, text, p);
    return p;
  }

  static String quote(String s) {
    return "\"" + ReaException.truncateForMessage(s) + "\"";
  }
}
