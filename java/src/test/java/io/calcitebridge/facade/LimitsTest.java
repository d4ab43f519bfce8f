package io.calcitebridge.facade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.errors.BridgeError;
import io.calcitebridge.errors.ErrorKind;
import io.calcitebridge.statement.Limits;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Statement limits: timeouts, the worker pool's queue, the settings' text forms. */
class LimitsTest {
  @Test
  void moreStatementsThanWorkersWaitTheirTurn() {
    int n = Workers.THREADS + 16;
    List<Pending<Integer>> pending = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int v = i;
      pending.add(
          Workers.submit(
              cancel -> {
                try {
                  Thread.sleep(200);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                return v;
              }));
    }
    for (int i = 0; i < n; i++) {
      assertEquals(i, pending.get(i).result());
    }
  }

  @Test
  void aStatementPastItsTimeoutFailsAsTimeout() {
    Pending<Integer> p =
        Workers.submit(
            cancel -> {
              while (!cancel.get()) {
                Thread.onSpinWait();
              }
              throw new java.util.concurrent.CancellationException("stopped");
            },
            300);
    BridgeError e = assertThrows(BridgeError.class, p::result);
    assertEquals(ErrorKind.TIMEOUT, e.errorKind());
    assertTrue(e.getMessage().contains("timeout"), e.getMessage());
    assertTrue(p.stopped(), "a statement past its timeout was stopped");
  }

  @Test
  void aStatementThatEndsByItselfWasNotStopped() {
    // The host interrupts a statement's code on its worker only when it was stopped.
    Pending<Integer> done = Workers.submit(cancel -> 7, 60_000);
    assertEquals(7, done.result());
    assertFalse(done.stopped());
    Pending<Integer> failed =
        Workers.submit(
            cancel -> {
              throw new IllegalStateException("its own failure");
            });
    assertThrows(RuntimeException.class, failed::result);
    assertFalse(failed.stopped());
  }

  @Test
  void theRowsOfAQueryStopAtItsTimeout() throws Exception {
    try (BridgeSession s = new BridgeSession()) {
      s.execute("CREATE TABLE t (x BIGINT) WITH ('connector' = 'memory')").result().close();
      StringBuilder values = new StringBuilder("INSERT INTO t VALUES (0)");
      for (int i = 1; i < 3000; i++) {
        values.append(", (").append(i).append(")");
      }
      s.execute(values.toString()).result().close();
      s.setConfig("execution.timeout", "3 s");
      // 2.7 * 10^10 triples: the rows never come within the limit. On an idle machine the
      // timeout strikes while they are read; with both cores busy, planning alone may take the
      // 3 s, and then the query call raises it. Either way it comes within a few seconds.
      long start = System.nanoTime();
      RuntimeException e =
          assertThrows(
              RuntimeException.class,
              () -> {
                try (ArrowReader reader =
                    s.query("SELECT a.x FROM t a, t b, t c WHERE a.x + b.x + c.x < 0", "enumerable")
                        .result()
                        .toReader()) {
                  reader.loadNextBatch();
                }
              });
      assertTrue(e.getMessage().contains("timeout"), e.getMessage());
      assertTrue(System.nanoTime() - start < 11_000_000_000L);
    }
  }

  /**
   * A count over a join of 60 copies of {@code table} on {@code column}: planning 60 tables takes
   * several CPU-seconds once the JIT is warm (the planning case of tests/test_limits.py measures
   * it), over 100 times a budget of 50 ms, so no machine plans it in time.
   */
  static String sixtyTables(String table, String column) {
    StringBuilder from = new StringBuilder("SELECT COUNT(*) FROM " + table + " t0");
    StringBuilder where = new StringBuilder(" WHERE 1 = 1");
    for (int i = 1; i < 60; i++) {
      from.append(", ").append(table).append(" t").append(i);
      where.append(" AND t").append(i - 1).append('.').append(column);
      where.append(" = t").append(i).append('.').append(column).append(" + ").append(i);
    }
    return from.toString() + where;
  }

  @Test
  void theJavaApiTakesATimeoutPerStatement() {
    try (io.calcitebridge.api.BridgeEnvironment env =
        io.calcitebridge.api.BridgeEnvironment.create()) {
      env.execute("CREATE TABLE t (x BIGINT) WITH ('connector' = 'memory')").close();
      env.execute("INSERT INTO t VALUES (1), (2), (3)").close();
      String join = sixtyTables("t", "x");
      env.setConfig("planner.timeout", "50 ms");
      io.calcitebridge.api.BridgeException e =
          assertThrows(
              io.calcitebridge.api.BridgeException.class,
              () -> env.sql(join, java.time.Duration.ofMinutes(5)).close());
      assertEquals("TIMEOUT", e.kind());
      env.resetConfig("planner.timeout"); // a loaded machine may take 50 ms to plan any query
      try (ArrowReader r = env.sql("SELECT x FROM t", java.time.Duration.ofSeconds(30))) {
        assertTrue(r.loadNextBatch());
        assertEquals(3, r.getVectorSchemaRoot().getRowCount());
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @ParameterizedTest
  @CsvSource({"30 s,30000", "500 ms,500", "2 min,120000", "1.5 s,1500", "0,0", "1 h,3600000"})
  void durations(String text, long millis) {
    assertEquals(millis, Limits.millis(Limits.normalizeDuration("execution.timeout", text)));
  }

  @ParameterizedTest
  @CsvSource({"256 MB,268435456", "1 GB,1073741824", "1024,1024", "0,0", "64kb,65536"})
  void sizes(String text, long bytes) {
    assertEquals(bytes, Limits.bytes(Limits.normalizeSize("execution.memory-limit", text)));
  }

  @ParameterizedTest
  @CsvSource({"30", "ten s", "-1 s", "5 parsecs"})
  void badDurationsAreRefused(String text) {
    assertThrows(RuntimeException.class, () -> Limits.normalizeDuration("execution.timeout", text));
  }
}
