package io.calcitebridge.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Flink's statements beyond CREATE TABLE through the Java API: CREATE TABLE ... LIKE, CREATE [OR
 * REPLACE] TABLE ... AS SELECT, REPLACE TABLE ... AS SELECT, DESCRIBE DATABASE.
 */
class FlinkStatementsTest {
  private BridgeEnvironment env;

  @BeforeEach
  void setUp() {
    env = BridgeEnvironment.create();
    Users.rows(
        env.execute(
            "CREATE TABLE orders (id INT NOT NULL, product STRING, amount INT, ts TIMESTAMP(3),"
                + " cost AS amount * 2, PRIMARY KEY (id) NOT ENFORCED,"
                + " WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)"));
    Users.rows(
        env.execute(
            "INSERT INTO orders VALUES (1, 'a', 3, TIMESTAMP '2024-01-01 00:00:00'),"
                + " (2, 'b', 4, TIMESTAMP '2024-01-01 00:00:01')"));
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  @Test
  void createTableLikeMergesAsFlinkDoes() {
    Users.rows(env.execute("CREATE TABLE o2 (note STRING) LIKE orders (EXCLUDING WATERMARKS)"));
    assertEquals(
        List.of(
            "[id, INT, false, PRI(id), null, null]",
            "[product, STRING, true, null, null, null]",
            "[amount, INT, true, null, null, null]",
            "[ts, TIMESTAMP(3), true, null, null, null]",
            "[cost, INT, true, null, AS `amount` * 2, null]",
            "[note, STRING, true, null, null, null]"),
        Users.rows(env.execute("SHOW COLUMNS FROM o2")));
    BridgeException e =
        assertThrows(
            BridgeException.class,
            () -> env.execute("CREATE TABLE o3 (amount INT) LIKE orders").close());
    assertEquals("VALIDATION", e.kind());
    assertEquals("A column named 'amount' already exists in the base table.", e.getMessage());
  }

  @Test
  void createTableAsSelectIsAtomic() {
    Users.rows(
        env.execute(
            "CREATE TABLE totals AS SELECT product, SUM(amount) AS total FROM orders"
                + " GROUP BY product"));
    assertEquals(
        List.of("[a, 3]", "[b, 4]"),
        Users.rows(env.execute("SELECT * FROM totals ORDER BY product")));
    assertThrows(
        BridgeException.class,
        () ->
            env.execute(
                    "CREATE OR REPLACE TABLE totals AS SELECT product, amount / (id - id) AS total"
                        + " FROM orders")
                .close());
    assertEquals(
        List.of("[a, 3]", "[b, 4]"),
        Users.rows(env.execute("SELECT * FROM totals ORDER BY product")));
    Users.rows(env.execute("REPLACE TABLE totals AS SELECT COUNT(*) AS n FROM orders"));
    assertEquals(List.of("[2]"), Users.rows(env.execute("SELECT * FROM totals")));
    assertTrue(env.tables().contains("totals"));
  }

  @Test
  void alterTableChangesColumnsAndKeepsTheRows() {
    Users.rows(env.execute("ALTER TABLE orders ADD note STRING AFTER id"));
    Users.rows(env.execute("ALTER TABLE orders MODIFY amount BIGINT"));
    Users.rows(env.execute("ALTER TABLE orders RENAME TO orders2"));
    assertEquals(
        List.of("[1, null, 3]", "[2, null, 4]"),
        Users.rows(env.execute("SELECT id, note, amount FROM orders2 ORDER BY id")));
    BridgeException e =
        assertThrows(
            BridgeException.class,
            () -> env.execute("ALTER TABLE orders2 MODIFY product INT").close());
    assertEquals("VALIDATION", e.kind());
    assertEquals(
        List.of("[a]", "[b]"), Users.rows(env.execute("SELECT product FROM orders2 ORDER BY id")));
  }

  @Test
  void aStatementSetWritesAllSinksOrNone() {
    Users.rows(env.execute("CREATE TABLE a (id INT)"));
    Users.rows(env.execute("CREATE TABLE b (id INT)"));
    assertEquals(
        List.of("[2, 1]"),
        Users.rows(
            env.execute(
                "EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT id FROM orders;"
                    + " INSERT INTO b SELECT id FROM orders WHERE id > 1; END")));
    assertThrows(
        BridgeException.class,
        () ->
            env.execute(
                    "EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT id FROM orders;"
                        + " INSERT INTO b SELECT id / (id - id) FROM orders; END")
                .close());
    assertEquals(List.of("[2]"), Users.rows(env.execute("SELECT COUNT(*) FROM a")));
    assertEquals(List.of("[1]"), Users.rows(env.execute("SELECT COUNT(*) FROM b")));
  }

  @Test
  void modulesAreFlinksCoreOnly() {
    assertEquals(List.of("[core, true]"), Users.rows(env.execute("SHOW FULL MODULES")));
    Users.rows(env.execute("USE MODULES core"));
    Users.rows(env.execute("UNLOAD MODULE core"));
    assertEquals(List.of(), Users.rows(env.execute("SHOW MODULES")));
    Users.rows(env.execute("LOAD MODULE core"));
    assertEquals(List.of("[core]"), Users.rows(env.execute("SHOW MODULES")));
  }

  @Test
  void describeDatabaseShowsItsProperties() {
    Users.rows(env.execute("CREATE DATABASE db1 COMMENT 'c' WITH ('k' = 'v')"));
    assertEquals(
        List.of("[name, db1]", "[comment, c]", "[property:k, v]"),
        Users.rows(env.execute("DESCRIBE DATABASE EXTENDED db1")));
  }

  @Test
  void aTemporaryViewHidesThePermanentOneUntilDropped() {
    Users.rows(env.execute("CREATE VIEW v COMMENT 'all' AS SELECT id FROM orders"));
    Users.rows(env.execute("CREATE TEMPORARY VIEW v AS SELECT id * 10 AS id FROM orders"));
    assertEquals(List.of("[10]", "[20]"), Users.rows(env.execute("SELECT id FROM v ORDER BY id")));
    BridgeException e =
        assertThrows(BridgeException.class, () -> env.execute("DROP VIEW v").close());
    assertEquals("CATALOG", e.kind());
    Users.rows(env.execute("DROP TEMPORARY VIEW v"));
    assertEquals(List.of("[1]", "[2]"), Users.rows(env.execute("SELECT id FROM v ORDER BY id")));
  }

  @Test
  void materializedTablesAndPlanFiles(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    Users.rows(env.execute("CREATE MATERIALIZED TABLE m AS SELECT COUNT(*) AS n FROM orders"));
    assertEquals(List.of("[2]"), Users.rows(env.execute("SELECT n FROM m")));
    Users.rows(env.execute("INSERT INTO orders (id) VALUES (3)"));
    Users.rows(env.execute("ALTER MATERIALIZED TABLE m REFRESH"));
    assertEquals(List.of("[3]"), Users.rows(env.execute("SELECT n FROM m")));
    Users.rows(env.execute("DROP MATERIALIZED TABLE m"));
    String plan = dir.resolve("p.json").toString();
    Users.rows(env.execute("COMPILE PLAN '" + plan + "' FOR INSERT INTO orders (id) VALUES (4)"));
    Users.rows(env.execute("EXECUTE PLAN '" + plan + "'"));
    Users.rows(env.execute("EXECUTE INSERT INTO orders (id) VALUES (5)"));
    assertEquals(List.of("[5]"), Users.rows(env.execute("SELECT COUNT(*) FROM orders")));
  }
}
