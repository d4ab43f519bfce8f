package io.calcitebridge.plan;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Uncollect;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;

/**
 * The constructs of a logical plan that some heuristic passes alone handle, found in one walk of
 * the plan and its expressions: a pass whose construct the plan lacks would walk the whole plan and
 * change nothing, so the heuristic program leaves it out ({@link OptimizerProgram#HEURISTIC}).
 *
 * @param subQueries a sub-query in an expression ({@code IN}, {@code EXISTS}, a scalar one)
 * @param correlations a correlation: a {@code Correlate}, a node that sets a correlation variable,
 *     or an expression that reads one
 * @param windows a window function ({@code RexOver}) or a {@code Window} node
 * @param uncollects an {@code UNNEST} ({@code Uncollect})
 */
record PlanConstructs(
    boolean subQueries, boolean correlations, boolean windows, boolean uncollects) {

  /** What {@code plan} holds. */
  static PlanConstructs of(RelNode plan) {
    Finder finder = new Finder();
    finder.walk(plan);
    return new PlanConstructs(
        finder.subQueries, finder.correlations, finder.windows, finder.uncollects);
  }

  /** Walks every node once (a plan may share a node) and every expression of each. */
  private static final class Finder extends RexShuttle {
    private final Set<RelNode> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    boolean subQueries;
    boolean correlations;
    boolean windows;
    boolean uncollects;

    void walk(RelNode rel) {
      if (!seen.add(rel)) {
        return;
      }
      correlations |= rel instanceof Correlate || !rel.getVariablesSet().isEmpty();
      windows |= rel instanceof Window;
      uncollects |= rel instanceof Uncollect;
      // The shuttle returns every expression as it is, so the node is not copied.
      rel.accept(this);
      for (RelNode input : rel.getInputs()) {
        walk(input);
      }
    }

    @Override
    public RexNode visitSubQuery(RexSubQuery subQuery) {
      subQueries = true;
      return super.visitSubQuery(subQuery);
    }

    @Override
    public RexNode visitOver(RexOver over) {
      windows = true;
      return super.visitOver(over);
    }

    @Override
    public RexNode visitCorrelVariable(RexCorrelVariable variable) {
      correlations = true;
      return variable;
    }
  }
}
