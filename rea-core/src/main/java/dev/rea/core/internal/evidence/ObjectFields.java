package dev.rea.core.internal.evidence;

import dev.rea.core.error.ReaException;
import dev.rea.core.internal.evidence.WireFormat.Field;
import dev.rea.core.internal.io.StrictJson;

/**
 * The table-driven loop over one JSON object's properties, for the streaming import: each name
 * is looked up in the object kind's {@link WireFormat} table, a name the table lacks is refused,
 * each known property is handed to a {@link PropertyReader}, and at the object's end every
 * property the table marks required ({@link WireFormat.Presence#required()}) must have been seen,
 * checked in table order. Duplicate names never reach this loop: {@link StrictJson#open} refused
 * them in the bounded first pass.
 */
final class ObjectFields {
  private ObjectFields() {}

  /** Reads the value of one known property; the parser is on its name. */
  @FunctionalInterface
  interface PropertyReader<F> {
    void read(F field) throws ReaException;
  }

  /**
   * Reads the properties of the object the parser is in, up to and including its closing brace.
   *
   * @param j the parser, on the object's opening brace
   * @param table the object kind's fields
   * @param prefix the record's path prefix ({@code "records[i]."} or {@code ""})
   * @param base the object's path below the record ({@code "artifact.identity"}, {@code
   *     "tensors[3]"}); {@code ""} for the record itself
   * @param start byte offset a missing property is reported at
   * @param each reads one property's value
   * @throws ReaException {@code evidence_rejected} for an unknown or missing property, or what
   *     {@code each} throws
   */
  static <F extends Enum<F> & Field> void read(StrictJson j, Class<F> table, String prefix,
      String base, long start, PropertyReader<F> each) throws ReaException {
    F[] all = table.getEnumConstants();
    boolean[] seen = new boolean[all.length];
    String dotted = base.isEmpty() ? "" : base + ".";
    String name;
    while ((name = j.nextName()) != null) {
      F f = WireFormat.field(table, name);
      if (f == null) {
        throw unknown(j, prefix + dotted, name);
      }
      seen[f.ordinal()] = true;
      each.read(f);
    }
    for (F f : all) {
      if (f.presence().required() && !seen[f.ordinal()]) {
        throw missing(j, start, prefix, dotted + f.json());
      }
    }
  }

  /** @return the refusal of a required property that is absent */
  static ReaException missing(StrictJson j, long start, String prefix, String path) {
    return j.errorAt(start, prefix + path, "required property " + path + " is missing");
  }

  /** @return the refusal of a property the object kind does not have */
  static ReaException unknown(StrictJson j, String prefix, String name) {
    return j.error(prefix + ReaException.truncateForMessage(name),
        "unknown property \"" + ReaException.truncateForMessage(name) + "\"");
  }
}
