package io.calcitebridge.facade;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

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

  private Workers() {}

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
    POOL.shutdownNow();
    return POOL.awaitTermination(millis, TimeUnit.MILLISECONDS);
  }

  private static final class Factory implements ThreadFactory {
    private final AtomicInteger count = new AtomicInteger();

    @Override
    public Thread newThread(Runnable r) {
      Thread t = new Thread(null, r, "calcite-bridge-" + count.incrementAndGet(), STACK_BYTES);
      t.setDaemon(true);
      t.setContextClassLoader(Workers.class.getClassLoader());
      return t;
    }
  }
}
