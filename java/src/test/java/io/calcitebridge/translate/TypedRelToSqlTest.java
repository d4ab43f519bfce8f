package io.calcitebridge.translate;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.plan.PlanningSession;
import io.calcitebridge.plan.QueryPlanner;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.junit.jupiter.api.Test;

/**
 * {@link TypedRelToSql}: the converters to DuckDB and Spark SQL find a {@code visit} method for
 * each node class of a plan by its exact class, so the reflective lookup never misses (each miss
 * was a {@code NoSuchMethodException}), and the SQL is what the core class's method writes.
 */
class TypedRelToSqlTest {
  private static RelNode heuristic(PlanningSession session, String query) {
    QueryPlanner planner = session.planner(query);
    return planner.heuristic(planner.toLogical(planner.validate(session.parse(query))));
  }

  private static Set<Class<?>> classes(RelNode plan, Set<Class<?>> found) {
    found.add(plan.getClass());
    plan.getInputs().forEach(input -> classes(input, found));
    return found;
  }

  /** Two tables to join. */
  private static PlanningSession joined() {
    PlanningSession session = new PlanningSession();
    session.exec("CREATE TABLE a (k INT, v DOUBLE, s STRING)");
    session.exec("CREATE TABLE b (k INT, w DOUBLE)");
    return session;
  }

  @Test
  void everyNodeClassOfAPlanHasItsOwnVisitMethod() {
    RelNode plan =
        heuristic(
            joined(),
            "SELECT s, SUM(v) AS t FROM a JOIN b ON a.k = b.k WHERE w > 1 GROUP BY s "
                + "UNION ALL SELECT s, v FROM a WHERE k IN (1, 2) ORDER BY 2 DESC LIMIT 3");
    Set<Class<?>> classes = classes(plan, new LinkedHashSet<>());
    assertTrue(classes.contains(LogicalJoin.class), classes.toString());
    assertTrue(classes.contains(LogicalProject.class), classes.toString());
    assertTrue(classes.contains(LogicalAggregate.class), classes.toString());
    for (Class<?> c : classes) {
      for (Class<?> converter :
          new Class<?>[] {DuckDbTranslator.Converter.class, SparkTranslator.Converter.class}) {
        assertEquals(
            c,
            assertDoesNotThrow(() -> converter.getMethod("visit", c)).getParameterTypes()[0],
            converter.getName() + " for " + c.getName());
      }
    }
    String sql = DuckDbTranslator.translate(plan).sql();
    assertTrue(sql.contains("INNER JOIN"), sql);
    assertTrue(sql.contains("UNION ALL"), sql);
    assertTrue(sql.contains("GROUP BY"), sql);
  }
}
