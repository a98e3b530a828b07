package dev.rea.core.view;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.evidence.StorageValidation;
import dev.rea.core.internal.io.StrictJson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One view: a selection of rows from one collection of one Evidence record, and a page of it
 * (CONTRACT section 4; specification, "Facts and selected queries").
 *
 * <p>JSON form: {@code {"kind": "model-artifact", "collection": "tensors"|"metadata"|"types",
 * "names"?, "name_glob"?, "keys"?, "key_glob"?, "types"?, "indices"?, "storage_validation"?,
 * "fields"?, "offset"?: 0, "limit"?: 32}}.
 *
 * <ul>
 *   <li>{@code kind} is required by {@code inspect_analysis_view} ({@link Mode#ANALYSIS}); the
 *       inline view of {@code inspect_model_artifact} and the CLI's {@code --view} omit it
 *       ({@link Mode#INLINE}: when present anyway it must be {@code "model-artifact"}).
 *   <li>Filters are exact-match lists; they intersect; an omitted filter means all rows and an
 *       empty list means none. A filter that does not fit the collection ({@link
 *       ViewCollection#filters()}) is refused. {@code types} matches the reported type label
 *       (e.g. {@code AMBIGUOUS_16}); {@code storage_validation} takes {@code "consistent"} and
 *       {@code "unknown"}; {@code indices} are row indices (non-negative integers).
 *   <li>{@code name_glob} (tensors) and {@code key_glob} (metadata) are one shell-style pattern
 *       each ({@code *}, {@code ?}, {@code [...]}; {@link Glob}), matched on code points against
 *       the whole name or key (CONTRACT section 12); they intersect with the other filters. A
 *       pattern that does not parse is refused naming the field and the code-point position.
 *   <li>{@code fields} selects columns of the collection ({@link ViewCollection#fields()});
 *       {@code index} is always kept, so {@code []} gives indices only; omitted gives every
 *       column. Unknown or repeated names are refused.
 *   <li>{@code offset} (default 0) counts filtered matches; {@code limit} is 1 to {@value
 *       #MAX_LIMIT} (default {@value #DEFAULT_LIMIT}).
 * </ul>
 *
 * <p>Every problem is {@code invalid_input} / {@code bad_view}, naming the view field.
 *
 * @param collection the collection paged
 * @param names tensor names, or null for all
 * @param nameGlob a pattern tensor names must match, or null for all
 * @param keys metadata keys, or null for all
 * @param keyGlob a pattern metadata keys must match, or null for all
 * @param types type labels, or null for all
 * @param indices row indices, or null for all
 * @param storageValidation storage states, or null for all
 * @param fields selected columns, or null for all
 * @param offset filtered matches to skip
 * @param limit most rows to return
 */
public record ViewRequest(
    ViewCollection collection,
    @Nullable List<String> names,
    @Nullable String nameGlob,
    @Nullable List<String> keys,
    @Nullable String keyGlob,
    @Nullable List<String> types,
    @Nullable List<Integer> indices,
    @Nullable List<StorageValidation> storageValidation,
    @Nullable List<String> fields,
    int offset,
    int limit) {
  /** Default page size in rows. */
  public static final int DEFAULT_LIMIT = 32;

  /** Largest page size in rows. */
  public static final int MAX_LIMIT = 256;

  /** Largest view JSON accepted, in bytes (1 MiB). */
  public static final int MAX_VIEW_BYTES = 1024 * 1024;

  /** The {@code kind} of a view object. */
  public static final String KIND = "model-artifact";

  /** Where the view object comes from. */
  public enum Mode {
    /** {@code inspect_analysis_view}: {@code kind} is required. */
    ANALYSIS,
    /** {@code inspect_model_artifact}'s {@code view} and the CLI's {@code --view}: no kind. */
    INLINE
  }

  public ViewRequest {
    Objects.requireNonNull(collection, "collection");
    names = names == null ? null : List.copyOf(names);
    keys = keys == null ? null : List.copyOf(keys);
    types = types == null ? null : List.copyOf(types);
    indices = indices == null ? null : List.copyOf(indices);
    storageValidation = storageValidation == null ? null : List.copyOf(storageValidation);
    fields = fields == null ? null : List.copyOf(fields);
  }

  /** A view without name patterns: {@code nameGlob} and {@code keyGlob} are null. */
  public ViewRequest(
      ViewCollection collection,
      @Nullable List<String> names,
      @Nullable List<String> keys,
      @Nullable List<String> types,
      @Nullable List<Integer> indices,
      @Nullable List<StorageValidation> storageValidation,
      @Nullable List<String> fields,
      int offset,
      int limit) {
    this(collection, names, null, keys, null, types, indices, storageValidation, fields, offset,
        limit);
  }

  /** @return a view of every row of a collection, first page */
  public static ViewRequest all(ViewCollection collection) {
    return new ViewRequest(collection, null, null, null, null, null, null, 0, DEFAULT_LIMIT);
  }

  /** @return a copy starting at another offset */
  public ViewRequest withOffset(int value) {
    return new ViewRequest(
        collection, names, nameGlob, keys, keyGlob, types, indices, storageValidation, fields,
        value, limit);
  }

  /** @return a copy whose tensor names must also match {@code pattern} (null: no pattern) */
  public ViewRequest withNameGlob(@Nullable String pattern) {
    return new ViewRequest(
        collection, names, pattern, keys, keyGlob, types, indices, storageValidation, fields,
        offset, limit);
  }

  /**
   * The field of a set's tensor rows naming the member each row is from (CONTRACT section 9).
   * Every such row carries it, whatever {@code fields} lists; {@code fields} may name it.
   */
  public static final String SET_MEMBER_FIELD = "member";

  /**
   * Checks the view as built in code (the parser calls it too).
   *
   * @return this view
   * @throws ReaException {@code bad_view}
   */
  public ViewRequest validate() throws ReaException {
    checkFits("names", names);
    checkFits("name_glob", nameGlob);
    checkFits("keys", keys);
    checkFits("key_glob", keyGlob);
    glob("name_glob", nameGlob);
    glob("key_glob", keyGlob);
    checkFits("types", types);
    checkFits("indices", indices);
    checkFits("storage_validation", storageValidation);
    if (indices != null) {
      for (int i = 0; i < indices.size(); i++) {
        if (indices.get(i) < 0) {
          throw bad("indices[" + i + "]", "indices are non-negative integers");
        }
      }
    }
    if (fields != null) {
      Set<String> seen = new HashSet<>();
      for (int i = 0; i < fields.size(); i++) {
        String f = fields.get(i);
        // A set's tensor rows always carry "member" (CONTRACT section 9): naming it is allowed,
        // and refused for a single file's rows where they are answered.
        if (!collection.fields().contains(f) && !(collection == ViewCollection.TENSORS
            && f.equals(SET_MEMBER_FIELD))) {
          throw bad(
              "fields[" + i + "]",
              "\""
                  + ReaException.truncateForMessage(f)
                  + "\" is not a field of "
                  + collection.wire()
                  + " rows (fields: "
                  + String.join(", ", collection.fields())
                  + (collection == ViewCollection.TENSORS ? "; a set's rows also member" : "")
                  + ")");
        }
        if (!seen.add(f)) {
          throw bad("fields[" + i + "]", "field \"" + f + "\" is listed twice");
        }
      }
    }
    if (offset < 0) {
      throw bad("offset", "offset is a non-negative integer");
    }
    if (limit < 1 || limit > MAX_LIMIT) {
      throw bad("limit", "limit must be between 1 and " + MAX_LIMIT);
    }
    return this;
  }

  /**
   * Compiles a pattern filter.
   *
   * @return the pattern, or null when the filter is omitted
   * @throws ReaException {@code bad_view} naming the field, with the 0-based code-point {@code
   *     position} of the problem in the diagnostics
   */
  static @Nullable Glob glob(String filter, @Nullable String pattern) throws ReaException {
    if (pattern == null) {
      return null;
    }
    try {
      return Glob.compile(pattern);
    } catch (Glob.SyntaxError e) {
      String reason =
          filter
              + " \""
              + ReaException.truncateForMessage(pattern)
              + "\" does not parse: "
              + e.reason()
              + " (at code point "
              + e.position()
              + ", counting from 0)";
      throw badAt(filter, reason, e.position());
    }
  }

  private static ReaException badAt(String field, String reason, int position) {
    return ReaException.builder(
            Constraint.BAD_VIEW, "view rejected: " + reason + " at view." + field)
        .field("view." + field)
        .diagnostic("reason", reason)
        .diagnostic("position", position)
        .build();
  }

  private void checkFits(String filter, @Nullable Object value) throws ReaException {
    if (value != null && !collection.filters().contains(filter)) {
      throw bad(
          filter,
          "filter "
              + filter
              + " does not apply to collection "
              + collection.wire()
              + " (it accepts: "
              + String.join(", ", new java.util.TreeSet<>(collection.filters()))
              + ")");
    }
  }

  /** @return true when the column is selected ({@code index} always is) */
  public boolean selects(String field) {
    return field.equals("index") || fields == null || fields.contains(field);
  }

  /** The properties a view object may have, in the order the documentation lists them. */
  static final List<String> PROPERTIES =
      List.of(
          "kind", "collection", "names", "name_glob", "keys", "key_glob", "types", "indices",
          "storage_validation", "fields", "offset", "limit");

  /**
   * @return {@code " (did you mean \"p\"?)"} for the one property {@code name} is closest to
   *     (case ignored, at most two edits away), else {@code "; a view
   *     has ..."} listing them all
   */
  static String suggestion(String name) {
    String best = null;
    int bestDistance = 3;
    String lower = name.toLowerCase(java.util.Locale.ROOT);
    for (String p : PROPERTIES) {
      int d = lower.length() > 40 ? 3 : editDistance(lower, p);
      if (d < bestDistance) {
        best = p;
        bestDistance = d;
      }
    }
    if (best != null) {
      return " (did you mean \"" + best + "\"?)";
    }
    return "; a view has " + String.join(", ", PROPERTIES);
  }

  /** Levenshtein distance of two short strings (callers bound their length). */
  private static int editDistance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }

  private static ReaException bad(String field, String reason) {
    // Worded as StrictJson words the view's JSON-level refusals ("view rejected: ... at view.x").
    return ReaException.builder(Constraint.BAD_VIEW, "view rejected: " + reason + " at view." + field)
        .field("view." + field)
        .diagnostic("reason", reason)
        .build();
  }

  /** Parses a view from JSON text. */
  public static ViewRequest parse(String json, Mode mode) throws ReaException {
    return parse(json.getBytes(StandardCharsets.UTF_8), mode);
  }

  /**
   * Parses a view object strictly: duplicate or unknown properties, wrong types and values out of
   * range are refused.
   *
   * @param json UTF-8 JSON text of one object, at most {@value #MAX_VIEW_BYTES} bytes
   * @param mode whether {@code kind} is required
   * @throws ReaException {@code invalid_input} / {@code bad_view}
   */
  public static ViewRequest parse(byte[] json, Mode mode) throws ReaException {
    Objects.requireNonNull(mode, "mode");
    try (StrictJson j = StrictJson.open(json, MAX_VIEW_BYTES, 3, Constraint.BAD_VIEW, "view")) {
      j.next();
      String kind = null;
      ViewCollection collection = null;
      List<String> names = null;
      String nameGlob = null;
      List<String> keys = null;
      String keyGlob = null;
      List<String> types = null;
      List<Integer> indices = null;
      List<StorageValidation> storage = null;
      List<String> fields = null;
      int offset = 0;
      int limit = DEFAULT_LIMIT;
      String name;
      while ((name = j.nextName()) != null) {
        switch (name) {
          case "kind":
            kind = j.string(() -> "view.kind");
            if (!KIND.equals(kind)) {
              throw j.error("view.kind", "kind must be \"" + KIND + "\"");
            }
            break;
          case "collection":
            collection = collection(j);
            break;
          case "names":
            names = strings(j, "names");
            break;
          case "name_glob":
            nameGlob = j.string(() -> "view.name_glob");
            break;
          case "keys":
            keys = strings(j, "keys");
            break;
          case "key_glob":
            keyGlob = j.string(() -> "view.key_glob");
            break;
          case "types":
            types = strings(j, "types");
            break;
          case "indices":
            indices = indices(j);
            break;
          case "storage_validation":
            storage = storageValidation(j);
            break;
          case "fields":
            fields = strings(j, "fields");
            break;
          case "offset":
            offset = (int) j.integer(() -> "view.offset", 0, Integer.MAX_VALUE);
            break;
          case "limit":
            limit = (int) j.integer(() -> "view.limit", 1, MAX_LIMIT);
            break;
          default:
            throw j.error(
                "view." + ReaException.truncateForMessage(name),
                "unknown view property \""
                    + ReaException.truncateForMessage(name)
                    + "\""
                    + suggestion(name));
        }
      }
      requireKind(mode, kind);
      if (collection == null) {
        throw bad("collection", "collection is required (tensors, metadata or types)");
      }
      return new ViewRequest(
              collection, names, nameGlob, keys, keyGlob, types, indices, storage, fields, offset,
              limit)
          .validate();
    }
  }

  private static ViewCollection collection(StrictJson j) throws ReaException {
    String c = j.string(() -> "view.collection");
    ViewCollection collection = ViewCollection.fromWire(c);
    if (collection == null) {
      throw j.error("view.collection", "collection must be tensors, metadata or types");
    }
    return collection;
  }

  private static List<Integer> indices(StrictJson j) throws ReaException {
    j.startArray(() -> "view.indices");
    List<Integer> indices = new ArrayList<>();
    while (j.nextElement()) {
      int i = indices.size();
      indices.add((int) j.currentInteger(() -> "view.indices[" + i + "]", 0, Integer.MAX_VALUE));
    }
    return indices;
  }

  private static List<StorageValidation> storageValidation(StrictJson j) throws ReaException {
    List<String> states = strings(j, "storage_validation");
    List<StorageValidation> storage = new ArrayList<>(states.size());
    for (int i = 0; i < states.size(); i++) {
      StorageValidation sv = StorageValidation.fromWire(states.get(i));
      if (sv == null) {
        throw bad(
            "storage_validation[" + i + "]",
            "storage_validation values are \"consistent\" or \"unknown\"");
      }
      storage.add(sv);
    }
    return storage;
  }

  /** An analysis view must name its kind; an inline view of inspect_model_artifact may omit it. */
  private static void requireKind(Mode mode, @Nullable String kind) throws ReaException {
    if (mode == Mode.ANALYSIS && kind == null) {
      throw bad(
          "kind",
          "kind \""
              + KIND
              + "\" is required here: add \"kind\":\""
              + KIND
              + "\" to the view object (an inline view of inspect_model_artifact may omit it)");
    }
  }

  private static List<String> strings(StrictJson j, String field) throws ReaException {
    j.startArray(() -> "view." + field);
    List<String> out = new ArrayList<>();
    while (j.nextElement()) {
      int i = out.size();
      out.add(j.currentString(() -> "view." + field + "[" + i + "]"));
    }
    return out;
  }
}
