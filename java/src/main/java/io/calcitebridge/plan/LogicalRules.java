package io.calcitebridge.plan;

import org.apache.calcite.rel.rules.FilterJoinRule;
import org.apache.calcite.rel.rules.FilterMergeRule;
import org.apache.calcite.rel.rules.FilterSetOpTransposeRule;
import org.apache.calcite.rel.rules.JoinPushExpressionsRule;
import org.apache.calcite.rel.rules.ProjectOverSumToSum0Rule;

/**
 * The rules of Calcite's {@code CoreRules} that the heuristic passes use, each made from its
 * default configuration exactly as {@code CoreRules} makes it.
 *
 * <p>{@code CoreRules}' initialiser makes all of its two hundred rules: about 900 classes
 * initialised and as many lambdas linked, 0.1 s or more of a new process's first statement, which
 * waited for it even when a warm-up thread had started it. A statement that runs on DuckDB or Spark
 * needs only these few; {@code CoreRules} is initialised when a plan first goes to Calcite's own
 * engine (its cost-based pass registers Calcite's default rules) or has correlations to remove.
 * {@code FirstQueryClassesTest} checks that a first DuckDB query leaves it uninitialised.
 */
final class LogicalRules {
  private LogicalRules() {}

  /** {@code CoreRules.FILTER_SET_OP_TRANSPOSE}. */
  static final FilterSetOpTransposeRule FILTER_SET_OP_TRANSPOSE =
      FilterSetOpTransposeRule.Config.DEFAULT.toRule();

  /** {@code CoreRules.FILTER_INTO_JOIN}. */
  static final FilterJoinRule.FilterIntoJoinRule FILTER_INTO_JOIN =
      FilterJoinRule.FilterIntoJoinRule.FilterIntoJoinRuleConfig.DEFAULT.toRule();

  /** {@code CoreRules.JOIN_CONDITION_PUSH}. */
  static final FilterJoinRule.JoinConditionPushRule JOIN_CONDITION_PUSH =
      FilterJoinRule.JoinConditionPushRule.JoinConditionPushRuleConfig.DEFAULT.toRule();

  /** {@code CoreRules.JOIN_PUSH_EXPRESSIONS}. */
  static final JoinPushExpressionsRule JOIN_PUSH_EXPRESSIONS =
      JoinPushExpressionsRule.Config.DEFAULT.toRule();

  /** {@code CoreRules.FILTER_MERGE}. */
  static final FilterMergeRule FILTER_MERGE = FilterMergeRule.Config.DEFAULT.toRule();

  /** {@code CoreRules.PROJECT_OVER_SUM_TO_SUM0_RULE}. */
  static final ProjectOverSumToSum0Rule PROJECT_OVER_SUM_TO_SUM0 =
      ProjectOverSumToSum0Rule.Config.DEFAULT.toRule();
}
