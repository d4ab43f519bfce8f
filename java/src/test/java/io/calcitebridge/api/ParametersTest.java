package io.calcitebridge.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Query parameters ({@code ?}) through the Java API: bound values, plans and errors. */
class ParametersTest {
  private BridgeEnvironment env;

  @BeforeEach
  void setUp() {
    env = BridgeEnvironment.create();
    Users.rows(
        env.execute(
            "CREATE TABLE t (i INT, s STRING, d DATE, ts TIMESTAMP(3), m DECIMAL(5, 2))"
                + " WITH ('connector' = 'memory')"));
    Users.rows(
        env.execute(
            "INSERT INTO t VALUES (1, 'a', DATE '2024-01-01', TIMESTAMP '2024-01-01 10:00:00',"
                + " 1.50), (2, 'it''s', DATE '2024-02-01', TIMESTAMP '2024-02-01 10:00:00', 2.25),"
                + " (3, NULL, NULL, NULL, NULL)"));
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  @Test
  void valuesOfEveryScalarKindFilterTheRows() {
    assertEquals(
        List.of("[2, it's]"),
        Users.rows(env.sql("SELECT i, s FROM t WHERE i > ? AND s = ?", List.of(1, "it's"))));
    assertEquals(
        List.of("[1]"),
        Users.rows(
            env.sql(
                "SELECT i FROM t WHERE d < ? AND ts <= ? AND m = ?",
                List.of(
                    LocalDate.of(2024, 1, 15),
                    LocalDateTime.of(2024, 1, 1, 10, 0),
                    new BigDecimal("1.50")))));
    assertEquals(List.of("[3]"), Users.rows(env.sql("SELECT ? + 2 AS v", List.of(1L))));
  }

  @Test
  void jdbcsDatesTimesAndTimestampsAreTheirJavaTimeValues() {
    assertEquals(
        List.of("[1]"),
        Users.rows(
            env.sql(
                "SELECT i FROM t WHERE d = ? AND ts = ?",
                List.of(
                    java.sql.Date.valueOf("2024-01-01"),
                    java.sql.Timestamp.valueOf("2024-01-01 10:00:00")))));
    assertEquals(
        List.of("[true, 2]"),
        Users.rows(
            env.sql(
                "SELECT ? = TIME '12:30:05', CARDINALITY(?)",
                List.of(
                    java.sql.Time.valueOf("12:30:05"),
                    List.of(
                        java.sql.Date.valueOf("2024-01-01"),
                        java.sql.Date.valueOf("2024-01-02"))))));
    Users.rows(
        env.execute(
            "INSERT INTO t (i, d) VALUES (?, ?)",
            Arrays.asList(4, java.sql.Date.valueOf("1999-12-31"))));
    assertEquals(
        List.of("[true]"), Users.rows(env.sql("SELECT d = DATE '1999-12-31' FROM t WHERE i = 4")));
  }

  @Test
  void anInsertTakesParametersAndNullIsBound() {
    Users.rows(env.execute("INSERT INTO t (i, s) VALUES (?, ?)", Arrays.asList(4, null)));
    assertEquals(List.of("[4, null]"), Users.rows(env.sql("SELECT i, s FROM t WHERE i = 4")));
  }

  @Test
  void aValueCannotChangeTheStatement() {
    assertEquals(
        List.of(), Users.rows(env.sql("SELECT i FROM t WHERE s = ?", List.of("a' OR '1' = '1"))));
    assertEquals(
        List.of("[x'; DROP TABLE t; --]"),
        Users.rows(env.sql("SELECT ? AS v", List.of("x'; DROP TABLE t; --"))));
    assertEquals(3, Users.rows(env.sql("SELECT i FROM t")).size());
  }

  @Test
  void thePlanIsTheOneOfTheValueWrittenAsALiteral() {
    assertEquals(
        env.explain("SELECT i FROM t WHERE i < 2", "text"),
        env.explain("SELECT i FROM t WHERE i < ?", "text", List.of(2)));
  }

  @Test
  void aWrongCountIsAValidationErrorAtThePlaceholder() {
    BridgeException e =
        assertThrows(
            BridgeException.class,
            () -> Users.rows(env.sql("SELECT i FROM t WHERE i = ? AND s = ?", List.of(1))));
    assertEquals("VALIDATION", e.kind());
    assertEquals(1, e.line());
    assertEquals(37, e.column());
    assertTrue(e.getMessage().contains("2 parameters"), e.getMessage());
  }

  @Test
  void aValueOfNoSqlTypeIsAValidationErrorAtItsPlaceholder() {
    BridgeException e =
        assertThrows(
            BridgeException.class,
            () -> Users.rows(env.sql("SELECT i FROM t WHERE i = ?", List.of(new Object()))));
    assertEquals("VALIDATION", e.kind());
    assertEquals(27, e.column());
    assertTrue(e.getMessage().contains("Parameter 1 cannot be bound"), e.getMessage());
  }

  @Test
  void aStringConvertedToANumberOrADateIsCheckedAsItsLiteralIs() {
    String sql = "SELECT i FROM t WHERE i >= ? ORDER BY i";
    assertEquals(List.of("[2]", "[3]"), Users.rows(env.sql(sql, List.of("2"))));
    BridgeException e =
        assertThrows(BridgeException.class, () -> Users.rows(env.sql(sql, List.of("x"))));
    assertEquals("VALIDATION", e.kind());
    assertEquals(1, e.line());
    assertEquals(28, e.column());
    assertTrue(
        e.getMessage().contains("Cannot cast parameter 1 ('x') to INT: it is not a valid INTEGER"),
        e.getMessage());
    assertEquals(List.of(), Users.rows(env.sql(sql, Arrays.asList((Object) null))));
    assertEquals(
        List.of("[2]"), Users.rows(env.sql("SELECT i FROM t WHERE d = ?", List.of("2024-02-01"))));
    BridgeException date =
        assertThrows(
            BridgeException.class,
            () -> Users.rows(env.sql("SELECT i FROM t WHERE d = ?", List.of("yesterday"))));
    assertEquals("VALIDATION", date.kind());
    assertEquals(27, date.column());
    assertTrue(date.getMessage().contains("'yesterday') to DATE"), date.getMessage());
  }
}
