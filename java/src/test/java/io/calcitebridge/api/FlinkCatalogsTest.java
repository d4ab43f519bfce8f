package io.calcitebridge.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Flink's catalogs and databases through the Java API: tables() and describe follow USE. */
class FlinkCatalogsTest {
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
  void tablesAndDescribeFollowTheCurrentDatabase() {
    assertEquals(List.of("[default_catalog]"), Users.rows(env.execute("SHOW CURRENT CATALOG")));
    assertEquals(List.of("[default_database]"), Users.rows(env.execute("SHOW CURRENT DATABASE")));
    env.executeScript(
        "CREATE TABLE t (a INT);"
            + "CREATE CATALOG c1 WITH ('type' = 'generic_in_memory');"
            + "CREATE DATABASE c1.db1 COMMENT 'sales';"
            + "CREATE TABLE c1.db1.orders (id INT, amount DOUBLE);"
            + "INSERT INTO c1.db1.orders VALUES (1, 2.5), (2, 4.0);");
    assertEquals(List.of("t"), env.tables());
    assertEquals(List.of("[c1]", "[default_catalog]"), Users.rows(env.execute("SHOW CATALOGS")));
    Users.rows(env.execute("USE CATALOG c1"));
    assertEquals(List.of(), env.tables());
    assertEquals(List.of("[db1]", "[default]"), Users.rows(env.execute("SHOW DATABASES")));
    Users.rows(env.execute("USE db1"));
    assertEquals(List.of("orders"), env.tables());
    assertEquals(
        List.of("id", "amount"), env.describe("orders").stream().map(c -> c.name()).toList());
    assertEquals(List.of("[6.5]"), Users.rows(env.execute("SELECT SUM(amount) FROM orders")));
    assertEquals(
        List.of("[0]"),
        Users.rows(env.execute("SELECT COUNT(*) FROM default_catalog.default_database.t")));
  }

  @Test
  void anUnknownDatabaseIsRefusedWithItsPosition() {
    BridgeException e = assertThrows(BridgeException.class, () -> env.execute("USE nodb").close());
    assertEquals("VALIDATION", e.kind());
    assertEquals(1, e.line());
    assertEquals(5, e.column());
    assertTrue(
        e.getMessage()
            .startsWith(
                "A database with name [nodb] does not exist in the catalog: [default_catalog]."),
        e.getMessage());
    e =
        assertThrows(
            BridgeException.class, () -> env.execute("CREATE TABLE nocat.db.t (a INT)").close());
    assertEquals("VALIDATION", e.kind());
    assertEquals(14, e.column());
  }
}
