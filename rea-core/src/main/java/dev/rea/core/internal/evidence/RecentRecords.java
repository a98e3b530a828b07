package dev.rea.core.internal.evidence;

import dev.rea.core.evidence.EvidenceRecord;
import java.lang.ref.WeakReference;
import org.jspecify.annotations.Nullable;

/**
 * What was last worked out for the last {@value #SIZE} records one step handed on (an id, a
 * signing key), so that the next step, given the same record object, does not work it out again.
 * Keyed by identity (a record is immutable; a copy is worked out afresh) and held weakly, so an
 * entry never keeps its record alive. Eight, because a set inspects members two ahead on worker
 * threads and hands them on in order on another. Thread-safe.
 *
 * @param <V> what is remembered of each record
 */
public final class RecentRecords<V> {
  /** How many records are remembered. */
  public static final int SIZE = 8;

  private record Entry<V>(WeakReference<EvidenceRecord> of, V value) {}

  @SuppressWarnings("unchecked")
  private final @Nullable Entry<V>[] entries = new Entry[SIZE];

  private int next;

  /** Remembers {@code value} for {@code record}, forgetting the oldest entry. */
  public synchronized void remember(EvidenceRecord record, V value) {
    entries[next] = new Entry<>(new WeakReference<>(record), value);
    next = (next + 1) % SIZE;
  }

  /** @return what was remembered for this very record object, or null */
  public synchronized @Nullable V of(EvidenceRecord record) {
    for (Entry<V> e : entries) {
      if (e != null && e.of().get() == record) {
        return e.value();
      }
    }
    return null;
  }
}
