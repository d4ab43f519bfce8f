package io.calcitebridge.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.connector.PrintSink;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Flink's connectors through the Java API: datagen, print and blackhole run; kafka is declared,
 * validated and explained but refuses to run.
 */
class FlinkConnectorsTest {
  private BridgeEnvironment env;

  @BeforeEach
  void setUp() {
    env = BridgeEnvironment.create();
  }

  @AfterEach
  void tearDown() {
    PrintSink.redirect(null);
    env.close();
  }

  @Test
  void datagenMakesItsRows() {
    Users.rows(
        env.execute(
            "CREATE TABLE g (id BIGINT, v INT, s STRING) WITH ('connector' = 'datagen',"
                + " 'number-of-rows' = '20', 'fields.id.kind' = 'sequence', 'fields.id.start' ="
                + " '1', 'fields.id.end' = '1000', 'fields.v.min' = '3', 'fields.v.max' = '4',"
                + " 'fields.s.null-rate' = '1')"));
    assertEquals(
        List.of("[20, 1, 20, true, 0]"),
        Users.rows(
            env.execute(
                "SELECT COUNT(*), MIN(id), MAX(id), MIN(v) >= 3 AND MAX(v) <= 4, COUNT(s)"
                    + " FROM g")));
  }

  @Test
  void unboundedDatagenNeedsALimit() {
    Users.rows(env.execute("CREATE TABLE u (v INT) WITH ('connector' = 'datagen')"));
    BridgeException e =
        assertThrows(BridgeException.class, () -> Users.rows(env.execute("SELECT v FROM u")));
    assertEquals("UNSUPPORTED", e.kind());
    assertTrue(e.getMessage().contains("is unbounded"), e.getMessage());
    assertEquals(List.of(1, 15), List.of(e.line(), e.column()));
    assertEquals(3, Users.rows(env.execute("SELECT v FROM u LIMIT 3")).size());
  }

  @Test
  void printWritesFlinksRowText() {
    List<String> lines = new ArrayList<>();
    PrintSink.redirect(lines::add);
    Users.rows(
        env.execute(
            "CREATE TABLE p (a INT, s STRING, m MAP<STRING, INT>, r ROW<x INT, y DOUBLE>) WITH"
                + " ('connector' = 'print', 'print-identifier' = 'sink')"));
    Users.rows(
        env.execute(
            "INSERT INTO p VALUES (1, 'a', MAP['k', 2], ROW(3, 1.5)), (2, NULL, NULL, NULL)"));
    assertEquals(
        List.of("sink> +I[1, a, {k=2}, +I[3, 1.5]]", "sink> +I[2, null, null, null]"), lines);
    BridgeException e =
        assertThrows(BridgeException.class, () -> Users.rows(env.execute("SELECT * FROM p")));
    assertEquals("VALIDATION", e.kind());
    assertEquals(
        "Connector 'print' can only be used as a sink. It cannot be used as a source.",
        e.getMessage());
  }

  @Test
  void kafkaIsValidatedAndExplainedButNotRun() {
    BridgeException bad =
        assertThrows(
            BridgeException.class,
            () ->
                Users.rows(
                    env.execute(
                        "CREATE TABLE k (a INT) WITH ('connector' = 'kafka', 'topic' = 't',"
                            + " 'format' = 'json')")));
    assertEquals("VALIDATION", bad.kind());
    assertEquals(
        "One or more required options are missing.\n\nMissing required options are:\n\n"
            + "properties.bootstrap.servers",
        bad.getMessage());
    Users.rows(
        env.execute(
            "CREATE TABLE k (a INT, `offset` BIGINT METADATA VIRTUAL) WITH ('connector' ="
                + " 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9092',"
                + " 'format' = 'json')"));
    assertTrue(env.explain("SELECT a FROM k").contains("BridgeTableScan"));
    BridgeException e =
        assertThrows(BridgeException.class, () -> Users.rows(env.execute("SELECT a FROM k")));
    assertEquals("UNSUPPORTED", e.kind());
    assertTrue(e.getMessage().startsWith("Connector 'kafka'"), e.getMessage());
  }
}
