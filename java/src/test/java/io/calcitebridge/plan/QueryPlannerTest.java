package io.calcitebridge.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.catalog.CatalogTable;
import io.calcitebridge.dyncol.DynColOperators;
import io.calcitebridge.functions.FlinkFunctions;
import io.calcitebridge.pushdown.BridgeTable;
import io.calcitebridge.pushdown.BridgeTableScan;
import io.calcitebridge.validate.DiscoveryScope;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link QueryPlanner}, {@link PlannerContext} and {@link BridgeTable} over memory tables. */
class QueryPlannerTest {
  private PlanningSession session;

  @BeforeEach
  void createTable() {
    session = new PlanningSession();
    session.exec("CREATE TABLE t (a INT, b STRING, twice AS a * 2, r ROW<x INT, y STRING>)");
  }

  @Test
  void computedColumnIsComputedAboveTheScan() {
    String logical = session.logical("SELECT twice FROM t");
    assertTrue(logical.contains("*($0, 2)"), logical);
    assertTrue(logical.contains("BridgeTableScan(table=[[t]]"), logical);
    session.exec("INSERT INTO t (a, b) VALUES (21, 'x')");
    assertEquals(42, session.exec("SELECT twice FROM t").get(0)[0]);
    assertEquals(1, session.exec("SELECT a FROM t WHERE twice = 42").size());
  }

  @Test
  void everyEnvironmentSharesTheBuiltInOperatorTablesBuiltOncePerJvm() {
    PlanningSession other = new PlanningSession();
    assertSame(FlinkFunctions.table(), FlinkFunctions.table());
    assertSame(DynColOperators.table(), DynColOperators.table());
    assertSame(PlannerContext.builtIns(), PlannerContext.builtIns());
    // ... and each environment still finds Flink's functions in any case through them
    other.exec("CREATE TABLE u (s STRING)");
    other.exec("INSERT INTO u VALUES ('a')");
    assertEquals("CHAR(1) NOT NULL", other.exec("SELECT typeof('a') FROM u").get(0)[0]);
    assertTrue(session.exec("SELECT Typeof(a) FROM t").isEmpty());
  }

  @Test
  void scanReadsOnlyTheColumnsUsed() {
    BridgeTableScan scan = PushDownPlanTest.scan(session.optimized("SELECT b FROM t WHERE a > 1"));
    assertEquals(List.of("a", "b"), scan.getRowType().getFieldNames());
    assertEquals(List.of(), scan.filters(), "a memory table takes no filters");
  }

  @Test
  void countStarReadsOneColumn() {
    BridgeTableScan scan = PushDownPlanTest.scan(session.optimized("SELECT COUNT(*) FROM t"));
    assertEquals(1, scan.projection().length);
  }

