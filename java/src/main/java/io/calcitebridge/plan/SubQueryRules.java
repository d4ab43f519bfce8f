package io.calcitebridge.plan;

import java.util.Set;
import org.apache.calcite.plan.Contexts;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil.Logic;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.rules.SubQueryRemoveRule;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.tools.RelBuilderFactory;

/**
 * Calcite's sub-query removal for projects and joins ({@code
 * CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE}, {@code JOIN_SUB_QUERY_TO_CORRELATE}), each sub-query
 * rewritten as {@link #rewrite} says.
 */
final class SubQueryRules {
  private SubQueryRules() {}

  /**
   * The builder of plans that may still hold sub-queries: it does not simplify expressions.
   *
   * <p>{@code RelOptPredicateList.isEffectivelyNotNull} (Calcite 1.42, unchanged upstream) takes an
   * {@code IN} sub-query for a comparison of its left-hand operands alone, so {@code RexSimplify}
   * held {@code DATE '2024-02-01' IN (SELECT d FROM t)} NOT NULL even when {@code d} has NULLs:
   * {@code CASE WHEN CASE WHEN x IN (...) THEN c ELSE TRUE END THEN 1 ELSE 0 END} became {@code
   * CASE WHEN (x IN (...) AND c) OR NOT (x IN (...)) THEN 1 ELSE 0 END}, which gives 0 where the IN
   * is UNKNOWN. Expressions are simplified once the sub-queries are gone.
   */
  static RelBuilder.Config builderConfig(RelBuilder.Config config) {
    return config.withPushJoinCondition(true).withSimplify(false);
  }

  private static final RelBuilderFactory UNSIMPLIFIED =
      RelBuilder.proto(Contexts.of(builderConfig(RelBuilder.Config.DEFAULT)));

  static final SubQueryRemoveRule PROJECT =
      new Rule(
          SubQueryRemoveRule.Config.PROJECT
              .withRelBuilderFactory(UNSIMPLIFIED)
              .withDescription("SubQueryRemoveRule:Project3VL")
              .as(SubQueryRemoveRule.Config.class));

  static final SubQueryRemoveRule JOIN =
      new Rule(
          SubQueryRemoveRule.Config.JOIN
              .withMatchHandler(SubQueryRules::matchJoin)
              .withRelBuilderFactory(UNSIMPLIFIED)
              .withDescription("SubQueryRemoveRule:Join3VL")
              .as(SubQueryRemoveRule.Config.class));

  /**
   * Calcite's handler for joins, except that a sub-query it cannot remove stays in the join
   * condition: {@code RelBuilder} refuses a correlated sub-query beside a RIGHT or FULL join
   * ("Correlated RIGHT join is not supported"). Such a join, like one whose sub-query reads both
   * inputs of an outer join (which Calcite leaves as it is), then goes to a backend that runs
   * sub-queries as they are, or is refused ({@link #refuseRemaining}).
   */
  private static void matchJoin(SubQueryRemoveRule rule, RelOptRuleCall call) {
    try {
      SubQueryRemoveRule.Config.JOIN.matchHandler().accept(rule, call);
    } catch (IllegalArgumentException e) {
      if (e.getMessage() == null || !e.getMessage().startsWith("Correlated ")) {
        throw e;
      }
    }
  }

  /**
   * Throws if sub-query removal left a sub-query in {@code rel} (only in the condition of an outer
   * join, see {@link #matchJoin}): Calcite's engine cannot run it ("Unable to implement").
   */
  static void refuseRemaining(RelNode rel) {
    if (rel instanceof Join join && RexUtil.SubQueryFinder.find(join.getCondition()) != null) {
      throw new UnsupportedOperationException(
          "A sub-query in the condition of a "
              + join.getJoinType()
              + " join that reads columns of its inputs is not supported: the"
              + " enumerable backend cannot run it");
    }
    for (RelNode input : rel.getInputs()) {
      refuseRemaining(input);
    }
  }

  /**
   * The logic to rewrite {@code e} in, for a caller that needs {@code logic}.
   *
   * <p>Calcite's {@code rewriteIn} (1.42, unchanged upstream) reads an {@code IN} whose left-hand
   * side is all literals ({@code DATE '2024-02-01' IN (SELECT d FROM t)}) from a derived table that
   * keeps the sub-query's NULL rows, and maps "only a NULL row matched" to UNKNOWN for the
   * three-valued logics and to TRUE for every other logic: in {@code UNKNOWN_AS_FALSE} (under
   * {@code IS TRUE}, or a CASE condition that the simplifier turned into one) an IN that is UNKNOWN
   * became TRUE. {@code TRUE_FALSE} gives the same answer for every other IN, and reads only the
   * matching rows, so an UNKNOWN is FALSE.
   */
  static Logic rewrite(RexSubQuery e, Logic logic) {
    if (e.getKind() == SqlKind.IN
        && logic == Logic.UNKNOWN_AS_FALSE
        && RexUtil.allLiterals(e.getOperands())) {
      return Logic.TRUE_FALSE;
    }
    return logic;
  }

  /** Calcite's rule with {@link #rewrite}'s logic. */
  static class Rule extends SubQueryRemoveRule {
    Rule(Config config) {
      super(config);
    }

    @Override
    protected RexNode apply(
        RexSubQuery e,
        Set<CorrelationId> variablesSet,
        Logic logic,
        RelBuilder builder,
        int inputCount,
        int offset,
        int subQueryIndex) {
      return super.apply(
          e, variablesSet, rewrite(e, logic), builder, inputCount, offset, subQueryIndex);
    }
  }
}
