package io.calcitebridge.facade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.arrow.ArrowMemory;
import io.calcitebridge.arrow.ArrowStreams;
import io.calcitebridge.errors.BridgeError;
import java.io.ByteArrayInputStream;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** End-to-end tests of the facade: SQL in, Arrow out, errors with positions. */
class BridgeSessionTest {
  private BridgeSession session;

  @BeforeEach
  void setUp() {
    session = new BridgeSession();
    rows(
        "CREATE TABLE emp (id INT NOT NULL, name STRING, salary DOUBLE,"
            + " addr ROW<city STRING, zip INT>, tags ARRAY<STRING>,"
            + " props MAP<STRING, STRING>, bonus AS salary * 0.1) WITH ('connector' = 'memory')");
    rows(
        "INSERT INTO emp (id, name, salary, addr, props) VALUES"
            + " (1, 'ann', 100.0, ROW('Paris', 75), MAP['k', 'v']),"
            + " (2, 'bob', 40.0, NULL, NULL)");
  }

  @AfterEach
  void tearDown() {
    session.close();
  }

  /** Runs {@code sql} and reads its result back through the C Data Interface as strings. */
  private List<String> rows(String sql) {
    List<String> out = new ArrayList<>();
    try (StatementResult r = session.execute(sql).result();
        ArrowReader reader = ArrowStreams.importStream(ArrowMemory.allocator(), r.address())) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      while (reader.loadNextBatch()) {
        for (int i = 0; i < root.getRowCount(); i++) {
          List<String> cells = new ArrayList<>();
          for (var v : root.getFieldVectors()) {
            cells.add(String.valueOf(v.getObject(i)));
          }
          out.add(String.join("|", cells));
        }
      }
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
    return out;
  }

  @Test
  void warmUpPlansForTheHostsBackendOrRunsOnCalcitesEngine() {
    // Hosted: planned and translated for DuckDB, nothing run here; the schema the host reads.
    assertTrue(BridgeSession.warmUp("duckdb").result() > 0);
    // No backend in the host: run by Calcite's engine, its rows exported.
    assertTrue(BridgeSession.warmUp("").result() != 0);
  }

  @Test
  void validateGivesTheResultsSchemaAsAnIpcMessage() throws Exception {
    try (StatementResult r =
        session.validateSchema("SELECT id, addr.city AS city, tags FROM emp").result()) {
      Schema schema =
          MessageSerializer.deserializeSchema(
              new ReadChannel(Channels.newChannel(new ByteArrayInputStream(r.schema()))));
      assertEquals("schema", r.kind());
      assertEquals(
          List.of("id", "city", "tags"), schema.getFields().stream().map(Field::getName).toList());
      assertFalse(schema.getFields().get(0).isNullable());
      assertEquals("Int(32, true)", schema.getFields().get(0).getType().toString());
      assertEquals("Utf8", schema.getFields().get(1).getType().toString());
      assertEquals("List", schema.getFields().get(2).getType().toString());
    }
  }

