package io.calcitebridge.flink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.calcitebridge.plan.PlanningSession;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link WideAverages}: integer averages whose sum leaves the type, on Calcite's engine. */
class WideAveragesTest {
  private PlanningSession session;

  @BeforeEach
  void createTable() {
    session = new PlanningSession();
    session.exec("CREATE TABLE ov (g INT, i INT, b BIGINT)");
    session.exec(
        "INSERT INTO ov VALUES (1, 2147483647, 9223372036854775807), (1, 1, 1),"
            + " (1, CAST(NULL AS INT), CAST(NULL AS BIGINT)), (2, -3, -3), (2, -4, -4),"
            + " (3, CAST(NULL AS INT), CAST(NULL AS BIGINT))");
  }

  @Test
  void theAverageFitsWhereTheSumOverflows() {
    List<Object[]> rows =
        session.exec("SELECT g, AVG(i), AVG(b), AVG(DISTINCT b) FROM ov GROUP BY g ORDER BY g");
    assertArrayEquals(
        new Object[] {1, 1073741824, 4611686018427387904L, 4611686018427387904L}, rows.get(0));
    // Rounded toward zero, as an integer division.
    assertArrayEquals(new Object[] {2, -3, -3L, -3L}, rows.get(1));
    assertArrayEquals(new Object[] {3, null, null, null}, rows.get(2));
  }

  @Test
  void theAverageKeepsItsFilter() {
    List<Object[]> rows = session.exec("SELECT AVG(b) FILTER (WHERE g = 2), AVG(b) FROM ov");
    assertArrayEquals(new Object[] {-3L, 2305843009213693950L}, rows.get(0));
  }

  @Test
  void averageDividesExactly() {
    assertEquals(
        Long.MAX_VALUE,
        WideAverages.average(
            BigDecimal.valueOf(Long.MAX_VALUE)
                .add(BigDecimal.ONE.multiply(BigDecimal.valueOf(Long.MAX_VALUE))),
            2));
    assertEquals(-3L, WideAverages.average(BigDecimal.valueOf(-7), 2));
    assertNull(WideAverages.average(BigDecimal.ZERO, 0));
    assertNull(WideAverages.average(null, 3));
  }
}
