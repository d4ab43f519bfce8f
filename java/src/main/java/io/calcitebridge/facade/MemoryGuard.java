package io.calcitebridge.facade;

import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.Stop;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryNotificationInfo;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import javax.management.NotificationEmitter;

/**
 * Stops statements before the JVM's heap runs out. When the heap's old generation is still more
 * than {@link #THRESHOLD} full after a garbage collection, every statement that runs or whose rows
 * are still read is stopped with a {@link ErrorKind#RESOURCE} error; their scans stop at the next
 * row, so a sort or a join that gathers rows lets go of them. An {@code OutOfMemoryError} that
 * happens nonetheless is translated to the same kind.
 */
final class MemoryGuard {
  /** The share of the old generation that, still used after a collection, stops statements. */
  static final double THRESHOLD = 0.8;

  private static final Map<Stop, Boolean> LIVE = Collections.synchronizedMap(new WeakHashMap<>());

  static {
    install();
  }

  private MemoryGuard() {}

  /** Watches {@code stop}'s statement until it is garbage. */
  static void watch(Stop stop) {
    LIVE.put(stop, Boolean.TRUE);
  }

  private static void install() {
    try {
      for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
        long max = pool.getUsage() == null ? -1 : pool.getUsage().getMax();
        if (pool.getType() == MemoryType.HEAP
            && pool.isCollectionUsageThresholdSupported()
            && max > 0
            && isOld(pool.getName())) {
          pool.setCollectionUsageThreshold((long) (max * THRESHOLD));
        }
      }
      NotificationEmitter emitter = (NotificationEmitter) ManagementFactory.getMemoryMXBean();
      emitter.addNotificationListener(
          (notification, handback) -> {
            if (MemoryNotificationInfo.MEMORY_COLLECTION_THRESHOLD_EXCEEDED.equals(
                notification.getType())) {
              stopAll();
            }
          },
          null,
          null);
    } catch (RuntimeException e) {
      // Without the watch an OutOfMemoryError is still translated; nothing more to do.
    }
  }

  private static boolean isOld(String pool) {
    String p = pool.toLowerCase(java.util.Locale.ROOT);
    return p.contains("old") || p.contains("tenured");
  }

  private static void stopAll() {
    Runtime rt = Runtime.getRuntime();
    String message =
        "Out of memory: the JVM's heap was more than "
            + Math.round(THRESHOLD * 100)
            + "% full after a collection ("
            + ((rt.totalMemory() - rt.freeMemory()) >> 20)
            + " of "
            + (rt.maxMemory() >> 20)
            + " MB), so the statement was stopped. Give the JVM more memory (-Xmx in"
            + " CALCITE_BRIDGE_JVM_OPTIONS) or make the statement gather fewer rows";
    List<Stop> stops;
    synchronized (LIVE) {
      stops = new ArrayList<>(LIVE.keySet());
    }
    for (Stop s : stops) {
      if (!s.get()) {
        s.stop(ErrorKind.RESOURCE, message);
      }
    }
  }
}
