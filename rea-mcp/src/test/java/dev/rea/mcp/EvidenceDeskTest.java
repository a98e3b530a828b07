package dev.rea.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rea.core.LoadedEvidence;
import dev.rea.core.Rea;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.evidence.EvidenceJson;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.HashMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Evidence sources are read and authenticated one at a time: calls that arrive together wait for
 * each other, so the memory an import takes (in proportion to its input) does not add up.
 */
class EvidenceDeskTest {
  @TempDir Path dir;

  @Test
  void evidenceLoadsThatArriveTogetherRunOneAtATime() throws Exception {
    EvidenceDesk desk = new EvidenceDesk(Rea.builder().home(dir.resolve("home")).build(), 32L << 20);
    Path model = TinyGguf.write(dir.resolve("m.gguf"), 4, 3000, 0);
    EvidenceRecord record = desk.sign(ModelInspector.standard().inspect(model, HashMode.HEADER));
    Path file = Files.write(dir.resolve("ev.json"), EvidenceJson.recordBytes(record, true));
    int callers = 4;
    ExecutorService pool = Executors.newFixedThreadPool(callers);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<LoadedEvidence>> loads = new ArrayList<>();
      for (int i = 0; i < callers; i++) {
        boolean fromFile = i % 2 == 0;
        loads.add(
            pool.submit(
                () -> {
                  start.await();
                  return fromFile ? desk.loadFile(file) : desk.load(Files.readAllBytes(file));
                }));
      }
      start.countDown();
      for (Future<LoadedEvidence> f : loads) {
        LoadedEvidence loaded = f.get(120, TimeUnit.SECONDS);
        assertThat(loaded.records().get(0).evidenceId()).isEqualTo(record.evidenceId());
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(desk.mostLoadsAtOnce()).isEqualTo(1);
  }

  /**
   * Imports of bundles and of set bundles, and sources given as set bundles, all take their turn:
   * each is one load under the lock, retention included, never two at once.
   */
  @Test
  void importsOfBundlesAndSetBundlesTakeTheirTurnWithTheirRetention() throws Exception {
    Rea rea = Rea.builder().home(dir.resolve("home")).build();
    EvidenceDesk desk = new EvidenceDesk(rea, 32L << 20);
    Path model = TinyGguf.write(dir.resolve("m.gguf"), 4, 3000, 0);
    EvidenceRecord record = desk.sign(ModelInspector.standard().inspect(model, HashMode.HEADER));
    Path bundle = Files.write(dir.resolve("bundle.json"), Rea.bundleJson(List.of(record)));
    List<Path> members = dev.rea.core.testing.SetFixtures.ggufSplit(dir, "s", 2, 1, 1);
    dev.rea.core.evidence.SetInspection.Complete set =
        rea.sign(rea.inspectSetSigned(members.get(0), dev.rea.core.options.InspectOptions.defaults(), null).orThrow());
    Path setBundle = dir.resolve("set.json");
    rea.writeSetEvidence(setBundle, set.set(), set.members());
    int callers = 6;
    ExecutorService pool = Executors.newFixedThreadPool(callers);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> calls = new ArrayList<>();
      for (int i = 0; i < callers; i++) {
        int kind = i % 3;
        calls.add(
            pool.submit(
                () -> {
                  start.await();
                  return switch (kind) {
                    case 0 -> desk.importBundleFile(bundle);
                    case 1 -> desk.importBundleFile(setBundle);
                    default -> desk.loadSetFile(setBundle).evidenceId();
                  };
                }));
      }
      start.countDown();
      for (Future<?> f : calls) {
        assertThat(f.get(120, TimeUnit.SECONDS)).isNotNull();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(desk.loadsRun()).isEqualTo(callers);
    assertThat(desk.mostLoadsAtOnce()).isEqualTo(1);
  }
}
