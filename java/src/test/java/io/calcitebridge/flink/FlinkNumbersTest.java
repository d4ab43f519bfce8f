package io.calcitebridge.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.calcitebridge.plan.PlanningSession;
import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link FlinkNumbers} and the type system: Flink's values and result types. */
class FlinkNumbersTest {
  private PlanningSession session;

  @BeforeEach
  void createTables() {
    session = new PlanningSession();
    session.exec("CREATE TABLE d (x DECIMAL(3, 2), s STRING, b BYTES, t TIMESTAMP(3))");
    session.exec(
        "INSERT INTO d VALUES (1.5, '1.5', X'41', TIMESTAMP '2023-01-02 10:11:12.345'),"
            + " (2.25, '-7.9', X'e4b8ad', TIMESTAMP '2023-01-31 00:00:00'),"
            + " (CAST(NULL AS DECIMAL(3, 2)), CAST(NULL AS STRING), CAST(NULL AS BYTES),"
            + " CAST(NULL AS TIMESTAMP(3)))");
  }

  private Object one(String sql) {
    List<Object[]> rows = session.exec(sql);
    assertEquals(1, rows.size(), sql);
    return rows.get(0)[0];
  }

  private String type(String sql) {
    RelDataType t = session.optimized(sql).getRowType().getFieldList().get(0).getType();
    return t.getFullTypeString();
  }

  @Test
  void decimalArithmeticHasFlinksTypes() {
    assertEquals(
        "DECIMAL(23, 13) NOT NULL",
        type("SELECT CAST(1 AS DECIMAL(10, 2)) / CAST(3 AS DECIMAL(10, 2))"));
    assertEquals(
        new BigDecimal("0.3333333333333"),
        one("SELECT CAST(1 AS DECIMAL(10, 2)) / CAST(3 AS DECIMAL(10, 2))"));
    assertEquals(
        "DECIMAL(14, 5) NOT NULL",
        type("SELECT CAST(1 AS DECIMAL(10, 2)) + CAST(3 AS DECIMAL(12, 5))"));
    assertEquals(
        "DECIMAL(38, 17) NOT NULL",
        type("SELECT CAST(2 AS DECIMAL(20, 10)) * CAST(3 AS DECIMAL(20, 10))"));
  }

  @Test
  void avgAndSumOfDecimal() {
    assertEquals("DECIMAL(38, 6)", type("SELECT AVG(x) FROM d"));
    assertEquals(new BigDecimal("1.875000"), one("SELECT AVG(x) FROM d"));
    assertEquals("DECIMAL(38, 2)", type("SELECT SUM(x) FROM d"));
    assertEquals(new BigDecimal("3.75"), one("SELECT SUM(x) FROM d"));
  }

  @Test
  void roundToALiteralScale() {
    assertEquals("DECIMAL(4, 2) NOT NULL", type("SELECT ROUND(1.2345, 2)"));
    assertEquals(new BigDecimal("1.23"), one("SELECT ROUND(1.2345, 2)"));
    assertEquals(new BigDecimal("120"), one("SELECT ROUND(123.45, -1)"));
    assertEquals(new BigDecimal("2.34"), one("SELECT TRUNCATE(2.3456, 2)"));
    assertNull(one("SELECT ROUND(x, 1) FROM d WHERE x IS NULL"));
  }

  @Test
  void castsAsFlink() {
    assertEquals(new BigDecimal("2"), one("SELECT CAST(1.5 AS DECIMAL(1, 0))"));
    assertEquals(new BigDecimal("-2"), one("SELECT CAST(-1.5 AS DECIMAL(1, 0))"));
    assertEquals(1, one("SELECT CAST('1.5' AS INT)"));
    assertEquals(-7, one("SELECT CAST(s AS INT) FROM d WHERE s = '-7.9'"));
    assertEquals("A", one("SELECT CAST(X'41' AS STRING)"));
    assertEquals("中", one("SELECT CAST(b AS STRING) FROM d WHERE s = '-7.9'"));
    assertNull(one("SELECT CAST(b AS STRING) FROM d WHERE s IS NULL"));
  }

  @Test
  void substringExtractAndTimestampDiff() {
    assertEquals("lo", one("SELECT SUBSTRING('hello' FROM -2)"));
    assertEquals("he", one("SELECT SUBSTRING('hello' FROM 0 FOR 2)"));
    assertNull(one("SELECT SUBSTRING('hello' FROM 2 FOR -1)"));
    assertEquals(345L, one("SELECT EXTRACT(MILLISECOND FROM t) FROM d WHERE s = '1.5'"));
    assertEquals(1, one("SELECT TIMESTAMPDIFF(MONTH, DATE '2023-01-31', DATE '2023-02-28')"));
    assertEquals(
        0,
        one(
            "SELECT TIMESTAMPDIFF(MONTH, TIMESTAMP '2023-01-31 10:00:00',"
                + " TIMESTAMP '2023-02-28 09:00:00')"));
  }
}
