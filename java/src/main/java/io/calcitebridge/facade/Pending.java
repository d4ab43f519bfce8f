package io.calcitebridge.facade;

import io.calcitebridge.errors.Errors;
import io.calcitebridge.errors.Stop;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A statement running on a worker thread. The caller polls {@link #waitFor} in short slices so that
 * it stays responsive (Python handles Ctrl-C between two polls) and may {@link #cancel}.
 */
public final class Pending<T> {
  private final Future<T> future;
  private final AtomicBoolean cancelFlag;

  Pending(Future<T> future, AtomicBoolean cancelFlag) {
    this.future = future;
    this.cancelFlag = cancelFlag;
  }

  /** Waits up to {@code millis}; returns whether the statement has finished. */
  public boolean waitFor(long millis) {
    try {
      future.get(millis, TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (ExecutionException | CancellationException e) {
      return true;
    }
  }

  /**
   * The result, when the statement ends within {@code millis} by itself; else this pending, for the
   * caller to wait for in slices ({@link #waitFor}). A statement that was stopped (cancelled, past
   * its timeout) gives this pending too, so that the caller stops its own code on the worker as it
   * does after a wait. Most statements end within a first slice: one call then does the work of a
   * wait, a check and a result. Throws the translated failure of a statement that failed.
   */
  public @Nullable Object resultWithin(long millis) {
    if (waitFor(millis) && !stopped()) {
      return result();
    }
    return this;
  }

  /** The result; throws the translated failure. */
  public T result() {
    try {
      return future.get();
    } catch (ExecutionException e) {
      throw Errors.translate(e.getCause());
    } catch (CancellationException | InterruptedException e) {
      if (Stop.hasReason(cancelFlag)) {
        throw Stop.stopped(cancelFlag); // its timeout, say
      }
      throw Errors.translate(e);
    }
  }

  /**
   * The name of the worker thread running the statement now, or "": the host interrupts the code of
   * its own that the statement runs there (a Python source).
   */
  public String workerName() {
    return cancelFlag instanceof Stop ? ((Stop) cancelFlag).workerName() : "";
  }

  /**
   * Whether the host may interrupt its own code that the statement runs on worker {@code name} now;
   * if so, the host calls {@link #endHostInterrupt} once it has, and the worker settles the
   * interruption before it takes other work (see {@link Workers.ThreadHooks#settle}).
   */
  public boolean beginHostInterrupt(String name) {
    return cancelFlag instanceof Stop && ((Stop) cancelFlag).beginHostInterrupt(name);
  }

  /** Says the interruption that {@link #beginHostInterrupt} allowed has been made. */
  public void endHostInterrupt() {
    if (cancelFlag instanceof Stop) {
      ((Stop) cancelFlag).endHostInterrupt();
    }
  }

  /**
   * Whether the statement was asked to stop (cancelled, or past its timeout): only then does the
   * host interrupt its code on the worker; a statement that ended by itself leaves it alone.
   */
  public boolean stopped() {
    return cancelFlag.get() || Stop.hasReason(cancelFlag);
  }

  /** Asks the statement to stop: sets Calcite's cancel flag and interrupts the worker. */
  public void cancel() {
    cancelFlag.set(true);
    future.cancel(true);
  }
}
