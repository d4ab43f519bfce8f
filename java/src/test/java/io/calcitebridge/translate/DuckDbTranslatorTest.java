package io.calcitebridge.translate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.plan.PlanningSession;
import io.calcitebridge.plan.QueryPlanner;
import org.apache.calcite.rel.RelNode;
import org.junit.jupiter.api.Test;

/** {@link DuckDbTranslator}: the SQL it writes for plans Calcite's converter writes wrongly. */
class DuckDbTranslatorTest {
  private static String sql(PlanningSession session, String query) {
    QueryPlanner planner = session.planner(query);
    RelNode heuristic =
        planner.heuristic(planner.toLogical(planner.validate(session.parse(query))));
    return DuckDbTranslator.translate(heuristic).sql();
  }

  @Test
  void aFilterOfGroupsByExpressionsIsAWhereOverTheAggregate() {
    PlanningSession session = new PlanningSession();
    session.exec("CREATE TABLE ts (a INT, b INT)");
    session.exec("CREATE TABLE th (x DOUBLE, y DOUBLE, t TIMESTAMP(3))");
    String sql =
        sql(
            session,
            "SELECT x FROM th WHERE EXISTS (SELECT 1 FROM ts WHERE CASE WHEN TIMESTAMP"
                + " '2024-01-01 10:00:00' = th.t THEN 1.0 <> th.x ELSE th.y <> th.y END)");
    assertFalse(sql.contains("HAVING"), sql);
    assertTrue(sql.contains("GROUP BY"), sql);
  }

  @Test
  void aFilterOfGroupsByColumnsStaysAHaving() {
    PlanningSession session = new PlanningSession();
    session.exec("CREATE TABLE ts (a INT, b INT)");
    String sql = sql(session, "SELECT a, SUM(b) FROM ts GROUP BY a HAVING SUM(b) > 1");
    assertTrue(sql.contains("HAVING"), sql);
  }

  @Test
  void aSortKeyASelectItemIsNamedAfterIsQualified() {
    PlanningSession session = new PlanningSession();
    session.exec("CREATE TABLE ts (id INT, n INT, s STRING)");
    assertEquals(
        "SELECT \"id\", - \"n\" AS \"n\" FROM \"scan_0\""
            + " ORDER BY \"scan_0\".\"n\" NULLS FIRST, \"id\" NULLS FIRST",
        sql(session, "SELECT id, -n AS n FROM ts ORDER BY ts.n, id"));
    assertEquals(
        "SELECT - \"n\" AS \"s\", \"s\" AS \"n\" FROM \"scan_0\""
            + " ORDER BY \"scan_0\".\"s\" NULLS FIRST",
        sql(session, "SELECT -n AS s, s AS n FROM ts ORDER BY n"));
    // A key no item captures stays as it is.
    assertTrue(
        sql(session, "SELECT id, n FROM ts ORDER BY n").endsWith("ORDER BY \"n\" NULLS FIRST"));
  }

  @Test
  void aFieldOfAColumnIsAStructExtract() {
    PlanningSession session = new PlanningSession();
    session.exec("CREATE TABLE nest (id INT, x INT, t ROW<x INT>)");
    assertEquals(
        "SELECT (struct_extract((\"t\") , 'x')) AS \"x\", \"x\" AS \"x0\" FROM \"scan_0\"",
        sql(session, "SELECT t.x, x FROM nest"));
  }
}
