package io.calcitebridge.translate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.plan.PlanningSession;
import io.calcitebridge.plan.QueryPlanner;
import org.apache.calcite.rel.RelNode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SparkTranslator}: the Spark SQL written for constructs Spark spells differently, and the
 * refusals. The answers themselves are checked on Spark in tests/test_spark_backend.py.
 */
class SparkTranslatorTest {
  private PlanningSession session;

  @BeforeEach
  void tables() {
    session = new PlanningSession();
    session.exec(
        "CREATE TABLE t (id INT, tags ARRAY<INT>, items ARRAY<ROW<x INT>>, `order` INT,"
            + " `a.b` STRING, `A` INT, ts TIMESTAMP(3), amount DECIMAL(5, 2), b BYTES)");
  }

  private String sql(String query) {
    QueryPlanner planner = session.planner(query);
    RelNode heuristic =
        planner.heuristic(planner.toLogical(planner.validate(session.parse(query))));
    return SparkTranslator.translate(heuristic).sql();
  }

  @Test
  void subscriptsAreOneBasedAndNullOutOfRange() {
    String sql = sql("SELECT tags[1], tags[1 - 1], items[1].x FROM t");
    assertEquals(
        "SELECT TRY_ELEMENT_AT(`tags`, 1), CASE WHEN 1 - 1 >= 1 THEN TRY_ELEMENT_AT(`tags`, 1 - 1)"
            + " ELSE NULL END, (TRY_ELEMENT_AT(`items`, 1)).`x` FROM `scan_0`",
        sql);
  }

  @Test
  void integerDivisionTruncates() {
    String sql = sql("SELECT id / 2 FROM t");
    assertEquals("SELECT CAST(`id` DIV 2 AS INT) FROM `scan_0`", sql);
  }

  @Test
  void anIntegerAverageSumsAsADecimalAndTruncates() {
    String sql = sql("SELECT `A`, AVG(id), AVG(DISTINCT `A`) FROM t GROUP BY `A`");
    assertEquals(
        "SELECT `A`, CAST(SUM(CAST(`id` AS DECIMAL(38, 0))) DIV COUNT(`id`) AS INT),"
            + " CAST(SUM(DISTINCT CAST(`A` AS DECIMAL(38, 0))) DIV COUNT(DISTINCT `A`) AS INT)"
            + " FROM `scan_0` GROUP BY `A`",
        sql);
  }

  @Test
  void timestampsAreWithoutAZone() {
    String sql = sql("SELECT FLOOR(ts TO DAY), TIMESTAMP '2024-01-02 03:04:05' FROM t");
    assertTrue(sql.contains("date_trunc('DAY', `ts`) AS TIMESTAMP_NTZ"), sql);
    assertTrue(sql.contains("TIMESTAMP_NTZ '2024-01-02 03:04:05'"), sql);
  }

  @Test
  void decimalScaleDownRoundsHalfUp() {
    String sql = sql("SELECT CAST(amount AS DECIMAL(4, 1)) FROM t");
    assertTrue(sql.contains("CAST(ROUND(`amount`, 1) AS DECIMAL(4, 1))"), sql);
  }

  @Test
  void identifiersAreAlwaysQuoted() {
    String sql = sql("SELECT `order` + `A`, `a.b` || 'x' FROM t");
    assertEquals("SELECT `order` + `A`, `a.b` || 'x' FROM `scan_0`", sql);
  }

  @Test
  void constructsOffTheListAreRefusedByName() {
    Refusal unnest =
        assertThrows(Refusal.class, () -> sql("SELECT x FROM UNNEST(ARRAY[1, 2]) AS u(x)"));
    assertTrue(unnest.construct().contains("UNNEST"), unnest.getMessage());
    Refusal correlated =
        assertThrows(
            Refusal.class,
            () -> sql("SELECT id, e, o FROM t CROSS JOIN UNNEST(tags) WITH ORDINALITY AS u(e, o)"));
    assertTrue(correlated.construct().contains("UNNEST"), correlated.getMessage());
    Refusal similar = assertThrows(Refusal.class, () -> sql("SELECT `a.b` SIMILAR TO 'x' FROM t"));
    assertTrue(similar.getMessage().contains("SIMILAR TO"), similar.getMessage());
    Refusal element = assertThrows(Refusal.class, () -> sql("SELECT ELEMENT(tags) FROM t"));
    assertTrue(element.getMessage().contains("ELEMENT"), element.getMessage());
    // An operator that SQL conversion made is named as the user wrote it.
    Refusal text =
        assertThrows(
            Refusal.class, () -> sql("SELECT CAST(CAST(ts AS TIMESTAMP_LTZ(3)) AS STRING) FROM t"));
    assertTrue(
        text.getMessage().endsWith("cannot run a CAST of a TIMESTAMP_LTZ to STRING"),
        text.getMessage());
  }

