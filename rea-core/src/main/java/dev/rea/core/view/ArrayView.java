package dev.rea.core.view;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.io.StrictJson;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonToken;

/**
 * A view of one GGUF array's elements, read from the model file the Evidence names (docs/evidence.md,
 * "Array element pages"): {@code {"kind": "model-artifact", "collection": "array", "key":
 * "tokenizer.ggml.tokens", "offset"?: 0, "limit"?: 256}}. The Evidence keeps only an array's
 * first elements (its preview); this view pages through all of them, after checking that the
 * file is still the one the Evidence describes.
 *
 * <p>{@code kind} is required as in {@link ViewRequest.Mode#ANALYSIS}; {@code key} names one
 * ARRAY metadata row; {@code offset} counts elements (0 to 2^63-1); {@code limit} is 1 to
 * {@value #MAX_LIMIT} elements (default {@value #DEFAULT_LIMIT}). Every problem is {@code
 * invalid_input} / {@code bad_view}, naming the view field.
 *
 * @param key the metadata key of the array
 * @param offset index of the first element wanted
 * @param limit most elements on the page
 */
public record ArrayView(String key, long offset, int limit) {
  /** The {@code collection} of an array view. */
  public static final String COLLECTION = "array";

  /** Default page size in elements. */
  public static final int DEFAULT_LIMIT = 256;

  /** Largest page size in elements (the 64 KiB page budget usually ends a page first). */
  public static final int MAX_LIMIT = 4096;

  private static final Set<String> PROPERTIES = Set.of("kind", "collection", "key", "offset", "limit");

  public ArrayView {
    Objects.requireNonNull(key, "key");
    if (offset < 0 || limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("offset " + offset + " limit " + limit);
    }
  }

  /**
   * Parses a view object when it is an array view ({@code "collection": "array"}).
   *
   * @param json UTF-8 JSON text of one object, at most {@link ViewRequest#MAX_VIEW_BYTES} bytes
   * @return the array view, or null when the object is another view (for {@link
   *     ViewRequest#parse(byte[], ViewRequest.Mode)})
   * @throws ReaException {@code invalid_input} / {@code bad_view}: malformed JSON, or an array view
   *     with a missing, unknown or out-of-range property
   */
  public static @Nullable ArrayView parseIfArray(byte[] json) throws ReaException {
    try (StrictJson j =
        StrictJson.open(json, ViewRequest.MAX_VIEW_BYTES, 3, Constraint.BAD_VIEW, "view")) {
      j.next();
      j.requireObject(() -> "view");
      if (!(j.readValue(() -> "view") instanceof StrictJson.ObjectValue o)) {
        return null;
      }
      Map<String, StrictJson.Value> p = o.properties();
      if (!(p.get("collection") instanceof StrictJson.ScalarValue c)
          || c.token() != JsonToken.VALUE_STRING
          || !COLLECTION.equals(c.text())) {
        return null;
      }
      for (String name : p.keySet()) {
        if (!PROPERTIES.contains(name)) {
          throw bad(ReaException.truncateForMessage(name),
              "unknown property of an array view (kind, collection, key, offset, limit)");
        }
      }
      String kind = string(p.get("kind"), "kind");
      if (!ViewRequest.KIND.equals(kind)) {
        throw bad("kind", "kind must be \"" + ViewRequest.KIND + "\"");
      }
      String key = string(p.get("key"), "key");
      long offset = p.containsKey("offset") ? integer(p.get("offset"), "offset", 0, Long.MAX_VALUE) : 0;
      long limit = p.containsKey("limit")
          ? integer(p.get("limit"), "limit", 1, MAX_LIMIT) : DEFAULT_LIMIT;
      return new ArrayView(key, offset, (int) limit);
    }
  }

  private static String string(StrictJson.@Nullable Value v, String field) throws ReaException {
    if (!(v instanceof StrictJson.ScalarValue s) || s.token() != JsonToken.VALUE_STRING) {
      throw bad(field, field + " is required and must be a string");
    }
    return s.text();
  }

  private static long integer(StrictJson.@Nullable Value v, String field, long min, long max)
      throws ReaException {
    if (v instanceof StrictJson.ScalarValue s && s.token() == JsonToken.VALUE_NUMBER_INT) {
      try {
        long n = Long.parseLong(s.text());
        if (n >= min && n <= max) {
          return n;
        }
      } catch (NumberFormatException tooLarge) {
        // refused below
      }
    }
    throw bad(field, field + " must be an integer from " + min + " to " + max);
  }

  private static ReaException bad(String field, String reason) {
    return ReaException.builder(Constraint.BAD_VIEW, "view rejected: " + reason + " at view." + field)
        .field("view." + field)
        .diagnostic("reason", reason)
        .build();
  }
}
