package io.calcitebridge.plan;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.rules.FilterProjectTransposeRule;
import org.apache.calcite.rex.RexUtil;

/**
 * Calcite's {@code FILTER_PROJECT_TRANSPOSE}, except that a filter on a non-deterministic
 * expression of the projection (a user function made with {@code deterministic=False}, {@code
 * RAND()}) stays above it: moved below, the expression would be computed twice a row, once to
 * filter and once to project, and a row kept on one value could show another. A filter on the
 * projection's other columns still moves.
 *
 * <p>Made from the rule's default configuration, as {@code CoreRules} makes its rule, without
 * initialising {@code CoreRules} ({@link LogicalRules}).
 */
final class FilterProjectRule extends FilterProjectTransposeRule {
  static final FilterProjectRule INSTANCE =
      new FilterProjectRule(FilterProjectTransposeRule.Config.DEFAULT);

  private FilterProjectRule(Config config) {
    super(config);
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    Filter filter = call.rel(0);
    Project project = call.rel(1);
    for (int i : RelOptUtil.InputFinder.bits(filter.getCondition())) {
      if (!RexUtil.isDeterministic(project.getProjects().get(i))) {
        return;
      }
    }
    super.onMatch(call);
  }
}
