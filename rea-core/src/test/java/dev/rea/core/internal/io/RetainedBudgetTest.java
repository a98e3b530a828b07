package dev.rea.core.internal.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rea.core.error.Constraint;
import dev.rea.core.error.ReaException;
import org.junit.jupiter.api.Test;

/** Held bytes count while held and are given back; retained and held refusals say which. */
class RetainedBudgetTest {
  @Test
  void heldBytesCountUntilReleased() throws Exception {
    RetainedBudget b = new RetainedBudget(1000);
    b.charge(300, "kept", 10);
    b.chargeHeld(600, "held", 20);
    assertThat(b.used()).isEqualTo(900);
    ReaException full = catchThrowableOfType(ReaException.class, () -> b.charge(200, "more", 30));
    assertThat(full.constraint()).isEqualTo(Constraint.RETAINED_BUDGET);
    assertThat(full.getMessage()).startsWith("retaining more (offset 30) would exceed");
    b.release(600);
    assertThat(b.used()).isEqualTo(300);
    b.charge(200, "more", 30);
    assertThat(b.used()).isEqualTo(500);
  }

  @Test
  void aHeldRefusalSaysTheBytesWereHeldForTheDuplicateCheck() {
    RetainedBudget b = new RetainedBudget(100);
    ReaException e = catchThrowableOfType(ReaException.class, () -> b.chargeHeld(101, "x[\"k\"]", 7));
    assertThat(e.constraint()).isEqualTo(Constraint.RETAINED_BUDGET);
    assertThat(e.getMessage())
        .isEqualTo(
            "holding x[\"k\"] (offset 7) while its object is checked for duplicate keys would"
                + " exceed the retained representation budget of 100 bytes (0 bytes used, 101 more"
                + " requested, 1 bytes over)");
    assertThat(e.field()).isEqualTo("x[\"k\"]");
    assertThat(e.offset()).isEqualTo(7L);
    assertThat(b.used()).isZero();
  }

  @Test
  void releasingMoreThanIsUsedIsAProgrammingError() throws Exception {
    RetainedBudget b = new RetainedBudget(100);
    b.chargeHeld(10, "x", 0);
    assertThatThrownBy(() -> b.release(11)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.release(-1)).isInstanceOf(IllegalArgumentException.class);
    assertThat(b.used()).isEqualTo(10);
  }
}
