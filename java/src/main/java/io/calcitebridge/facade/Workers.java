package io.calcitebridge.facade;

import io.calcitebridge.errors.BridgeError;
import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.Stop;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The threads that parse, validate, plan and run statements. Each has a large stack (deeply nested
 * SQL overflows a caller thread's stack at about a thousand terms) and the bridge's class loader as
 * its context class loader (Janino needs it). Threads are daemons and die when idle.
 */
public final class Workers {
  /** Stack size of a worker thread. */
  public static final long STACK_BYTES = 256L * 1024 * 1024;

  /** How many statements run at once; more wait in a queue of {@link #QUEUED} places. */
  public static final int THREADS = 64;

  /** How many statements may wait for a worker; past them a statement fails as RESOURCE. */
  public static final int QUEUED = 10_000;

  private static final Pool POOL = pool();

  private static volatile @Nullable ThreadHooks hooks;
  private static volatile boolean stopping;

  private Workers() {}

  /**
   * A pool that starts a thread only when no idle one can take the statement. (A pool of {@link
   * #THREADS} core threads started a new one for each of its first 64 statements, even one at a
   * time: each a 256 MB stack reserved, and a Python thread state once it called a source.)
   */
  private static Pool pool() {
    WorkQueue queue = new WorkQueue();
    Pool p = new Pool(queue);
    queue.pool = p;
    return p;
  }

  /** The pool, counting the statements it holds, running or queued. */
  private static final class Pool extends ThreadPoolExecutor {
    final AtomicInteger submitted = new AtomicInteger();

    Pool(WorkQueue queue) {
      super(
          0,
          THREADS,
          30,
          TimeUnit.SECONDS,
          queue,
          new Factory(),
          (task, pool) -> {
            // Every thread is busy: the statement waits its turn, if there is room.
            if (pool.isShutdown() || !queue.force(task)) {
              throw new RejectedExecutionException("the queue is full");
            }
          });
    }

    @Override
    public void execute(Runnable command) {
      lastActivity = System.nanoTime();
      submitted.incrementAndGet();
      try {
        super.execute(command);
      } catch (RuntimeException | Error e) {
        submitted.decrementAndGet();
        throw e;
      }
    }

    @Override
    protected void afterExecute(Runnable r, @Nullable Throwable t) {
      lastActivity = System.nanoTime();
      submitted.decrementAndGet();
    }
  }

  /** When a statement last began or ended ({@link System#nanoTime}). */
  private static volatile long lastActivity = System.nanoTime();

  /** Whether a statement runs or waits for a worker now. */
  static boolean busy() {
    return POOL.submitted.get() > 0;
  }

  /** The nanoseconds since a statement last began or ended. */
  static long quietNanos() {
    return System.nanoTime() - lastActivity;
  }

  /**
   * The queue of statements waiting for a thread: it refuses a statement while the pool may start a
   * thread and none is idle, so that the pool starts one.
   */
  private static final class WorkQueue extends LinkedBlockingQueue<Runnable> {
    private static final long serialVersionUID = 1L;
    transient volatile @Nullable Pool pool;

    WorkQueue() {
      super(QUEUED);
    }

    @Override
    public boolean offer(Runnable task) {
      Pool p = pool;
      if (p != null && p.submitted.get() > p.getPoolSize() && p.getPoolSize() < THREADS) {
        return false;
      }
      return super.offer(task);
    }

    boolean force(Runnable task) {
      return super.offer(task);
    }
  }

  /**
   * What the host process runs on each worker thread as it starts and as it ends. Python uses it to
   * give every worker one Python thread state for its lifetime, instead of one per call into a
   * Python source.
   */
  public interface ThreadHooks {
    /**
     * Runs first on a new worker thread, named {@code threadName} (the host need not ask Java for
     * it).
     */
    void started(String threadName);

    /** Runs last on a worker thread that ends while the process keeps running. */
    void ending();

    /**
     * Runs on a worker after a statement whose host code there was interrupted, before the worker
     * takes other work: the host takes back the interruption if that code had already returned. A
     * failure it throws (the interruption itself) is ignored.
     */
    void settle();
  }

  /** Sets the hooks of the worker threads started from now on. */
  public static void setThreadHooks(@Nullable ThreadHooks threadHooks) {
    hooks = threadHooks;
  }

  /**
   * Waits, at most {@code maxMillis}, until {@code running} (a count of statements of some kind) is
   * zero: background work (the warm-up) steps aside between its steps for such statements.
   */
  static void awaitNone(AtomicInteger running, long maxMillis) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxMillis);
    while (running.get() > 0 && System.nanoTime() < end) {
      Thread.sleep(2);
    }
  }

  /** Runs {@code task} on a worker thread. */
  public static <T> Pending<T> submit(Callable<T> task) {
    AtomicBoolean cancelFlag = new AtomicBoolean();
    return new Pending<>(queue(task), cancelFlag);
  }

  /** Runs {@code task} on a worker thread, handing it the cancel flag of the statement. */
  public static <T> Pending<T> submit(Function<AtomicBoolean, T> task) {
    return submit(task, 0);
  }

  /**
   * Runs {@code task} on a worker thread, handing it the cancel flag of the statement, which fails
   * with a timeout error once {@code timeoutMillis} (none when 0) have passed since now, waiting in
   * the queue included; so do the rows it returns, while they are read.
   */
  public static <T> Pending<T> submit(Function<AtomicBoolean, T> task, long timeoutMillis) {
    Stop stop = new Stop();
    MemoryGuard.watch(stop);
    AtomicReference<@Nullable Future<?>> running = new AtomicReference<>();
    String message =
        "The statement ran longer than its timeout ("
            + Deadlines.describe(timeoutMillis)
            + ", execution.timeout) and was stopped";
    if (timeoutMillis > 0) {
      stop.deadline(System.currentTimeMillis() + timeoutMillis, message);
    }
    Deadlines.Deadline deadline = Deadlines.after(timeoutMillis, stop, message, running::get);
    Future<T> future;
    long queued = io.calcitebridge.plan.PhaseTimes.startElapsed();
    try {
      future =
          queue(
              () -> {
                io.calcitebridge.plan.PhaseTimes.endElapsed("handoff to a worker", queued);
                long started = io.calcitebridge.plan.PhaseTimes.start();
                try {
                  return guarded(stop, task);
                } finally {
                  io.calcitebridge.plan.PhaseTimes.end("on the worker", started);
                  io.calcitebridge.plan.PhaseTimes.leaveWorker();
                }
              });
    } catch (RuntimeException e) {
      deadline.cancel();
      throw e;
    }
    running.set(future);
    Future<T> submitted = future;
    stop.onStop(() -> submitted.cancel(true));
    return new Pending<>(future, stop);
  }

  /**
   * Stops {@code stop}, the flag of a statement that runs on the caller's thread, with a timeout
   * error once {@code timeoutMillis} (none when 0) have passed; returns the deadline, to call off
   * when the statement does not run after all.
   */
  public static Deadlines.Deadline stopAfter(Stop stop, long timeoutMillis) {
    MemoryGuard.watch(stop);
    if (timeoutMillis <= 0) {
      return Deadlines.NONE;
    }
    String message =
        "The statement ran longer than its timeout ("
            + Deadlines.describe(timeoutMillis)
            + ", execution.timeout) and was stopped";
    stop.deadline(System.currentTimeMillis() + timeoutMillis, message);
    return Deadlines.after(timeoutMillis, stop, message, () -> null);
  }

  /**
   * Runs {@code task} with {@code stop} as the statement's flag; once the flag is set, whatever the
   * task failed with becomes the reason it was stopped (a timeout, a cancel).
   */
  private static <T> T guarded(Stop stop, Function<AtomicBoolean, T> task) {
    Stop.setCurrent(stop);
    try {
      return task.apply(stop);
    } catch (RuntimeException | Error e) {
      if (stop.get()) {
        RuntimeException reason = Stop.stopped(stop);
        reason.addSuppressed(e);
        throw reason;
      }
      throw e;
    } finally {
      leave(stop);
    }
  }

  /** Ends {@code stop}'s time on this worker, settling a host interruption made during it. */
  private static void leave(Stop stop) {
    boolean interrupted;
    try {
      interrupted = stop.leaveWorker();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      interrupted = true;
    } finally {
      Stop.setCurrent(null);
    }
    ThreadHooks h = hooks;
    if (interrupted && h != null) {
      try {
        h.settle();
      } catch (RuntimeException e) {
        // The interruption itself, raised in the hook instead of in the next statement.
      }
    }
  }

  private static <T> Future<T> queue(Callable<T> task) {
    try {
      return POOL.submit(task);
    } catch (RejectedExecutionException e) {
      throw new BridgeError(
          ErrorKind.RESOURCE,
          stopping
              ? "The process is exiting: no new statement runs"
              : "Too many statements at once: "
                  + THREADS
                  + " run and "
                  + QUEUED
                  + " wait already; run this one when others have finished",
          e);
    }
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
      h.started(Thread.currentThread().getName());
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
