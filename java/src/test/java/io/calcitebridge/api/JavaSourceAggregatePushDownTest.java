package io.calcitebridge.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.calcitebridge.api.source.SupportsAggregatePushDown;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Aggregate pushdown on Java sources: a source that opts in has an aggregate without GROUP BY
 * computed from its batches, and is asked for no column for {@code COUNT(*)}; one that does not (or
 * answers false) has Calcite's aggregate over its scan. The answers, NULLs included, are the same.
 */
class JavaSourceAggregatePushDownTest {
  /** A row source that opts in to aggregate pushdown, or declines it. */
  static final class Pushing extends RowSource implements SupportsAggregatePushDown {
    private final boolean pushdown;

    Pushing(Schema schema, List<Object[]> rows, boolean pushdown) {
      super(schema, rows);
      this.pushdown = pushdown;
    }

    @Override
    public boolean supportsAggregatePushDown() {
      return pushdown;
    }
  }

  private BridgeEnvironment env;
  private Pushing pushing;
  private Pushing declining;
  private RowSource plain;

  @BeforeEach
  void setUp() {
    env = BridgeEnvironment.create();
    pushing = new Pushing(Users.SCHEMA, Users.ROWS, true);
    declining = new Pushing(Users.SCHEMA, Users.ROWS, false);
    plain = new RowSource(Users.SCHEMA, Users.ROWS);
    env.registerSource("pushing", pushing);
    env.registerSource("declining", declining);
    env.registerSource("plain", plain);
  }

  @AfterEach
  void tearDown() {
    env.close();
  }

  private List<String> rows(String sql) {
    return Users.rows(env.sql(sql));
  }

  @Test
  void aSourceThatOptsInAnswersTheAggregateFromItsBatches() {
    String sql = "SELECT COUNT(*), COUNT(score), SUM(id), MIN(id), MAX(id), SUM(score) FROM %s";
    String plan = env.explain(String.format(sql, "pushing"));
    assertTrue(plan.startsWith("ArrowAggregate("), plan);
    List<String> expected = List.of("[7, 5, 28, 1, 7, 20.5]");
    assertEquals(expected, rows(String.format(sql, "pushing")));
    for (String table : List.of("declining", "plain")) {
      String other = env.explain(String.format(sql, table));
      assertFalse(other.contains("ArrowAggregate"), other);
      assertTrue(other.contains("EnumerableAggregate"), other);
      assertEquals(expected, rows(String.format(sql, table)));
    }
  }

  @Test
  void countStarAsksASourceThatOptsInForNoColumn() {
    assertEquals(List.of("[7]"), rows("SELECT COUNT(*) FROM pushing"));
    assertEquals(List.of(), pushing.requests.get(pushing.requests.size() - 1).columns().get());
    assertEquals(List.of("[7]"), rows("SELECT COUNT(*) FROM plain"));
    assertFalse(plain.requests.get(plain.requests.size() - 1).columns().get().isEmpty());
  }

  @Test
  void aGroupByStaysWithTheEngine() {
    String sql = "SELECT id > 3, COUNT(*) FROM pushing GROUP BY id > 3";
    assertFalse(env.explain(sql).contains("ArrowAggregate"));
    assertEquals(List.of("[false, 3]", "[true, 4]"), rows(sql + " ORDER BY 1"));
  }
}
