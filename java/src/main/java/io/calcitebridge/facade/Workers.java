package io.calcitebridge.facade;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The threads that parse, validate, plan and run statements. Each has a large stack (deeply nested
 * SQL overflows a caller thread's stack at about a thousand terms) and the bridge's class loader as
 * its context class loader (Janino needs it). Threads are daemons and die when idle.
 */
public final class Workers {
  /** Stack size of a worker thread. */
  public static final long STACK_BYTES = 256L * 1024 * 1024;

  private static final ExecutorService POOL =
      new ThreadPoolExecutor(0, 64, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), new Factory());

  private static volatile @Nullable ThreadHooks hooks;
  private static volatile boolean stopping;

  private Workers() {}

  /**
   * What the host process runs on each worker thread as it starts and as it ends. Python uses it to
   * give every worker one Python thread state for its lifetime, instead of one per call into a
   * Python source.
   */
  public interface ThreadHooks {
    /** Runs first on a new worker thread. */
    void started();

    /** Runs last on a worker thread that ends while the process keeps running. */
    void ending();
  }

  /** Sets the hooks of the worker threads started from now on. */
  public static void setThreadHooks(@Nullable ThreadHooks threadHooks) {
    hooks = threadHooks;
  }

  /** Runs {@code task} on a worker thread. */
  public static <T> Pending<T> submit(Callable<T> task) {
    AtomicBoolean cancelFlag = new AtomicBoolean();
    return new Pending<>(POOL.submit(task), cancelFlag);
  }

  /** Runs {@code task} on a worker thread, handing it the cancel flag of the statement. */
  public static <T> Pending<T> submit(java.util.function.Function<AtomicBoolean, T> task) {
    AtomicBoolean cancelFlag = new AtomicBoolean();
    return new Pending<>(POOL.submit(() -> task.apply(cancelFlag)), cancelFlag);
  }

  /**
   * Stops taking work and waits up to {@code millis} for running statements to end; called as the
   * process exits, so that no worker is mid-statement when the JVM goes away.
   */
  public static boolean quiesce(long millis) throws InterruptedException {
    stopping = true;
    POOL.shutdownNow();
    return POOL.awaitTermination(millis, TimeUnit.MILLISECONDS);
  }

  private static void withHooks(ThreadHooks h, Runnable r) {
    try {
      h.started();
    } catch (RuntimeException e) {
      // The thread still works without its hook, only less frugally.
    }
    try {
      r.run();
    } finally {
      // As the process exits the host may already be gone; the thread state dies with it.
      if (!stopping) {
        try {
          h.ending();
        } catch (RuntimeException e) {
          // Nothing more to free.
        }
      }
    }
  }

  private static final class Factory implements ThreadFactory {
    private final AtomicInteger count = new AtomicInteger();

    @Override
    public Thread newThread(Runnable r) {
      ThreadHooks h = hooks;
      Runnable body = h == null ? r : () -> withHooks(h, r);
      Thread t = new Thread(null, body, "calcite-bridge-" + count.incrementAndGet(), STACK_BYTES);
      t.setDaemon(true);
      t.setContextClassLoader(Workers.class.getClassLoader());
      return t;
    }
  }
}
