package io.calcitebridge.repair;

import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.rules.SemiJoinRule;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's rules that turn a join with a grouped right input into a semi-join, kept from turning a
 * join with an aggregate without GROUP BY into one.
 *
 * <p>The rules join the left input with the aggregate's input: right when the aggregate has a row
 * for each distinct key of that input, wrong when it has no GROUP BY, because it then has one row
 * even over an empty input. {@code SELECT * FROM t WHERE (b IN (SELECT ...) AND FALSE) OR a <= 10}
 * removes its sub-query into such a join ({@code COUNT(*)} over the sub-query), and the semi-join
 * then kept no row at all when the sub-query was empty. No upstream JIRA covers it in Calcite 1.42
 * ({@code SemiJoinRule#perform} compares the join keys with the group keys, and an empty condition
 * equals an empty group key).
 *
 * <p>It can go when the cases {@code s1_*} of {@code tests/fixtures/correctness.sql} pass with
 * Calcite's rules.
 */
public final class SemiJoinRules {
  private SemiJoinRules() {}

  /** Replaces {@code CoreRules.PROJECT_TO_SEMI_JOIN}. */
  public static final SemiJoinRule PROJECT_TO_SEMI_JOIN = new ProjectToSemiJoin();

  /** Replaces {@code CoreRules.JOIN_TO_SEMI_JOIN}. */
  public static final SemiJoinRule JOIN_TO_SEMI_JOIN = new JoinToSemiJoin();

  /** Whether {@code aggregate} has a row only for each group of its input. */
  private static boolean grouped(Aggregate aggregate) {
    return aggregate.getGroupCount() > 0;
  }

  private static final class ProjectToSemiJoin extends SemiJoinRule.ProjectToSemiJoinRule {
    ProjectToSemiJoin() {
      super(
          ProjectToSemiJoinRuleConfig.DEFAULT
              .withDescription("SemiJoinRule:project_grouped")
              .as(ProjectToSemiJoinRuleConfig.class));
    }

    @Override
    protected void perform(
        RelOptRuleCall call, @Nullable RelNode topRel, Join join, RelNode left, Aggregate agg) {
      if (grouped(agg)) {
        super.perform(call, topRel, join, left, agg);
      }
    }
  }

  private static final class JoinToSemiJoin extends SemiJoinRule.JoinToSemiJoinRule {
    JoinToSemiJoin() {
      super(
          JoinToSemiJoinRuleConfig.DEFAULT
              .withDescription("SemiJoinRule:join_grouped")
              .as(JoinToSemiJoinRuleConfig.class));
    }

    @Override
    protected void perform(
        RelOptRuleCall call, @Nullable RelNode topRel, Join join, RelNode left, Aggregate agg) {
      if (grouped(agg)) {
        super.perform(call, topRel, join, left, agg);
      }
    }
  }
}