  @Test
  void castRowFieldNamesKeepTheirCase() {
    String sql =
        sql(
            "SELECT r.aB, r.`Cd` FROM"
                + " (SELECT CAST(ROW(id, `a.b`) AS ROW<aB INT, `Cd` STRING>) AS r FROM t)");
    assertTrue(sql.contains("AS STRUCT<`aB`: INT, `Cd`: STRING>)"), sql);
    assertTrue(sql.contains(".`aB`"), sql);
    assertTrue(sql.contains(".`Cd`"), sql);
  }

  @Test
  void dynamicColumnsFunctionsCallTheRegisteredUdfs() {
    String sql =
        sql(
            "SELECT COLUMN_GET(b, 'n' AS INT), COLUMN_GET(b, 1 AS DECIMAL(10,2)),"
                + " COLUMN_JSON(b), COLUMN_EXISTS(b, `a.b`) FROM t"
                + " WHERE COLUMN_GET(b, 'd' AS DATE) IS NOT NULL");
    assertTrue(sql.contains("CB_DYNCOL_GET_I8('INT', `b`, 'n')"), sql);
    assertTrue(sql.contains("CB_DYNCOL_GET_N10X2('DECIMAL(10,2)', `b`, 1)"), sql);
    assertTrue(sql.contains("CB_DYNCOL_JSON(`b`)"), sql);
    assertTrue(sql.contains("CB_DYNCOL_EXISTS(`b`, `a.b`)"), sql);
    assertTrue(sql.contains("CB_DYNCOL_GET_DT('DATE', `b`, 'd') IS NOT NULL"), sql);
  }

  @Test
  void functionsWritingABlobPackTheirPairsInOneStruct() {
    String sql =
        sql(
            "SELECT COLUMN_CREATE('a', id, 'b', NULL, 'c', '1' AS INT),"
                + " COLUMN_ADD(b, 'n', COLUMN_CREATE(1, TIME '10:00:00')),"
                + " COLUMN_DELETE(b, 'a', 1), b FROM t");
    assertTrue(
        sql.contains(
            "CB_DYNCOL_CREATE('INT:;STRING:;STRING:INT', NAMED_STRUCT('p0', 'a', 'p1', `id`,"
                + " 'p2', 'b', 'p3', NULL, 'p4', 'c', 'p5', '1'))"),
        sql);
    assertTrue(
        sql.contains(
            "CB_DYNCOL_ADD('DYNCOL:', `b`, NAMED_STRUCT('p0', 'n', 'p1',"
                + " CB_DYNCOL_CREATE('TIME:', NAMED_STRUCT('p0', 1, 'p1', 36000000))))"),
        sql);
    assertTrue(sql.contains("CB_DYNCOL_DELETE(`b`, NAMED_STRUCT('p0', 'a', 'p1', 1))"), sql);
    String date = sql("SELECT COLUMN_CREATE('d', DATE '1000-01-01') FROM t");
    assertTrue(
        date.contains(
            "CB_DYNCOL_CREATE('DATE:', NAMED_STRUCT('p0', 'd', 'p1', UNIX_DATE(DATE '1000-01-01')))"),
        date);
  }

  @Test
  void blobsAreNotComparedSortedOrGrouped() {
    Refusal time =
        assertThrows(Refusal.class, () -> sql("SELECT COLUMN_GET(b, 'a' AS TIME) FROM t"));
    assertTrue(time.getMessage().contains("COLUMN_GET returning"), time.getMessage());
    Refusal sorted = assertThrows(Refusal.class, () -> sql("SELECT id, b FROM t ORDER BY b"));
    assertTrue(sorted.getMessage().contains("BYTES"), sorted.getMessage());
    Refusal compared =
        assertThrows(Refusal.class, () -> sql("SELECT x.id FROM t x JOIN t y ON x.b = y.b"));
    assertTrue(compared.getMessage().contains("BYTES"), compared.getMessage());
    Refusal literal = assertThrows(Refusal.class, () -> sql("SELECT X'00' FROM t"));
    assertTrue(literal.getMessage().contains("BINARY"), literal.getMessage());
  }

  @Test
  void aSortKeyASelectItemIsNamedAfterIsQualified() {
    assertEquals(
        "SELECT `id`, - `order` `order` FROM `scan_0` ORDER BY `scan_0`.`order`",
        sql("SELECT id, -`order` AS `order` FROM t ORDER BY t.`order`"));
  }

  @Test
  void theColumnOfAFieldIsQualifiedByItsRelation() {
    session.exec("CREATE TABLE nest (id INT, x INT, scan_0 ROW<x INT>)");
    assertEquals(
        "SELECT (`scan_0`.`scan_0`).`x` `x`, `x` `x0` FROM `scan_0`",
        sql("SELECT scan_0.x, x FROM nest"));
  }
}
