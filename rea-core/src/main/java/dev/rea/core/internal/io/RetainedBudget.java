package dev.rea.core.internal.io;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Accounts for the retained representation of one inspection against {@code
 * Limits.retainedBudgetBytes()} (32 MiB by default). Charges are made <em>before</em> a row is
 * retained or a string expanded, so a refusal never follows the allocation it was meant to
 * prevent; during a header read they are made by the readers' {@code RecordAssembler}.
 *
 * <p>What a charge stands for: the bytes the item will take in the Evidence JSON (the compact
 * signed bundle that {@code rea inspect-model-artifact --json} prints), and never less than a
 * fixed heap floor of {@link #VALUE_OVERHEAD} per retained object. The budget therefore bounds
 * the record both in memory and as JSON: {@code ModelInspector} charges the record's fixed part
 * first ({@code RecordSize.shellBytes}), the assembler charges every row, string, dimension, preview
 * element, derived type row and limitation (rules and constants in {@code
 * dev.rea.core.internal.evidence.RecordSize} and {@code docs/evidence.md}, "Retained budget"), and the
 * bundle's length never exceeds {@link #used()}.
 *
 * <p>Strings are charged at their JSON-escaped length ({@link JsonText}): a control byte costs up
 * to six bytes, {@code "} and {@code \} two. The raw length is charged first (so a string whose
 * bytes alone do not fit is refused before it is read) and the escapes as they are found ({@link
 * #chargeMore}, through {@link StringAllowance}), before the string is built.
 *
 * <p>Every refusal is {@code resource_exhausted} / {@code retained_budget} (CONTRACT sections 6
 * and 8) naming the field path and, for anything read from the file, its absolute byte offset.
 */
public final class RetainedBudget {
  /**
   * Heap floor in bytes per retained row, value or preview element, and the fixed part of a
   * retained string's charge. It also covers the JSON that one scalar preview element (at most 25
   * bytes with its comma) or one string's quotes, comma and property name (at most 12 bytes) add.
   */
  public static final long VALUE_OVERHEAD = 64;

  private final long limit;
  private long used;

  /** @param limit the budget in bytes */
  public RetainedBudget(long limit) {
    this.limit = limit;
  }

  /**
   * Charges {@code bytes} against the budget.
   *
   * @param bytes bytes about to be retained (non-negative)
   * @param what the field being retained, for the error
   * @param offset absolute file offset of that field, for the error
   * @throws ReaException {@code resource_exhausted} / {@code retained_budget}, naming the limit,
   *     the amount already used, the amount requested and by how much it is over (diagnostics
   *     {@code limit}, {@code limit_bytes}, {@code used_bytes}, {@code requested_bytes}, {@code
   *     over_bytes}, decimal strings)
   */
  public void charge(long bytes, String what, long offset) throws ReaException {
    if (bytes < 0 || bytes > limit - used) {
      throw refusal(bytes, 0, what, offset);
    }
    used += bytes;
  }

  /**
   * As {@link #charge(long, String, long)}, with the field description computed only when the
   * charge is refused (so hot paths build no strings).
   */
  public void charge(long bytes, Supplier<String> what, long offset) throws ReaException {
    if (bytes < 0 || bytes > limit - used) {
      throw refusal(bytes, 0, what.get(), offset);
    }
    used += bytes;
  }

  /**
   * Charges a further {@code bytes} for an item of which {@code alreadyCharged} bytes were
   * charged before (e.g. the escapes of a string whose raw length was charged first). A refusal
   * reports the item as a whole: {@code requested_bytes} is {@code alreadyCharged + bytes} and
   * {@code used_bytes} what the rest of the record used.
   *
   * @param bytes the further bytes (non-negative)
   * @param alreadyCharged bytes charged for the same item earlier (non-negative, at most {@link
   *     #used()})
   * @param what the field being retained, computed only on refusal
   * @param offset absolute file offset of that field
   * @throws ReaException {@code retained_budget}, as {@link #charge(long, String, long)}
   */
  public void chargeMore(long bytes, long alreadyCharged, Supplier<String> what, long offset)
      throws ReaException {
    if (bytes < 0 || bytes > limit - used) {
      throw refusal(bytes, alreadyCharged, what.get(), offset);
    }
    used += bytes;
  }

  /**
   * Charges {@code bytes} if they fit what is left, for an optional part of the record that is
   * left out when they do not.
   *
   * @param bytes bytes about to be retained (non-negative)
   * @return whether they were charged
   */
  public boolean tryCharge(long bytes) {
    if (bytes < 0 || bytes > limit - used) {
      return false;
    }
    used += bytes;
    return true;
  }

  /**
   * Charges bytes that belong to no place in the file (the record's fixed part and the selected
   * path, charged before the header is read).
   *
   * @throws ReaException {@code retained_budget} naming {@code what}, without an offset
   */
  public void chargeUnplaced(long bytes, String what) throws ReaException {
    if (bytes < 0 || bytes > limit - used) {
      throw refusal(bytes, 0, what, null);
    }
    used += bytes;
  }

  /**
   * Charges bytes that are held only for a while, never retained: the keys of an unknown
   * object's members, kept until the object has been checked for duplicate keys. Give them back
   * with {@link #release} when the object ends. The budget thus bounds what is held at any one
   * time, not the sum over the whole header.
   *
   * @param what the member being held (its field path), for the error
   * @param offset absolute file offset of that member, for the error
   * @throws ReaException {@code retained_budget}, as {@link #charge(long, String, long)}, worded
   *     "holding ... while its object is checked for duplicate keys"
   */
  public void chargeHeld(long bytes, String what, long offset) throws ReaException {
    if (bytes < 0 || bytes > limit - used) {
      throw refusal(
          "holding ", " while its object is checked for duplicate keys", bytes, 0, false, what,
          what, offset);
    }
    used += bytes;
  }

  /**
   * Gives back bytes charged with {@link #chargeHeld} once they are no longer held.
   *
   * @throws IllegalArgumentException if {@code bytes} is negative or more than {@link #used()}
   */
  public void release(long bytes) {
    if (bytes < 0 || bytes > used) {
      throw new IllegalArgumentException("cannot release " + bytes + " of " + used + " bytes");
    }
    used -= bytes;
  }

  /**
   * The refusal for an item that was stopped before it was read whole because it needs more than
   * the whole budget (a JSON name longer than the budget, cut off by the parser's length limit).
   * Nothing is charged.
   *
   * @param atLeast a lower bound on the bytes the item would need (more than {@link #limit()})
   * @param what the item, for the message (e.g. "a name of more than ... bytes in tensors")
   * @param field the field path of the error (e.g. the object the item is in), or null when the
   *     caller does not know it
   * @param offset absolute file offset of the item, for the error
   * @return {@code retained_budget}, as {@link #charge(long, String, long)}, with {@code
   *     requested_bytes} the lower bound and the message saying "at least"
   */
  public ReaException refusalOfAtLeast(
      long atLeast, String what, @Nullable String field, long offset) {
    return refusal("retaining ", "", atLeast, 0, true, what, field, offset);
  }

  private ReaException refusal(long bytes, long prior, String what, @Nullable Long offset) {
    return refusal("retaining ", "", bytes, prior, false, what, what, offset);
  }

  private ReaException refusal(
      String verb,
      String purpose,
      long bytes,
      long prior,
      boolean lowerBound,
      String what,
      @Nullable String field,
      @Nullable Long offset) {
    long requested = prior + Math.max(bytes, 0);
    long others = used - prior;
    long over = used + Math.max(bytes, 0) - limit;
    ReaException.Builder b =
        ReaException.builder(
                Constraint.RETAINED_BUDGET,
                verb
                    + what
                    + (offset == null ? "" : " (offset " + offset + ")")
                    + purpose
                    + " would exceed the retained representation budget of "
                    + limit
                    + " bytes ("
                    + others
                    + " bytes used, "
                    + (prior > 0 || lowerBound ? "at least " : "")
                    + requested
                    + " more requested"
                    + (prior > 0 ? " counting its JSON escapes" : "")
                    + ", "
                    + over
                    + " bytes over)")
            .field(field)
            .diagnostic("limit", "retained_budget")
            .diagnostic("limit_bytes", Long.toString(limit))
            .diagnostic("used_bytes", Long.toString(others))
            .diagnostic("requested_bytes", Long.toString(requested))
            .diagnostic("over_bytes", Long.toString(over));
    if (offset != null) {
      b.offset(offset);
    }
    return b.build();
  }

  /** @return bytes charged so far */
  public long used() {
    return used;
  }

  /** @return the budget in bytes */
  public long limit() {
    return limit;
  }
}
