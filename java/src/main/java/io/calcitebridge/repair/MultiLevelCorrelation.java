package io.calcitebridge.repair;

import java.util.HashSet;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.CorrelationId;

/**
 * Finds a correlation that spans more than one level: a {@code Correlate} whose right input uses a
 * correlation variable of an enclosing {@code Correlate}, as sub-query removal writes {@code EXISTS
 * (SELECT 1 FROM r WHERE NOT EXISTS (SELECT 1 FROM ts WHERE ts.a > l.a + r.a))}, the inner
 * sub-query correlated with both {@code l} and {@code r}.
 *
 * <p>Calcite's {@code RelDecorrelator} (1.42) decorrelates such a plan wrongly: the middle level's
 * left join with the inner level's result joins {@code r.a} to the inner level's copy of {@code
 * l.a}, and the level above groups by that column, NULL where the join found no match, so the query
 * above gave no row where the answer is {@code (4)}. Upstream records the family as CALCITE-5413
 * and CALCITE-5716 (nested sub-queries correlated with two levels), reported resolved after 1.42
 * (only tests were added for them). Until an upgrade, such a plan is not decorrelated: the
 * correlations stay and Calcite's engine runs them as nested loops, which give the right answer;
 * the DuckDB translation does not take a {@code Correlate}, so {@code auto} runs it on Calcite's
 * engine.
 *
 * <p>It can go when the cases {@code two_level_*} and {@code skipping_level_not_exists} of {@code
 * tests/fixtures/correctness.sql} pass without it.
 */
public final class MultiLevelCorrelation {
  private MultiLevelCorrelation() {}

  /** Whether a correlation in {@code rel} uses a variable of more than one enclosing level. */
  public static boolean find(RelNode rel) {
    if (rel instanceof Correlate correlate) {
      RelNode right = correlate.getRight();
      Set<CorrelationId> outer = new HashSet<>(RelOptUtil.getVariablesUsed(right));
      outer.removeAll(defined(right));
      outer.remove(correlate.getCorrelationId());
      if (!outer.isEmpty()) {
        return true;
      }
    }
    for (RelNode input : rel.getInputs()) {
      if (find(input)) {
        return true;
      }
    }
    return false;
  }

  /** The correlation variables that {@code Correlate}s in {@code rel} define. */
  private static Set<CorrelationId> defined(RelNode rel) {
    Set<CorrelationId> ids = new HashSet<>();
    collect(rel, ids);
    return ids;
  }

  private static void collect(RelNode rel, Set<CorrelationId> ids) {
    if (rel instanceof Correlate correlate) {
      ids.add(correlate.getCorrelationId());
    }
    for (RelNode input : rel.getInputs()) {
      collect(input, ids);
    }
  }
}
