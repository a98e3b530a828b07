package dev.rea.core.internal.set;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.Rea;
import dev.rea.core.SetSpool;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.evidence.SetInspection;
import dev.rea.core.options.InspectOptions;
import dev.rea.core.testing.SetFixtures;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The set bundle is the same bytes whether the members are inspected ahead on worker threads and
 * streamed through a {@link SetSpool} (what {@code inspect-model-set --json} does) or inspected
 * one after another on the caller's thread and held until the bundle is written whole.
 */
class SetStreamingBytesTest {
  @TempDir Path dir;

  private final Rea rea = Rea.builder()
      .clock(Clock.fixed(Instant.parse("2026-12-01T12:00:00Z"), ZoneOffset.UTC))
      .build();

  @Test
  void streamedAheadBundleEqualsHeldSequentialBundle() throws Exception {
    SetFixtures.Checkpoint c = SetFixtures.checkpoint(dir, 7, 5);

    byte[] streamed;
    List<Integer> order = new ArrayList<>();
    try (SetSpool spool = rea.newSetSpool()) {
      SetInspection r = rea.inspectSet(c.index, InspectOptions.defaults(), (k, rec) -> {
        order.add(k);
        spool.accept(k, rec);
      });
      SetInspection.Complete done = r.orThrow();
      assertThat(done.members()).isEmpty();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      spool.writeBundle(out, rea.sign(done.set()));
      streamed = out.toByteArray();
    }
    assertThat(order).containsExactly(0, 1, 2, 3, 4, 5, 6);

    byte[] held;
    String before = System.getProperty("rea.set.ahead");
    System.setProperty("rea.set.ahead", "false");
    try {
      SetInspection.Complete done =
          rea.sign(rea.inspectSet(c.index, InspectOptions.defaults()).orThrow());
      assertThat(done.members()).hasSize(7);
      List<EvidenceRecord> members = done.members();
      held = Rea.setBundleJson(done.set(), members);
    } finally {
      if (before == null) {
        System.clearProperty("rea.set.ahead");
      } else {
        System.setProperty("rea.set.ahead", before);
      }
    }
    assertThat(streamed.length).isGreaterThan(7 * 200);
    assertThat(new String(streamed, java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo(new String(held, java.nio.charset.StandardCharsets.UTF_8));
  }
}
