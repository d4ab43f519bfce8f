package io.calcitebridge.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Flink's CREATE TABLE clauses, SHOW COLUMNS and SET through the Java API. */
class FlinkDdlTest {
  private static final String ORDERS =
      "CREATE TABLE IF NOT EXISTS orders (\n"
          + " `user` BIGINT NOT NULL,\n"
          + " product VARCHAR(32),\n"
          + " amount INT,\n"
          + " ts TIMESTAMP(3),\n"
          + " ptime AS PROCTIME(),\n"
          + " PRIMARY KEY(`user`) NOT ENFORCED,\n"
          + " WATERMARK FOR ts AS ts - INTERVAL '1' SECONDS\n"
          + ") WITH ('connector' = 'memory')";

  private BridgeEnvironment env;

  @BeforeEach
  void setUp() {
    env = BridgeEnvironment.create();
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  @Test
  void showColumnsListsFlinksColumns() {
    Users.rows(env.execute(ORDERS));
    // Batch mode, the default: Flink marks no rowtime attribute.
    assertEquals(
        "[ts, TIMESTAMP(3), true, null, null, `ts` - INTERVAL '1' SECOND]",
        Users.rows(env.execute("SHOW COLUMNS FROM orders")).get(3));
    Users.rows(env.execute("SET 'execution.runtime-mode' = 'streaming'"));
    assertEquals(
        List.of(
            "[user, BIGINT, false, PRI(user), null, null]",
            "[product, VARCHAR(32), true, null, null, null]",
            "[amount, INT, true, null, null, null]",
            "[ts, TIMESTAMP(3) *ROWTIME*, true, null, null, `ts` - INTERVAL '1' SECOND]",
            "[ptime, TIMESTAMP_LTZ(3) *PROCTIME*, false, null, AS PROCTIME(), null]"),
        Users.rows(env.execute("SHOW COLUMNS FROM orders")));
    assertEquals(
        List.of("[user, BIGINT, false, PRI(user), null, null]"),
        Users.rows(env.execute("SHOW COLUMNS IN orders LIKE '%r'")));
    String ddl = Users.rows(env.execute("SHOW CREATE TABLE orders")).get(0);
    assertTrue(ddl.contains("CONSTRAINT `PK_user` PRIMARY KEY (`user`) NOT ENFORCED"), ddl);
    assertTrue(ddl.contains("WATERMARK FOR `ts` AS `ts` - INTERVAL '1' SECOND"), ddl);
  }

  @Test
  void aViewKeepsTheTimeAttributesOfItsColumnsInDescribe() {
    Users.rows(env.execute(ORDERS));
    Users.rows(env.execute("CREATE TEMPORARY VIEW v1 AS SELECT * FROM orders"));
    assertEquals(
        "[ts, TIMESTAMP(3), true, null, null, null]",
        Users.rows(env.execute("DESCRIBE v1")).get(3));
    Users.rows(env.execute("SET 'execution.runtime-mode' = 'streaming'"));
    assertEquals(
        List.of(
            "[user, BIGINT, false, null, null, null]",
            "[product, VARCHAR(32), true, null, null, null]",
            "[amount, INT, true, null, null, null]",
            "[ts, TIMESTAMP(3) *ROWTIME*, true, null, null, null]",
            "[ptime, TIMESTAMP_LTZ(3) *PROCTIME*, false, null, null, null]"),
        Users.rows(env.execute("DESCRIBE v1")));
    assertEquals(
        List.of(
            "BIGINT",
            "VARCHAR(32)",
            "INT",
            "TIMESTAMP(3) *ROWTIME*",
            "TIMESTAMP_LTZ(3) *PROCTIME*"),
        env.describe("v1").stream().map(ColumnInfo::dataType).toList());
    String ddl = Users.rows(env.execute("SHOW CREATE VIEW v1")).get(0);
    assertTrue(
        ddl.startsWith("[CREATE TEMPORARY VIEW `default_catalog`.`default_database`.`v1` ("), ddl);
  }

  @Test
  void aPrimaryKeyWithoutNotEnforcedIsRefusedWithItsPosition() {
    BridgeException e =
        assertThrows(
            BridgeException.class,
            () -> env.execute("CREATE TABLE t (a INT, PRIMARY KEY (a))").close());
    assertEquals("VALIDATION", e.kind());
    assertTrue(e.getMessage().startsWith("Flink doesn't support ENFORCED mode"), e.getMessage());
    assertTrue(env.tables().isEmpty());
  }

  @Test
  void flinkSettingsAreAcceptedQuotedAndUnquoted() throws Exception {
    Users.rows(env.execute("SET 'table.dml-sync' = 'true'"));
    Users.rows(env.execute("SET sql-client.execution.result-mode=tableau"));
    assertEquals("true", env.getConfig("table.dml-sync"));
    assertEquals("tableau", env.getConfig("sql-client.execution.result-mode"));
    env.setConfig("table.exec.state.ttl", "1 h");
    assertEquals("1 h", env.configEntries().get("table.exec.state.ttl"));
    Users.rows(env.execute("RESET table.exec.state.ttl"));
    assertEquals("0 ms", env.getConfig("table.exec.state.ttl"));
    BridgeException e =
        assertThrows(BridgeException.class, () -> env.setConfig("table.dml-snyc", "true"));
    assertTrue(e.getMessage().contains("did you mean 'table.dml-sync'?"), e.getMessage());
  }
}
