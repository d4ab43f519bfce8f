package io.calcitebridge.facade;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.Stop;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryNotificationInfo;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import javax.management.NotificationEmitter;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Stops statements before the JVM's heap runs out, and those that grow the heap past their {@code
 * execution.memory-limit}. When the heap's old generation is still more than {@link #THRESHOLD}
 * full after a garbage collection, every statement that runs or whose rows are still read is
 * stopped with a {@link ErrorKind#RESOURCE} error; their scans stop at the next row, so a sort or a
 * join that gathers rows lets go of them. An {@code OutOfMemoryError} that happens nonetheless is
 * translated to the same kind.
 *
 * <p>A statement with an {@code execution.memory-limit} ({@link #limit}) is also stopped, with a
 * {@link ErrorKind#RESOURCE} error naming the setting, when after a garbage collection the heap
 * holds more than that limit over what it held as the statement began: the rows a sort, a join or
 * an aggregate of Calcite's engine gathers live on the heap, where the Arrow allocator of its
 * result does not see them. Every collection, young ones included, is looked at, so the statement
 * stops within a collection of reaching its limit. The growth is the whole heap's: statements
 * running at the same time count towards each other's limits.
 */
final class MemoryGuard {
  /** The share of the old generation that, still used after a collection, stops statements. */
  static final double THRESHOLD = 0.8;

  private static final Map<Stop, Boolean> LIVE = Collections.synchronizedMap(new WeakHashMap<>());

  /** A statement's limit and the heap, in bytes, it began with. */
  private record Budget(long limit, long baseline) {}

  private static final Map<Stop, Budget> LIMITED = Collections.synchronizedMap(new WeakHashMap<>());

  /**
   * The JMX listeners, registered when the first statement that can gather rows begins ({@link
   * #running}), not when the class loads: looking up the collectors' management beans cost a first
   * validate, which gathers no rows, a tenth of its time. Class initialisation runs it once, and a
   * statement that begins while another thread registers them waits for it.
   */
  private static final class Listeners {
    static {
      install();
    }

    private Listeners() {}

    static void ensure() {
      // The class's initialiser does the work; the JVM runs it once, before this returns.
    }
  }

  /**
   * Called as a statement that can gather rows begins (a query, DML, a script; not a validate or an
   * explain): the heap's watch is on from then on.
   */
  static void running() {
    Listeners.ensure();
  }

  private MemoryGuard() {}

  /**
   * Watches {@code stop}'s statement until it is garbage; the heap's watch begins with the first
   * statement that can gather rows ({@link #running}).
   */
  static void watch(Stop stop) {
    LIVE.put(stop, Boolean.TRUE);
  }

  /**
   * Stops {@code flag}'s statement once the heap grows by more than {@code bytes} (none when 0)
   * over what it holds now.
   */
  static void limit(java.util.concurrent.atomic.AtomicBoolean flag, long bytes) {
    running();
    if (bytes > 0 && flag instanceof Stop stop) {
      LIMITED.put(stop, new Budget(bytes, liveHeap(null)));
    }
  }

  /**
   * Bytes of the heap outside its allocation space (eden): what survived the collections, which the
   * rows a statement gathers soon are. From {@code afterGc} (by pool) when given, else now.
   */
  private static long liveHeap(@Nullable Map<String, MemoryUsage> afterGc) {
    long used = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() != MemoryType.HEAP
          || pool.getName().toLowerCase(java.util.Locale.ROOT).contains("eden")) {
        continue;
      }
      MemoryUsage usage = afterGc != null ? afterGc.get(pool.getName()) : pool.getUsage();
      if (usage != null) {
        used += usage.getUsed();
      }
    }
    return used;
  }

  /** Looks at every statement's limit after each collection. */
  private static void watchCollections() {
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (!(gc instanceof NotificationEmitter emitter)) {
        continue;
      }
      emitter.addNotificationListener(
          (notification, handback) -> {
            if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
                    notification.getType())
                || LIMITED.isEmpty()) {
              return;
            }
            GarbageCollectionNotificationInfo info =
                GarbageCollectionNotificationInfo.from(
                    (javax.management.openmbean.CompositeData) notification.getUserData());
            stopOverLimit(liveHeap(info.getGcInfo().getMemoryUsageAfterGc()));
          },
          null,
          null);
    }
  }

  private static void stopOverLimit(long live) {
    List<Map.Entry<Stop, Budget>> budgets;
    synchronized (LIMITED) {
      budgets = new ArrayList<>(LIMITED.entrySet());
    }
    for (Map.Entry<Stop, Budget> e : budgets) {
      Budget b = e.getValue();
      Stop s = e.getKey();
      if (s != null && !s.get() && live - b.baseline() > b.limit()) {
        s.stop(
            ErrorKind.RESOURCE,
            "Out of memory: the statement's rows reached execution.memory-limit ("
                + (b.limit() >> 20)
                + " MB): the JVM's heap grew by "
                + ((live - b.baseline()) >> 20)
                + " MB as it ran (rows a sort, a join or an aggregate gathers), so it was"
                + " stopped. Raise execution.memory-limit or make the statement gather fewer rows");
      }
    }
  }

  private static void install() {
    try {
      watchCollections();
    } catch (RuntimeException | LinkageError e) {
      // Without it execution.memory-limit counts the result's Arrow buffers only.
    }
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
