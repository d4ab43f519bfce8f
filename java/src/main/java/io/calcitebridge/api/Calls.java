package io.calcitebridge.api;

import io.calcitebridge.facade.Errors;
import io.calcitebridge.facade.Pending;
import java.util.function.Supplier;

/** How {@link BridgeEnvironment} calls the facade: waits, cancellation and error translation. */
final class Calls {
  private Calls() {}

  /** The statement's result; an interrupt of the caller cancels the statement. */
  static <T> T await(Pending<T> pending) {
    while (!pending.waitFor(200)) {
      if (Thread.currentThread().isInterrupted()) {
        pending.cancel();
        break;
      }
    }
    return pending.result();
  }

  static <T> T get(Supplier<T> call) {
    try {
      return call.get();
    } catch (RuntimeException e) {
      throw Errors.translate(e);
    }
  }

  static void run(Runnable call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      throw Errors.translate(e);
    }
  }

  /** A row of {@code DESCRIBE}'s result. */
  static ColumnInfo columnInfo(Object[] r) {
    return new ColumnInfo(
        (String) r[0],
        (String) r[1],
        Boolean.TRUE.equals(r[2]),
        (String) r[3],
        (String) r[4],
        (Boolean) r[5],
        (String) r[6]);
  }
}
