package io.calcitebridge.gateway;

import io.calcitebridge.facade.Pending;
import io.calcitebridge.facade.StatementResult;
import io.calcitebridge.facade.Workers;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One statement of a remote session. Its answer is fetched in slices of time: {@link #fetch}
 * returns null while the statement (or the production of the next chunk of its rows) is still
 * running, so the Python caller stays responsive and may {@link #cancel} it. Chunks are produced on
 * a worker thread, like the statement itself, so a slow query can be cancelled while its rows are
 * being read too.
 */
final class RemoteStatement {
  private final Pending<?> pending;
  private @Nullable IpcChunks chunks;
  private @Nullable Pending<byte[]> next;
  private boolean finished;

  RemoteStatement(Pending<?> pending) {
    this.pending = pending;
  }

  /**
   * Waits up to {@code millis}; null if the answer is not ready yet. The answer is the next chunk
   * of the rows (see {@link IpcChunks}) or, for a statement without rows, its value as UTF-8 text.
   * Throws the statement's failure, translated.
   */
  synchronized byte @Nullable [] fetch(long millis, int chunkBytes) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    if (chunks == null) {
      if (!pending.waitFor(millis)) {
        return null;
      }
      Object value = pending.result();
      if (!(value instanceof StatementResult)) {
        finished = true;
        return String.valueOf(value).getBytes(StandardCharsets.UTF_8);
      }
      StatementResult result = (StatementResult) value;
      chunks = new IpcChunks(result.kind(), result.toReader());
    }
    IpcChunks rows = chunks;
    if (next == null) {
      next = Workers.submit(() -> rows.next(chunkBytes));
    }
    long left = Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
    if (!next.waitFor(left)) {
      return null;
    }
    Pending<byte[]> done = next;
    next = null;
    byte[] chunk = done.result();
    finished = rows.finished();
    return chunk;
  }

  /** Whether the whole answer was fetched. */
  synchronized boolean finished() {
    return finished;
  }

  /** Stops the statement, or the reading of its rows, and frees what it holds. */
  void cancel() {
    pending.cancel();
    Pending<byte[]> running;
    IpcChunks rows;
    synchronized (this) {
      running = next;
      rows = chunks;
      next = null;
    }
    if (running != null) {
      running.cancel();
    }
    if (rows != null) {
      // Closing waits for a chunk being written; never make the caller wait for it.
      Workers.submit(
          () -> {
            rows.close();
            return null;
          });
    }
  }
}
