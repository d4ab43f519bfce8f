package io.calcitebridge.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.api.source.ArrowRows;
import io.calcitebridge.api.source.SupportsRowLevelDelete;
import io.calcitebridge.api.source.SupportsRowLevelUpdate;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * UPDATE and DELETE through the Java API: a Java source with the row-level abilities receives the
 * table's new rows in {@code overwrite}; a failure leaves its rows as they were; a source without
 * the abilities, and a DELETE on a source with only the update one, are refused naming the table
 * and the ability, with the position.
 */
class JavaSourceRowLevelTest {
  /** Rows in memory that UPDATE rewrites; a row whose score is negative is refused. */
  static class Updatable extends RowSource implements SupportsRowLevelUpdate {
    int overwrites;

    Updatable(Schema schema, List<Object[]> rows) {
      super(schema, rows);
    }

    @Override
    public synchronized void overwrite(ArrowReader batches) throws IOException {
      List<Object[]> next = new ArrayList<>();
      for (Object[] row : ArrowRows.read(batches)) {
        if (row[2] instanceof Double d && d < 0) {
          throw new IOException("a negative score");
        }
        next.add(row);
      }
      rows = List.copyOf(next); // all rows at once, or none
      overwrites++;
    }
  }

  /** As {@link Updatable}, and DELETE too. */
  static final class Deletable extends Updatable implements SupportsRowLevelDelete {
    Deletable(Schema schema, List<Object[]> rows) {
      super(schema, rows);
    }
  }

  private BridgeEnvironment env;
  private Deletable users;
  private Updatable updateOnly;

  @BeforeEach
  void setUp() {
    env = BridgeEnvironment.create();
    users = new Deletable(Users.SCHEMA, Users.ROWS);
    updateOnly = new Updatable(Users.SCHEMA, Users.ROWS);
    env.registerSource("users", users);
    env.registerSource("update_only", updateOnly);
    env.registerSource("plain", new RowSource(Users.SCHEMA, Users.ROWS));
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  private List<String> rows(String sql) {
    return Users.rows(env.execute(sql));
  }

  @Test
  void updateRewritesTheRowsTheConditionHolds() {
    assertEquals(
        List.of("[3]"), rows("UPDATE users SET score = score * 2, id = id + 10 WHERE id > 4"));
    assertEquals(
        List.of(
            "[1, 1.5]",
            "[2, null]",
            "[3, 3.0]",
            "[4, 4.5]",
            "[15, 10.0]",
            "[16, 13.0]",
            "[17, null]"),
        rows("SELECT id, score FROM users"));
    // Three-valued logic: a NULL score compares neither true nor false.
    assertEquals(List.of("[0]"), rows("UPDATE users SET score = 0 WHERE score = NULL"));
    assertEquals(List.of("[2]"), rows("UPDATE users SET score = 0 WHERE score IS NULL"));
    assertEquals(List.of("[0.0]", "[0.0]"), rows("SELECT score FROM users WHERE id IN (2, 17)"));
    assertEquals(
        List.of("[null, 29]"), rows("SELECT user.name, user.age FROM users WHERE id = 15"));
  }

  @Test
  void deleteKeepsTheRowsTheConditionDoesNotHold() {
    assertEquals(List.of("[2]"), rows("DELETE FROM users WHERE score IS NULL"));
    assertEquals(List.of("[1]"), rows("DELETE FROM users WHERE user.age < (SELECT 26)"));
    assertEquals(List.of("[3]", "[4]", "[5]", "[6]"), rows("SELECT id FROM users"));
    assertEquals(List.of("[0]"), rows("DELETE FROM users WHERE NULL"));
    assertEquals(List.of("[4]"), rows("DELETE FROM users"));
    assertEquals(List.of(), rows("SELECT id FROM users"));
  }

  @Test
  void aFailingUpdateLeavesTheRowsAsTheyWere() {
    BridgeException e =
        assertThrows(
            BridgeException.class, () -> env.execute("UPDATE users SET score = -1 WHERE id = 3"));
    assertEquals("SOURCE", e.kind());
    assertTrue(e.getMessage().contains("a negative score"), e.getMessage());
    e =
        assertThrows(
            BridgeException.class,
            () -> env.execute("UPDATE users SET id = id / (id - 4) WHERE id > 2"));
    assertEquals("EXECUTION", e.kind());
    e =
        assertThrows(
            BridgeException.class, () -> env.execute("UPDATE users SET id = NULL WHERE id = 2"));
    assertEquals("VALIDATION", e.kind());
    assertEquals(List.of(1, 23), List.of(e.line(), e.column()));
    assertEquals(0, users.overwrites);
    assertEquals(
        Users.rows(env.execute("SELECT id, score FROM plain")),
        rows("SELECT id, score FROM users"));
  }

  @Test
  void aSourceWithoutTheAbilityIsRefused() {
    BridgeException e =
        assertThrows(BridgeException.class, () -> env.execute("UPDATE plain SET score = 1"));
    assertEquals("UNSUPPORTED", e.kind());
    assertTrue(
        e.getMessage()
            .startsWith(
                "Can't perform update operation of the table default_catalog.default_database.plain"
                    + " because the corresponding dynamic table sink has not yet implemented"
                    + " org.apache.flink.table.connector.sink.abilities.SupportsRowLevelUpdate."),
        e.getMessage());
    assertEquals(List.of(1, 8), List.of(e.line(), e.column()));
    e = assertThrows(BridgeException.class, () -> env.execute("DELETE FROM update_only"));
    assertEquals("UNSUPPORTED", e.kind());
    assertTrue(e.getMessage().contains("SupportsRowLevelDelete"), e.getMessage());
    assertEquals(List.of(1, 13), List.of(e.line(), e.column()));
    assertEquals(List.of("[7]"), rows("SELECT COUNT(*) FROM update_only"));
  }

  @Test
  void arrowMemoryIsReleasedAfterwards() {
    rows("UPDATE users SET score = 0 WHERE id > 3");
    assertEquals(0, io.calcitebridge.facade.BridgeSession.allocatedBytes(), "update");
    rows("DELETE FROM users WHERE id = 1");
    assertEquals(0, io.calcitebridge.facade.BridgeSession.allocatedBytes(), "delete");
    assertThrows(BridgeException.class, () -> env.execute("UPDATE users SET id = id / (id - 4)"));
    assertEquals(0, io.calcitebridge.facade.BridgeSession.allocatedBytes(), "failed");
  }

  @Test
  void aMemoryTableTakesUpdateAndDelete() {
    env.executeScript(
        "CREATE TABLE m (k INT NOT NULL, v STRING) WITH ('connector' = 'memory');"
            + "INSERT INTO m VALUES (1, 'a'), (2, NULL), (3, 'c')");
    assertEquals(List.of("[1]"), rows("UPDATE m SET v = UPPER(v) || k WHERE k > 2"));
    assertEquals(List.of("[1]"), rows("DELETE FROM m WHERE v IS NULL"));
    assertEquals(List.of("[1, a]", "[3, C3]"), rows("SELECT k, v FROM m"));
  }
}
