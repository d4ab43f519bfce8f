package io.calcitebridge.facade;

import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.errors.Stop;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Stops statements that run past their time: at the deadline the statement's {@link Stop} flag is
 * set with a timeout error (Calcite's planners and the scans stop at their next check) and its
 * worker thread is interrupted while it still runs the statement.
 */
final class Deadlines {
  private static final ScheduledThreadPoolExecutor TIMER = timer();

  private Deadlines() {}

  private static ScheduledThreadPoolExecutor timer() {
    ScheduledThreadPoolExecutor t =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread thread = new Thread(r, "calcite-bridge-deadlines");
              thread.setDaemon(true);
              return thread;
            });
    t.setRemoveOnCancelPolicy(true);
    return t;
  }

  /** A deadline that can be called off. */
  static final class Deadline {
    private final @Nullable ScheduledFuture<?> timer;

    private Deadline(@Nullable ScheduledFuture<?> timer) {
      this.timer = timer;
    }

    /** Calls the deadline off (the statement's work, or its phase, is over). */
    void cancel() {
      if (timer != null) {
        timer.cancel(false);
      }
    }
  }

  /** A deadline that never comes. */
  static final Deadline NONE = new Deadline(null);

  /**
   * In {@code millis} (none when 0) stops {@code stop} with {@code message} and interrupts {@code
   * work} if it still runs.
   */
  static Deadline after(
      long millis,
      Stop stop,
      String message,
      java.util.function.Supplier<@Nullable Future<?>> work) {
    if (millis <= 0) {
      return NONE;
    }
    return new Deadline(
        TIMER.schedule(
            () -> {
              if (stop.get()) {
                return; // already stopped or cancelled
              }
              stop.stop(ErrorKind.TIMEOUT, message);
              Future<?> f = work.get();
              if (f != null) {
                f.cancel(true);
              }
            },
            millis,
            TimeUnit.MILLISECONDS));
  }

  /** How a limit of {@code millis} reads in an error message. */
  static String describe(long millis) {
    return millis % 1000 == 0 ? (millis / 1000) + " s" : millis + " ms";
  }
}
