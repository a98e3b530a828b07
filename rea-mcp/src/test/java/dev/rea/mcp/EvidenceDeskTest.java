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
}