  @Test
  void backgroundWorkStepsAsideWhileStatementsOfAKindRun() throws Exception {
    java.util.concurrent.atomic.AtomicInteger running =
        new java.util.concurrent.atomic.AtomicInteger(1);
    CompletableFuture<Void> yielded =
        CompletableFuture.runAsync(
            () -> {
              try {
                Workers.awaitNone(running, 60_000);
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    assertThrows(TimeoutException.class, () -> yielded.get(300, TimeUnit.MILLISECONDS));
    running.decrementAndGet();
    yielded.get(60, TimeUnit.SECONDS); // returns once none runs
  }

  @Test
  void nestedAccessAndComputedColumns() {
    assertEquals(
        List.of("Paris|10.0|v"),
        rows("SELECT addr.city, bonus, props['k'] FROM emp WHERE salary > 50"));
  }

  @Test
  void groupByJoinOrderBy() {
    assertEquals(
        List.of("bob|1", "ann|1"),
        rows(
            "SELECT e.name, COUNT(*) AS n FROM emp e JOIN emp f ON e.id = f.id"
                + " GROUP BY e.name ORDER BY e.name DESC"));
  }

  @Test
  void failedInsertLeavesTableUnchanged() {
    BridgeError e =
        assertThrows(
            BridgeError.class,
            () -> rows("INSERT INTO emp (id, name) SELECT CAST(NULL AS INT), 'x' FROM emp"));
    assertEquals("VALIDATION", e.kind());
    assertEquals(List.of("2"), rows("SELECT COUNT(*) FROM emp"));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = ';',
      value = {
        "SELECT nme FROM emp; VALIDATION; 1; 8; 1; 10",
        "SELECT * FROM nope; VALIDATION; 1; 15; 1; 18",
        "SELECT FROM emp; PARSE; 1; 8; 1; 11",
        "SELECT id FROM emp\\nWHERE salary >> 1; PARSE; 2; 14; 2; 14",
      })
  void errorsCarryKindAndPosition(
      String sql, String kind, int line, int col, int endLine, int endCol) {
    BridgeError e = assertThrows(BridgeError.class, () -> rows(sql.replace("\\n", "\n")));
    assertEquals(kind, e.kind(), e.getMessage());
    assertEquals(
        List.of(line, col, endLine, endCol),
        List.of(e.line(), e.column(), e.endLine(), e.endColumn()),
        e.getMessage());
  }

  @Test
  void explainShowsTheOptimizedPlan() {
    String plan = session.explain("SELECT name FROM emp WHERE id = 1", "text").result();
    assertTrue(plan.contains("BridgeTableScan(table=[[emp]], project=[[id, name]])"), plan);
    assertTrue(plan.contains("=($t0, $t"), plan);
  }

  @Test
  void validateAndExplainWithinAFirstSliceAnswerAsTheirPendingDoes() throws Exception {
    String sql = "SELECT id, addr.city AS city FROM emp WHERE salary > 50";
    // Ended within the slice: the schema's IPC message and the plan's text themselves.
    Object schema = session.validateSchemaWithin(sql, 60_000);
    try (StatementResult r = session.validateSchema(sql).result()) {
      assertTrue(java.util.Arrays.equals(r.schema(), (byte[]) schema));
    }
    assertEquals(
        session.explain(sql, "text", null).result(),
        session.explainWithin(sql, "text", null, 60_000));
    // Failed within the slice: the failure itself, with its position.
    BridgeError e =
        assertThrows(
            BridgeError.class, () -> session.validateSchemaWithin("SELECT nme FROM emp", 60_000));
    assertEquals(List.of("VALIDATION", 1, 8), List.of(e.kind(), e.line(), e.column()));
    e =
        assertThrows(
            BridgeError.class,
            () -> session.explainWithin("SELECT FROM emp", "text", null, 60_000));
    assertEquals(List.of("PARSE", 1, 8), List.of(e.kind(), e.line(), e.column()));
    // Stopped within the slice (past its timeout): the pending, whose result is the failure.
    session.setConfig("planner.timeout", "50 ms");
    Object stopped =
        session.explainWithin(LimitsTest.sixtyTables("emp", "id"), "text", "enumerable", 60_000);
    session.resetConfig("planner.timeout");
    Pending<?> pending = assertInstanceOf(Pending.class, stopped);
    assertTrue(pending.stopped());
    assertEquals("TIMEOUT", assertThrows(BridgeError.class, pending::result).kind());
    // Not ended within the slice: the pending, which ends as any does.
    Object later = session.validateSchemaWithin(sql, 0);
    if (later instanceof Pending<?> p) {
      try (StatementResult r = (StatementResult) p.result()) {
        assertTrue(java.util.Arrays.equals(r.schema(), (byte[]) schema));
      }
    } else {
      assertTrue(java.util.Arrays.equals((byte[]) later, (byte[]) schema));
    }
  }

  @Test
  void unknownConfigValueFailsWhenSet() {
    BridgeError e =
        assertThrows(
            BridgeError.class,
            () -> session.setConfig("table.column-expansion-strategy", "EXCLUDE_NOTHING"));
    assertEquals("CONFIG", e.kind());
    assertTrue(e.getMessage().contains("EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS"), e.getMessage());
  }

  @Test
  void arrowMemoryIsReleased() {
    rows("SELECT * FROM emp");
    assertEquals(0, BridgeSession.allocatedBytes());
  }
}
