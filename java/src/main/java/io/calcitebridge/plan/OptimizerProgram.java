package io.calcitebridge.plan;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.JoinPushThroughJoinRule;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;

/**
 * The optimizer's programs: the heuristic passes ({@link #HEURISTIC}), then the cost-based one and
 * the rewrites ({@link #physical}).
 */
final class OptimizerProgram {
  private OptimizerProgram() {}

  /**
   * Moves filters down through projections, into joins and into the branches of set operations. Run
   * twice: a filter that one rule moves may only then match another (into a join, then below the
   * projection of a join key).
   */
  private static final Program MOVE_FILTERS =
      Programs.hep(
          List.of(
              CoreRules.FILTER_PROJECT_TRANSPOSE,
              CoreRules.FILTER_SET_OP_TRANSPOSE,
              CoreRules.FILTER_INTO_JOIN,
              CoreRules.JOIN_CONDITION_PUSH,
              CoreRules.FILTER_MERGE),
          true,
          DefaultRelMetadataProvider.INSTANCE);

  /**
   * Calcite's standard logical passes with one addition: after sub-queries are removed, a heuristic
   * pass moves filters down to the scans and offers them to the sources ({@link
   * FilterPushDownRule}), so each source is asked once. Its plan is still logical (scans aside):
   * the cost-based pass makes it executable, or a backend takes it as it is.
   */
  static final Program HEURISTIC =
      Programs.sequence(
          Programs.subQuery(DefaultRelMetadataProvider.INSTANCE),
          Programs.decorrelate(),
          MOVE_FILTERS,
          MOVE_FILTERS,
          Programs.hep(
              List.of(
                  CoreRules.FILTER_PROJECT_TRANSPOSE,
                  CoreRules.FILTER_MERGE,
                  FilterPushDownRule.INSTANCE,
                  LimitPushDownRule.INSTANCE,
                  NestedProjectionRule.INSTANCE),
              true,
              DefaultRelMetadataProvider.INSTANCE),
          OptimizerProgram::dumpIfAsked,
          Programs.trim());

  /**
   * The cost-based pass to Calcite's Enumerable convention; on the Enumerable plan, sorts are given
   * faster code ({@link SortRewrite}), then {@code physicalRewrites} runs last.
   */
  static Program physical(Program physicalRewrites) {
    return Programs.sequence(
        OptimizerProgram::costBased,
        Programs.calc(DefaultRelMetadataProvider.INSTANCE),
        OptimizerProgram::fastSorts,
        physicalRewrites);
  }

  /** With {@code -Dcalcitebridge.dump-plans=true}, prints the plan after the heuristic pass. */
  private static RelNode dumpIfAsked(
      RelOptPlanner planner,
      RelNode rel,
      RelTraitSet traits,
      List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    if (Boolean.getBoolean("calcitebridge.dump-plans")) {
      System.err.println("-- after the heuristic pass:\n" + RelOptUtil.toString(rel));
    }
    return rel;
  }

  /**
   * Sorts that compare their keys without Calcite's per-comparison conversions ({@link
   * SortRewrite}).
   */
  private static RelNode fastSorts(
      RelOptPlanner planner,
      RelNode rel,
      RelTraitSet traits,
      List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    return SortRewrite.apply(rel);
  }

  /**
   * From this many joins on, the join order is chosen by a heuristic, not by exhaustive search: the
   * cost-based pass would otherwise try every order (a 20-table join did not plan in 30 s).
   * Calcite's {@code Programs.heuristicJoinOrder} uses the same threshold; Flink and Hive do the
   * same.
   */
  static final int HEURISTIC_JOIN_ORDER_FROM = 6;

  /**
   * Gathers the joins into one {@code MultiJoin}, then lets {@code LoptOptimizeJoinRule} order them
   * greedily by estimated size, joining tables that share a condition first.
   */
  private static final HepProgram JOIN_ORDER =
      new HepProgramBuilder()
          .addMatchOrder(HepMatchOrder.BOTTOM_UP)
          .addRuleInstance(CoreRules.JOIN_TO_MULTI_JOIN)
          .addRuleInstance(CoreRules.MULTI_JOIN_OPTIMIZE)
          .build();

  private static final Program ORDER_JOINS =
      Programs.of(JOIN_ORDER, false, DefaultRelMetadataProvider.INSTANCE);

  private static RelNode costBased(
      RelOptPlanner planner,
      RelNode rel,
      RelTraitSet traits,
      List<RelOptMaterialization> materializations,
      List<RelOptLattice> lattices) {
    if (RelOptUtil.countJoins(rel) < HEURISTIC_JOIN_ORDER_FROM) {
      return findBest(planner, rel, traits);
    }
    RelNode ordered = ORDER_JOINS.run(planner, rel, traits, materializations, lattices);
    // The joins are ordered: keep the cost-based pass from searching other orders, for this
    // statement only.
    List<RelOptRule> removed = new ArrayList<>();
    for (RelOptRule rule : EXHAUSTIVE_JOIN_RULES) {
      if (planner.removeRule(rule)) {
        removed.add(rule);
      }
    }
    try {
      return findBest(planner, ordered, traits);
    } finally {
      removed.forEach(planner::addRule);
    }
  }

  private static final List<RelOptRule> EXHAUSTIVE_JOIN_RULES =
      List.of(
          CoreRules.JOIN_COMMUTE,
          CoreRules.JOIN_ASSOCIATE,
          JoinPushThroughJoinRule.LEFT,
          JoinPushThroughJoinRule.RIGHT);

  private static RelNode findBest(RelOptPlanner planner, RelNode rel, RelTraitSet traits) {
    planner.setRoot(rel);
    // Registering the same rel twice trips Volcano's "already been registered" assertion under
    // -ea (a scan that absorbed the whole query already has the wanted traits).
    if (!rel.getTraitSet().equals(traits)) {
      planner.setRoot(planner.changeTraits(rel, traits));
    }
    return planner.chooseDelegate().findBestExp();
  }
}
