package dev.rea.core.internal.view;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import dev.rea.core.options.Limits;
import dev.rea.core.testing.TestRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class RetainedEvidenceStoreTest {
  @Test
  void retainGetReleaseWithAccounting() throws ReaException {
    IndexedEvidence small = IndexedEvidence.of(TestRecords.small());
    IndexedEvidence big = IndexedEvidence.of(TestRecords.manyTensors(1000));
    assertThat(small.retainedBytes()).isBetween(2_000L, 20_000L);
    assertThat(big.retainedBytes()).isGreaterThan(1000L * 128);
    RetainedEvidenceStore store = RetainedEvidenceStore.of(Limits.defaults());
    assertThat(store.budgetBytes()).isEqualTo(32L * 1024 * 1024);
    store.retain(small);
    store.retain(big);
    assertThat(store.usedBytes()).isEqualTo(small.retainedBytes() + big.retainedBytes());
    assertThat(store.retain(IndexedEvidence.of(TestRecords.small()))).isSameAs(small);
    assertThat(store.usedBytes()).isEqualTo(small.retainedBytes() + big.retainedBytes());
    assertThat(store.ids()).containsExactly(small.evidenceId(), big.evidenceId());
    assertThat(store.get(big.evidenceId())).isSameAs(big);
    store.release(big.evidenceId());
    assertThat(store.usedBytes()).isEqualTo(small.retainedBytes());
    assertThatThrownBy(() -> store.get(big.evidenceId()))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.UNKNOWN_EVIDENCE);
          assertThat(e.getMessage()).contains(big.evidenceId());
        });
    assertThatThrownBy(() -> store.release(big.evidenceId()))
        .isInstanceOfSatisfying(ReaException.class,
            e -> assertThat(e.constraint()).isEqualTo(Constraint.UNKNOWN_EVIDENCE));
    assertThatThrownBy(() -> store.get(big.evidenceId()))
        .hasMessageContaining("it was never imported, or it was released");
    // An id of another shape names nothing REA made: said so, not "released".
    for (String malformed : List.of("abc", "sha256:" + "A".repeat(64), "sha256:00")) {
      assertThatThrownBy(() -> store.get(malformed))
          .isInstanceOfSatisfying(ReaException.class, e -> {
            assertThat(e.constraint()).isEqualTo(Constraint.UNKNOWN_EVIDENCE);
            assertThat(e.getMessage()).contains("is no evidence_id").doesNotContain("released");
          });
    }
  }

  @Test
  void overBudgetIsRefusedAndNothingIsRetained() throws ReaException {
    IndexedEvidence small = IndexedEvidence.of(TestRecords.small());
    IndexedEvidence big = IndexedEvidence.of(TestRecords.manyTensors(1000));
    RetainedEvidenceStore store = new RetainedEvidenceStore(big.retainedBytes() + 100);
    store.retain(big);
    assertThatThrownBy(() -> store.retain(small))
        .isInstanceOfSatisfying(ReaException.class, e -> {
          assertThat(e.constraint()).isEqualTo(Constraint.RETAINED_BUDGET);
          assertThat(e.diagnostics()).containsEntry("requested_bytes", Long.toString(small.retainedBytes()));
          assertThat(e.diagnostics()).containsEntry("used_bytes", Long.toString(big.retainedBytes()));
        });
    store.release(big.evidenceId());
    RetainedEvidenceStore tight = new RetainedEvidenceStore(big.retainedBytes() + 100);
    assertThatThrownBy(() -> tight.retainAll(List.of(small, big)))
        .isInstanceOfSatisfying(ReaException.class,
            e -> assertThat(e.constraint()).isEqualTo(Constraint.RETAINED_BUDGET));
    assertThat(tight.ids()).isEmpty();
    assertThat(tight.usedBytes()).isZero();
  }

  @Test
  void concurrentRetainAndReleaseKeepTheAccountExact() throws Exception {
    List<IndexedEvidence> evs = new ArrayList<>();
    for (int i = 1; i <= 16; i++) {
      evs.add(IndexedEvidence.of(TestRecords.manyTensors(i)));
    }
    RetainedEvidenceStore store = RetainedEvidenceStore.of(Limits.defaults());
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        fs.add(pool.submit(() -> {
          for (int round = 0; round < 200; round++) {
            for (IndexedEvidence ev : evs) {
              try {
                store.retain(ev);
                store.release(ev.evidenceId());
              } catch (ReaException e) {
                // Another thread released it first: that is the typed unknown_evidence.
                assertThat(e.constraint()).isEqualTo(Constraint.UNKNOWN_EVIDENCE);
              }
            }
          }
          return null;
        }));
      }
      for (Future<?> f : fs) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    long expected = 0;
    for (String id : store.ids()) {
      expected += store.get(id).retainedBytes();
    }
    assertThat(store.usedBytes()).isEqualTo(expected);
  }
}
