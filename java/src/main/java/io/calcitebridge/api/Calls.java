package io.calcitebridge.api;

import io.calcitebridge.arrow.ArrowMemory;
import io.calcitebridge.arrow.GuardedReader;
import io.calcitebridge.errors.BridgeError;
import io.calcitebridge.errors.Errors;
import io.calcitebridge.facade.Pending;
import io.calcitebridge.facade.StatementResult;
import java.util.function.Supplier;
import org.apache.arrow.vector.ipc.ArrowReader;

/** How {@link BridgeEnvironment} calls the facade: waits, cancellation and error translation. */
final class Calls {
  private Calls() {}

  /** The statement's result; an interrupt of the caller cancels the statement. */
  static <T> T await(Pending<T> pending) {
    return get(
        () -> {
          while (!pending.waitFor(200)) {
            if (Thread.currentThread().isInterrupted()) {
              pending.cancel();
              break;
            }
          }
          return pending.result();
        });
  }

  /**
   * The rows of a statement; a failure while they stream surfaces from {@link
   * ArrowReader#loadNextBatch()} as a {@link BridgeException}.
   */
  static ArrowReader rows(Pending<StatementResult> pending) {
    ArrowReader imported = await(pending).toReader();
    return new GuardedReader(
        ArrowMemory.allocator(), imported, t -> toPublic(Errors.translateRunning(t)));
  }

  static <T> T get(Supplier<T> call) {
    try {
      return call.get();
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
      throw toPublic(e);
    }
  }

  static void run(Runnable call) {
    get(
        () -> {
          call.run();
          return null;
        });
  }

  /** {@code t}, translated, as the public exception. */
  static BridgeException toPublic(Throwable t) {
    if (t instanceof BridgeException) {
      return (BridgeException) t;
    }
    BridgeError e = Errors.translate(t);
    return new BridgeException(
            BridgeException.Kind.valueOf(e.kind()),
            e.getMessage(),
            e.line(),
            e.column(),
            e.endLine(),
            e.endColumn(),
            e.getCause() == null ? e : e.getCause())
        .withDetail(e.detail());
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
