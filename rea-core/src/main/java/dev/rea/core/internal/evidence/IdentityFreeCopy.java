package dev.rea.core.internal.evidence;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.internal.evidence.WireFormat.BundleField;
import dev.rea.core.internal.evidence.WireFormat.RecordField;
import dev.rea.core.internal.io.StrictJson;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.exc.StreamConstraintsException;

/**
 * Copies each record of a checked input as compact JSON without its identity properties ({@link
 * RecordField#identity()}: {@code evidence_id}, {@code authentication}), number texts kept
 * exactly: what {@link EvidenceIds#canonicalize(byte[])} turns into the bytes the ID and signature
 * cover. Each copy is bounded by the retained representation budget ({@link
 * dev.rea.core.options.Limits#retainedBudgetBytes()}): REA never writes a larger record, and a
 * larger one is refused while it is copied, before anything of it is built. Stateless.
 */
final class IdentityFreeCopy {
  private IdentityFreeCopy() {}

  /**
   * @param checked the checked input
   * @param bundle true when it is a bundle
   * @param limit the most bytes one copy may take (the retained budget)
   * @return one copy per record, in input order
   * @throws ReaException {@code resource_exhausted} / {@code retained_budget} for a record over
   *     {@code limit}; {@code evidence_rejected} for what the parser refuses
   */
  static List<byte[]> copies(StrictJson checked, boolean bundle, long limit)
      throws ReaException {
    List<byte[]> out = new ArrayList<>();
    // A string or name longer than the budget cannot fit in a record within it (each UTF-16 code
    // unit takes at least one byte of compact JSON), so the copying parser stops decoding one
    // there instead of holding it whole first.
    try (StrictJson j = checked.reopen(limit)) {
      JsonParser p = j.parser();
      try {
        p.nextToken();
        if (!bundle) {
          out.add(copyRecord(p, limit, () -> tooLarge("record", 0, limit)));
          return out;
        }
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
          String name = p.currentName();
          p.nextToken();
          if (BundleField.RECORDS.json().equals(name)) {
            while (p.nextToken() == JsonToken.START_OBJECT) {
              String field = WireFormat.row(BundleField.RECORDS, out.size());
              long at = p.currentTokenLocation().getByteOffset();
              out.add(copyRecord(p, limit, () -> tooLarge(field, at, limit)));
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

  /**
   * The refusal of a record whose compact JSON is larger than the retained representation
   * budget: REA never writes such a record (the budget bounds every record it produces, as JSON),
   * and authenticating one means putting all of it in canonical form, which takes memory in
   * proportion to it (strings are never split into parts).
   *
   * @return {@code resource_exhausted} / {@code retained_budget} naming the record and its
   *     offset, with the budget in the diagnostics
   */
  private static ReaException tooLarge(String field, long offset, long limit) {
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
        RecordField field = WireFormat.field(RecordField.class, name);
        if (field != null && field.identity()) {
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
    if (t == null) {
      throw new IllegalStateException("no token to copy");
    }
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
}
