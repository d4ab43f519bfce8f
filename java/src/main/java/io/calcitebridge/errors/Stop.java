package io.calcitebridge.errors;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The cancel flag of one statement, with why it was set: Calcite's engine, its planners ({@code
 * CancelFlag}) and the bridge's scans read it as a plain {@link AtomicBoolean}; whoever stops the
 * statement for a reason other than a cancel (its timeout, the memory guard) records the error the
 * caller gets. The first reason wins.
 */
public final class Stop extends AtomicBoolean {
  private static final long serialVersionUID = 1L;
  private static final ThreadLocal<@Nullable AtomicBoolean> CURRENT = new ThreadLocal<>();

  private volatile @Nullable ErrorKind kind;
  private volatile @Nullable String message;
  private volatile @Nullable Thread worker;
  private volatile @Nullable Runnable onStop;
  private volatile long deadlineMillis;
  private @Nullable CountDownLatch hostInterrupt; // guarded by this
  private volatile String deadlineMessage = "";

  /**
   * Records when the statement's time is up ({@link System#currentTimeMillis}) and the error it
   * then fails with, for a backend that runs the statement outside the JVM.
   */
  public void deadline(long atMillis, String text) {
    deadlineMillis = atMillis;
    deadlineMessage = text;
  }

  /** Milliseconds left before the deadline (0 once past), or -1 without one. */
  public long remainingMillis() {
    long at = deadlineMillis;
    return at == 0 ? -1 : Math.max(0, at - System.currentTimeMillis());
  }

  /** The error message of the deadline, or "". */
  public String deadlineMessage() {
    return deadlineMessage;
  }

  /** Sets the flag, with the error the statement fails with. */
  public void stop(ErrorKind why, String text) {
    Runnable then;
    synchronized (this) {
      if (kind == null && !get()) {
        kind = why;
        message = text;
      }
      set(true);
      then = onStop;
    }
    if (then != null) {
      then.run(); // the caller gets the error now, whatever the worker is doing
    }
  }

  /** What {@link #stop} does after setting the flag, such as cancelling the worker's future. */
  public void onStop(Runnable action) {
    onStop = action;
  }

  /** The error of a statement stopped by {@code flag}: its reason, else a cancellation. */
  public static RuntimeException stopped(@Nullable AtomicBoolean flag) {
    if (flag instanceof Stop) {
      Stop s = (Stop) flag;
      ErrorKind k = s.kind;
      String m = s.message;
      if (k != null && m != null) {
        return new BridgeError(k, m, null);
      }
    }
    return new CancellationException("The statement was cancelled");
  }

  /** Whether {@code flag} was stopped for a reason other than a cancel. */
  public static boolean hasReason(@Nullable AtomicBoolean flag) {
    return flag instanceof Stop && ((Stop) flag).kind != null;
  }

  /** The name of the thread that runs the statement now, or "" when none does. */
  public String workerName() {
    Thread t = worker;
    return t == null ? "" : t.getName();
  }

  /**
   * Called by the host before it interrupts its own code (a Python source) that the statement runs
   * on worker {@code name}: true when the statement still runs there. The worker then waits for
   * {@link #endHostInterrupt} as the statement leaves it, and settles the interruption before it
   * takes other work, so that an interruption meant for this statement never reaches the next.
   */
  public synchronized boolean beginHostInterrupt(String name) {
    Thread t = worker;
    if (t == null || !t.getName().equals(name) || hostInterrupt != null) {
      return false;
    }
    hostInterrupt = new CountDownLatch(1);
    return true;
  }

  /** Called by the host once the interruption that {@link #beginHostInterrupt} allowed is made. */
  public synchronized void endHostInterrupt() {
    CountDownLatch latch = hostInterrupt;
    if (latch != null) {
      latch.countDown();
    }
  }

  /**
   * Called on the worker as the statement leaves it: no interruption can begin from now on. Returns
   * whether the host interrupted the statement's code there (after waiting for it to finish doing
   * so); the worker must then settle that interruption.
   */
  public boolean leaveWorker() throws InterruptedException {
    CountDownLatch latch;
    synchronized (this) {
      worker = null;
      latch = hostInterrupt;
      hostInterrupt = null;
    }
    if (latch == null) {
      return false;
    }
    latch.await(5, TimeUnit.SECONDS); // the host is only making a call; never held for long
    return true;
  }

  /** The flag of the statement running on this thread, or null. */
  public static @Nullable AtomicBoolean current() {
    return CURRENT.get();
  }

  /**
   * Throws the error of the statement running on this thread once it is stopped ({@link #stopped}):
   * a check for code with no cancel hook of its own, such as Calcite's validator and
   * SQL-to-relational conversion.
   */
  public static void checkCurrent() {
    AtomicBoolean flag = CURRENT.get();
    if (flag != null && flag.get()) {
      throw stopped(flag);
    }
  }

  /** Makes {@code flag} the one of the statement on this thread (null: none). */
  public static void setCurrent(@Nullable AtomicBoolean flag) {
    AtomicBoolean previous = CURRENT.get();
    if (previous instanceof Stop) {
      ((Stop) previous).worker = null;
    }
    if (flag == null) {
      CURRENT.remove();
    } else {
      CURRENT.set(flag);
      if (flag instanceof Stop) {
        ((Stop) flag).worker = Thread.currentThread();
      }
    }
  }
}