  @Test
  void renderFormats() {
    RelNode plan = session.optimized("SELECT a FROM t");
    assertTrue(QueryPlanner.render(plan, "TEXT").startsWith("BridgeTableScan"));
    assertTrue(QueryPlanner.render(plan, "json").contains("\"rels\""));
    assertTrue(QueryPlanner.render(plan, "dot").startsWith("digraph"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> QueryPlanner.render(plan, "xml"));
    assertEquals("Unknown explain format 'xml'; expected text, json or dot", e.getMessage());
  }

  @Test
  void viewsExpandIntoTheirQuery() {
    session.exec("CREATE VIEW v AS SELECT a, b FROM t WHERE a > 1");
    session.exec("INSERT INTO t (a, b) VALUES (1, 'x'), (2, 'y')");
    String plan = session.plan("SELECT b FROM v");
    // the view's query names its tables in the catalog and database current when it was made
    assertTrue(
        plan.contains("BridgeTableScan(table=[[default_catalog, default_database, t]]"), plan);
    assertFalse(plan.contains("v]]"), plan);
    assertEquals(List.of("y"), session.exec("SELECT b FROM v").stream().map(r -> r[0]).toList());
  }

  @Test
  void rowTypeOfAValidatedQuery() {
    QueryPlanner planner = session.planner("SELECT a, t.r.y, twice FROM t");
    RelDataType type =
        planner.rowType(planner.validate(session.parse("SELECT a, t.r.y, twice FROM t")));
    assertEquals(List.of("a", "y", "twice"), type.getFieldNames());
    assertEquals("VARCHAR", type.getFieldList().get(1).getType().getSqlTypeName().getName());
  }

  @Test
  void contextParsesTypesAndUnparses() {
    PlannerContext c = session.context();
    RelDataType row = c.parseType("ROW<x INT, y STRING>");
    assertEquals(List.of("x", "y"), row.getFieldNames());
    assertEquals("BIGINT", c.parseType("BIGINT").getSqlTypeName().getName());
    assertEquals("VARCHAR", row.getFieldList().get(1).getType().getSqlTypeName().getName());
    assertEquals("`a` + 1", c.unparse(c.parseExpression("a + 1")));
    assertThrows(IllegalArgumentException.class, () -> c.parseExpression("a +"));
  }

  @Test
  void tableRegistersWithTheCurrentDiscoveryScope() {
    BridgeTable table = (BridgeTable) session.state().catalog().table("t");
    DiscoveryScope scope = new DiscoveryScope();
    try (DiscoveryScope.Entered ignored = scope.enter()) {
      table.getRowType(session.context().typeFactory());
    }
    CatalogTable seen = scope.seen().get("t");
    assertSame(table, seen);
    table.getRowType(session.context().typeFactory());
    assertEquals(1, scope.seen().size());
  }

  @Test
  void discoveredColumnsWidenTheRowTypeForTheStatementOnly() {
    session.exec("CREATE TABLE d (id INT, ... BIGINT)");
    BridgeTable table = (BridgeTable) session.state().catalog().table("d");
    DiscoveryScope scope = new DiscoveryScope();
    scope.addDiscovered(
        "d",
        io.calcitebridge.catalog.ColumnDef.dynamic("extra", session.context().parseType("BIGINT")));
    try (DiscoveryScope.Entered ignored = scope.enter()) {
      assertEquals(
          List.of("id", "_dynamic", "extra"),
          table.getRowType(session.context().typeFactory()).getFieldNames());
    }
    assertEquals(
        List.of("id", "_dynamic"),
        table.getRowType(session.context().typeFactory()).getFieldNames());
    BridgeTable wider = table.withDef(table.def().withColumns(scope.discovered("d")));
    assertEquals(3, wider.def().columns().size());
  }

  /** Tables j0 .. j{n-1}, each with rows (1, i), (2, NULL), (i, 3). */
  private void chainTables(int n) {
    for (int i = 0; i < n; i++) {
      session.exec("CREATE TABLE j" + i + " (a INT, b INT)");
      session.exec("INSERT INTO j" + i + " VALUES (1, " + i + "), (2, NULL), (" + i + ", 3)");
    }
  }

  @Test
  void aJoinOfManyTablesIsOrderedGreedilyAndGivesItsRows() {
    int n = OptimizerProgram.BUSHY_JOIN_ORDER_FROM + 4;
    chainTables(n);
    StringBuilder from = new StringBuilder("j0");
    StringBuilder where = new StringBuilder("TRUE");
    for (int i = 1; i < n; i++) {
      from.append(", j").append(i);
      where.append(" AND j").append(i).append(".a = j").append(i - 1).append(".a");
    }
    String sql = "SELECT COUNT(*), SUM(j0.a) FROM " + from + " WHERE " + where;
    String plan = session.plan(sql);
    assertFalse(plan.contains("MultiJoin"), plan);
    // a = 1 and a = 2 match in every table; j1 has (1, 1) as well, so a = 1 twice there.
    List<Object[]> rows = session.exec(sql);
    assertEquals(4L, rows.get(0)[0]);
    assertEquals(6L, ((Number) rows.get(0)[1]).longValue());
  }

  @Test
  void aChainOfManyOuterJoinsFallsBackToTheLeftDeepOrder() {
    int n = OptimizerProgram.BUSHY_JOIN_ORDER_FROM + 2;
    chainTables(n);
    StringBuilder sql = new StringBuilder("SELECT COUNT(*), COUNT(j" + (n - 1) + ".b) FROM j0");
    for (int i = 1; i < n; i++) {
      sql.append(" LEFT JOIN j").append(i).append(" ON j").append(i).append(".a = j");
      sql.append(i - 1).append(".a");
    }
    List<Object[]> rows = session.exec(sql.toString());
    assertEquals(5L, rows.get(0)[0]);
    assertEquals(2L, rows.get(0)[1]);
  }

  @Test
  void aFullJoinAmongManyJoinsKeepsItsType() {
    int n = OptimizerProgram.BUSHY_JOIN_ORDER_FROM + 2;
    chainTables(n);
    StringBuilder sql = new StringBuilder("SELECT COUNT(*), COUNT(j0.a) FROM j0");
    for (int i = 1; i < n; i++) {
      sql.append(i == n / 2 ? " FULL JOIN j" : " JOIN j").append(i).append(" ON j").append(i);
      sql.append(".a = j").append(i - 1).append(".a");
    }
    List<Object[]> rows = session.exec(sql.toString());
    // DuckDB's answer: the inner joins after the FULL join drop its NULL-extended rows.
    assertEquals(4L, rows.get(0)[0]);
    assertEquals(4L, rows.get(0)[1]);
  }
}
