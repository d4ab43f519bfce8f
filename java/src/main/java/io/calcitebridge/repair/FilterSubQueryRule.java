package io.calcitebridge.repair;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelOptUtil.Logic;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.rules.SubQueryRemoveRule;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.tools.RelBuilder;

/**
 * Calcite's {@code SubQueryRemoveRule} for filters ({@code
 * CoreRules.FILTER_SUB_QUERY_TO_CORRELATE}), with the logic each sub-query is evaluated in found by
 * {@link SubQueryLogic} rather than Calcite's {@code LogicVisitor}.
 *
 * <p>{@code LogicVisitor} (Calcite 1.42, unchanged upstream) passes the logic of a negated
 * condition ("only where it is FALSE matters") through any operator, so in {@code NOT (FALSE >= (a
 * IN (SELECT ...)))} the IN was evaluated with UNKNOWN as TRUE, and a row whose IN is UNKNOWN
 * passed the filter. A logic other than "all three values" only holds through AND, OR and NOT;
 * below any other operator (a comparison of booleans, say) the sub-query needs all three values.
 * The rest of the rule is Calcite's {@code matchFilter}.
 *
 * <p>Defect: no JIRA; {@code SELECT COUNT(*) FROM o WHERE NOT (FALSE >= (a IN (SELECT a FROM s)))}
 * counts the rows whose IN is UNKNOWN. Can go when, with Calcite's {@code
 * CoreRules.FILTER_SUB_QUERY_TO_CORRELATE} in its place, the cases {@code m6_*} of {@code
 * tests/fixtures/correctness.sql} pass.
 */
public final class FilterSubQueryRule extends SubQueryRules.Rule {
  public static final FilterSubQueryRule INSTANCE = new FilterSubQueryRule();

  private FilterSubQueryRule() {
    super(
        SubQueryRemoveRule.Config.FILTER
            .withDescription("SubQueryRemoveRule:Filter3VL")
            .as(SubQueryRemoveRule.Config.class));
  }

  @Override
  public void onMatch(RelOptRuleCall call) {
    final Filter filter = call.rel(0);
    final Set<CorrelationId> filterVariables = filter.getVariablesSet();
    final RelBuilder builder = call.builder();
    builder.push(filter.getInput());
    int count = 0;
    RexNode condition = filter.getCondition();
    while (true) {
      final RexSubQuery e = RexUtil.SubQueryFinder.find(condition);
      if (e == null) {
        break;
      }
      ++count;
      final Logic logic = logic(condition, e);
      final Set<CorrelationId> variables = RelOptUtil.getVariablesUsed(e.rel);
      variables.retainAll(filterVariables);
      final RexNode target =
          apply(
              e, variables, logic, builder, 1, builder.peek().getRowType().getFieldCount(), count);
      condition =
          condition.accept(
              new RexShuttle() {
                @Override
                public RexNode visitSubQuery(RexSubQuery subQuery) {
                  return subQuery.equals(e) ? target : subQuery;
                }
              });
    }
    builder.filter(condition);
    final int fieldCount = filter.getRowType().getFieldCount();
    final List<RexNode> fields = new ArrayList<>(fieldCount);
    for (int i = 0; i < fieldCount; i++) {
      fields.add(builder.field(i));
    }
    builder.project(fields);
    call.transformTo(builder.build());
  }

  /**
   * The logic {@code seek} is evaluated in within filter condition {@code condition}: the fewest
   * values that still give the filter's answer, as {@code LogicVisitor.find(TRUE, ...)} chooses
   * them.
   */
  static Logic logic(RexNode condition, RexNode seek) {
    return SubQueryLogic.logic(List.of(condition), seek, Logic.TRUE);
  }
}
