package dev.rea.core.hostile;

import com.sun.management.GarbageCollectionNotificationInfo;
import dev.rea.core.evidence.EvidenceRecord;
import dev.rea.core.internal.inspect.ModelInspector;
import dev.rea.core.options.HashMode;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * Child-JVM entry point of {@link HeaderHeapTest}: inspects one file (header mode) and prints
 * {@code peak_heap_bytes=... header_length=... tensors=... metadata=...}. The peak is the largest
 * heap occupancy seen: heap use just before every garbage collection (from GC notifications) and
 * at the end, whichever is larger. Exits 1 with the failure on stderr when the inspection fails.
 */
public final class HeapProbe {
  private HeapProbe() {}

  public static void main(String[] args) throws Exception {
    AtomicLong peak = new AtomicLong();
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) gc)
          .addNotificationListener(
              (notification, handback) -> {
                if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
                    notification.getType())) {
                  return;
                }
                GarbageCollectionNotificationInfo info =
                    GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
                long before = 0;
                for (Map.Entry<String, MemoryUsage> e : info.getGcInfo().getMemoryUsageBeforeGc().entrySet()) {
                  if (isHeapPool(e.getKey())) {
                    before += e.getValue().getUsed();
                  }
                }
                peak.accumulateAndGet(before, Math::max);
              },
              null,
              null);
    }
    System.gc();
    long baseline = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    EvidenceRecord r;
    try {
      r = ModelInspector.standard().inspect(Path.of(args[0]).toAbsolutePath(), HashMode.HEADER);
    } catch (Exception | Error e) {
      e.printStackTrace();
      System.exit(1);
      return;
    }
    long end = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    peak.accumulateAndGet(end, Math::max);
    // Notifications are delivered asynchronously: let the last ones arrive.
    Thread.sleep(500);
    System.out.println(
        "peak_heap_bytes="
            + peak.get()
            + " baseline_heap_bytes="
            + baseline
            + " header_length="
            + r.artifact().headerLength()
            + " tensors="
            + r.tensors().size()
            + " metadata="
            + r.metadata().size()
            + " max_heap_bytes="
            + Runtime.getRuntime().maxMemory());
  }

  private static boolean isHeapPool(String name) {
    for (var pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getName().equals(name)) {
        return pool.getType() == java.lang.management.MemoryType.HEAP;
      }
    }
    return false;
  }
}
